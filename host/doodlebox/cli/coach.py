"""`doodlebox bot`: bots play whole games of a dice edition through the rules engine, solo or
against each other, at the coach's levels (host/doodlebox/coach/, docs/coach.md)."""
from __future__ import annotations

import argparse
import json

from doodlebox.cli.command import Command
from doodlebox.coach import bots
from doodlebox.coach.levels import LEVELS
from doodlebox.errors import InputError
from doodlebox.rules.dice import layout
from doodlebox.rules.dice.spec import SPEC as DICE


def bot(args: argparse.Namespace) -> int:
    lay = None
    if args.layout is not None:            # a sheet of the user's own (docs/layouts.md)

        lay = layout.load(args.layout)
        if lay.edition != args.edition:
            raise InputError(f"--layout {args.layout}: a sheet of {lay.edition!r}, not of {args.edition!r} "
                             f"(--edition {lay.edition} to play it)")
    edition = next(e for e in DICE.editions if e.edition == args.edition)
    low, high = edition.players
    if not low <= args.players <= high:
        raise InputError(f"--players {args.players}: {edition.players_text()}")
    levels = [v.strip() for v in args.level.split(",")]
    for name in levels:
        if name not in LEVELS:
            raise InputError(f"--level {name}: not a level ({', '.join(LEVELS)})")
    if len(levels) not in (1, args.players):
        raise InputError(f"--level {args.level}: one level, or one per player ({args.players})")
    if args.games < 1:
        raise InputError("--games must be at least 1")
    if args.budget <= 0:
        raise InputError("--budget must be above 0 seconds")
    m = bots.run(args.edition, args.players, args.games, levels, args.seed, args.budget,
                 "control" if args.control else "", layout=lay)
    m.sheet = args.layout or ""
    if args.json:
        print(json.dumps({"edition": m.edition, "players": m.players, "budget_s": m.budget_s,
                          "seats": bots.summary(m), "totals": [g.totals for g in m.games]}, indent=1))
    else:
        print(bots.table(m))
    return 0


def _bot_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--edition", default="city", choices=[e.edition for e in DICE.editions],
                   help="the dice edition (default city)")
    p.add_argument("--players", type=int, default=1, help="1 (solo: 3 white dice) to 5 (default 1)")
    p.add_argument("--games", type=int, default=10, help="how many games (default 10)")
    p.add_argument("--level", default="greedy",
                   help="random, greedy, rollout or search (default greedy); one per player, comma-separated, "
                        "to play levels against each other (greedy,search)")
    p.add_argument("--seed", type=int, default=1, help="the first game's seed (game k: seed + k)")
    p.add_argument("--budget", type=float, default=1.0, metavar="SECONDS",
                   help="the search level's time per move (default 1)")
    p.add_argument("--control", action="store_true", help="the More control variant (5x5 editions)")
    p.add_argument("--layout", metavar="FILE",
                   help="play this sheet of the edition (docs/layouts.md: your printed one) instead of its default")
    p.add_argument("--json", action="store_true", help="the figures as JSON")


COMMANDS = (
    Command("bot", "bots play whole games through the rules engine at a level; the mean, spread and ranks",
            bot, _bot_args),
)
