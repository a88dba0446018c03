"""A table of players for a whole game of Doodle Puzzle on a console (`doodlebox demo --edition
puzzle`, the tests), modelled on dice.py: the table chooses the game in the lobby, then plays it
by pressing the console's buttons as people would (docs/console-deadly-puzzle.md): ROLL deals
the roles face up (the panel shows them all; no press), the star's number, the drawing minute
(which must run out: the virtual console's clock is real time, so a game takes five minutes and
a little more), the boards placed in the order the console shows, Baddy's Mischief (the
console knows Baddy: the boards only), the table's verdict, the Showdown challenge. Every choice is a legal action of
the PC's rules engine, chosen at random, and every event the console sends is checked against
the engine as it arrives: the deal and the subject card (the console's chance) are applied
to the engine, the minute must be 60 s of running time, a placement must be the engine's
player's, the one refused press of a game must come back as the engine's refusal, and the
console's final totals (its `end` event) must be the engine's scores.
"""
from __future__ import annotations

import time
from collections.abc import Callable

from doodlebox.rules.api import IllegalAction
from doodlebox.rules.puzzle import engine as E
from doodlebox.rules.puzzle.events import ROLE_LETTERS
from doodlebox.table.lobby import Players, TableError, choose_lobby

MINUTE_TIMEOUT_S = 75.0    # the drawing minute runs out within this (60 s and the table's own pauses)


def number_presses(n: int) -> list[str]:
    """How a number 1..12 is pressed: D1..D6, or D0 then D1..D6 for 7..12."""
    if not 1 <= n <= 12:
        raise ValueError(f"{n} is not a number from 1 to 12")
    return [f"D{n}"] if n <= 6 else ["D0", f"D{n - 6}"]


def board_presses(b: int) -> list[str]:
    """A board 1..6, or 0 for none (D0 then ROLL)."""
    return ["D0", "ROLL"] if b == 0 else [f"D{b}"]


class Table(Players):
    """Doodle Puzzle's table (lobby.Players for the first arguments). `wait(s)` lets time pass
    (a simulated clock in tests); `pause_s`: once a game the table pauses the drawing minute with
    MENU for that long (0: never)."""

    def __init__(self, *args, wait: Callable[[float], None] = time.sleep, pause_s: float = 0.0, **kwargs):
        super().__init__(*args, **kwargs)
        self.wait = wait
        self.pause_s = pause_s
        self.asides = 0
        self.state: E.State | None = None
        self.minutes: list[int] = []      # each drawing minute's running time (ms), as the console timed it
        self.number = 0                   # the game's number (its `game` event)

    # -- events -----------------------------------------------------------------------------
    def _await(self, kind: str, timeout: float | None = None, **want) -> dict:
        """The next event: it must be a `kind` with the fields `want`."""
        e = self._next_event(timeout)
        if e.get("k") != kind or any(e.get(k) != v for k, v in want.items()):
            raise TableError(f"the console sent {e}; the rules expected a {kind} with {want}")
        return e

    # -- a game -----------------------------------------------------------------------------
    def play_game(self, players: int = 5, var: str = "", subj: str = "standard", refuse_once: bool = True,
                  back_to_lobby: bool = True) -> list[dict]:
        """Choose Doodle Puzzle in the lobby, play one game to its end; returns the events seen."""
        state = E.Game(players, var, subj).new_state()
        self.state = state
        self.lobby = choose_lobby(self.press, self.lobby,
                                  {"game": "puzzle", "players": players, "var": var, "subj": subj}, self.read)
        self.press("ROLL")
        g = self._next_event()
        want = {"k": "game", "ed": "puzzle", "n": players, "var": var, "subj": subj}
        if {k: g.get(k) for k in want} != want:
            raise TableError(f"the console began {g}, not {want}: is its lobby where the table thinks it is?")
        self.number = g["g"]
        refused = not refuse_once
        paused = self.pause_s <= 0
        while not state.is_terminal():
            self._deal(state)
            self._subject(state)
            self._minute(state, pause=not paused)
            paused = True
            refused = self._place(state, refused)
            if not state.game.behave:
                self._mischief(state)
            self._guess(state)
        end = self._await("end", why="rounds", r=E.ROUNDS)
        self.final = end
        if end.get("p") != state.scores():
            raise TableError(f"the console's totals {end.get('p')} are not the rules' {state.scores()}")
        if back_to_lobby:
            self.press("ROLL")
        return self.seen

    def _apply(self, state: E.State, action: E.Action, player: int | None, e: dict) -> None:
        try:
            state.apply(action, player)
        except IllegalAction as exc:
            raise TableError(f"the console sent {e}, which the rules refuse: {exc.reason} ({exc.rule})") from None

    def _deal(self, state: E.State) -> None:
        self.press("ROLL")
        e = self._await("roles", r=state.round + 1)
        letters = e.get("roles")
        if not isinstance(letters, str) or any(c not in ROLE_LETTERS for c in letters):
            raise TableError(f"the console dealt {e}")
        self._apply(state, E.deal(tuple(ROLE_LETTERS[c] for c in letters)), None, e)

    def _subject(self, state: E.State) -> None:
        while True:
            n = self.rng.randint(1, E.NUMBERS)
            self._presses(number_presses(n))
            e = self._await("subject", r=state.round, num=n)
            self._apply(state, E.number(n), state.star, e)
            self._apply(state, E.card(e.get("card", 0)), None, e)
            if self.asides or self.rng.random() < 0.8:
                return
            self.press("MENU")                 # the table sets the subject aside (ruling P2)
            self.asides += 1
            self._apply(state, E.AGAIN, state.star, e)

    def _minute(self, state: E.State, pause: bool) -> None:
        self.press("ROLL")
        if pause:
            self.wait(self.rng.uniform(5, 20))
            self.press("MENU")
            self.wait(self.pause_s)
            self.press("MENU")
        e = self._await("timer", MINUTE_TIMEOUT_S + (self.pause_s if pause else 0), r=state.round)
        start, end, paused = e.get("start"), e.get("end"), e.get("paused")
        if not all(isinstance(x, int) for x in (start, end, paused)):
            raise TableError(f"the console timed the minute as {e}")
        assert isinstance(start, int) and isinstance(end, int) and isinstance(paused, int)
        running = end - start - paused
        if not E.MINUTE_MS <= running <= E.MINUTE_MS + 100:
            raise TableError(f"the drawing minute ran {running} ms: {e}")
        if pause and paused < self.pause_s * 1000 * 0.5:
            raise TableError(f"the minute was paused {paused} ms, the table paused it {self.pause_s:g} s: {e}")
        self.minutes.append(running)
        self._apply(state, E.drawing((start + paused, end)), state.star, e)

    def _place(self, state: E.State, refused: bool) -> bool:
        for _ in range(E.SLOTS):
            p = state.current_player()
            filled = [s for s in range(1, E.SLOTS + 1) if state.slots[s - 1] >= 0]
            if not refused and filled:          # a filled slot: the console refuses it as the rules do
                s = self.rng.choice(filled)
                try:
                    state.check(E.place(s), p)
                except IllegalAction as exc:
                    self.press(f"D{s}")
                    self._await("refuse", r=state.round, p=p, why=exc.rule)
                    self.refusals += 1
                    refused = True
                else:
                    raise TableError(f"the rules take slot {s} twice")
            s = self.rng.choice([a.value for a in state.legal_actions()])
            self.press(f"D{s}")
            e = self._await("place", r=state.round, p=p, slot=s)
            self._apply(state, E.place(s), p, e)
        return refused

    def _mischief(self, state: E.State) -> None:
        erase = self.rng.choice([0, 0, 1, 2, 3, 4, 5, 6])
        draw = self.rng.choice([0, 0, 1, 2, 3, 4, 5, 6])
        self._presses(board_presses(erase) + board_presses(draw))
        e = self._await("mischief", r=state.round, erase=erase, draw=draw)
        if erase:
            self._apply(state, E.erase(erase), state.baddy, e)
        if draw:
            self._apply(state, E.draw_on(draw), state.baddy, e)
        if not (erase and draw):
            self._apply(state, E.DONE, state.baddy, e)

    def _guess(self, state: E.State) -> None:
        right = self.rng.random() < 0.5
        self.press("ROLL" if right else "PASS")
        e = self._await("guess", r=state.round, res="right" if right else "wrong")
        self._apply(state, E.guess(right), state.guessy, e)
        if state.phase == E.CHALLENGE:
            b = self.rng.choice([0, 1, 2, 3, 4, 5, 6])
            self.press(f"D{b}" if b else "PASS")
            e = self._await("challenge", r=state.round, board=b)
            self._apply(state, E.challenge(b) if b else E.DECLINE, state.guessy, e)
