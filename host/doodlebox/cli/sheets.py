"""`doodlebox sheets [add | remove | export | print | use]`: the library of the table's sheets
(docs/sheets.md)."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from doodlebox.cli.command import Command
from doodlebox.sheets import library, printing


def listing(args: argparse.Namespace) -> int:
    """Every sheet: name, what it is, its hash, where it came from; a sheet that cannot be used
    with its problem."""
    rows = library.sheets()
    chosen = {name for name, _ in library.choices().values()}
    width = max(len(s.name) for s in rows)
    for s in rows:
        mark = "*" if s.name in chosen else " "
        if s.problem:
            print(f"{mark} {s.name:<{width}}  cannot be used: {s.problem}")
        else:
            print(f"{mark} {s.name:<{width}}  {s.what:<24} {s.hash}  {s.title}: {s.source}")
    print(f"the library: {library.folder()}")
    if chosen:
        print("* the table's choice (doodlebox sheets use NAME): sent to each console it is attached to")
    return 0


def add(args: argparse.Namespace) -> int:
    try:
        sheet = library.add(args.file, args.name, args.replace)
    except library.SheetError as exc:
        for problem in exc.problems:
            print(problem, file=sys.stderr)
        raise
    print(f"added {sheet.name}: {sheet.what}, {sheet.title}, hash {sheet.hash}")
    return 0


def remove(args: argparse.Namespace) -> int:
    library.remove(args.name)
    print(f"removed {args.name}")
    return 0


def export(args: argparse.Namespace) -> int:
    sheet = library.export(args.name, args.output)
    print(f"{args.output}: {sheet.name}, {sheet.what}, hash {sheet.hash}")
    return 0


def print_blank(args: argparse.Namespace) -> int:
    sheet = library.find(args.name)
    printing.print_sheet(sheet, args.output, args.paper)
    print(f"{args.output}: the blank {sheet.what} {sheet.name} (hash {sheet.hash}) on {args.paper.upper()} "
          f"landscape, {printing.DPI} dpi: print it at 100%")
    return 0


def use(args: argparse.Namespace) -> int:
    sheet = library.use(args.name)
    game = library.game_of(sheet)
    what = "its default" if sheet.default and game != "deadly" else (
        "the printed map sides (chosen in the lobby)" if sheet.default else f"{sheet.name} (hash {sheet.hash})")
    print(f"{game}: the table plays {what}; a console attached to `doodlebox log` is sent it")
    return 0


def _add_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", type=Path,
                   help="a sheet (docs/layouts.md) or a Deadly Doodles map side (docs/deadly-doodles.md)")
    p.add_argument("--name", help="its name: 1 to 16 of a-z, 0-9, - and _ (default: the file's name)")
    p.add_argument("--replace", action="store_true", help="replace the sheet of that name added before")


def _name(p: argparse.ArgumentParser) -> None:
    p.add_argument("name", help="a sheet's name (see `doodlebox sheets`)")


def _export_args(p: argparse.ArgumentParser) -> None:
    _name(p)
    p.add_argument("-o", "--output", type=Path, required=True)


def _print_args(p: argparse.ArgumentParser) -> None:
    _name(p)
    p.add_argument("-o", "--output", type=Path, required=True, help="FILE.pdf (one page) or FILE.png (300 dpi)")
    p.add_argument("--paper", choices=sorted(printing.PAPERS), default="a4", help="the page, landscape (default a4)")


COMMANDS = (
    Command("sheets", "the table's sheets: the defaults and the ones added (with no subcommand: list them)", listing,
            subcommands=(
                Command("add", "check a sheet or map side and add it to the library", add, _add_args),
                Command("remove", "remove a sheet added (never a default)", remove, _name),
                Command("export", "write a sheet as a file (a default too: the start of one's own)", export,
                        _export_args),
                Command("print", "the blank sheet to print: a PDF or a 300-dpi PNG, A4 or Letter", print_blank,
                        _print_args),
                Command("use", "the sheet the table plays its game on (a default's name: the default again); "
                        "`doodlebox log` sends it to the console", use, _name))),
)
