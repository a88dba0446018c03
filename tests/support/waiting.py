"""What the tests that start processes, ptys and VMs wait with."""
from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any


def until(test: Callable[[], object], seconds: float = 30.0, every: float = 0.05) -> bool:
    """Wait for `test()` (polled every `every` s), at most `seconds`: a machine under load takes
    its time. Whether it came true (asked once more at the end)."""
    end = time.monotonic() + seconds
    while not test() and time.monotonic() < end:
        time.sleep(every)
    return bool(test())


def first(test: Callable[[], Any], seconds: float = 30.0, every: float = 0.05) -> Any:
    """until()'s wait, giving what `test()` first gave that is true (a time, a message), or None."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        got = test()
        if got:
            return got
        time.sleep(every)
    return None
