"""Generate the firmware's data modules from the project's data files.

`firmware/board/pins.py` comes from `hardware/pins.json` (its LED cap from the power budget in
`hardware/parts.json`, see `doodlebox.hardware.power`) and `firmware/doodle/layouts.py` from
`host/doodlebox/layouts/*.json`, so the pins and the sheets have one source of truth.
Run `python -m doodlebox.firmware_data` (or `make firmware-data`); `--check` exits 1 when a
generated file is out of date.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from doodlebox import paths

HEADER = "# Generated from {src} by `make firmware-data`; do not edit.\n"


def load_pins(path: Path | None = None) -> dict:
    return json.loads((path or paths.hardware() / "pins.json").read_text())


def load_parts(path: Path | None = None) -> dict:
    return json.loads((path or paths.hardware() / "parts.json").read_text())


def pins_module(pins: dict, parts: dict | None = None) -> str:
    """pins.py from the pin data; LED_MAX_LEVEL is the power budget's cap (doodlebox.hardware.power),
    computed from hardware/parts.json and the firmware's own LED renderer, never typed."""
    from doodlebox.hardware import power

    buttons = [(k, v) for k, v in pins["buttons"].items() if not k.startswith("_")]
    leds, epd, buz = pins["leds"], pins["epaper"], pins["buzzer"]
    parts = load_parts() if parts is None else parts
    lines = [HEADER.format(src="hardware/pins.json and hardware/parts.json")]
    lines.append("BUTTONS = (%s)\n" % "".join("(%r, %d), " % b for b in buttons))
    for key in ("pin", "dice", "pips_per_die"):
        lines.append("LED_%s = %d\n" % (key.upper(), leds[key]))
    lines.append("# the power budget's cap (`doodlebox hardware power`): the brightest frame stays inside USB power\n")
    lines.append("LED_MAX_LEVEL = %d\n" % power.led_cap(pins, parts))
    lines.append("# chain order of the LEDs inside each die (FACES in board/leds.py: bit 6 is the first)\n")
    lines.append("LED_PIP_ORDER = (%s)\n" % "".join("%r, " % p for p in leds["pip_order"]))
    lines.append("BUZZER_PIN = %d\n" % buz["pin"])
    for key in ("spi", "sck", "mosi", "cs", "dc", "rst", "busy", "width", "height"):
        lines.append("EPD_%s = %d\n" % (key.upper(), epd[key]))
    return "".join(lines)


def layouts_module(layout_dir: Path | None = None) -> str:
    """The console's view of the 5x5 sheets: what it needs to refuse a die (R2, R5)."""
    out = [HEADER.format(src="host/doodlebox/layouts/*.json")]
    out.append("# edition: (size, trees, start squares, house squares with available houses)\n")
    out.append("LAYOUTS = {\n")
    for path in sorted((layout_dir or paths.layouts()).glob("*.json")):
        lay = json.loads(path.read_text())
        if lay.get("ruleset") != "5x5":
            continue  # the console plays the 5x5 editions' dice rounds (docs/rulings.md)
        squares = sorted(lay["squares"], key=lambda sq: sq["at"][1])
        start = tuple(tuple(sq["at"]) for sq in squares if sq.get("start"))
        houses = tuple(
            (sq["at"][0], sq["at"][1], sq["houses"] - sq["precrossed"])
            for sq in lay["squares"] if sq["kind"] == "house"
        )
        out.append("    %r: (%d, %d, %r, %r),\n" % (lay["edition"], lay["size"], lay["trees"], start, houses))
    out.append("}\n")
    return "".join(out)


def targets() -> dict[Path, str]:
    fw = paths.firmware()
    return {
        fw / "board" / "pins.py": pins_module(load_pins()),
        fw / "doodle" / "layouts.py": layouts_module(),
    }


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    stale = []
    for path, text in targets().items():
        if path.exists() and path.read_text() == text:
            continue
        if "--check" in argv:
            stale.append(path)
        else:
            path.write_text(text)
            print("wrote", path)
    for path in stale:
        print(f"{path} is out of date: run `make firmware-data`", file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
