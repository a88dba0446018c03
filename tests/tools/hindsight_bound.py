"""What solo Doodle City scores when every roll is known in advance: for each seed, a game played
by a level of the coach (`doodlebox bot --edition city --players 1 --seed S`'s game k is seed
S + k), then the hindsight search (coach/analysis.hindsight: a beam over turns, greedy playouts
to the end) on that game's rolls, wider and longer than `doodlebox analyse` gives it. Its lines
are real lines of play on those rolls: a lower bound of the best score with every roll known,
not a proof of it (docs/coach.md, "The goal"). A line that outlasts the game's rolls goes on with
the rolls of a fixed seed (analysis.hindsight).

    .venv/bin/python tests/tools/hindsight_bound.py [--seeds 1000:1018] [--width 16] [--branch 12]
        [--budget 150] [--level greedy]

Prints per seed the level's score and the hindsight's, then the means. Single-threaded: 15-40 s
a game at width 16, 1-2 min at width 64."""
from __future__ import annotations

import argparse
import random
import statistics

from doodlebox.coach import analysis
from doodlebox.coach.levels import level
from doodlebox.rules.dice import engine as dice
from doodlebox.rules.games import find_game


def played(seed: int, name: str, budget_s: float) -> dice.State:
    """A solo Doodle City game by level `name`, its dice as `doodlebox bot --seed` draws them."""
    state = find_game("city").new_game(1).new_state()
    assert isinstance(state, dice.State)
    chance = random.Random(seed)
    moves = random.Random(seed * 1000 + 17)
    bot = level(name)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_unchecked(state.sample_chance(chance))
        else:
            state.apply(bot.choose(state, moves, budget_s))
    return state


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", default="1000:1018", help="first:end (end excluded)")
    ap.add_argument("--width", type=int, default=16)
    ap.add_argument("--branch", type=int, default=12)
    ap.add_argument("--budget", type=float, default=150.0, help="s per game's hindsight")
    ap.add_argument("--level", default="greedy", help="the level whose games give the rolls")
    ap.add_argument("--level-budget", type=float, default=1.0, help="s per move, for the search level")
    args = ap.parse_args(argv)
    first, end = (int(x) for x in args.seeds.split(":"))
    own, best = [], []
    print(f"{'seed':>6} {args.level:>8} {'hindsight':>9} {'complete':>8} {'secs':>6}")
    for seed in range(first, end):
        state = played(seed, args.level, args.level_budget)
        h = analysis.hindsight(state, width=args.width, branch=args.branch, budget_s=args.budget)
        own.append(state.scores()[0])
        best.append(h.points)
        print(f"{seed:>6} {own[-1]:>8} {h.points:>9} {h.complete!s:>8} {h.seconds:>6.1f}", flush=True)
    if own:
        print(f"{'mean':>6} {statistics.mean(own):>8.1f} {statistics.mean(best):>9.1f}"
              f"   median {statistics.median(best)}, {len(best)} games, width {args.width}, branch {args.branch}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
