"""The generated parts of hardware/README.md: the pin table and the power budget.

Each block sits between ``<!-- begin generated: NAME -->`` and ``<!-- end generated: NAME -->``;
``update`` rewrites the blocks and leaves the prose alone, ``stale`` says which differ.
"""
from __future__ import annotations

import re

from doodlebox.hardware import rp2040
from doodlebox.hardware.bom import Bom
from doodlebox.hardware.data import EPAPER_LABELS, button_label, buttons, uses
from doodlebox.hardware.power import Budget
from doodlebox.hardware.power import table as power_table

POWER_PINS = {
    40: ("VBUS", "USB 5 V: the +5V rail of the LED dice, U2 and the buzzer"),
    39: ("VSYS", "fed from VBUS through the Pico's own diode; leave it open"),
    38: ("GND", "ground of the LED chain, U2 and Q1 (any GND pin will do)"),
    36: ("3V3", "3.3 V out of the Pico's regulator: the panel, through the socket"),
}


def pin_table(pins: dict, bom: Bom) -> str:
    sw = {name: f"SW{k + 1}" for k, (name, _) in enumerate(buttons(pins))}
    r1, r2 = bom.find("R1"), bom.find("R2")
    rows: dict[int, tuple[str, str, str, str]] = {}
    for u in uses(pins):
        pin = rp2040.physical_pin(u.gpio)
        if pin is None:
            continue
        if u.part == "button":
            label = button_label(pins, u.name)
            function = f"button {label}" if label.startswith(u.name) else f"button {u.name}: {label}"
            wiring = f"{sw[u.name]}, other leg to GND; internal pull-up, a press reads 0"
            rp = "-"
        elif u.part == "leds":
            function = u.function
            wiring = f"U2 buffer (3.3 V -> 5 V), R1 {r1.value.split(' 1/')[0]} in series, DIN of die D0 pip 0"
            rp = "-"
        elif u.part == "buzzer":
            function = u.function
            wiring = f"R2 {r2.value.split(' 1/')[0]} to the base of Q1; the piezo BZ1 from +5V to the collector"
            sl, ch = rp2040.pwm_channel(u.gpio)
            rp = f"PWM slice {sl} {ch}"
        elif u.part == "epaper":
            function = u.function
            wiring = "the e-paper socket (fixed)"
            bus, role = rp2040.spi_function(u.gpio)
            rp = f"SPI{bus} {role}" if u.key in ("sck", "mosi", "cs") else "-"
        else:
            function, wiring, rp = u.function, "", "-"
        rows[pin] = (f"GP{u.gpio}", function, wiring, rp)
    for pin, (name, what) in POWER_PINS.items():
        rows[pin] = (name, "power", what, "-")
    out = ["| Pico pin | signal | function | wiring | RP2040 function |", "|---|---|---|---|---|"]
    for pin in sorted(rows):
        out.append("| %d | %s | %s | %s | %s |" % ((pin,) + rows[pin]))
    order = ", ".join(pins["leds"]["pip_order"])
    out.append("")
    out.append(f"Pip order inside each die (the chain order of its {pins['leds']['pips_per_die']} LEDs): {order}. "
               f"BOM LED n is die (n-1) div {pins['leds']['pips_per_die']}, pip (n-1) mod "
               f"{pins['leds']['pips_per_die']}. The e-paper signals are labelled as the panel board prints them "
               f"({', '.join(EPAPER_LABELS.values())}).")
    return "\n".join(out) + "\n"


def power_block(budget: Budget) -> str:
    return "```\n" + power_table(budget) + "```\n"


def blocks(pins: dict, bom: Bom, budget: Budget) -> dict[str, str]:
    return {"pins": pin_table(pins, bom), "power": power_block(budget)}


def _pattern(name: str) -> re.Pattern:
    return re.compile(r"(<!-- begin generated: %s[^>]*-->\n)(.*?)(<!-- end generated: %s -->)" % (name, name),
                      re.S)


def update(readme: str, new: dict[str, str]) -> str:
    for name, body in new.items():
        pat = _pattern(name)
        m = pat.search(readme)
        if not m:
            raise ValueError(f"hardware/README.md has no block <!-- begin generated: {name} --> ... "
                             f"<!-- end generated: {name} -->")
        readme = readme[:m.start()] + m.group(1) + body + m.group(3) + readme[m.end():]
    return readme


def stale(readme: str, new: dict[str, str]) -> list[str]:
    out = []
    for name, body in new.items():
        m = _pattern(name).search(readme)
        if not m or m.group(2) != body:
            out.append(name)
    return out
