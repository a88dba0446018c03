"""`doodlebox hardware bom|power|wiring|wokwi|check`.

``add_commands(subparsers)`` adds the ``hardware`` command to the doodlebox CLI;
``main(argv)`` runs it alone (``python -m doodlebox.hardware check``). Exit codes: 0 fine,
1 problems found (check) or a file out of date, 2 a file in hardware/ cannot be read.
"""
from __future__ import annotations

import argparse
import functools
import sys
from pathlib import Path

from doodlebox.hardware import bom as bom_mod
from doodlebox.hardware import check as check_mod
from doodlebox.hardware import data, docs, power


class Unreadable(RuntimeError):
    pass


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
    from doodlebox.hardware import wiring, wokwi

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
    """Whether the file on disk is `content`; PNGs are compared by their pixels."""
    if not path.exists():
        return False
    if isinstance(content, bytes):
        from doodlebox.drawing.png import png_pixels

        try:
            return png_pixels(path.read_bytes()) == png_pixels(content)
        except (ValueError, OSError):
            return False
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
    """Everything `check` reports: pin constraints, the LED cap, the BOM, stale generated files."""
    from doodlebox import firmware_data

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
    for path, text in firmware_data.targets().items():
        if path.name == "pins.py" and (not path.exists() or path.read_text() != text):
            found.append(check_mod.Problem("error", "stale", f"{path} is out of date: run `make firmware-data`"))
    return found


# -- commands ----------------------------------------------------------------------------------------
def cmd_bom(args) -> int:
    bom = load_bom()
    print(bom_mod.table(bom), end="")
    return 0


def cmd_power(args) -> int:
    pins, parts = load_data()
    try:
        budget = power.budget(pins, parts, args.level)
    except power.BudgetError as exc:
        print(f"doodlebox: {exc}", file=sys.stderr)
        return 1
    print(power.table(budget), end="")
    return 0 if budget.worst_ma <= budget.budget_ma else 1


def cmd_wiring(args) -> int:
    return _generate("wiring")


def cmd_wokwi(args) -> int:
    return _generate("wokwi")


def _generate(which: str) -> int:
    pins, parts, bom = load()
    broken = check_mod.errors(check_mod.problems(pins))
    if broken:
        for p in broken:
            print(p, file=sys.stderr)
        print("doodlebox: fix hardware/pins.json first (doodlebox hardware check)", file=sys.stderr)
        return 1
    write(generated(pins, parts, bom, which))
    return 0


def cmd_check(args) -> int:
    pins, parts, bom = load()
    found = all_problems(pins, parts, bom)
    for p in found:
        print(p)
    errs = check_mod.errors(found)
    if not errs:
        cap = power.led_cap(pins, parts)
        print(f"hardware ok: {len(data.uses(pins))} GPIOs checked against the Pico, BOM {bom.total:.2f} "
              f"{bom.currency}, LED cap {cap}, generated files up to date"
              + (f" ({len(found)} warning(s))" if found else ""))
    return 1 if errs else 0


def add_commands(subparsers) -> argparse.ArgumentParser:
    """Add `hardware` and its subcommands to the doodlebox CLI's subparsers."""
    p = subparsers.add_parser("hardware", help="the board: BOM, power budget, wiring diagram, Wokwi diagram, checks")
    sub = p.add_subparsers(dest="hardware_command", required=True)
    q = sub.add_parser("bom", help="the bill of materials (hardware/bom.csv) with its total")
    q.set_defaults(func=_guarded(cmd_bom))
    q = sub.add_parser("power", help="the power budget and the LED cap it gives the firmware")
    q.add_argument("--level", type=int, default=None, metavar="N",
                   help="the budget at LED level N instead of the cap (exit 1 if it does not fit)")
    q.set_defaults(func=_guarded(cmd_power))
    q = sub.add_parser("wiring", help="regenerate hardware/wiring.svg, wiring.png and the tables in hardware/README.md")
    q.set_defaults(func=_guarded(cmd_wiring))
    q = sub.add_parser("wokwi", help="regenerate hardware/diagram.json for the Wokwi simulator")
    q.set_defaults(func=_guarded(cmd_wokwi))
    q = sub.add_parser("check", help="pins against the Pico's constraints, the BOM, the LED cap, generated files")
    q.set_defaults(func=_guarded(cmd_check))
    return p


def _guarded(command):
    """The command, with unreadable or incomplete files in hardware/ as one line and exit 2."""
    @functools.wraps(command)
    def run(args) -> int:
        try:
            return command(args)
        except Unreadable as exc:
            print(f"doodlebox: {exc}", file=sys.stderr)
            return 2
        except (KeyError, TypeError, ValueError) as exc:  # data that parses but lacks what we need
            print(f"doodlebox: hardware data incomplete: {exc!r}", file=sys.stderr)
            return 2
    return run


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="doodlebox", description="doodlebox hardware documents and checks")
    sub = parser.add_subparsers(dest="command", required=True)
    add_commands(sub)
    args = parser.parse_args(["hardware", *(sys.argv[1:] if argv is None else argv)])
    return args.func(args)

