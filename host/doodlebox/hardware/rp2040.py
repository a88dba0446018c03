"""Facts of the Raspberry Pi Pico board and its RP2040 that a pin assignment must respect.

Sources: the Raspberry Pi Pico datasheet (pinout: physical pins 1-40, GPIOs on the header)
and the RP2040 datasheet (section 2.19.2, the GPIO function table: F1 is SPI, F4 is PWM),
and Waveshare's Pico-ePaper-2.9 pinout (the panel board plugs onto the Pico's headers).
"""
from __future__ import annotations

# Physical header pins, top view with the USB socket up: 1-20 down the left side,
# 21-40 up the right side (pin 40 is top right).
HEADER: dict[int, str] = {
    1: "GP0", 2: "GP1", 3: "GND", 4: "GP2", 5: "GP3", 6: "GP4", 7: "GP5", 8: "GND",
    9: "GP6", 10: "GP7", 11: "GP8", 12: "GP9", 13: "GND", 14: "GP10", 15: "GP11",
    16: "GP12", 17: "GP13", 18: "GND", 19: "GP14", 20: "GP15",
    21: "GP16", 22: "GP17", 23: "GND", 24: "GP18", 25: "GP19", 26: "GP20", 27: "GP21",
    28: "GND", 29: "GP22", 30: "RUN", 31: "GP26", 32: "GP27", 33: "AGND", 34: "GP28",
    35: "ADC_VREF", 36: "3V3", 37: "3V3_EN", 38: "GND", 39: "VSYS", 40: "VBUS",
}
PHYSICAL: dict[int, int] = {int(name[2:]): pin for pin, name in HEADER.items() if name.startswith("GP")}
GPIOS: tuple[int, ...] = tuple(sorted(PHYSICAL))  # GP0-GP22, GP26-GP28

# GPIOs of the RP2040 that the Pico keeps on the board, not on the header.
INTERNAL: dict[int, str] = {
    23: "drives the Pico's power-supply mode (SMPS PS)",
    24: "senses VBUS",
    25: "drives the on-board LED",
    29: "measures VSYS/3 (ADC3)",
}

# The Waveshare Pico-ePaper-2.9 board is wired to these GPIOs; it cannot be moved.
EPAPER_SOCKET: dict[str, int] = {"dc": 8, "cs": 9, "sck": 10, "mosi": 11, "rst": 12, "busy": 13}
EPAPER_SOCKET_SPI = 1

_SPI_ROLE = ("RX", "CSn", "SCK", "TX")  # GPIO n % 4 in the F1 column


def physical_pin(gpio: int) -> int | None:
    """The header pin (1-40) of a GPIO, or None when the Pico does not bring it out."""
    return PHYSICAL.get(gpio)


def side(pin: int) -> str:
    """'left' for header pins 1-20, 'right' for 21-40 (top view, USB up)."""
    return "left" if pin <= 20 else "right"


def row(pin: int) -> int:
    """0 for the top row of the header (pins 1 and 40) down to 19 (pins 20 and 21)."""
    return pin - 1 if pin <= 20 else 40 - pin


def spi_function(gpio: int) -> tuple[int, str]:
    """(SPI instance, role) of a GPIO in function F1: GPIO 0-7 and 16-23 are SPI0, 8-15 and
    24-29 SPI1; within each group of four the roles are RX, CSn, SCK, TX."""
    return (gpio >> 3) & 1, _SPI_ROLE[gpio & 3]


def spi_pins(bus: int, role: str) -> list[int]:
    """Every header GPIO that can be `role` (RX, CSn, SCK, TX) of SPI `bus`."""
    return [g for g in GPIOS if spi_function(g) == (bus, role)]


def pwm_channel(gpio: int) -> tuple[int, str]:
    """(slice, channel) of a GPIO in function F4: slice (gpio >> 1) & 7, A for even, B for odd.
    Both channels of a slice share its counter, so they share one frequency."""
    return (gpio >> 1) & 7, "AB"[gpio & 1]


def gpio_name(gpio: int) -> str:
    return f"GP{gpio}"
