"""Reading hardware/ (pins.json, parts.json: the one reader of each, for the maker's tools, the
firmware's generated pins and the virtual console) and listing what every GPIO is used for."""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from doodlebox import paths

__all__ = ["Use", "button_label", "buttons", "hardware_file", "load_parts", "load_pins", "uses"]

EPAPER_SIGNALS = ("sck", "mosi", "cs", "dc", "rst", "busy")
# where each pip of a die sits, seen from above: name -> (column, row)
PIP_XY = {"TL": (0, 0), "TR": (2, 0), "ML": (0, 1), "C": (1, 1), "MR": (2, 1), "BL": (0, 2), "BR": (2, 2)}
# how the panel's board prints each signal
EPAPER_LABELS = {"sck": "CLK", "mosi": "DIN", "cs": "CS", "dc": "DC", "rst": "RST", "busy": "BUSY"}


def hardware_file(name: str) -> Path:
    return paths.hardware() / name


def load_pins(path: str | Path | None = None) -> dict:
    """hardware/pins.json (or the file at `path`) as a dict."""
    return json.loads(Path(path or hardware_file("pins.json")).read_text())


def load_parts(path: str | Path | None = None) -> dict:
    """hardware/parts.json (or the file at `path`) as a dict."""
    return json.loads(Path(path or hardware_file("parts.json")).read_text())


@dataclass(frozen=True)
class Use:
    """One GPIO's job. ``pwm_hz`` is None (no PWM), a number, or "per note" (changes)."""
    gpio: int
    name: str        # e.g. "D0", "LED data", "EPD SCK"
    part: str        # "button", "leds", "buzzer", "epaper" or "extra"
    function: str    # what a person reads in a table
    key: str = ""    # the signal inside its part ("sck", ...), for the e-paper
    pwm_hz: object = None


def _real(d: dict) -> dict:
    return {k: v for k, v in d.items() if not k.startswith("_")}


def buttons(pins: dict) -> list[tuple[str, int]]:
    """(name, GPIO) of every button, in the file's order (the firmware's order)."""
    return [(k, int(v)) for k, v in _real(pins.get("buttons", {})).items()]


def button_label(pins: dict, name: str) -> str:
    return pins.get("button_wiring", {}).get("labels", {}).get(name, name)


def uses(pins: dict) -> list[Use]:
    """Every GPIO use the data declares, in a stable order (buttons, LEDs, buzzer, panel, extra)."""
    out = [Use(g, n, "button", f"{n} button ({button_label(pins, n)})") for n, g in buttons(pins)]
    if "leds" in pins:
        leds = pins["leds"]
        out.append(Use(int(leds["pin"]), "LED data", "leds",
                       f"{leds.get('chip', 'WS2812')} data ({leds['dice']} dice x {leds['pips_per_die']} pips)"))
    if "buzzer" in pins:
        buz = pins["buzzer"]
        out.append(Use(int(buz["pin"]), "buzzer", "buzzer", f"buzzer PWM ({buz.get('kind', 'piezo')})",
                       pwm_hz=buz.get("pwm_hz", "per note")))
    if "epaper" in pins:
        epd = pins["epaper"]
        for key in EPAPER_SIGNALS:
            if key in epd:
                out.append(Use(int(epd[key]), f"EPD {EPAPER_LABELS[key]}", "epaper",
                               f"e-paper {EPAPER_LABELS[key]}", key=key))
    for name, spec in _real(pins.get("extra", {})).items():
        out.append(Use(int(spec["pin"]), name, "extra", spec.get("function", name), pwm_hz=spec.get("pwm_hz")))
    return out
