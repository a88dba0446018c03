"""Deadly Doodles as the console sends it (rules/deadly/events.py), both ways: its events read
into a record (`DeadlyRecord`, docs/deadly-doodles.md "From the console's log": reveal a round;
trap, draw a drawing of the player's, in order; done the end of their round, a player without it
in the last round still drawing, "unfinished"; tally their counts), and a game the engine played
as the console's events (`events`; `counts`, a player's scoring section as the `tally` event's
counts). The bot (table/deadly.py) presses the buttons for them."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from doodlebox.rules.common import FORMAT
from doodlebox.rules.console import ConsoleEvent, ConsoleRecord, players
from doodlebox.rules.deadly import deck as decks
from doodlebox.rules.deadly import maps, tallies
from doodlebox.rules.deadly import record as deadly_record
from doodlebox.rules.deadly.deck import TRAP
from doodlebox.rules.deadly.engine import ScoreSheet, State
from doodlebox.rules.deadly.events import EVENTS, MAPS, OWN, PLAYERS, RECORDING, ROOMS, ROUNDS, SIDES, TALLY
from doodlebox.rules.deadly.tallies import FIELDS as TALLY_FIELDS


class DeadlyRecord(ConsoleRecord):
    """A Deadly Doodles record from its events: the rounds' cards, each player's drawings in the
    order drawn, the tallies."""
    EVENTS = EVENTS

    def __init__(self, ev: ConsoleEvent, sheet: Any = None, sheet_name: str = ""):
        self.players = ev.num("n", 1, PLAYERS)
        var = ev.e.get("var", "")
        if var != "":
            raise ev.bad(f"variant {var!r}: Deadly Doodles has none (solo is one player)")
        self.tallies = ev.word("rec", RECORDING) == "tally"
        self.deck = decks.load()
        self.rounds: list[dict] = []
        self.done: list[bool] = []
        side: Any = ev.word("map", (OWN,) if sheet is not None else MAPS)
        if sheet is not None:          # a map side of the table's own: the whole map in the record
            said = f"the sheet {sheet_name!r} ({ev.e.get('sx')})"
            problems = maps.check(sheet)
            if problems:
                raise ev.bad(f"{said} is not a map side that can be played: {problems[0][0]}: {problems[0][1]}")
            side = sheet
        self.data: dict[str, Any] = {"format": FORMAT, "edition": "deadly", "map": side,
                                     "players": players(self.players), "rounds": self.rounds}
        if self.tallies:
            self.data["tallies"] = [None] * self.players

    def take(self, ev: ConsoleEvent) -> None:
        kind, rounds = ev.kind, self.rounds
        if kind == "reveal":
            r = ev.num("r", 1, ROUNDS)
            if r != len(rounds) + 1:
                raise ev.bad(f"round {r}, but the round before it was {len(rounds)}")
            rounds.append({"revealed": ev.ints("cards", (4, 8), 1, len(self.deck.ids)),
                           "drawings": [[] for _ in range(self.players)]})
            self.done = [False] * self.players
            return
        if kind == "tally":
            if not self.tallies:
                raise ev.bad("counts in a game recorded in full (its scores come from the drawings)")
            p = ev.num("p", 0, self.players - 1)
            self.data["tallies"][p] = dict(zip(TALLY_FIELDS, ev.ints("t", (TALLY, TALLY), 0, 99)))  # the latest
            return
        if not rounds:
            raise ev.bad("no cards revealed before it")
        r = ev.num("r", 1, ROUNDS)
        if r != len(rounds):
            raise ev.bad(f"round {r}, but the cards revealed last were round {len(rounds)}'s")
        p = ev.num("p", 0, self.players - 1)
        if self.done[p]:
            raise ev.bad(f"P{p + 1} had ended round {r} before it")
        if kind == "done":
            self.done[p] = True
            return
        room = ev.e.get("room")
        if room not in ROOMS:
            raise ev.bad("no 'room'" if room is None else f"'room' is {room!r}, not a room A1..F6")
        drawn = rounds[-1]["drawings"][p]
        if kind == "trap":                 # which of the round's Traps is not said: the first not drawn
            drawn.append({"card": TRAP, "trap": room})
            return
        if self.tallies:
            raise ev.bad("a path segment entered in a game recorded with tallies (only Traps are entered)")
        card = ev.num("card", 1, len(self.deck.ids))
        ends = ev.e.get("ends")
        if not isinstance(ends, str) or not ends or "".join(s for s in SIDES if s in ends) != ends:
            raise ev.bad("no 'ends'" if ends is None else f"'ends' is {ends!r}, not sides in the order N, E, S, W")
        drawn.append({"card": card, "room": room, "ends": list(ends)})

    def so_far(self) -> dict:
        """The record; the last round names the players still drawing in it ("unfinished": a copy
        of the round says so, the round itself grows on)."""
        if self.rounds and not all(self.done):
            last = dict(self.rounds[-1], unfinished=[p for p, d in enumerate(self.done) if not d])
            return dict(self.data, rounds=[*self.rounds[:-1], last])
        return self.data

    def stream(self, label: str) -> deadly_record.Stream:
        return deadly_record.Stream(self.so_far(), label)


# -- the engine's game as the console's events ------------------------------------------------------
def counts(sheet: ScoreSheet) -> list[int]:
    """A player's scoring section (the engine's, of their map) as the `tally` event's counts."""
    c = {"loot": len(sheet.loot), "dragon": int(sheet.dragon), "weapons": len(sheet.weapons),
         "matched": len(sheet.killed), "unmatched": len(sheet.mauled), "entryways": sheet.free_entryways,
         "unused": sheet.unused, "hits": len(sheet.hits)}
    return [c[f] for f in TALLY_FIELDS]


def events(state: State, g: int = 1, counted: list[list[int]] | None = None,
           refused: Callable[[dict], dict | None] | None = None, sheet: tuple[str, str] | None = None) -> list[dict]:
    """The events the console sends for the game `state` has played: `game`, each round's
    `reveal`, then each player's `trap`s and `draw`s in the order drawn and their `done`, seat by
    seat (the console takes the players in turn); `tally` per player (with `counted`, each
    player's counts: the game recorded with tallies, whose segments are not sent) and `end` once
    the game is over. `refused(trap)`, asked for each Trap in the order drawn, may give a `refuse`
    the console sent before it. `sheet`: (name, hash) of the table's own map side the game is
    played on, which the `game` event names (`map` "own", `sh`, `sx`)."""
    game = state.game
    rec = "tally" if counted is not None else "full"
    out: list[dict] = [{"k": "game", "g": g, "ed": "deadly", "n": game.players, "var": "",
                        "map": game.map.spec or "a", "rec": rec}]
    if sheet is not None:
        out[0].update(map=OWN, sh=sheet[0], sx=sheet[1])
    per: list[list[dict]] = [[] for _ in range(game.players)]
    revealed: list[int] = []
    r = 0

    def flush() -> None:
        for p in range(game.players):
            out.extend(per[p])
            per[p].clear()

    for who, a in state.history:
        if a.kind == "reveal":
            if not revealed or revealed[-1] < 0:
                flush()
                revealed.clear()
                r += 1
            revealed.append(a.card)
            continue
        if revealed and revealed[-1] > 0:
            out.append({"k": "reveal", "g": g, "r": r, "cards": list(revealed)})
            revealed.append(-1)              # sent
        if a.kind == "done":
            per[who].append({"k": "done", "g": g, "r": r, "p": who})
        elif a.kind == "trap":
            e = {"k": "trap", "g": g, "r": r, "p": who, "room": a.room}
            refusal = refused(e) if refused is not None else None
            if refusal is not None:
                per[who].append(refusal)
            per[who].append(e)
        elif counted is None:
            per[who].append({"k": "draw", "g": g, "r": r, "p": who, "card": a.card, "room": a.room, "ends": a.ends})
    if revealed and revealed[-1] > 0:
        out.append({"k": "reveal", "g": g, "r": r, "cards": list(revealed)})
    flush()
    if state.is_terminal():
        for p, t in enumerate(counted or []):
            out.append({"k": "tally", "g": g, "p": p, "t": list(t)})
        totals = ([tallies.total(tallies.Counts.of(t)) for t in counted] if counted is not None
                  else state.scores())
        out.append({"k": "end", "g": g, "r": state.round, "why": "rounds", "p": totals})
    return out
