"""MicroPython's `micropython` module for the firmware run under CPython (the tests, `doodlebox
sim --cpython`): `const` only, which the firmware imports (on the Pico and in the VM it is
built in, and the compiler folds `const` values into the bytecode). Installed as
`sys.modules["micropython"]` by tests/conftest.py and by the CPython console, so each firmware
module imports it plainly instead of carrying its own fallback (bytes on the Pico)."""
from __future__ import annotations

import sys
from typing import TypeVar

T = TypeVar("T")


def const(x: T) -> T:
    return x


def install() -> None:
    """Make `import micropython` find this module, unless a real one is already there."""
    sys.modules.setdefault("micropython", sys.modules[__name__])
