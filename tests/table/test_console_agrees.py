"""The console's core (firmware/doodle/, the files the Pico runs) and the PC's rules engine agree
on every dice edition and every kind of entry. The engine plays random legal games; each action
is pressed on the console's buttons as a person would (host/doodlebox/presses.py); the console
rolls its own dice and the engine takes the same outcome. After every turn both must hold the
same sheets (pieces, houses, floors, trees, barrels, values circled, shared values, bonuses),
the same scores and the same endings, and the console's event must say what the engine did.
Every die the console refuses, the engine refuses too, for the same reason (rule id)."""
from __future__ import annotations

import random

import pytest

from doodle import rounds, rounds_final, score
from doodle.app import App
from doodle.flashlog import RamFlash
from doodlebox.rules.api import IllegalAction
from doodlebox.rules.dice import console as dice_console
from doodlebox.rules.dice.engine import PASS, Action
from doodlebox.rules.games import find_game
from doodlebox.table import presses

EDITIONS = ("city", "suzhou", "treasures", "shanghai", "monsters")
SIX_BY_SIX = ("shanghai", "monsters")



class Table:
    """A console (its App under CPython, in simulated time) and the engine side by side."""

    def __init__(self, edition: str, players: int, control: bool, seed: int):
        self.rng = random.Random(seed)
        self.events: list[dict] = []
        self.app = App(lambda n: self.rng.randrange(n), 1, "c0ffee", RamFlash())
        self.now = 0
        add = self.app.journal.add
        self.app.journal.add = lambda e: (self.events.append(e), add(e))[1]
        for _ in range(EDITIONS.index(edition)):
            self.press("D0")
        self.press(f"D{players}")
        if control:
            self.press("PASS")
        self.press("ROLL")
        self.console = self.app.game
        assert self.console is not None and self.console.ed.EDITION == edition
        self.state = find_game(edition).new_game(players, "control" if control else "").new_state()

    def press(self, name: str):
        self.now += 200
        why = self.app.button(name, self.now)
        if self.app.collect_wanted:   # the loop's part: a collection, then the step kept for it
            self.app.collected()
        self.app.tick(self.now)
        self.app.journal.ack(1, self.app.journal.next)   # a PC acknowledging everything
        return why

    def last(self, kind: str) -> dict:
        return next(e for e in reversed(self.events) if e["k"] == kind)

    # -- one step -------------------------------------------------------------------------
    def chance(self) -> None:
        n = len(self.events)
        assert self.press("ROLL") is None
        e = self.events[n]
        if e["k"] == "start":
            self.state.apply(Action("start", e["d"]))
        else:
            assert e["k"] == "roll" and e["r"] == self.state.round + 1
            self.state.apply(Action("roll", e["c"], whites=tuple(e["w"])))

    def turn(self, action) -> None:
        s, c = self.state, self.console
        keys = presses.presses(s, action)
        fields = dice_console.claim(s, action) if action.kind not in ("pass", "circle") else None
        n = len(self.events)
        for k in keys:
            assert self.press(k) is None, (k, keys, action, self.app.notice)
        s.apply(action)
        if c.phase == rounds.VALUE and s.phase != "circle":   # an engine without the circle decision
            assert self.press("ROLL") is None
        new = [e for e in self.events[n:] if e["k"] != "refuse"]
        if action.kind == "pass":
            assert [e["k"] for e in new] == ["tree"] + (["end"] if s.is_terminal() else [])
        elif fields is not None and s.phase != "circle":
            claim = new[0]
            assert claim["k"] == "claim"
            assert {k: claim.get(k) for k in fields} == fields, (claim, fields)
            assert not ({"pc", "fl", "via"} - set(fields)) & set(claim), claim
        elif action.kind == "circle":
            assert new[0]["k"] == "claim" and new[0]["v"] == action.value

    # -- agreement --------------------------------------------------------------------------
    def agree(self) -> None:
        s, c = self.state, self.console
        if s.phase == "circle":   # mid-turn: the console applies the turn when it is complete (C5)
            assert c.phase == rounds.VALUE
            return
        lay = s.game.layout
        tracks = list(lay.tracks)
        for p in range(s.game.players):
            es, cs = s.sheets[p], c.sheets[p]
            assert list(cs.pieces) == es.pieces, f"P{p + 1} pieces"
            assert list(cs.crossed) == es.crossed, f"P{p + 1} houses"
            assert list(cs.floors) == es.floors, f"P{p + 1} floors"
            assert (cs.trees, cs.barrels) == (es.trees, es.barrels)
            assert [cs.circled[t] for t in range(len(tracks))] == [es.circled[t] for t in tracks]
            assert cs.bonuses == es.bonuses
        for t, name in enumerate(tracks):
            if lay.tracks[name].shared:
                assert c.shared[t] == s.shared[name]
        assert c.bonus_owner == s.bonus_owner
        assert score.totals(c) == s.scores()
        assert c.endings == s.ending
        assert (c.phase == rounds.OVER) == s.is_terminal()
        if s.is_terminal():
            assert rounds_final.winners(c, score.totals(c)) == s.result().winners

    def refusals(self) -> None:
        """Every white die (and PASS): the console accepts exactly what the engine allows,
        and refuses with the engine's rule."""
        s, c = self.state, self.console
        p = s.current_player()
        legal = s.legal_actions()
        for d in range(1, s.game.whites + 1):
            why = c.why_not(p, d)
            ok = any(a.die == d for a in legal if a.kind != "pass")
            assert (why is None) == ok, (d, why)
            if why is not None and why != "taken":
                squares, _ = c.targets(c.sheets[p], d)
                if squares is not None and len(squares) == 1:   # one square: the engine's reason for it
                    r, col = divmod(squares[0], c.ed.SIZE)
                    kind = "house" if lay_kind(s, squares[0]) == "house" else "draw"
                    probe = Action(kind, d, r + 1, col + 1, "NS" if kind == "draw" else "")
                    with pytest.raises(IllegalAction) as exc:
                        s.check(probe)
                    assert exc.value.rule == why, (why, exc.value.rule, exc.value.reason)
                elif squares is None:
                    with pytest.raises(IllegalAction) as exc:
                        s.check(next_probe(s, d))
                    assert exc.value.rule == why
            elif why == "taken":
                with pytest.raises(IllegalAction) as exc:
                    s.check(Action("draw", d, 1, 1, "NS"))
                assert exc.value.rule == "taken"
        if PASS not in legal:
            n = len(self.events)
            refused = self.press("PASS")
            assert refused is not None and self.events[n]["why"] == refused
            with pytest.raises(IllegalAction) as exc:
                s.check(PASS)
            assert exc.value.rule == refused


def lay_kind(state, i: int) -> str:
    return state.game.layout.squares[i].kind


def next_probe(state, die: int):
    """An action with `die` at the square it points to (its cost is what is refused)."""
    w, b = state.white[die - 1], state.column
    return Action("draw", die, w, b if b != 6 else 1, "NS", None if state.game.layout.jokers else (w, b))


def choose(t: Table, rng: random.Random):
    legal = t.state.legal_actions()
    if t.state.phase == "circle":
        return rng.choice(legal)
    draws = [a for a in legal if a.kind != "pass"]
    floors = [a for a in draws if a.kind == "floor"]
    if floors and rng.random() < 0.5:
        return rng.choice(floors)
    if draws and (PASS not in legal or rng.random() < 0.9):
        return rng.choice(draws)
    return PASS


@pytest.mark.parametrize("edition,players,control", [
    (ed, n, ctl) for ed in EDITIONS for n, ctl in ((1, False), (1, True), (2, False), (3, True), (5, False))
    if not (ed in SIX_BY_SIX and (n == 1 or ctl))])   # 6x6: no solo game, passing always allowed (R16, R24)
def test_console_and_engine_agree_turn_by_turn(edition, players, control):
    rng = random.Random(f"{edition}{players}{control}")
    t = Table(edition, players, control, rng.randrange(10**6))
    steps = 0
    while not t.state.is_terminal():
        if t.state.is_chance_node():
            t.chance()
        else:
            if t.state.phase == "turn":
                t.refusals()
            t.turn(choose(t, rng))
        t.agree()
        steps += 1
        assert steps < 2000
    assert t.console.phase == rounds.OVER
    end = t.last("end")
    assert end["why"] == t.state.ending[0] and end["r"] == t.state.round
    assert end["p"] == t.state.scores()          # the console's own final table is the engine's


def test_every_kind_of_entry_is_seen():
    """Across the editions the games above press every kind of entry: a row and a column for
    a 6, a park's column, a breaker's row and column, a piece, a floor, a house, a value."""
    seen: set[str] = set()
    for edition in EDITIONS:
        for seed in range(3):
            rng = random.Random(seed)
            players = 2 if edition in SIX_BY_SIX else 1 + seed
            t = Table(edition, players, False, seed)
            while not t.state.is_terminal():
                if t.state.is_chance_node():
                    t.chance()
                    continue
                a = choose(t, rng)
                keys = presses.presses(t.state, a)
                if a.kind in ("draw", "house", "floor"):
                    seen.add(a.kind)
                    if len(keys) > 2 + (a.kind == "house"):
                        seen.add("square")
                    if a.via is not None:
                        seen.add("park")
                if a.kind == "circle" or (a.kind == "draw" and t.console.phase == rounds.VALUE):
                    seen.add("value")
                t.turn(a)
                if t.console.phase == rounds.VALUE:
                    seen.add("value")
    assert {"draw", "house", "floor", "square", "park", "value"} <= seen, seen
