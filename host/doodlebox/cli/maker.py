"""`doodlebox flash | hardware bom|power|wiring|wokwi|check`: the maker's commands. Putting the
firmware on a Pico (deploy/flash.py); the board as data and its documents (doodlebox/hardware/).
Exit codes of `hardware`: 0 fine, 1 problems found or a budget exceeded, 2 a file in hardware/
that cannot be read."""
from __future__ import annotations

import argparse
import functools
import sys
from pathlib import Path

from doodlebox import paths
from doodlebox.cli.command import Command, Run
from doodlebox.deploy.firmware_data import stale_pins
from doodlebox.deploy.flash import flash as deploy
from doodlebox.errors import DoodleboxError
from doodlebox.hardware import bom as bom_mod
from doodlebox.hardware import check, data
from doodlebox.hardware import power as power_mod
from doodlebox.hardware.files import Unreadable, all_problems, generated, load, load_bom, load_data, write


def flash(args: argparse.Namespace) -> int:
    done = deploy(args.port, args.build, dry_run=args.dry_run)
    if isinstance(done, str):
        print(done)
        return 0
    print(f"{args.port}: {done.device}")
    print(f"copied {len(done.copied)} file(s), {len(done.unchanged)} up to date, "
          f"{len(done.removed)} stale removed{': ' + ', '.join(done.removed) if done.removed else ''}")
    print("the board has been reset and runs the new firmware")
    return 0


def _guarded(command: Run) -> Run:
    """Data in hardware/ that parses but lacks what is needed: one line, exit 2."""
    @functools.wraps(command)
    def run(args: argparse.Namespace) -> int:
        try:
            return command(args)
        except DoodleboxError:
            raise
        except (KeyError, TypeError, ValueError) as exc:
            raise Unreadable(f"hardware data incomplete: {exc!r}") from None
    return run


@_guarded
def bom(args: argparse.Namespace) -> int:
    print(bom_mod.table(load_bom()), end="")
    return 0


@_guarded
def power(args: argparse.Namespace) -> int:
    pins, parts = load_data()
    budget = power_mod.budget(pins, parts, args.level)
    print(power_mod.table(budget), end="")
    return 0 if budget.worst_ma <= budget.budget_ma else 1


def _generate(which: str) -> int:
    pins, parts, bom_ = load()
    broken = check.errors(check.problems(pins))
    if broken:
        for p in broken:
            print(p, file=sys.stderr)
        print("doodlebox: fix hardware/pins.json first (doodlebox hardware check)", file=sys.stderr)
        return 1
    write(generated(pins, parts, bom_, which))
    return 0


@_guarded
def wiring(args: argparse.Namespace) -> int:
    return _generate("wiring")


@_guarded
def wokwi(args: argparse.Namespace) -> int:
    return _generate("wokwi")


@_guarded
def hardware_check(args: argparse.Namespace) -> int:
    pins, parts, bom_ = load()
    found = all_problems(pins, parts, bom_)
    found += [] if check.errors(found) else stale_pins()    # the firmware's pins.py made from them
    for p in found:
        print(p)
    errs = check.errors(found)
    if not errs:
        cap = power_mod.led_cap(pins, parts)
        print(f"hardware ok: {len(data.uses(pins))} GPIOs checked against the Pico, BOM {bom_.total:.2f} "
              f"{bom_.currency}, LED cap {cap}, generated files up to date"
              + (f" ({len(found)} warning(s))" if found else ""))
    return 1 if errs else 0


def _flash_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--port", required=True, help="serial port of the Pico (see `mpremote devs`)")
    p.add_argument("--build", type=Path, default=paths.root() / "build" / "flash", help="where to compile to")
    p.add_argument("--dry-run", action="store_true", help="compile and print the mpremote command only")


def _power_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--level", type=int, default=None, metavar="N",
                   help="the budget at LED level N instead of the cap (exit 1 if it does not fit)")


COMMANDS = (
    Command("flash", "compile the firmware with mpy-cross and copy it to a Pico with mpremote", flash, _flash_args),
    Command("hardware", "the board: BOM, power budget, wiring diagram, Wokwi diagram, checks", subcommands=(
        Command("bom", "the bill of materials (hardware/bom.csv) with its total", bom),
        Command("power", "the power budget and the LED cap it gives the firmware", power, _power_args),
        Command("wiring", "regenerate hardware/wiring.svg, wiring.png and the tables in hardware/README.md", wiring),
        Command("wokwi", "regenerate hardware/diagram.json for the Wokwi simulator", wokwi),
        Command("check", "pins against the Pico's constraints, the BOM, the LED cap, generated files",
                hardware_check),
    )),
)
