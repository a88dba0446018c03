# doodlebox board built at power-up (board/pico.py's Board): every part from board/pins.py, the
# flash, the boot's number and the console's id. Loaded for that and let go after (RAM: it runs
# once). The parts' classes are pico's names (pico.Buttons, ...), so a test can stand in for one.
import binascii
import random

import machine
import neopixel

from board import pico

Pin = machine.Pin


def build(board, usb, flash):
    """Board.__init__: `board` gets its parts."""
    from board import pins  # read while the board is built, then let go (RAM)

    board.buttons = pico.Buttons([(name, Pin(pin, Pin.IN, Pin.PULL_UP)) for name, pin in pins.BUTTONS])
    strip = neopixel.NeoPixel(Pin(pins.LED_PIN, Pin.OUT), pins.LED_DICE * pins.LED_PIPS_PER_DIE)
    board.leds = pico.LedDice(strip, pins.LED_DICE, pins.LED_PIPS_PER_DIE, pins.LED_MAX_LEVEL)
    board.buzzer = pico.Buzzer(machine.PWM(Pin(pins.BUZZER_PIN), freq=1000, duty_u16=0))
    spi = machine.SPI(pins.EPD_SPI, baudrate=4000000, sck=Pin(pins.EPD_SCK), mosi=Pin(pins.EPD_MOSI))
    epd = pico.SSD1680(spi, Pin(pins.EPD_CS, Pin.OUT, value=1), Pin(pins.EPD_DC, Pin.OUT),
                       Pin(pins.EPD_RST, Pin.OUT, value=1), Pin(pins.EPD_BUSY, Pin.IN),
                       pins.EPD_WIDTH, pins.EPD_HEIGHT)
    board.panel = pico.Panel(epd)
    virtual_usb = pico.virtual_usb   # the virtual console's USB serial (None on the Pico)
    if usb is None and virtual_usb is not None:
        usb = virtual_usb.stream()
    board.usb = pico.Usb(usb)
    board.flash = pico.Flash(flash)
    from doodle import bootnum  # only at power-up (RAM); the journal retries an unsaved one
    # (it also makes the console's id: bootnum.console_id)
    # the boot's number, saved before it is used (docs/journal.md, "The boot number")
    board.boot, board.boot_saved, board.boot_damaged = bootnum.next_boot(board.flash)
    board.uid = bootnum.console_id(board.flash, binascii.hexlify(machine.unique_id()).decode(), board.boot == 1,
                                   random)
    pico._drop("doodle", "bootnum")   # let go (the journal loads it again only to retry) ...
    pico._drop("doodle", "flashlog")  # ... with the journal's reading, which it loaded
    pico._drop("board", "pins")
    board.rand = pico.rand
