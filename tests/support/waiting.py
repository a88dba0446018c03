"""What the tests that start processes, ptys and VMs wait with."""
from __future__ import annotations

import time
from collections.abc import Callable


def until(test: Callable[[], object], seconds: float = 30.0, every: float = 0.05) -> bool:
    """Wait for `test()` (polled every `every` s), at most `seconds`: a machine under load takes
    its time. Whether it came true (asked once more at the end)."""
    end = time.monotonic() + seconds
    while not test() and time.monotonic() < end:
        time.sleep(every)
    return bool(test())
