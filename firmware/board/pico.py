# doodlebox Pico board: builds buttons, LED dice, buzzer, e-paper and USB from board/pins.py.
import binascii
import random

import machine
import neopixel

from board.buttons import Buttons
from board.buzzer import Buzzer
from board.flash import Flash
from board.leds import LedDice
from board.panel import Panel
from board.ssd1680 import SSD1680
from board.usb import Usb
from doodle import drop

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
        from board import pins  # read while the board is built, then let go (RAM)

        self.buttons = Buttons([(name, Pin(pin, Pin.IN, Pin.PULL_UP)) for name, pin in pins.BUTTONS])
        strip = neopixel.NeoPixel(Pin(pins.LED_PIN, Pin.OUT), pins.LED_DICE * pins.LED_PIPS_PER_DIE)
        self.leds = LedDice(strip, pins.LED_DICE, pins.LED_PIPS_PER_DIE, pins.LED_MAX_LEVEL)
        self.buzzer = Buzzer(machine.PWM(Pin(pins.BUZZER_PIN), freq=1000, duty_u16=0))
        spi = machine.SPI(pins.EPD_SPI, baudrate=4000000, sck=Pin(pins.EPD_SCK), mosi=Pin(pins.EPD_MOSI))
        epd = SSD1680(spi, Pin(pins.EPD_CS, Pin.OUT, value=1), Pin(pins.EPD_DC, Pin.OUT),
                      Pin(pins.EPD_RST, Pin.OUT, value=1), Pin(pins.EPD_BUSY, Pin.IN),
                      pins.EPD_WIDTH, pins.EPD_HEIGHT)
        self.panel = Panel(epd)
        if usb is None and virtual_usb is not None:
            usb = virtual_usb.stream()
        self.usb = Usb(usb)
        self.flash = Flash(flash)
        from doodle import bootnum  # only at power-up (RAM); the journal retries an unsaved one
        # (it also makes the console's id: bootnum.console_id)
        # the boot's number, saved before it is used (docs/journal.md, "The boot number")
        self.boot, self.boot_saved, self.boot_damaged = bootnum.next_boot(self.flash)
        self.uid = bootnum.console_id(self.flash, binascii.hexlify(machine.unique_id()).decode(), self.boot == 1,
                                      random)
        drop("bootnum", "doodle")   # let go (the journal loads it again only to retry) ...
        drop("flashlog", "doodle")  # ... with the journal's reading, which it loaded
        drop("pins", "board")
        self.rand = rand

    def held(self, name):
        """Whether button `name` is down now (its raw level: before any debounce). Asked at
        power-on only: board/pins.py is read again for it, and let go."""
        from board import pins

        down = False
        for n, gp in pins.BUTTONS:
            if n == name:
                down = Pin(gp, Pin.IN, Pin.PULL_UP).value() == 0
        drop("pins", "board")
        return down
