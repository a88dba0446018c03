"""`doodlebox flash | hardware bom|power|wiring|wokwi|check`: the maker's commands. Putting the
firmware on a Pico (deploy/flash.py); the board as data and its documents (doodlebox/hardware/).
Exit codes of `hardware`: 0 fine, 1 problems found or a budget exceeded, 2 a file in hardware/
that cannot be read."""
from __future__ import annotations

import argparse
import functools
import sys
from pathlib import Path

from doodlebox import paths, versions
from doodlebox.cli.command import Command, Run
from doodlebox.cli.games import database, db_argument
from doodlebox.deploy.firmware_data import stale_pins
from doodlebox.deploy.flash import choose_port, plan, reset, self_test
from doodlebox.deploy.flash import flash as deploy
from doodlebox.errors import DoodleboxError
from doodlebox.hardware import bom as bom_mod
from doodlebox.hardware import check, data
from doodlebox.hardware import power as power_mod
from doodlebox.hardware.files import Unreadable, all_problems, generated, load, load_bom, load_data, write
from doodlebox.link.ports import find_picos
from doodlebox.logger.drain import store_held


def flash(args: argparse.Namespace) -> int:
    """The firmware this doodlebox carries onto the Pico (deploy/flash.py): what the console holds
    stored first (logger/drain.py), copied, the self-test's automatic steps run, reset."""
    built = args.build or paths.build_dir()
    if args.dry_run:
        port = args.port or (choose_port(None) if find_picos() else "PORT")
        files, command = plan(port, built)
        print(f"firmware {versions.firmware()}: {len(files)} file(s) to copy to {port}")
        for f in files:
            print(f"  {f}")
        print(f"with: {command}")
        return 0
    port = choose_port(args.port)
    store_held(port, database(args), say=print)
    done = deploy(port, built)
    print(f"{port}: {done.device}")
    print(f"firmware {versions.firmware()}: copied {len(done.copied)} file(s), {len(done.unchanged)} up to date, "
          f"{len(done.removed)} stale removed{': ' + ', '.join(done.removed) if done.removed else ''}")
    said = self_test(port)
    summary = said[-1]
    pips = next((m.get("pips") for m in said if m.get("step") == "start"), "?")
    print(f"self-test: {pips} pips lit one by one, the scale played, the panel's pattern "
          + ("drawn" if summary.get("panel") else f"NOT drawn ({summary.get('why') or 'no answer from the panel'})")
          + f", {summary.get('errors', 0)} driver error(s); press each button after the next power-up with MENU "
          "held to test the buttons")
    reset(port)
    print("the board has been reset and runs the new firmware")
    return 0 if summary.get("panel") and not summary.get("errors") else 1


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


def _generate(which: str, out: Path | None) -> int:
    """The documents made from the board's data, written into the checkout's hardware/ (`out`: into
    that folder instead; an installed doodlebox writes them into the current folder, never into its
    own files)."""
    if out is None and paths.root() is None:
        out = Path.cwd()
    pins, parts, bom_ = load()
    broken = check.errors(check.problems(pins))
    if broken:
        for p in broken:
            print(p, file=sys.stderr)
        print("doodlebox: fix hardware/pins.json first (doodlebox hardware check)", file=sys.stderr)
        return 1
    files = generated(pins, parts, bom_, which)
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        files = {out / path.name: content for path, content in files.items()}
    write(files)
    return 0


@_guarded
def wiring(args: argparse.Namespace) -> int:
    return _generate("wiring", args.out)


@_guarded
def wokwi(args: argparse.Namespace) -> int:
    return _generate("wokwi", args.out)


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
    p.add_argument("--port", help="serial port of the Pico (default: the one Pico attached, found by its USB id)")
    p.add_argument("--build", type=Path, default=None,
                   help="where to compile to (default: build/flash in a checkout, else the user's cache folder)")
    p.add_argument("--dry-run", action="store_true",
                   help="compile, and list the files and the mpremote command; nothing is sent to the board")
    db_argument(p)


def _out_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--out", type=Path, default=None, metavar="DIR",
                   help="write into DIR (default: the checkout's hardware/; an installed doodlebox: this folder)")


def _power_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--level", type=int, default=None, metavar="N",
                   help="the budget at LED level N instead of the cap (exit 1 if it does not fit)")


COMMANDS = (
    Command("flash", "put the firmware this doodlebox carries on a Pico (mpy-cross, mpremote), what it holds stored "
                     "first, then its self-test", flash, _flash_args),
    Command("hardware", "the board: BOM, power budget, wiring diagram, Wokwi diagram, checks", subcommands=(
        Command("bom", "the bill of materials (hardware/bom.csv) with its total", bom),
        Command("power", "the power budget and the LED cap it gives the firmware", power, _power_args),
        Command("wiring", "regenerate hardware/wiring.svg, wiring.png and the tables in hardware/README.md", wiring,
                _out_args),
        Command("wokwi", "regenerate hardware/diagram.json for the Wokwi simulator", wokwi, _out_args),
        Command("check", "pins against the Pico's constraints, the BOM, the LED cap, generated files",
                hardware_check),
    )),
)
