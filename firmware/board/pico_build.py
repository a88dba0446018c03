# doodlebox Pico board's building (board/pico.py): every part made from board/pins.py, the boot
# numbered (doodle/bootnum.py), and the buttons read at power-on. Loaded while the board is built
# (and for Board.held) and let go after it: the Board keeps its parts, not the code that made them
# (RAM).
# owner Board (board/pico.py) as board: boot, boot_damaged, boot_saved, buttons, buzzer, flash, leds,
#   panel, rand, uid, usb
import binascii
import random

import machine
import neopixel

from board import pins
from board.buttons import Buttons
from board.buzzer import Buzzer
from board.flash import Flash
from board.leds import LedDice
from board.panel import Panel
from board.pico import rand
from board.ssd1680 import SSD1680
from board.usb import Usb
from doodle import bootnum, drop

Pin = machine.Pin

try:  # only the virtual console has it: its USB serial (host/doodlebox/virtual/guest/)
    import virtual_usb  # type: ignore[import-not-found]
except ImportError:
    virtual_usb = None


def begin(board, usb, flash):
    """Board(usb, flash)'s parts, its flash and its boot's number."""
    board.buttons = Buttons([(name, Pin(pin, Pin.IN, Pin.PULL_UP)) for name, pin in pins.BUTTONS])
    strip = neopixel.NeoPixel(Pin(pins.LED_PIN, Pin.OUT), pins.LED_DICE * pins.LED_PIPS_PER_DIE)
    board.leds = LedDice(strip, pins.LED_DICE, pins.LED_PIPS_PER_DIE, pins.LED_MAX_LEVEL)
    board.buzzer = Buzzer(machine.PWM(Pin(pins.BUZZER_PIN), freq=1000, duty_u16=0))
    spi = machine.SPI(pins.EPD_SPI, baudrate=4000000, sck=Pin(pins.EPD_SCK), mosi=Pin(pins.EPD_MOSI))
    epd = SSD1680(spi, Pin(pins.EPD_CS, Pin.OUT, value=1), Pin(pins.EPD_DC, Pin.OUT),
                  Pin(pins.EPD_RST, Pin.OUT, value=1), Pin(pins.EPD_BUSY, Pin.IN),
                  pins.EPD_WIDTH, pins.EPD_HEIGHT)
    board.panel = Panel(epd)
    if usb is None and virtual_usb is not None:
        usb = virtual_usb.stream()
    board.usb = Usb(usb)
    board.flash = Flash(flash)
    # the boot's number, saved before it is used (docs/journal.md, "The boot number"); the
    # journal loads doodle/bootnum.py again only to retry an unsaved one
    board.boot, board.boot_saved, board.boot_damaged = bootnum.next_boot(board.flash)
    board.uid = bootnum.console_id(board.flash, binascii.hexlify(machine.unique_id()).decode(), board.boot == 1,
                                   random)
    board.rand = rand
    drop("bootnum")     # let go with this module ...
    drop("flashlog")    # ... and the journal's reading, which it loaded
    drop("pins", "board")


def held(name):
    """Whether button `name` is down now (its raw level: before any debounce)."""
    down = False
    for n, gp in pins.BUTTONS:
        if n == name:
            down = Pin(gp, Pin.IN, Pin.PULL_UP).value() == 0
    drop("pins", "board")
    return down
