"""Run the firmware files under CPython (`doodlebox sim --cpython`): fast, same code paths.

The guest hardware models stand in for `machine` and `neopixel`; `time` gains MicroPython's
`ticks_ms`, `ticks_diff`, `ticks_add` and `sleep_ms`. The firmware's packages are loaded
fresh from the flash folder and removed from `sys.modules` afterwards.
"""
from __future__ import annotations

import gc
import sys
import time
from collections.abc import Callable
from pathlib import Path

from doodlebox.virtual import cpython_framebuf, cpython_micropython
from doodlebox.virtual.vm import install_guest_modules, uninstall_guest_modules

_T0 = time.monotonic()


def _ticks_ms() -> int:
    return int((time.monotonic() - _T0) * 1000) & 0x3FFFFFFF


def _ticks_diff(a: int, b: int) -> int:
    return ((a - b + 0x20000000) & 0x3FFFFFFF) - 0x20000000


def micropython_time() -> None:
    time.ticks_ms = _ticks_ms  # type: ignore[attr-defined]
    time.ticks_diff = _ticks_diff  # type: ignore[attr-defined]
    time.ticks_add = lambda a, b: (a + b) & 0x3FFFFFFF  # type: ignore[attr-defined]
    time.sleep_ms = lambda ms: time.sleep(ms / 1000)  # type: ignore[attr-defined]


def _firmware(name: str) -> bool:
    return name.split(".")[0] in ("board", "doodle")


def run_firmware(flash: Path, backend: Callable[..., object], fast_clock: bool = False) -> None:
    """`fast_clock`: the firmware's ticks_ms and sleep_ms are the console's clock (the backend's
    hw_ticks_ms and hw_sleep_ms: hardware.ConsoleClock), as the VM's FAST_BOOT makes them; they
    are this process's `time`, so one console on the fast clock per process."""
    micropython_time()
    if fast_clock:
        time.ticks_ms = lambda: backend("hw_ticks_ms")  # type: ignore[attr-defined]
        time.sleep_ms = lambda ms: backend("hw_sleep_ms", ms)  # type: ignore[attr-defined]
    saved = install_guest_modules(backend)

    cpython_micropython.install()

    saved_fb = sys.modules.get("framebuf")
    sys.modules["framebuf"] = cpython_framebuf
    # the firmware loaded fresh from the flash: a copy this process imported before (the tests
    # import board/ and doodle/ under their own guest modules) would still call that copy's
    # machine, wired to another console; put back afterwards
    firmware_before = {name: sys.modules.pop(name) for name in list(sys.modules) if _firmware(name)}
    sys.path[:0] = [str(flash)]
    try:
        from board import loop, pico, selftest  # type: ignore[import-not-found]  # deferred: the firmware's, on the path only now

        board = pico.Board(flash=str(flash) + "/")  # USB: the guest's virtual_usb, as in the VM
        uninstall_guest_modules({"random": saved["random"]})  # the host keeps its own random
        # as main.py: the self-test when MENU is held at boot, else the game
        console = selftest.SelfTest(board) if selftest.held_at_boot() else loop.Loop(board)
        while True:            # as main.py: run() returns for a collection between steps; a
            console.run()      # host call raises Stopped when the console is stopped
            gc.collect()
    finally:
        if fast_clock:
            micropython_time()   # the real clock again for whatever runs next in this process
        sys.path.remove(str(flash))
        for name in [name for name in sys.modules if _firmware(name)]:
            del sys.modules[name]
        sys.modules.update(firmware_before)
        uninstall_guest_modules(saved)
        if saved_fb is None:
            sys.modules.pop("framebuf", None)
        else:
            sys.modules["framebuf"] = saved_fb
