"""The Pico's board (board/pico.py) over the virtual console's hardware models
(host/doodlebox/virtual/hardware.py), its main loop (board/loop.py) and app under CPython, on a
simulated clock: time passes only when the loop sleeps. The firmware tests that listen to the
buzzer or watch the e-paper refresh step it (tests/firmware/test_timer_tones.py,
test_round_end_pc_scores.py)."""
from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

from doodlebox.hardware.data import load_pins
from doodlebox.virtual import cpython_framebuf
from doodlebox.virtual.hardware import Hardware
from doodlebox.virtual.vm import install_guest_modules, uninstall_guest_modules

SLEEP_MS = 2         # board/loop.py's sleep between steps
WORK_MS = 3          # a loop step's own work takes 0..WORK_MS ms on this clock
STEP_MAX = SLEEP_MS + WORK_MS   # the longest loop step: "within one loop step"


class SimClock:
    """Milliseconds that pass only when the firmware sleeps (board/loop.py sleeps SLEEP_MS per
    step); each step's own work takes a few ms more, drawn at random, so the loop's steps fall
    anywhere, not on the second."""

    def __init__(self, seed: int) -> None:
        self.ms = 0
        self.rng = random.Random(seed)

    def seconds(self) -> float:
        return self.ms / 1000

    def ticks_ms(self) -> int:
        return self.ms & 0x3FFFFFFF

    @staticmethod
    def ticks_diff(a: int, b: int) -> int:
        return ((a - b + 0x20000000) & 0x3FFFFFFF) - 0x20000000

    def sleep_ms(self, ms: int) -> None:
        self.ms += ms + self.rng.randint(0, WORK_MS)


def drop_firmware_modules() -> None:
    """The board's modules let go: the next Board() imports them again, over the models installed."""
    for name in [n for n in sys.modules if n.split(".")[0] == "board"]:
        del sys.modules[name]


class PicoOnModels:
    """The board built on the hardware models, its loop and app; the USB's host side is `read(n)`
    (bytes to the console) and `write(data)` (the console's bytes). close() puts the modules back."""

    def __init__(self, tmp: Path, monkeypatch, seed: int, read: Callable[[int], bytes],
                 write: Callable[[bytes], object]) -> None:
        self.clock = SimClock(seed)
        for name in ("ticks_ms", "ticks_diff", "sleep_ms"):
            monkeypatch.setattr(time, name, getattr(self.clock, name), raising=False)
        self.hw = Hardware(load_pins(), clock=self.clock.seconds)
        self.hw.attach_usb(read, write)
        self._saved = install_guest_modules(self.hw.call)
        self._saved_fb = sys.modules.get("framebuf")
        sys.modules["framebuf"] = cpython_framebuf  # type: ignore[assignment]
        drop_firmware_modules()
        from board import loop, pico

        self.loop = loop.Loop(pico.Board(flash=str(tmp) + "/"))
        self.app = self.loop.app

    def close(self) -> None:
        drop_firmware_modules()
        uninstall_guest_modules(self._saved)
        if self._saved_fb is None:
            sys.modules.pop("framebuf", None)
        else:
            sys.modules["framebuf"] = self._saved_fb
