# doodlebox Pico board: builds buttons, LED dice, buzzer, e-paper and USB from board/pins.py.
import binascii
import os
import random

import machine
import neopixel

from board import pins
from board.buttons import Buttons
from board.buzzer import Buzzer
from board.leds import LedDice
from board.panel import Panel
from board.ssd1680 import SSD1680
from board.usb import Usb

Pin = machine.Pin

try:  # only the virtual console has it: its USB serial (host/doodlebox/virtual/guest/)
    import virtual_usb  # type: ignore[import-not-found]
except ImportError:
    virtual_usb = None


def next_boot(flash):
    """Increment the boot counter kept on flash (written to a temp file, then renamed)."""
    path = flash + "boot.txt"
    try:
        with open(path) as f:
            boot = int(f.read()) + 1
    except (OSError, ValueError):
        boot = 1
    try:
        with open(path + ".tmp", "w") as f:
            f.write(str(boot))
        os.rename(path + ".tmp", path)
    except OSError:
        pass
    return boot


def rand(n):
    """0..n-1 from the hardware-seeded generator."""
    return random.getrandbits(16) % n if n & (n - 1) else random.getrandbits(16) & (n - 1)


class Board:
    """Every part of the console, built from board/pins.py. It is also the App's store: small
    files on the flash (`load`, `save`, written to a temp file and renamed: a power cut leaves
    the old file or the new one)."""

    def __init__(self, usb=None, flash="/"):
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
        self.uid = binascii.hexlify(machine.unique_id()).decode()
        self.flash = flash
        self.boot = next_boot(flash)
        self.rand = rand

    def held(self, name):
        """Whether button `name` is down now (its raw level: before any debounce)."""
        for n, gp in pins.BUTTONS:
            if n == name:
                return Pin(gp, Pin.IN, Pin.PULL_UP).value() == 0
        return False

    def load(self, name):
        try:
            with open(self.flash + name) as f:
                return f.read()
        except OSError:
            return None

    def save(self, name, text):
        path = self.flash + name
        try:
            with open(path + ".tmp", "w") as f:
                f.write(text)
            os.rename(path + ".tmp", path)
        except OSError:
            pass  # a full or read-only flash: the console still plays, it forgets the choice
