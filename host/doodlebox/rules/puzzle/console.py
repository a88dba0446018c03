"""Doodle Puzzle as the console sends it (rules/puzzle/events.py), both ways: its events read into
a record (`PuzzleRecord`, docs/doodle-puzzle.md "From the console's log": roles a round; subject
its number and card, an earlier one of the round set aside, "rejected"; timer the minute ran;
place, mischief, guess, challenge), and a game the engine played as the console's events
(`events`). The bot (table/puzzle.py) presses the buttons for them."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from doodlebox.rules.common import FORMAT
from doodlebox.rules.console import ConsoleEvent, ConsoleRecord, players
from doodlebox.rules.events import INT32
from doodlebox.rules.puzzle import record as puzzle_record
from doodlebox.rules.puzzle.engine import State
from doodlebox.rules.puzzle.events import (
    EVENTS,
    GUESSES,
    NUMBERS,
    PLAYERS,
    ROLE_LETTERS,
    ROUNDS,
    SLOTS,
    SUBJECT_CARDS,
    SUBJECTS,
    VARIANTS,
)

STEPS = tuple(EVENTS.kinds)       # a round's events in order: roles, subject, timer, place, ...
LETTERS = {role: letter for letter, role in ROLE_LETTERS.items()}    # an engine's role -> its letter


class PuzzleRecord(ConsoleRecord):
    """A Doodle Puzzle record from its events: each round's roles, subject, minute, placings,
    Mischief, guess and challenge."""
    EVENTS = EVENTS

    def __init__(self, ev: ConsoleEvent, sheet: Any = None, sheet_name: str = ""):
        if sheet is not None:       # (EVENTS.sheets is false: history/console_record.py gives it none)
            raise ev.bad("Doodle Puzzle is played on no sheet")
        self.players = ev.num("n", PLAYERS[0], PLAYERS[1])
        self.rounds: list[dict] = []
        self.step = 0
        self.data = {"format": FORMAT, "edition": "puzzle", "variant": ev.word("var", VARIANTS),
                     "subjects": ev.word("subj", SUBJECTS), "players": players(self.players),
                     "rounds": self.rounds}

    def take(self, ev: ConsoleEvent) -> None:
        kind, rounds = ev.kind, self.rounds
        r = ev.num("r", 1, ROUNDS)
        if kind == "roles":
            if r != len(rounds) + 1:
                raise ev.bad(f"round {r}, but the round before it was {len(rounds)}")
            roles = ev.e.get("roles")
            if not isinstance(roles, str) or len(roles) != self.players or any(c not in ROLE_LETTERS for c in roles):
                raise ev.bad("no 'roles'" if roles is None else
                             f"'roles' is {roles!r}, not one of the letters {''.join(ROLE_LETTERS)} for each of "
                             f"{self.players} seats")
            rounds.append({"roles": [ROLE_LETTERS[c] for c in roles]})
            self.step = 0
            return
        if not rounds:
            raise ev.bad("no roles dealt before it")
        if r != len(rounds):
            raise ev.bad(f"round {r}, but the roles dealt last were round {len(rounds)}'s")
        rd = rounds[-1]
        step = STEPS.index(kind)
        if step < self.step or (step == self.step and kind not in ("subject", "place")):
            raise ev.bad(f"after round {r}'s {STEPS[self.step]}")
        if kind != "subject" and "card" not in rd:
            raise ev.bad(f"round {r} has no subject before it")
        self.step = step
        if kind == "subject":
            if "card" in rd:            # the table set the last one aside (ruling P2)
                rd.setdefault("rejected", []).append({"number": rd.pop("number"), "card": rd.pop("card")})
            rd["number"] = ev.num("num", 1, NUMBERS)
            rd["card"] = ev.num("card", 1, SUBJECT_CARDS)
        elif kind == "timer":
            start, end, paused = (ev.num(k, 0, INT32) for k in ("start", "end", "paused"))
            rd["timer"] = {"start_ms": start, "end_ms": end, **({"paused_ms": paused} if paused else {})}
            rd["placements"] = []       # the minute has run
        elif kind == "place":
            rd.setdefault("placements", []).append([ev.num("p", 0, self.players - 1), ev.num("slot", 1, SLOTS)])
        elif kind == "mischief":
            acts = (("erase", ev.num("erase", 0, SLOTS)), ("draw", ev.num("draw", 0, SLOTS)))
            rd["baddy"] = {k: board for k, board in acts if board}
        elif kind == "guess":
            rd["guess"] = ev.word("res", GUESSES)
        else:
            board = ev.num("board", 0, SLOTS)
            if board:
                rd["challenge"] = board

    def so_far(self) -> dict:
        return self.data

    def stream(self, label: str) -> puzzle_record.Stream:
        return puzzle_record.Stream(self.so_far(), label)


# -- the engine's game as the console's events ------------------------------------------------------
def events(state: State, g: int = 1, refused: Callable[[dict], dict | None] | None = None) -> list[dict]:
    """The events the console sends for the game `state` has played: `game`, then per round
    `roles`, a `subject` per card drawn, `timer` (the console times every minute: the engine's
    drawing must have its timer), a `place` per board, `mischief` (outside Behave, once Baddy is
    done: the erase and the board drawn on, 0 for none), `guess`, `challenge` (Showdown, after a
    wrong guess: 0 for none), and `end` once the game is over. `refused(place)`, asked for each
    board placed, may give a `refuse` the console sent before it."""
    game = state.game
    out: list[dict] = [{"k": "game", "g": g, "ed": "puzzle", "n": game.players, "var": "+".join(game.variants),
                        "subj": game.subjects}]
    r = 0
    number = 0
    mischief: dict[str, int] = {}
    for who, a in state.history:
        k = a.kind
        if k == "deal":
            r += 1
            mischief = {}
            out.append({"k": "roles", "g": g, "r": r, "roles": "".join(LETTERS[x] for x in a.roles)})
        elif k == "number":
            number = a.value
        elif k == "card":
            out.append({"k": "subject", "g": g, "r": r, "num": number, "card": a.value})
        elif k == "drawing":
            assert a.timer is not None, "the console always times the minute"
            start, end, paused = a.timer
            out.append({"k": "timer", "g": g, "r": r, "start": start, "end": end, "paused": paused})
        elif k == "place":
            e = {"k": "place", "g": g, "r": r, "p": who, "slot": a.value}
            refusal = refused(e) if refused is not None else None
            if refusal is not None:
                out.append(refusal)
            out.append(e)
        elif k in ("erase", "draw"):
            mischief[k] = a.value
            if len(mischief) == 2:
                out.append({"k": "mischief", "g": g, "r": r, "erase": mischief["erase"], "draw": mischief["draw"]})
        elif k == "done":
            out.append({"k": "mischief", "g": g, "r": r, "erase": mischief.get("erase", 0),
                        "draw": mischief.get("draw", 0)})
        elif k == "guess":
            out.append({"k": "guess", "g": g, "r": r, "res": "right" if a.value else "wrong"})
        elif k in ("challenge", "decline"):
            out.append({"k": "challenge", "g": g, "r": r, "board": a.value if k == "challenge" else 0})
    if state.is_terminal():
        out.append({"k": "end", "g": g, "r": state.round, "why": "rounds", "p": state.scores()})
    return out
