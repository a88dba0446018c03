"""`doodlebox validate | score | render | layout check`: game records (docs/records.md) of any
game, replayed through its rules engine (rules/games.py), and the data files of the sheets."""
from __future__ import annotations

import argparse
import json
from pathlib import Path

from doodlebox.cli.command import Command
from doodlebox.errors import InputError
from doodlebox.rules import datafiles
from doodlebox.rules.common import load_json, violations_text
from doodlebox.rules.ending import EARLY, FINISHED, ending
from doodlebox.rules.games import replay_file


def _record(p: argparse.ArgumentParser) -> None:
    p.add_argument("record", type=Path)


def validate(args: argparse.Namespace) -> int:
    """Exit 0 valid, 1 violations, 2 unreadable."""
    rp, game = replay_file(args.record)
    end = ending(rp)
    if args.json:
        print(json.dumps(game.as_json(rp), indent=2))
    elif rp.violations:
        print(f"{args.record}: {len(rp.violations)} violation(s)" + ("; ended early" if end.early else ""))
        print(violations_text(rp))
    else:
        said = {FINISHED: "", EARLY: "; ended early: scored as it stands, no winner (ruling G1)"}
        print(f"{args.record}: valid" + said.get(end.status, " so far (the game is not finished)"))
        print(game.sheets_text(rp))
    return 1 if rp.violations else 0


def score(args: argparse.Namespace) -> int:
    rp, game = replay_file(args.record)
    print(game.table_text(rp))
    if rp.violations:
        print(f"note: {len(rp.violations)} violation(s); illegal turns were skipped (doodlebox validate {args.record})")
    return 0


def render(args: argparse.Namespace) -> int:
    rp, game = replay_file(args.record)
    if game.render is None:
        raise InputError(f"{args.record}: {game.name} has no sheets to draw")
    n = len(rp.record.players)
    if not 1 <= args.player <= n:
        raise InputError(f"--player {args.player}: the record has players 1 to {n}")
    name = rp.record.players[args.player - 1]
    out = args.output
    if not out.parent.is_dir():
        raise InputError(f"{out}: cannot be written: there is no folder {out.parent}")
    try:
        game.render(rp.state, args.player - 1, out, title=name)
    except OSError as exc:
        raise InputError(f"{out}: cannot be written ({exc.strerror or exc})") from None
    print(f"{args.output}: {name}'s sheet after round {rp.state.round}")
    return 0


def layout_check(args: argparse.Namespace) -> int:
    """Exit 0 usable, 2 with every problem and its place."""
    what, problems = datafiles.check(load_json(args.file))
    for where, text in problems:
        print(f"{args.file}: {where}: {text}")
    if not problems:
        print(f"{args.file}: a usable {what}")
    return 2 if problems else 0


def _validate_args(p: argparse.ArgumentParser) -> None:
    _record(p)
    p.add_argument("--json", action="store_true", help="the report as JSON")


def _render_args(p: argparse.ArgumentParser) -> None:
    _record(p)
    p.add_argument("--player", type=int, default=1, help="1-based, in the record's order (default 1)")
    p.add_argument("-o", "--output", type=Path, required=True)


def _file(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", type=Path)


COMMANDS = (
    Command("validate", "replay a game record and check every action against the rules", validate, _validate_args),
    Command("score", "the final table of a game record", score, _record),
    Command("render", "draw a player's sheet from a game record as a PNG", render, _render_args),
    Command("layout", "sheet layouts, Deadly Doodles maps and decks", subcommands=(
        Command("check", "every problem in a sheet layout, a Deadly Doodles map or deck, with its place",
                layout_check, _file),)),
)
