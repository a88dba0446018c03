"""What a console sends for a game played on the PC's rules engine: its events (docs/protocol.md,
version 2), one per complete turn (C5), for the tests of the console's log into records. The
events are the dice editions' translation (rules/dice/console.py, `events`); this adds a refused
press now and then."""
from __future__ import annotations

import random

from doodlebox.rules.dice import console
from doodlebox.rules.dice.engine import State


def console_events(state: State, g: int = 1, refusals: random.Random | None = None) -> list[dict]:
    """The events of the game `state` has played (its history), as the console sends them:
    `game`, `start` per column, `roll` per round, a `claim` (with the value circled) or `tree`
    per turn, `end` when the game is over. With `refusals`, a refused press now and then too
    (the console refuses what the engine would: a taken die)."""
    if refusals is None:
        return console.events(state, g)
    rng = refusals

    def refused(before: State, claim: dict) -> dict | None:
        if rng.random() < 0.2:
            taken = [i + 1 for i, t in enumerate(before.taken) if t >= 0]
            if taken:
                return {"k": "refuse", "g": g, "r": claim["r"], "p": claim["p"], "i": rng.choice(taken),
                        "why": "taken"}
        return None

    return console.events(state, g, refused)
