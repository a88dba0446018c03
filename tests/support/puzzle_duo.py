"""Doodle Puzzle's console game and the PC's engine side by side, for the tests
(tests/firmware/test_console_puzzle.py: the rules; tests/firmware/test_puzzle_panel.py: the panel): `Duo` presses
one button at a time on the firmware's Game under CPython, applies every event it sends to the
engine and checks the totals, the refusals and the panel after every step; `replayed` and
`snap` play the journal's events again; `a_minute` is a game in its drawing minute."""
from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

from doodle import puzzle as P
from doodle import puzzle_view as V
from doodlebox.rules.api import IllegalAction
from doodlebox.rules.moment import moment
from doodlebox.rules.puzzle import engine as E
from doodlebox.rules.puzzle.sentences import sentence

ROOT = Path(__file__).resolve().parents[2]
ROLE = {"S": "star", "D": "drawy", "B": "baddy", "G": "guessy"}
VIEW_ROLE = {"S": "star Drawy", "D": "Drawy", "B": "Baddy", "G": "Guessy"}
GAMES = [(n, var) for n in range(3, 9) for var in ("", "behave", "showdown") if not (n == 8 and var == "behave")]


def role_lines(roles: str) -> list[str]:
    """The panel's roles after a deal (a `roles` event's letters): two seats a line."""
    cells = [f"P{i + 1} {VIEW_ROLE[c]}" for i, c in enumerate(roles)]
    return [(cells[i].ljust(18) + cells[i + 1]) if i + 1 < len(cells) else cells[i] for i in range(0, len(cells), 2)]


def action(g) -> str:
    """What the player to act is to do now, as the panel says it on top (the "^" line, twice the
    size; during the minute the clock under it stays the largest)."""
    ph = g.phase
    if ph == P.DEAL:
        return f"ROLL deals round {g.round + 1}"
    if ph == P.NUMBER:
        return f"P{g.star + 1}: choose a number 1-12"
    if ph == P.SUBJECT:
        return "ROLL: start the minute"
    if ph == P.MINUTE:
        return "Paused" if g.paused() else "Drawys draw!"
    if ph == P.PLACE:
        return f"P{g.placers[g.placed] + 1}: place a board, slot? D1-D6"
    if ph in (P.ERASE, P.DRAW):
        return f"P{g.baddy + 1} (Baddy): {'erase on' if ph == P.ERASE else 'draw on'} a board?"
    if ph == P.GUESS:
        return f"P{g.guessy + 1} (Guessy) guesses aloud"
    assert ph == P.CHALLENGE, ph
    return f"P{g.guessy + 1}: challenge Baddy's board?"


def clock(left: int, paused: bool) -> str:
    """The minute's time left as the panel shows it: "@0:42", "@0:42 PAUSED"."""
    return f"@{left // 60}:{left % 60:02d}" + (" PAUSED" if paused else "")


def slots(lines: list[str]) -> int:
    """The line-slots the body takes on the panel (firmware/board/panel.py: "@" 3, "%" 4)."""
    return sum(3 if s[:1] == "@" else 4 if s[:1] == "%" else 1 for s in lines[1:])


def digits(n: int) -> list[str]:
    """How a number 1..12 is pressed (docs/console-deadly-puzzle.md, "Entering numbers")."""
    return [f"D{n}"] if n <= 6 else ["D0", f"D{n - 6}"]


class Duo:
    """The firmware's Game and the engine's State, side by side; `press` is one button."""

    def __init__(self, players: int, var: str, subj: str, seed: int, check_replay: bool = True):
        self.rng = random.Random(seed)
        fw_rng = random.Random(seed * 7919 + 1)
        self.events: list[dict] = []
        self.now = 1000
        self.g = P.Game(players, {"var": var, "subj": subj}, 3, self.events.append, fw_rng.randrange, self.now)
        self.state = E.Game(players, var, subj).new_state()
        self.whys: Counter[str] = Counter()
        self.tones: list[tuple[int, str]] = []
        self.check_replay = check_replay
        self.replays = 0
        assert self.events == [{"k": "game", "g": 3, "ed": "puzzle", "n": players, "var": var, "subj": subj}]

    # -- the console's side ---------------------------------------------------------------
    def step(self, ms: int) -> None:
        self.now += ms
        self.g.tick(self.now)
        self._take_tones()
        self.look()

    def _take_tones(self) -> None:
        for t in self.g.tones:
            self.tones.append((self.now, t))
        del self.g.tones[:]

    def press(self, name: str, want: str | None = None, events: int = 0) -> list[dict]:
        """Press `name`: the Game must answer `want` and send `events` events (returned)."""
        self.step(self.rng.randint(60, 400))
        n = len(self.events)
        ph = self.g.phase
        why = self.g.button(name, self.now)
        self.whys[str(why)] += 1
        new = self.events[n:]
        assert why == want, (name, ph, why, want)
        assert len(new) == events, (name, new)
        heard = list(self.g.tones)
        self._take_tones()
        if why is None and ph != P.MINUTE:
            assert heard, "an accepted press is heard"
        if why is not None:
            assert not heard, heard               # refused or ignored: the app's tone only
        self.look()
        if new and self.check_replay:
            self.same_after_replay()
        return new

    def press_number(self, n: int, last_events: int = 1) -> list[dict]:
        keys = digits(n)
        for k in keys[:-1]:
            self.press(k)
        return self.press(keys[-1], None, last_events)

    def look(self) -> list[str]:
        """The panel now: title first, then at most 12 line-slots (an "@" line, three times the
        size, takes 3) of at most 37 characters (an "@" line 12)."""
        g = self.g
        lines = list(V.final(g, None) if g.over() else V.game(g, "a notice", None, "PC: offline"))
        assert len(lines[0]) <= 18 and 2 <= len(lines) and slots(lines) <= 12, lines
        assert all(len(s.lstrip("!")) <= 37 for s in lines), lines
        assert all(len(s) <= 13 for s in lines if s[:1] == "@"), lines
        assert [s for s in lines if s[:1] == "@"] == ([clock(g.left, g.paused())] if g.phase == P.MINUTE else [])
        if not g.over():                      # the action right after the title (the panel draws it on top)
            assert lines[1] == "^" + action(g), lines
            assert [s for s in lines if s[:1] == "^"] == [lines[1]], lines
        if g.phase == P.MINUTE:               # the seconds left in big digits, the title the round's
            assert lines[:3] == [f"Puzzle R{g.round}/5", "^" + action(g), clock(g.left, g.paused())], lines
            assert g.left == (60000 - g.running(self.now) + 999) // 1000
        if g.phase == P.NUMBER:               # the star's number, then every role face up
            k = (g.players + 1) // 2
            assert lines[2:k + 2] == role_lines(str(bytes(g.roles), "ascii")), lines
        if g.phase in (P.ERASE, P.DRAW):      # the boards Baddy chooses are never shown
            hint = "D0: ROLL for none   (PASS: back)" if g.high else "D1-D6, or D0 then ROLL: none"
            back = ["PASS: back to the erase"] if g.phase == P.DRAW and not g.high else []
            assert lines[2:-2] == ["Baddy's Mischief: Guessy, eyes shut!", hint] + back, lines
        return lines

    # -- the engine's side ----------------------------------------------------------------
    def agree(self) -> None:
        assert self.g.points() == self.state.scores()
        assert self.g.round == self.state.round
        if not self.g.over() and (self.g.phase == P.DEAL) == (self.state.phase == E.DEAL):
            # the round the panel says is the one every view says (ruling V1, rules/moment.py)
            assert self.look()[0] == f"Puzzle R{moment(self.state).round}/5", (self.look(), self.state.phase)

    def same_after_replay(self) -> None:
        """The events so far, played again into a fresh Game (as after a power cut), give the
        same game as the one that sent them."""
        self.replays += 1
        again = replayed(self.g, self.events)
        assert snap(again) == snap(self.g)

    # -- a whole game ---------------------------------------------------------------------
    def play(self, stop_at: float = 0.0) -> dict:
        """Play to the end (or, with probability `stop_at` at each round's guess, end with
        MENU confirmed); returns the `end` event."""
        st = self.state
        rng = self.rng
        while not st.is_terminal():
            self.deal()
            self.subject()
            self.minute()
            self.place()
            if not self.g.behave:
                self.mischief()
            if stop_at and rng.random() < stop_at:
                return self.end_by_menu()
            self.guess()
        end = self.events[-1]
        assert end["k"] == "end" and self.g.over()
        assert end == {"k": "end", "g": 3, "r": 5, "why": "rounds", "p": st.scores()}
        assert st.result().totals == end["p"]
        self.press("ROLL", "notnow")          # over: the app takes this press (back to the lobby)
        return end

    def end_by_menu(self) -> dict:
        self.press("MENU", "menu")
        n = len(self.events)
        self.g.end()
        (end,) = self.events[n:]
        assert end == {"k": "end", "g": 3, "r": self.state.round, "why": "menu", "p": self.state.scores()}
        self.g.end()                          # once
        assert len(self.events) == n + 1 and self.g.over()
        if self.check_replay:
            self.same_after_replay()
        return end

    def deal(self) -> None:
        g, st, rng = self.g, self.state, self.rng
        assert g.phase == P.DEAL and st.phase == E.DEAL
        if rng.random() < 0.3:
            self.press(rng.choice(["PASS", "D1", "D0"]), "notnow")
        if st.round and rng.random() < 0.2:
            self.press("MENU", "menu")        # between rounds MENU asks "End game?"
        (e,) = self.press("ROLL", None, 1)
        assert e["k"] == "roles" and e["r"] == st.round + 1 and e["g"] == 3
        roles = tuple(ROLE[c] for c in e["roles"])
        st.apply(E.deal(roles))               # the engine's check: 1 star, 1 Baddy (not in Behave), 1 Guessy
        assert g.phase == P.NUMBER            # face up: no pass round, the star's number next
        assert self.look()[2:(g.players + 5) // 2] == role_lines(e["roles"])   # under the star's action
        if st.round == 1 or rng.random() < 0.2:         # round 1 has every mistake
            self.press(rng.choice(["ROLL", "PASS"]), "notnow")
        if st.round == 1 or rng.random() < 0.1:
            self.press("MENU", "menu")
        self.agree()

    def subject(self) -> None:
        g, st, rng = self.g, self.state, self.rng
        while True:
            assert g.phase == P.NUMBER and st.phase == E.NUMBER
            r = rng.random() if st.round > 1 else 0.0    # round 1 has every mistake
            if r < 0.15:
                self.press("D0")
                self.press("D0", P.BAD_NUMBER)        # D0 twice
                self.press("PASS")                    # back
            elif r < 0.3:
                self.press("D0")
                self.press("ROLL", P.BAD_NUMBER)      # 0 is no number here
                self.press("PASS")
            elif r < 0.35:
                self.press("PASS", "notnow")
            n = rng.randint(1, 12)
            (e,) = self.press_number(n)
            assert sorted(e) == ["card", "g", "k", "num", "r"]
            assert (e["k"], e["g"], e["r"], e["num"]) == ("subject", 3, st.round, n)
            assert type(e["card"]) is int and 1 <= e["card"] <= st.game.cards
            st.apply(E.number(n), st.star)
            st.apply(E.card(e["card"]))
            assert g.phase == P.SUBJECT
            if rng.random() < 0.8:
                return
            self.press("MENU")                         # set aside (ruling P2)
            st.apply(E.AGAIN, st.star)

    def minute(self) -> None:
        """ROLL starts the minute; time passes in steps of 1-40 ms, with pauses; the alarm at
        60,000 ms of running time, within one step."""
        g, st, rng = self.g, self.state, self.rng
        if rng.random() < 0.2:
            self.press(rng.choice(["D2", "PASS"]), "notnow")
        self.press("ROLL")
        start = self.now
        assert g.phase == P.MINUTE and self.tones[-1] == (start, "go")
        n = len(self.events)
        paused = 0
        pauses = 0
        longest = 0
        while len(self.events) == n:
            early = g.running(self.now) < 59000        # (a press comes up to 400 ms later)
            if early and rng.random() < 0.0015 and pauses < 4:
                self.press("MENU")                     # pause
                at = self.now
                assert g.paused() and self.tones[-1] == (at, "pause")
                for _ in range(rng.randint(1, 50)):
                    self.step(rng.randint(1, 400))
                    if rng.random() < 0.05:
                        self.press(rng.choice(["ROLL", "D4", "PASS"]), "notnow")
                self.press("MENU")                     # resume
                assert not g.paused() and self.tones[-1] == (self.now, "resume")
                paused += self.now - at
                pauses += 1
                continue
            if early and rng.random() < 0.002:
                self.press(rng.choice(["ROLL", "D1", "PASS"]), "notnow")
                continue
            ms = rng.randint(1, 40)
            longest = max(longest, ms)
            self.step(ms)
        (e,) = self.events[n:]
        assert e == {"k": "timer", "g": 3, "r": st.round, "start": start, "end": self.now, "paused": paused}
        running = e["end"] - e["start"] - e["paused"]
        assert 60000 <= running < 60000 + max(longest, 400)     # within the step that crossed it
        assert g.phase == P.PLACE and self.tones[-1] == (self.now, "alarm")
        # the beeps: one at 10, 9, ... 1 s left, in running time
        mine = [t for t in self.tones if t[0] > start and t[1] in ("tick", "alarm")]
        assert [w for _, w in mine] == ["tick"] * 10 + ["alarm"]
        st.apply(E.drawing((e["start"] + e["paused"], e["end"])), st.star)   # the engine's P3 check
        if self.check_replay:
            self.same_after_replay()

    def place(self) -> None:
        g, st, rng = self.g, self.state, self.rng
        for _ in range(P.SLOTS):
            p = st.current_player()
            assert g.current() == p and g.phase == P.PLACE
            filled = [s for s in range(1, 7) if st.slots[s - 1] >= 0]
            if filled and (rng.random() < 0.3 or st.round == 1):
                s = rng.choice(filled)
                with pytest.raises(IllegalAction) as refused:
                    st.check(E.place(s), p)
                assert refused.value.rule == "slot_twice"
                (e,) = self.press(f"D{s}", "slot_twice", 1)
                assert e == {"k": "refuse", "g": 3, "r": st.round, "p": p, "i": 0, "why": "slot_twice"}
                assert sentence("slot_twice")
            if rng.random() < 0.1:
                self.press(rng.choice(["D0", "ROLL", "PASS"]), "notnow")
            s = rng.choice([a.value for a in st.legal_actions()])
            (e,) = self.press(f"D{s}", None, 1)
            assert e == {"k": "place", "g": 3, "r": st.round, "p": p, "slot": s}
            st.apply(E.place(s), p)
        assert g.phase == (P.GUESS if g.behave else P.ERASE)     # Baddy is known: no seat asked
        assert st.phase == (E.GUESS if g.behave else E.MISCHIEF)

    def mischief(self) -> None:
        g, st, rng = self.g, self.state, self.rng
        baddy = st.baddy
        assert g.phase == P.ERASE and g.baddy == baddy
        if st.round == 1 or rng.random() < 0.2:
            self.press("PASS", "notnow")                  # the erase is the first step: nothing before it
            assert g.phase == P.ERASE

        def board(b: int, last_events: int) -> list[dict]:
            r = rng.random() if st.round > 1 else 0.0
            if r < 0.1:
                self.press("D0")
                self.press(f"D{rng.randint(1, 6)}", P.BAD_BOARD)    # 7-12: not a board
            elif r < 0.2:
                self.press("D0")
                self.press("D0", P.BAD_NUMBER)
                self.press("PASS")
            if b == 0:
                self.press("D0")
                return self.press("ROLL", None, last_events)
            return self.press(f"D{b}", None, last_events)

        erase = rng.choice([0, 0] + list(range(1, 7)))
        draw = rng.choice([0, 0] + list(range(1, 7)))
        board(erase, 0)
        assert g.phase == P.DRAW
        if rng.random() < 0.2:                            # PASS: back to the erase
            self.press("PASS")
            assert g.phase == P.ERASE
            board(erase, 0)
        (e,) = board(draw, 1)
        assert e == {"k": "mischief", "g": 3, "r": st.round, "erase": erase, "draw": draw}
        if erase:
            st.apply(E.erase(erase), baddy)
        if draw:
            st.apply(E.draw_on(draw), baddy)
        if not (erase and draw):
            st.apply(E.DONE, baddy)
        assert st.phase == E.GUESS and g.phase == P.GUESS

    def guess(self) -> None:
        g, st, rng = self.g, self.state, self.rng
        if rng.random() < 0.2:
            self.press(rng.choice(["D1", "D0"]), "notnow")
        right = rng.random() < 0.5
        last = st.round == E.ROUNDS and not (g.showdown and not right)
        new = self.press("ROLL" if right else "PASS", None, 2 if last else 1)
        assert new[0] == {"k": "guess", "g": 3, "r": st.round, "res": "right" if right else "wrong"}
        st.apply(E.guess(right), st.guessy)
        self.agree()
        if st.phase == E.CHALLENGE:
            assert g.phase == P.CHALLENGE
            b = rng.choice([0, 0, 1, 2, 3, 4, 5, 6])
            last = st.round == E.ROUNDS
            new = self.press(f"D{b}" if b else "PASS", None, 2 if last else 1)
            assert new[0] == {"k": "challenge", "g": 3, "r": st.round, "board": b}
            st.apply(E.challenge(b) if b else E.DECLINE, st.guessy)
            assert g.won == (st.results[-1].challenge_won is True)
        self.agree()
        assert g.over() == st.is_terminal()


def replayed(g: P.Game, events: list[dict]) -> P.Game:
    """A fresh Game made from the journal's events (the app's resume: the `game` event makes it,
    the others go through replay(); refusals and the like are ignored)."""
    first = events[0]
    sent: list[dict] = []
    again = P.Game(first["n"], {"var": first["var"], "subj": first["subj"]}, first["g"], sent.append,
                   lambda n: 0, 0)
    again.emit = _no_emit
    for ev in events[1:]:
        again.replay(ev)
    assert again.tones == [] and len(sent) == 1
    return again


def _no_emit(ev: dict) -> None:
    raise AssertionError(f"replay sent {ev}")


def snap(g: P.Game) -> dict:
    """What a game is, between events (the drawing minute's clock and Baddy's erase entered
    before the draw are not in the journal: a minute cut by power starts again)."""
    ph = {P.MINUTE: P.SUBJECT, P.DRAW: P.ERASE}.get(g.phase, g.phase)
    return {"phase": ph, "round": g.round, "roles": bytes(g.roles), "star": g.star, "baddy": g.baddy,
            "guessy": g.guessy, "placers": bytes(g.placers), "slots": bytes(g.slots), "placed": g.placed,
            "num": g.num, "card": g.card, "asides": g.asides,
            "mischief": (g.erase, g.draw) if ph >= P.GUESS else None, "right": g.right,
            "challenged": g.challenged, "won": g.won, "marks": bytes(g.marks), "checks": bytes(g.checks),
            "slashes": (bytes(g.s_right), bytes(g.s_wrong), bytes(g.s_baddy)), "shared": bytes(g.shared),
            "points": list(g.points()), "ended": g.ended}


def a_minute(at: int) -> P.Game:
    """A game of 6 whose round 1 minute started at `at` (card 1, number 3)."""
    g = P.Game(6, {"var": ""}, 1, lambda e: None, lambda n: 0, 0)
    g.roles[:] = b"DSBGDD"
    g._dealt(1)
    g.phase = P.NUMBER                                 # (the deal itself: the test above)
    g.button("D3", 0)
    g.button("ROLL", at)
    assert g.phase == P.MINUTE and g.t_start == at
    return g
