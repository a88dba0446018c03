"""What a console sends for a game played on the PC's rules engine: its events (docs/protocol.md,
version 2), one per complete turn (C5), for the tests of the console's log into records."""
from __future__ import annotations

import random

from doodlebox.rules.dice.engine import CIRCLE, PASS, SCORING, State

VAR = {("", False): "", ("control", False): "control", ("", True): "solo", ("control", True): "solo+control"}


def console_events(state: State, g: int = 1, refusals: random.Random | None = None) -> list[dict]:
    """The events of the game `state` has played (its history), as the console sends them:
    `game`, `start` per column, `roll` per round, a `claim` (with the value circled) or `tree`
    per turn, `end` when the game is over. With `refusals`, a refused press now and then too
    (the console refuses what the engine would: a taken die)."""
    game = state.game
    shadow = game.new_state()
    out: list[dict] = [{"k": "game", "g": g, "ed": game.edition, "n": game.players,
                        "var": VAR[(game.variant, game.players == 1)]}]
    history = state.history
    k = 0
    while k < len(history):
        who, a = history[k]
        if a.kind == "start":
            out.append({"k": "start", "g": g, "col": len(shadow.start_faces) + 1, "d": a.die})
        elif a.kind == "roll":
            out.append({"k": "roll", "g": g, "r": shadow.round + 1, "sp": shadow.start_player, "c": a.die,
                        "w": list(a.whites)})
        elif a.kind == "pass":
            forced = shadow.legal_actions() == [PASS]
            out.append({"k": "tree", "g": g, "r": shadow.round, "p": who, "why": "forced" if forced else "pass"})
        else:
            if refusals is not None and refusals.random() < 0.2:
                taken = [i + 1 for i, t in enumerate(shadow.taken) if t >= 0]
                if taken:
                    out.append({"k": "refuse", "g": g, "r": shadow.round, "p": who, "i": refusals.choice(taken),
                                "why": "taken"})
            e = {"k": "claim", "g": g, "r": shadow.round, "p": who, "i": a.die, "d": shadow.white[a.die - 1],
                 "row": a.row, "col": a.col, "v": 0}
            if a.via is not None:
                e["via"] = list(a.via)
            if a.kind == "draw":
                e["pc"] = a.piece
            elif a.kind == "floor":
                e["fl"] = 1
            shadow.apply(a)
            if shadow.phase == CIRCLE:       # the value circled is the next action, in the same turn
                if k + 1 == len(history):
                    break                    # not chosen yet: the console sends nothing (C5)
                k += 1
                e["v"] = history[k][1].value
                shadow.apply(history[k][1])
            elif a.kind == "draw" and game.kind[(a.row - 1) * game.n + a.col - 1] in SCORING:
                e["v"] = shadow.sheets[who].scored[-1].value
            out.append(e)
            k += 1
            continue
        shadow.apply(a)
        k += 1
    if shadow.is_terminal():
        out.append({"k": "end", "g": g, "r": shadow.round, "why": shadow.ending[0], "p": shadow.scores()})
    return out
