"""cli/: how does a person ask doodlebox for something? The command line: one table of commands, one module per
group of them (the table and main() are here); each module parses arguments and prints, the work is in the modules
it calls. It may import every other folder; nothing in the package imports it but `python -m doodlebox`.

    command.py   a command as data: its name, help, arguments, the function that runs it, or its subcommands
    console.py   log, sim, demo: a console's games into the database, live; the virtual console; the scripted table
    games.py     games, show, export, import, names: the stored games (console games and records from paper)
    stats.py     stats: dice fairness, scores, win rates, solo ranks; their charts
    league.py    people, league, sync: people (merged), the league's openskill standings, a venue's games pushed in
    records.py   validate, score, render, layout check: game records and data files
    sheets.py    sheets [add|remove|export|print|use]: the library of the table's sheets, the blank sheet, the choice
    web.py       web: a page on 127.0.0.1 with the games, sheets, statistics, the game being played (`log --web` too)
    maker.py     flash, hardware bom|power|wiring|wokwi|check: the firmware onto a Pico; the board's documents
    coach.py     bot: bots play whole games through the engine at the coach's levels
    analyse.py   analyse, hint: each turn's points lost against the best move with the same dice; the best move now

Every error doodlebox reports is a doodlebox.errors.DoodleboxError: one line on stderr and its
exit code (2 for input that cannot be used, 1 for a thing that failed).
"""
from __future__ import annotations

import argparse
import io
import os
import sys

from doodlebox import paths, versions
from doodlebox.cli import analyse, coach, console, games, league, maker, records, sheets, stats, web
from doodlebox.cli.command import Command
from doodlebox.errors import DoodleboxError

COMMANDS: tuple[Command, ...] = (*console.COMMANDS, *games.COMMANDS, *stats.COMMANDS, *league.COMMANDS,
                                 *records.COMMANDS, *sheets.COMMANDS,
                                 *web.COMMANDS, *maker.COMMANDS,
                                 *coach.COMMANDS, *analyse.COMMANDS)


def where_the_games_are() -> str:
    """`doodlebox --help`'s last paragraph: the database every command uses, and how to choose another."""
    folder = ("\n  (the folder is $XDG_DATA_HOME/doodlebox when XDG_DATA_HOME is set)"
              if sys.platform.startswith("linux") else "")
    return ("where the games are:\n"
            f"  {paths.default_db()}\n"
            "  holds the games logged at the table (doodlebox log, make run); games, show, export,\n"
            "  import, names, stats and web use it. Each of them takes --db FILE to use another\n"
            "  database instead (doodlebox log makes it where there is none). doodlebox demo keeps\n"
            "  the scripted table's games apart, in\n"
            f"  {paths.demo_db()}\n"
            "  (to see them: doodlebox games --db with that file)" + folder)


class _Version(argparse.Action):
    """--version: read when asked (the firmware's version is read from the file it carries)."""

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        try:
            print(versions.line())
        except DoodleboxError as exc:
            parser.exit(exc.exit_code, f"doodlebox: {exc}\n")
        parser.exit()


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="doodlebox", description="Log, validate, score and simulate doodlebox games.",
                                epilog=where_the_games_are(), formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--version", action=_Version, nargs=0, help="the versions of doodlebox, of the firmware it "
                   "carries and of the link's protocol, and exit")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for c in COMMANDS:
        c.add_to(sub)
    return p


class OutputError(DoodleboxError):
    """stdout cannot take what a command writes (a full disk, `>/dev/full`): exit 1."""


class _Stdout:
    """sys.stdout while a command runs: a write or flush that fails is an OutputError (a closed
    pipe stays a BrokenPipeError, which main() answers by stopping quietly)."""
    def __init__(self, out):
        self.out = out

    def write(self, text: str) -> int:
        try:
            return int(self.out.write(text))
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise OutputError(f"the output cannot be written ({exc.strerror or exc})") from None

    def flush(self) -> None:
        try:
            self.out.flush()
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise OutputError(f"the output cannot be written ({exc.strerror or exc})") from None

    def __getattr__(self, name: str):
        return getattr(self.out, name)


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    real, sys.stdout = sys.stdout, _Stdout(sys.stdout)
    try:
        code = _run(args)
        sys.stdout.flush()     # here, where a failure is said in one line, not in Python's flush at exit
        return code
    except OutputError as exc:
        _let_go_of_stdout()
        print(f"doodlebox: {exc}", file=sys.stderr)
        return exc.exit_code
    except BrokenPipeError:
        # the reader went away (`doodlebox ... | head`): stop quietly
        _let_go_of_stdout()
        return 1
    finally:
        sys.stdout = real


def _run(args: argparse.Namespace) -> int:
    try:
        return args.run(args)
    except DoodleboxError as exc:
        if isinstance(exc, OutputError):
            _let_go_of_stdout()
        print(f"doodlebox: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("stopped", file=sys.stderr)
        return 130


def _let_go_of_stdout() -> None:
    """stdout to /dev/null: what it still holds goes nowhere, and Python's own flush at exit does
    not fail (on a closed pipe, a full disk)."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError, io.UnsupportedOperation):     # a stdout without a file (a test's StringIO)
        pass
