"""What a console sends for a game of Deadly Doodles or Doodle Puzzle played on the PC's rules engine:
its events (docs/protocol.md, version 4), for the tests of the console's log into records: the
games' own translations (rules/deadly/console.py, rules/puzzle/console.py), with a refused entry
now and then. The dice editions' are tests/support/console_events.py."""
from __future__ import annotations

import random

from doodlebox.rules.deadly import console as deadly
from doodlebox.rules.deadly.engine import State as DeadlyState
from doodlebox.rules.puzzle import console as puzzle
from doodlebox.rules.puzzle import engine as P
from doodlebox.rules.puzzle.engine import State as PuzzleState


def counts_of(state: DeadlyState) -> list[list[int]]:
    """Each player's eight counts (docs/protocol.md, `tally.t`) as their map scores them now."""
    return [deadly.counts(ss) for ss in state.result().sheets]


def deadly_events(state: DeadlyState, g: int = 1, tallies: list[list[int]] | None = None,
                  refusals: random.Random | None = None) -> list[dict]:
    """The events of the game `state` has played (rules/deadly/console.py, `events`): `game`, each
    round's `reveal`, then each player's `trap`s and `draw`s in the order drawn and their `done`,
    seat by seat; `tally` per player (with `tallies`, the game recorded with tallies: segments are
    not sent) and `end` once the game is over. With `refusals`, a refused Trap now and then too."""
    rng = refusals

    def refused(trap: dict) -> dict | None:
        if rng is not None and rng.random() < 0.3:
            return {"k": "refuse", "g": g, "r": trap["r"], "p": trap["p"], "i": 0, "why": "trap_room"}
        return None

    return deadly.events(state, g, tallies, refused)


def timed(state: PuzzleState, rng: random.Random) -> None:
    """Play a Doodle Puzzle game to its end at random, the drawing minute always timed by the
    console (paused now and then)."""
    clock = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply(state.sample_chance(rng))
            continue
        legal = state.legal_actions()
        if state.phase == P.DRAWING and rng.random() > 0.25:
            clock += rng.randrange(5_000, 100_000)
            paused = rng.choice([0, 0, rng.randrange(1, 20_000)])
            a = P.drawing((clock, clock + P.MINUTE_MS + paused + rng.randint(-900, 900), paused))
            clock += P.MINUTE_MS + paused + 1000
        elif state.phase == P.DRAWING:
            a = P.AGAIN
        else:
            a = rng.choice(legal)
        state.apply(a)


def puzzle_events(state: PuzzleState, g: int = 1, refusals: random.Random | None = None) -> list[dict]:
    """The events of the game `state` has played (rules/puzzle/console.py, `events`): `game`, then
    per round `roles`, a `subject` per card drawn, `timer`, a `place` per board, `mischief`,
    `guess`, `challenge`, and `end` once the game is over. With `refusals`, a refused board now
    and then too."""
    rng = refusals

    def refused(place: dict) -> dict | None:
        if rng is not None and rng.random() < 0.2:
            return {"k": "refuse", "g": g, "r": place["r"], "p": place["p"], "i": 0, "why": "slot_twice"}
        return None

    return puzzle.events(state, g, refused)
