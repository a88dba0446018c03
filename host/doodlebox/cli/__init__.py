"""The doodlebox command line: one table of commands, one module per group of them.

    console.py   log, sim, demo          a console's games into the database; the virtual console
    games.py     games, show, export, import, names    the games in the database (console games and
                                         records imported from paper): one looked at, written as a
                                         record or a scores table; its players' names
    stats.py     stats                   dice fairness, scores, win rates, solo ranks; their charts
    records.py   validate, score, render, layout check    game records and data files
    web.py       web                     a page on 127.0.0.1: the games, their sheets, the statistics,
                                         the game being played (`log --web`: the virtual console too)
    maker.py     flash, hardware ...     putting the firmware on a Pico; the board's documents

Every error doodlebox reports is a doodlebox.errors.DoodleboxError: one line on stderr and its
exit code (2 for input that cannot be used, 1 for a thing that failed).
"""
from __future__ import annotations

import argparse
import os
import sys

from doodlebox import __version__
from doodlebox.cli import console, games, maker, records, stats, web
from doodlebox.cli.command import Command
from doodlebox.errors import DoodleboxError

COMMANDS: tuple[Command, ...] = (*console.COMMANDS, *games.COMMANDS, *stats.COMMANDS, *records.COMMANDS,
                                 *web.COMMANDS, *maker.COMMANDS)


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="doodlebox", description="Log, validate, score and simulate doodlebox games.")
    p.add_argument("--version", action="version", version=f"doodlebox {__version__}")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for c in COMMANDS:
        c.add_to(sub)
    return p


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        return args.run(args)
    except DoodleboxError as exc:
        print(f"doodlebox: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("stopped", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # the reader went away (`doodlebox ... | head`): stop quietly, and keep Python's own
        # flush at exit from failing on the closed pipe
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
