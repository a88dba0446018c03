# doodlebox Pico board: buttons, LED dice, buzzer, e-paper and USB, built from board/pins.py by
# board/pico_build.py (loaded while the board is built and let go after: RAM).
import random

from doodle import drop


def rand(n):
    """0..n-1 from the hardware-seeded generator."""
    return random.getrandbits(16) % n if n & (n - 1) else random.getrandbits(16) & (n - 1)


class Board:
    """Every part of the console, built from board/pins.py (board/pico_build.py), and its flash
    files: `buttons` (board/buttons.py), `leds` (board/leds.py), `buzzer` (board/buzzer.py),
    `panel` (board/panel.py over board/ssd1680.py), `usb` (board/usb.py), `flash` (board/flash.py:
    the App's store, in the folder `flash`); the boot's number (`boot`, `boot_saved`,
    `boot_damaged`: doodle/bootnum.py), the console's id (`uid`) and `rand`."""

    def __init__(self, usb=None, flash="/"):
        from board import pico_build  # (let go once the board is built: RAM)

        pico_build.begin(self, usb, flash)
        del pico_build    # (a local left holding it would keep it from the next collection)
        drop("pico_build", "board")

    def held(self, name):
        """Whether button `name` is down now (its raw level: before any debounce). Asked at
        power-on only: board/pins.py is read again for it, and let go."""
        from board import pico_build

        down = pico_build.held(name)
        drop("pico_build", "board")
        return down
