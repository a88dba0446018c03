"""Check a pin assignment (hardware/pins.json as a dict) against the Pico's real constraints.

``problems(pins)`` returns every problem found, errors and warnings, each with a code a test
can look for and a sentence a maker can act on. Nothing here raises on bad data.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from doodlebox.hardware import rp2040
from doodlebox.hardware.data import EPAPER_LABELS, PIP_XY, Use, buttons, uses

PIP_NAMES = tuple(PIP_XY)


@dataclass(frozen=True)
class Problem:
    severity: str   # "error" or "warning"
    code: str       # no-such-gpio, pin-reused, spi-function, spi-cs, pwm-slice, socket, pull, pips, led-cap, data
    message: str

    def __str__(self) -> str:
        return f"{self.severity}: {self.message} [{self.code}]"


def problems(pins: dict, led_cap: int | None = None) -> list[Problem]:
    """Every problem of `pins`; with `led_cap` (the power budget's cap) also a stale max_level."""
    out: list[Problem] = []
    try:
        used = uses(pins)
    except (KeyError, TypeError, ValueError) as exc:
        return [Problem("error", "data", f"pins.json cannot be read as a pin assignment: {exc!r}")]
    out += _gpios_exist(used)
    out += _no_reuse(used)
    out += _spi(pins)
    out += _socket(pins, used)
    out += _pwm(used)
    out += _pull(pins)
    out += _pips(pins)
    if led_cap is not None and "leds" in pins and pins["leds"].get("max_level") != led_cap:
        out.append(Problem("error", "led-cap",
                           f"leds.max_level is {pins['leds'].get('max_level')} but the power budget allows "
                           f"{led_cap} (doodlebox hardware power): set it to {led_cap}"))
    return out


def errors(found: list[Problem]) -> list[Problem]:
    return [p for p in found if p.severity == "error"]


def _gpios_exist(used: list[Use]) -> list[Problem]:
    out = []
    for u in used:
        if rp2040.physical_pin(u.gpio) is not None:
            continue
        why = rp2040.INTERNAL.get(u.gpio)
        reason = f"the Pico uses it on the board ({why})" if why else "the RP2040 has GPIO 0-29 only"
        out.append(Problem("error", "no-such-gpio",
                           f"{u.name} is on GP{u.gpio}, which is not on the Pico's header: {reason}; "
                           f"usable GPIOs are GP0-GP22 and GP26-GP28"))
    return out


def _no_reuse(used: list[Use]) -> list[Problem]:
    by_gpio: dict[int, list[Use]] = defaultdict(list)
    for u in used:
        by_gpio[u.gpio].append(u)
    return [Problem("error", "pin-reused", f"GP{g} is used twice: {', '.join(u.name for u in us)}")
            for g, us in sorted(by_gpio.items()) if len(us) > 1]


def _spi(pins: dict) -> list[Problem]:
    epd = pins.get("epaper")
    if not epd:
        return []
    out = []
    bus = epd.get("spi")
    if bus not in (0, 1):
        return [Problem("error", "spi-function", f"epaper.spi is {bus!r}: the RP2040 has SPI0 and SPI1")]
    for key, role in (("sck", "SCK"), ("mosi", "TX"), ("cs", "CSn")):
        gpio = epd.get(key)
        if gpio is None or rp2040.physical_pin(gpio) is None:
            continue
        if rp2040.spi_function(gpio) == (bus, role):
            continue
        can = ", ".join(f"GP{g}" for g in rp2040.spi_pins(bus, role))
        has_bus, has_role = rp2040.spi_function(gpio)
        if key == "cs":  # the driver toggles CS as a plain GPIO, so any pin works
            out.append(Problem("warning", "spi-cs",
                               f"e-paper CS on GP{gpio} is not SPI{bus} CSn (it is SPI{has_bus} {has_role}); the "
                               f"firmware drives CS as a GPIO so it works, but SPI{bus} CSn is on {can}"))
        else:
            out.append(Problem("error", "spi-function",
                               f"e-paper {EPAPER_LABELS[key]} on GP{gpio} cannot be SPI{bus} {role} (GP{gpio} is "
                               f"SPI{has_bus} {has_role}); SPI{bus} {role} is on {can}"))
    return out


def _socket(pins: dict, used: list[Use]) -> list[Problem]:
    """The Pico-ePaper-2.9 board is soldered to GP8-GP13: its pins are fixed and taken."""
    epd = pins.get("epaper")
    if not epd:
        return []
    out = []
    for key, gpio in rp2040.EPAPER_SOCKET.items():
        if epd.get(key) != gpio:
            out.append(Problem("error", "socket",
                               f"epaper.{key} is {epd.get(key)!r}, but the Pico-ePaper-2.9 board wires "
                               f"{EPAPER_LABELS[key]} to GP{gpio}; it plugs onto the headers and cannot be moved"))
    if epd.get("spi") != rp2040.EPAPER_SOCKET_SPI:
        out.append(Problem("error", "socket", f"epaper.spi is {epd.get('spi')!r}; the socket's GP10/GP11 are SPI1"))
    taken = {g: k for k, g in rp2040.EPAPER_SOCKET.items()}
    for u in used:
        if u.part != "epaper" and u.gpio in taken:
            out.append(Problem("error", "socket",
                               f"{u.name} is on GP{u.gpio}, which the e-paper socket already takes "
                               f"({EPAPER_LABELS[taken[u.gpio]]}); GP8-GP13 are the panel's"))
    return out


def _pwm(used: list[Use]) -> list[Problem]:
    by_slice: dict[int, list[Use]] = defaultdict(list)
    for u in used:
        if u.pwm_hz is not None and rp2040.physical_pin(u.gpio) is not None:
            by_slice[rp2040.pwm_channel(u.gpio)[0]].append(u)
    out = []
    for sl, us in sorted(by_slice.items()):
        if len(us) < 2:
            continue
        freqs = {str(u.pwm_hz) for u in us}
        if len(freqs) > 1 or any(not isinstance(u.pwm_hz, (int, float)) for u in us):
            who = ", ".join(f"{u.name} (GP{u.gpio} {rp2040.pwm_channel(u.gpio)[1]}, {u.pwm_hz} Hz)" for u in us)
            out.append(Problem("error", "pwm-slice",
                               f"PWM slice {sl} is shared by {who}: a slice has one counter, so one frequency"))
    return out


def _pull(pins: dict) -> list[Problem]:
    wiring = pins.get("button_wiring", {})
    pull, leg = wiring.get("pull", "up"), wiring.get("other_leg", "GND")
    if not buttons(pins):
        return []
    if (pull, leg) == ("up", "GND"):
        return []
    if (pull, leg) == ("down", "3V3"):
        return [Problem("error", "pull", "buttons with pull-downs to 3V3 do not match the firmware, which reads a "
                                         "press as 0 (Pin.PULL_UP); and RP2040-E9 makes pull-downs latch")]
    return [Problem("error", "pull", f"buttons with a {pull!r} pull and the other leg to {leg!r} never read "
                                     f"a press; use pull 'up' and the other leg to GND")]


def _pips(pins: dict) -> list[Problem]:
    leds = pins.get("leds", {})
    order = leds.get("pip_order")
    if order is None:
        return [Problem("error", "pips", "leds.pip_order is missing (the chain order of the LEDs in a die)")]
    if len(order) != leds.get("pips_per_die") or sorted(order) != sorted(PIP_NAMES):
        return [Problem("error", "pips", f"leds.pip_order {order} must name each of {', '.join(PIP_NAMES)} once "
                                         f"({leds.get('pips_per_die')} pips per die)")]
    return []
