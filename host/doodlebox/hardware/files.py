"""The maker's data loaded (pins.json, parts.json, bom.csv), the files generated from it (the
wiring diagram, the Wokwi diagram, the README's tables) and every problem `doodlebox hardware
check` reports. The commands are doodlebox/cli/maker.py."""
from __future__ import annotations

from pathlib import Path

from doodlebox.drawing.png import alike
from doodlebox.errors import InputError
from doodlebox.hardware import bom as bom_mod
from doodlebox.hardware import check as check_mod
from doodlebox.hardware import data, docs, power, wiring, wokwi


class Unreadable(InputError):
    """A file in hardware/ that cannot be read, or lacks what is needed."""


def load_data() -> tuple[dict, dict]:
    """pins.json and parts.json, or Unreadable with the file and the reason."""
    try:
        pins = data.load_pins()
    except (OSError, ValueError) as exc:
        raise Unreadable(f"hardware/pins.json: {exc}") from None
    try:
        parts = data.load_parts()
    except (OSError, ValueError) as exc:
        raise Unreadable(f"hardware/parts.json: {exc}") from None
    return pins, parts


def load_bom() -> bom_mod.Bom:
    try:
        return bom_mod.read()
    except (OSError, bom_mod.BomError) as exc:
        raise Unreadable(str(exc)) from None


def load() -> tuple[dict, dict, bom_mod.Bom]:
    """pins.json, parts.json and bom.csv."""
    return (*load_data(), load_bom())


def generated(pins: dict, parts: dict, bom: bom_mod.Bom, which: str = "all") -> dict[Path, str | bytes]:
    """The files `wiring` and `wokwi` write, with their contents (README.md with fresh blocks)."""
    out: dict[Path, str | bytes] = {}
    if which in ("all", "wiring"):
        budget = power.budget(pins, parts)
        drawing = wiring.diagram(pins, bom, budget)
        out[data.hardware_file("wiring.svg")] = drawing.svg("doodlebox wiring, generated from hardware/pins.json")
        out[data.hardware_file("wiring.png")] = drawing.png()
        readme = data.hardware_file("README.md")
        out[readme] = docs.update(readme.read_text(), docs.blocks(pins, bom, budget))
    if which in ("all", "wokwi"):
        out[data.hardware_file("diagram.json")] = wokwi.text(pins)
    return out


def same(path: Path, content: str | bytes) -> bool:
    """Whether the file on disk is `content`; PNGs are compared by what they show (png.alike:
    the edges of letters may differ between builds of Pillow's FreeType; the SVG beside the PNG,
    drawn from the same Drawing, is compared exactly, so a change of the data shows there)."""
    if not path.exists():
        return False
    if isinstance(content, bytes):
        return alike(path.read_bytes(), content)
    return path.read_text() == content


def write(files: dict[Path, str | bytes]) -> None:
    for path, content in files.items():
        if same(path, content):
            print(f"{path}: up to date")
            continue
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content)
        print(f"wrote {path}")


def all_problems(pins: dict, parts: dict, bom: bom_mod.Bom) -> list[check_mod.Problem]:
    """Everything the hardware's own data says is wrong: pin constraints, the LED cap, the BOM, a
    stale generated document (the firmware's pins.py is deploy/firmware_data.py's to check)."""
    try:
        cap = power.led_cap(pins, parts)
    except power.BudgetError as exc:
        return [check_mod.Problem("error", "led-cap", str(exc))]
    found = check_mod.problems(pins, cap) + bom_mod.problems(bom, pins, parts)
    if check_mod.errors(found):
        return found  # the documents cannot be drawn from broken data
    for path, content in generated(pins, parts, bom).items():
        if not same(path, content):
            how = "doodlebox hardware wokwi" if path.name == "diagram.json" else "doodlebox hardware wiring"
            found.append(check_mod.Problem("error", "stale", f"{path} is out of date with the data: run `{how}`"))
    return found
