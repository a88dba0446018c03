# doodlebox Pico board: builds buttons, LED dice, buzzer, e-paper and USB from board/pins.py
# (board/build.py, loaded at power-up).
import random
import sys

import machine

# the parts' classes: board/build.py makes the parts through these names (a test can stand in for one)
from board.buttons import Buttons  # noqa: F401
from board.buzzer import Buzzer  # noqa: F401
from board.flash import Flash  # noqa: F401
from board.leds import LedDice  # noqa: F401
from board.panel import Panel  # noqa: F401
from board.ssd1680 import SSD1680  # noqa: F401
from board.usb import Usb  # noqa: F401

Pin = machine.Pin

try:  # only the virtual console has it: its USB serial (host/doodlebox/virtual/guest/)
    import virtual_usb  # type: ignore[import-not-found]
except ImportError:
    virtual_usb = None


def rand(n):
    """0..n-1 from the hardware-seeded generator."""
    return random.getrandbits(16) % n if n & (n - 1) else random.getrandbits(16) & (n - 1)


class Board:
    """Every part of the console, built from board/pins.py, and its flash files (board/flash.py:
    the App's store, `flash` the folder they live in)."""

    def __init__(self, usb=None, flash="/"):
        # built by board/build.py, loaded for it and let go after (RAM: run once)
        __import__("board.build", None, None, ("x",)).build(self, usb, flash)
        _drop("board", "build")

    def held(self, name):
        """Whether button `name` is down now (its raw level: before any debounce). Asked at
        power-on only: board/pins.py is read again for it, and let go."""
        from board import pins

        down = False
        for n, gp in pins.BUTTONS:
            if n == name:
                down = Pin(gp, Pin.IN, Pin.PULL_UP).value() == 0
        _drop("board", "pins")
        return down


def _drop(pkg, name):
    """Let module pkg.name go: once nothing else holds it, the next collection frees it."""
    sys.modules.pop(pkg + "." + name, None)
    m = sys.modules.get(pkg)
    if m is not None and hasattr(m, name):
        delattr(m, name)
