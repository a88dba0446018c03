"""Doodle Puzzle on the console (firmware/doodle/puzzle.py, puzzle_view.py) against the PC's
rules engine (host/doodlebox/rules/puzzle/engine.py): random games pressed button by button on
the firmware's Game under CPython, every event it sends applied to the engine as it comes, every
refused press refused by the engine too (or, for how a number is entered, by the console alone,
with nothing sent), the totals equal after every step and at the end, every variant and 3 to 8
players. The journal's events played again through replay() give the same game. One scripted
game runs in the real MicroPython VM (192K) and sends the same events as under CPython."""
from __future__ import annotations

import json
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from doodle import puzzle as P
from doodle import puzzle_view as V
from doodlebox.rules.api import IllegalAction
from doodlebox.rules.puzzle import engine as E
from doodlebox.rules.puzzle.sentences import VERDICTS, sentence
from doodlebox.virtual import screen
from doodlebox.virtual.vm import run_program
from test_card_faces import image_of, panel  # noqa: F401  (panel: a fixture, board.panel under CPython)

sys.path.insert(0, str(Path(__file__).resolve().parent / "guest"))
import panel_frame  # (tests/guest: the whole frame, for the tests)

ROOT = Path(__file__).resolve().parent.parent
ROLE = {"S": "star", "D": "drawy", "B": "baddy", "G": "guessy"}
VIEW_ROLE = {"S": "star Drawy", "D": "Drawy", "B": "Baddy", "G": "Guessy"}
GAMES = [(n, var) for n in range(3, 9) for var in ("", "behave", "showdown") if not (n == 8 and var == "behave")]


def role_lines(roles: str) -> list[str]:
    """The panel's roles after a deal (a `roles` event's letters): two seats a line."""
    cells = [f"P{i + 1} {VIEW_ROLE[c]}" for i, c in enumerate(roles)]
    return [(cells[i].ljust(18) + cells[i + 1]) if i + 1 < len(cells) else cells[i] for i in range(0, len(cells), 2)]


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
        if g.phase == P.MINUTE:               # the seconds left in big digits, the title the round's
            assert lines[:2] == [f"Puzzle R{g.round}/5", clock(g.left, g.paused())], lines
            assert g.left == (60000 - g.running(self.now) + 999) // 1000
        if g.phase == P.NUMBER:               # every role face up, then the star's number
            k = (g.players + 1) // 2
            assert lines[1:k + 1] == role_lines(str(bytes(g.roles), "ascii")), lines
            assert lines[k + 1] == f"P{g.star + 1} (star Drawy): choose a number 1-12", lines
        if g.phase in (P.ERASE, P.DRAW):      # the boards Baddy chooses are never shown
            step = "erase on a board?" if g.phase == P.ERASE else "draw on a board?"
            hint = "D0: ROLL for none   (PASS: back)" if g.high else "D1-D6, or D0 then ROLL: none"
            back = ["PASS: back to the erase"] if g.phase == P.DRAW and not g.high else []
            assert lines[1:-2] == ["Baddy's Mischief: Guessy, eyes shut!", f"P{g.baddy + 1} (Baddy): {step}", hint]\
                + back, lines
        return lines

    # -- the engine's side ----------------------------------------------------------------
    def agree(self) -> None:
        assert self.g.points() == self.state.scores()
        assert self.g.round == self.state.round

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
        assert self.look()[1:(g.players + 3) // 2] == role_lines(e["roles"])
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


# -- the tests --------------------------------------------------------------------------------

@pytest.mark.parametrize("players,var", GAMES)
def test_random_games_agree_with_the_engine(players, var):
    whys: Counter[str] = Counter()
    for seed in range(3):
        subj = ("standard", "beginner")[(players + seed) % 2]
        duo = Duo(players, var, subj, seed=1000 * players + 10 * seed + len(var))
        end = duo.play()
        whys += duo.whys
        assert end["p"] == duo.state.scores()
        if var == "behave":
            assert len(set(end["p"])) == 1 and end["p"][0] == 2 * duo.g.shared.count(P.CHECK)
        assert duo.replays > 5 * (2 + 6)
    want = {"None", "notnow", "menu", "slot_twice", P.BAD_NUMBER}
    if var != "behave":
        want |= {P.BAD_BOARD}
    assert want <= set(whys), whys


def test_games_ended_with_menu_agree_with_the_engine():
    ended = 0
    for seed in range(12):
        players, var = GAMES[seed * 5 % len(GAMES)]
        duo = Duo(players, var, "standard", seed=seed)
        end = duo.play(stop_at=0.3)
        ended += end["why"] == "menu"
        assert end["p"] == duo.state.scores()
    assert ended >= 3


def test_every_deal_is_legal_and_every_role_is_dealt_to_every_seat():
    """The role cards shuffled with the console's rand (ruling P1): 1 star Drawy, 1 Baddy (none
    in Behave), 1 Guessy, Drawys for the rest; each role reaches each seat."""
    for players, var in GAMES:
        rng = random.Random(players)
        g = P.Game(players, {"var": var}, 1, lambda e: None, rng.randrange, 0)
        state = E.Game(players, var).new_state()
        seen: Counter[tuple[int, str]] = Counter()
        for _ in range(60 * players):
            g.phase = P.DEAL
            g.round = 0
            g._deal()
            roles = tuple(ROLE[chr(c)] for c in g.roles)
            state.check(E.deal(roles))
            for seat, role in enumerate(roles):
                seen[seat, role] += 1
        kinds = {"star", "guessy", "drawy"} | (set() if var == "behave" else {"baddy"})
        if players == 3 and var != "behave":
            kinds.discard("drawy")
        assert {(s, r) for s in range(players) for r in kinds} <= set(seen)


def test_the_placing_order_is_the_engines():
    rng = random.Random(5)
    for players, var in GAMES:
        g = P.Game(players, {"var": var}, 1, lambda e: None, rng.randrange, 0)
        for _ in range(20):
            g.phase = P.DEAL
            g.round = 0
            g._deal()
            roles = [ROLE[chr(c)] for c in g.roles]
            from doodlebox.rules.puzzle.roles import placing_order
            assert list(g.placers) == placing_order(roles)


def test_number_entry():
    """D1..D6; D0 then D1..D6 for 7..12; D0 twice and D0 then ROLL refused; PASS undoes D0."""
    for n in range(1, 13):
        duo = Duo(4, "", "beginner", seed=n, check_replay=False)
        duo.press("ROLL", None, 1)
        if n > 6:
            duo.press("D0")
            duo.press("D0", P.BAD_NUMBER)
            assert duo.g.high                     # the first D0 stands
            duo.press("ROLL", P.BAD_NUMBER)
            duo.press("PASS")
            assert not duo.g.high
        (e,) = duo.press_number(n)
        assert e["num"] == n and 1 <= e["card"] <= 6


def test_the_roles_are_dealt_face_up_and_the_star_chooses_at_once():
    """The rulebook's deal: "Each player randomly draws 1 Role Card and places it face up in
    front of them." ROLL deals, the panel shows every seat's role at once (two seats a line, as
    the `roles` event has them), and the very next press is the star Drawy's number: no pass
    round. After a subject set aside (MENU) the roles are shown again."""
    for players, var in GAMES:
        duo = Duo(players, var, "standard", seed=players * 3 + len(var), check_replay=False)
        (e,) = duo.press("ROLL", None, 1)
        g = duo.g
        assert e["k"] == "roles" and g.phase == P.NUMBER
        lines = V.game(g, None, None, "PC: offline")
        k = (players + 1) // 2
        assert lines[1:k + 1] == role_lines(e["roles"])
        assert lines[k + 1] == f"P{g.star + 1} (star Drawy): choose a number 1-12"
        text = "\n".join(lines)
        for seat, c in enumerate(e["roles"]):             # every seat once, with its role
            assert text.count(f"P{seat + 1} ") == 1 + (seat == g.star), lines
            assert f"P{seat + 1} {VIEW_ROLE[c]}" in text
        assert "PASS" not in text and "look away" not in text
        (s,) = duo.press_number(1 + players % 12)         # the number at once
        assert s["k"] == "subject" and g.phase == P.SUBJECT
        duo.press("MENU")                                 # set aside: the roles again
        assert V.game(g, None, None, "PC: offline")[1:k + 1] == role_lines(e["roles"])
    g = P.Game(8, {"var": ""}, 1, lambda e: None, lambda n: 0, 0)
    g.roles[:] = b"DSDDBDGD"
    g._dealt(1)
    assert V.game(g, None, None, "PC: offline") == [
        "Puzzle R1/5",
        "P1 Drawy          P2 star Drawy",
        "P3 Drawy          P4 Drawy",
        "P5 Baddy          P6 Drawy",
        "P7 Guessy         P8 Drawy",
        "P2 (star Drawy): choose a number 1-12",
        "D1-D6, or D0 then D1-D6: 7-12",
        "PC: offline"]


def test_the_mischief_begins_at_the_erase_with_no_seat_entry():
    """The roles are face up, so the console knows Baddy: after the last board, the panel
    names Baddy and asks for the erase; PASS there means nothing (no step before it), PASS at
    the draw goes back to the erase; the boards chosen are never shown. (The random games above
    play it against the engine.)"""
    g = a_minute(1000)
    sent: list[dict] = []
    g.emit = sent.append
    g.tick(61000)
    for k in range(P.SLOTS):
        assert g.phase == P.PLACE and g.button(f"D{k + 1}", 62000) is None
    assert g.phase == P.ERASE and [e["k"] for e in sent] == ["timer"] + ["place"] * 6
    assert V.game(g, None, None, "PC: offline")[1:] == [
        "Baddy's Mischief: Guessy, eyes shut!", "P3 (Baddy): erase on a board?", "D1-D6, or D0 then ROLL: none",
        "PC: offline"]
    assert g.button("PASS", 63000) == P.NOTNOW and g.phase == P.ERASE
    assert g.button("D5", 63000) is None and g.phase == P.DRAW          # the erase, at the first press
    assert V.game(g, None, None, "PC: offline")[1:] == [
        "Baddy's Mischief: Guessy, eyes shut!", "P3 (Baddy): draw on a board?", "D1-D6, or D0 then ROLL: none",
        "PASS: back to the erase", "PC: offline"]
    assert g.button("PASS", 63000) is None and g.phase == P.ERASE
    g.button("D2", 63000)
    g.button("D0", 63000)
    assert V.game(g, None, None, "PC: offline")[3] == "D0: ROLL for none   (PASS: back)"
    assert g.button("ROLL", 63000) is None and g.phase == P.GUESS
    assert sent[-1] == {"k": "mischief", "g": 1, "r": 1, "erase": 2, "draw": 0}


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


def test_the_minute_in_big_digits():
    """The drawing minute's time left is an "@" line (three times the size on the panel),
    minutes and seconds; "PAUSED" beside it while paused; the title is the round's."""
    g = a_minute(1000)
    for running, want in ((0, "@1:00"), (999, "@1:00"), (1000, "@0:59"), (1001, "@0:59"), (2000, "@0:58"),
                          (18000, "@0:42"), (50500, "@0:10"), (51000, "@0:09"), (59999, "@0:01")):
        g.tick(1000 + running)
        lines = V.game(g, None, None, "PC: offline")
        assert lines[0] == "Puzzle R1/5" and lines[1] == want, (running, lines)
        assert sum(s[:1] == "@" for s in lines) == 1 and slots(lines) <= 12
    g.tick(61000)
    assert g.phase == P.PLACE and not [s for s in V.game(g, None, None, "PC: offline") if s[:1] == "@"]
    g = a_minute(1000)
    g.tick(19000)
    g.button("MENU", 19000)                            # 42 s left, paused
    assert V.game(g, "a notice", None, "PC: offline") == [
        "Puzzle R1/5", "@0:42 PAUSED", "Drawing: card 1, number 3", "PAUSED   (MENU: go on)",
        "Then placing: P2 P5 P6 P1 P2 P5", "!a notice", "PC: offline"]


def test_the_deal_the_mischief_and_the_minute_fit_the_panel(panel):  # noqa: F811
    """Drawn by the real firmware/board/panel.py: the screens read back whole (the "@" line
    as its big digits), 8 players with a notice."""
    g = P.Game(8, {"var": ""}, 1, lambda e: None, random.Random(2).randrange, 0)
    screens = []
    g.button("ROLL", 0)
    screens.append(list(V.game(g, "a notice", None, "PC: offline")))
    g.button("D0", 0)
    g.button("D6", 0)
    g.button("ROLL", 1000)
    g.tick(48000)
    screens.append(list(V.game(g, "a notice", None, "PC: offline")))
    g.button("MENU", 48000)
    screens.append(list(V.game(g, "a notice", None, "PC: offline")))
    g.tick(200000)
    g.button("MENU", 200000)
    g.tick(300000)
    for k in range(6):
        g.button(f"D{k + 1}", 300000)
    screens.append(list(V.game(g, "a notice", None, "PC: offline")))
    g.button("D1", 300000)
    screens.append(list(V.game(g, "a notice", None, "PC: offline")))
    assert [s[1] for s in screens[1:3]] == ["@0:13", "@0:13 PAUSED"]
    for lines in screens:
        assert slots(lines) <= 12
        img = image_of(panel_frame.frame(panel.Panel(None), list(lines)))
        assert screen.lines(img) == list(lines), lines
        if lines[1][:1] == "@":                        # 24 px high: the next line 27 px lower
            assert screen.read_line(img, panel.BODY_Y, 3) == lines[1][1:]
            assert screen.read_line(img, panel.BODY_Y + 27, 1) == lines[2]


def test_a_minute_cut_by_power_starts_again_and_events_out_of_turn_are_refused():
    duo = Duo(5, "showdown", "standard", seed=9, check_replay=False)
    duo.deal()
    duo.subject()
    duo.press("ROLL")
    for _ in range(300):
        duo.step(100)                             # 30 s of the minute
    assert duo.g.phase == P.MINUTE
    again = replayed(duo.g, duo.events)
    assert again.phase == P.SUBJECT and again.card == duo.g.card
    n = len(again.tones)
    assert again.button("ROLL", 50) is None and again.phase == P.MINUTE   # a new minute
    assert again.t_start == 50 and again.tones[n:] == ["go"]
    for bad in ({"k": "place", "g": 3, "r": 1, "p": 0, "slot": 1},          # before the timer
                {"k": "roles", "g": 3, "r": 2, "roles": "SDBGD"},            # a round too early
                {"k": "guess", "g": 3, "r": 1, "res": "right"}):
        with pytest.raises(ValueError):
            replayed(duo.g, duo.events).replay(bad)
    with pytest.raises(ValueError):               # not a deal: two stars
        replayed(duo.g, duo.events[:1]).replay({"k": "roles", "g": 3, "r": 1, "roles": "SSBGD"})


def test_behave_verdict_and_final_table():
    """The final screen: Behave shows the shared Scorecard and the rulebook's verdict (word for
    word, wrapped); otherwise every total, highest first, and the winners (ties share)."""
    assert V.VERDICTS == tuple(VERDICTS[k] for k in range(6))
    for seed in range(6):
        duo = Duo(4 + seed % 3, "behave", "standard", seed=50 + seed, check_replay=False)
        duo.play()
        lines = V.final(duo.g, None)
        checks = duo.g.shared.count(P.CHECK)
        assert lines[0] == "Puzzle: game over" and lines[1] == "Ended after round 5"
        assert lines[2] == "Shared card: " + " ".join("v" if m == P.CHECK else "x" for m in duo.g.shared) \
            + f"  {2 * checks} points"
        assert " ".join(lines[3:]).startswith(VERDICTS[checks])
        assert len(lines) <= 13 and all(len(s) <= 37 for s in lines)
    duo = Duo(6, "showdown", "standard", seed=77, check_replay=False)
    end = duo.play()
    lines = V.final(duo.g, None)
    table = [s for s in lines if s[:1].isdigit()]
    assert [int(s.split()[2]) for s in table] == sorted(end["p"], reverse=True)
    best = max(end["p"])
    assert sum("winner" in s for s in table) == end["p"].count(best)
    assert ("Tied: the victory is shared" in lines) == (end["p"].count(best) > 1)
    assert lines[-2] == "Scores by the console"
    pc = (3, 5, [9, 1, 1, 1, 1, 1], 0, "")
    assert V.final(duo.g, pc)[2].startswith("1. P1    9 pts  winner") and V.final(duo.g, pc)[-2] == "Scores by the PC"


def test_the_scoreboard_between_rounds():
    duo = Duo(8, "showdown", "standard", seed=21, check_replay=False)
    duo.deal()
    duo.subject()
    duo.minute()
    duo.place()
    duo.mischief()
    duo.guess()
    lines = duo.look()
    assert lines[0] == "Puzzle R1/5" and lines[1] == "ROLL deals round 2"
    assert lines[2].startswith("Round 1: guess ")
    cards = lines[3:11]
    for p, s in enumerate(cards):
        assert s.startswith(f"P{p + 1}  ") and int(s.split()[-1]) == duo.state.scores()[p]
        mark = duo.state.cards[p].marks[0]
        assert s.split()[1] == {"check": "v", "cross": "x"}[mark]


# -- the same game in the MicroPython VM ------------------------------------------------------

GUEST = r"""
import gc
import sys
from doodle import link, puzzle
gc.disable()   # collections at the top level only (docs/virtual-console.md)

seed = [12345]
def rand(n):
    seed[0] = (seed[0] * 1103515245 + 12345) % 65536
    return seed[0] % n

out = []
opts = {"var": sys.argv[2], "subj": "standard"}
g = puzzle.Game(int(sys.argv[1]), opts, 1, lambda e: out.append(link.dump(e)), rand, 0)
now = [0]
def press(name):
    now[0] += 150
    g.tick(now[0])
    g.button(name, now[0])
    del g.tones[:]

tick_alloc = -1
while not g.over():
    ph = g.phase
    if ph == puzzle.DEAL or ph == puzzle.SUBJECT:
        press("ROLL")
    elif ph == puzzle.NUMBER:
        press("D0"); press("D" + str(1 + g.round % 6))
    elif ph == puzzle.MINUTE:
        if tick_alloc < 0 and g.running(now[0]) > 20500:
            f = gc.mem_alloc() if hasattr(gc, "mem_alloc") else 0
            for k in range(400):
                g.tick(now[0] + k)          # within one second: nothing happens, nothing allocated
            tick_alloc = (gc.mem_alloc() if hasattr(gc, "mem_alloc") else 0) - f
        now[0] += 7
        g.tick(now[0])
        del g.tones[:]
    elif ph == puzzle.PLACE:
        press("D" + str(1 + (g.placed * 5 + g.round) % 6))
    elif ph == puzzle.ERASE:
        press("D" + str(g.round))
    elif ph == puzzle.DRAW:
        press("D0"); press("ROLL")
    elif ph == puzzle.GUESS:
        press("ROLL" if g.round % 2 else "PASS")
    elif ph == puzzle.CHALLENGE:
        press("D" + str(g.round))
    if now[0] % 64 < 8:
        gc.collect()
for line in out:
    print(line)
print("tick_alloc", tick_alloc)
"""


@pytest.mark.parametrize("players,var", [(8, "showdown"), (5, "behave")])
def test_the_same_game_in_the_vm(players, var):
    cp = subprocess.run([sys.executable, "-c", GUEST, str(players), var], capture_output=True, text=True,
                        env={"PYTHONPATH": f"{ROOT / 'firmware'}:{ROOT / 'tests' / 'guest'}"})
    assert cp.returncode == 0, cp.stderr
    boot = ("import sys\nsys.path.insert(0, '/input/firmware')\n"
            f"sys.argv[:] = ['guest', '{players}', '{var}']\n" + GUEST)
    vm = run_program(boot, ROOT, heap="192K")
    want = cp.stdout.splitlines()
    got = vm.stdout.splitlines()
    assert got[:-1] == want[:-1] and len(want) > 40
    assert got[-1] == "tick_alloc 0"
    events = [json.loads(s) for s in want[:-1]]
    assert events[-1]["k"] == "end" and events[-1]["why"] == "rounds"
    assert sum(e["k"] == "timer" for e in events) == 5
