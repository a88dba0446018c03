"""Hints at the console (issue 21; docs/console.md, "Hints"; docs/protocol.md `hint?`, `hint`):
the lobby's option, the chord MENU+PASS, the request and the PC's answer on the panel, under
CPython (the App driven as board/loop.py drives it); the PC's answer from the store and the
coach; the whole path on the virtual console (the firmware in the VM, the host's link)."""
from __future__ import annotations

import json
import re
import sys
import time
from pathlib import Path

import pytest

from doodle import link
from doodle.app import App
from doodle.flashlog import RamFlash

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "guest"))
import table_script  # tests/guest: a scripted game for the firmware core

UID = "c0ffee"


@pytest.fixture(autouse=True)
def same_table():
    table_script._state[0] = 12345


class Table:
    """An App in CPython, stepped as board/loop.py steps it (a collection when it asks), on its
    own clock; `pc` a PC that acknowledges every event (so the link is up)."""

    def __init__(self, flash=None):
        self.flash = flash if flash is not None else RamFlash()
        self.app = App(table_script.rand, 1, UID, self.flash)
        self.now = 0
        self.pc = False
        self.sent: list[dict] = []
        self.step(100)

    def step(self, ms=20):
        app = self.app
        end = self.now + ms
        while self.now < end:
            self.now += 20
            if app.collect_wanted:
                app.collected()
            app.tick(self.now)
            app.screen()                             # the loop draws the screen each step (board/loop.py)
            for line in app.serial_out().split(b"\n")[:-1]:
                msg, why = link.decode(line + b"\n")
                assert why is None, (why, line)
                self.sent.append(msg)
                if self.pc:
                    self.heard(msg)
            if self.pc and self.now % 1000 == 0:     # the host's keepalive
                app.serial_in(link.encode({"t": "ack", "boot": 1, "s": 0}), self.now)

    def heard(self, msg):
        """The PC's side: every event acknowledged."""
        if msg["t"] == "ev":
            self.app.serial_in(link.encode({"t": "ack", "boot": msg["boot"], "s": msg["s"]}), self.now)

    def press(self, name, settle=200):
        why = self.app.button(name, self.now)
        self.step(settle)
        return why

    def chord(self):
        """Hold MENU, then press PASS: the App hears MENU, then the chord (board/buttons.py)."""
        self.press("MENU", 100)
        return self.press("MENU+PASS", 20)

    def connect(self):
        self.pc = True
        self.app.serial_in(link.encode({"t": "ack", "boot": 1, "s": 0}), self.now)
        self.step(40)
        assert self.app._up

    def begin(self, hints, players=2):
        """A City game (hints on or off in the lobby), its start roads and round 1 rolled."""
        app = self.app
        if ("hint" in app.opts) != hints:
            self.press("MENU")
        self.press("D%d" % players)
        return self.start()

    def start(self):
        """The lobby's choice begun: its start roads and round 1 rolled."""
        app = self.app
        self.press("ROLL", 300)
        assert app.game is not None
        while app.game.phase <= 1:      # the start roads, then round 1
            self.press("ROLL", 100)
        return app.game

    def requests(self):
        return [m for m in self.sent if m["t"] == "hint?"]

    def events(self, kind):
        return [m["e"] for m in self.sent if m["t"] == "ev" and m["e"]["k"] == kind]

    def notice(self):
        return " ".join(line[1:] for line in self.app.screen() if line.startswith("!"))


def test_the_lobby_turns_hints_on_with_menu_and_keeps_the_choice():
    flash = RamFlash()
    t = Table(flash)
    app = t.app
    assert "hint" not in app.opts                          # off by default
    assert "Hints: off   (MENU)" in app.screen()
    t.press("MENU")
    assert app.opts["hint"] == "on" and "Hints: on    (MENU)" in app.screen()
    t.press("D2")
    t.press("ROLL", 300)
    assert json.loads(flash.load("settings.json"))["hint"] == "on"
    assert t.events("game")[0] == {"k": "game", "g": 1, "ed": "city", "n": 2, "var": "", "hint": 1}
    again = Table(flash)                                   # the next power-up's lobby: the game resumed, ...
    assert again.app.opts["hint"] == "on"


def test_a_card_game_has_no_hints_and_its_menu_stays_its_own():
    t = Table()
    t.press("MENU")
    while t.app.edition != "deadly":
        t.press("D0")
    assert "hint" not in t.app.opts                        # Deadly Doodles: off, and MENU is its option
    rec = t.app.opts["rec"]
    t.press("MENU")
    assert "hint" not in t.app.opts and t.app.opts["rec"] != rec
    assert not any(line.startswith("Hints") for line in t.app.screen())


def test_without_hints_the_chord_sends_nothing_and_sounds_nothing():
    t = Table()
    t.connect()
    g = t.begin(hints=False)
    assert "hint" not in t.events("game")[0]
    t.app.tones()
    phase, turn = g.phase, g.turn
    assert t.chord() is None
    assert t.requests() == [] and t.app.tones() == []
    assert not t.app.confirm_end and t.notice() == ""     # MENU's question answered "no", nothing more
    assert (g.phase, g.turn) == (phase, turn)              # and no PASS: no tree crossed


def test_with_hints_the_chord_asks_the_pc_and_shows_its_answer_until_the_next_press():
    t = Table()
    t.connect()
    g = t.begin(hints=True)
    phase, turn, trees = g.phase, g.turn, g.sheets[g.current()].trees
    t.chord()
    (req,) = t.requests()
    assert req == {"t": "hint?", "v": link.VERSION, "g": 1, "s": t.app.journal.next - 1}
    assert (g.phase, g.turn, g.sheets[g.current()].trees) == (phase, turn, trees)   # the PASS was no PASS
    assert t.notice() == "End game? ROLL: yes, another button: no"   # no picture before the answer ...
    t.step(600)
    assert t.notice() == "End game? ROLL: yes, another button: no"   # ... while it may come
    text = "Hint: D2 row 5 col 2: piece D4, circle 4"
    t.app.serial_in(link.encode({"t": "hint", "g": 1, "text": text}), t.now)
    t.step(3000)                                          # shown longer than a notice's 3 s
    assert t.notice() == "Hint: D2 row 5 col 2: piece D4, circle 4"
    t.press("ROLL")                                       # the next press (ignored now) lets it go
    assert t.notice() == ""
    t.app.serial_in(link.encode({"t": "hint", "g": 1, "text": "Hint: late"}), t.now)
    t.step(40)
    assert t.notice() == ""                               # an answer nobody asked for is ignored


def test_a_press_while_the_hint_is_awaited_is_drawn_at_once_and_the_answer_dropped():
    t = Table()
    t.connect()
    g = t.begin(hints=True)
    t.chord()
    waiting = list(t.app.screen())
    assert len(t.requests()) == 1 and t.notice() == "End game? ROLL: yes, another button: no"
    phase = g.phase
    t.press("D1", 40)                                     # the player goes on: the die taken ...
    assert g.phase != phase
    assert t.app.screen() != waiting and t.notice() == ""  # ... drawn now, not when the answer comes
    t.app.serial_in(link.encode({"t": "hint", "g": 1, "text": "Hint: D2 row 5 col 2"}), t.now)
    t.step(40)
    assert t.notice() == ""                               # the answer to the turn before: not shown
    t.step(2000)
    assert t.notice() == ""                               # and no "no hint yet" either


def test_no_answer_says_no_hint_yet_and_no_pc_says_so_at_once():
    t = Table()
    t.connect()
    t.begin(hints=True)
    t.pc = False                                          # the PC stops answering (still "connected")
    t.chord()
    assert len(t.requests()) == 1
    t.step(1400)
    assert t.notice() == "End game? ROLL: yes, another button: no"   # no picture while it may come
    t.step(200)
    assert t.notice() == "no hint yet"
    t.app.serial_in(link.encode({"t": "hint", "g": 1, "text": "Hint: PASS, cross out a tree"}), t.now)
    t.step(40)
    assert t.notice() == "Hint: PASS, cross out a tree"   # a late answer still shown
    t.step(6000)                                          # no PC for 5 s: offline
    assert not t.app._up
    t.chord()
    assert len(t.requests()) == 1 and t.notice() == "no hint: no PC"


def test_pass_while_menu_is_held_is_the_chord():
    from board.buttons import Buttons

    class Pin:
        def __init__(self):
            self.level = 1

        def value(self):
            return self.level

    pins = {n: Pin() for n in ("ROLL", "PASS", "MENU")}
    b = Buttons(list(pins.items()))
    assert b.poll(0) == ()

    def down(name, now):
        pins[name].level = 0
        b.poll(now)
        return list(b.poll(now + 40))

    def up(name, now):
        pins[name].level = 1
        b.poll(now)
        b.poll(now + 40)

    assert down("PASS", 100) == ["PASS"]
    up("PASS", 200)
    assert down("MENU", 300) == ["MENU"]
    assert down("PASS", 400) == ["MENU+PASS"]             # never a PASS while MENU is held
    up("PASS", 500)
    assert down("ROLL", 600) == ["ROLL"]                  # only PASS makes the chord
    up("MENU", 700)
    up("ROLL", 700)
    assert down("PASS", 800) == ["PASS"]


# -- the PC's answer ------------------------------------------------------------------------------
def _store_with(tmp_path, events, uid=UID, boot=1):
    from doodlebox.store import Store

    store = Store(tmp_path / "games.sqlite3")
    for s, e in enumerate(events, start=1):
        store.append(uid, boot, s, e)
    return store


def _legal(state, text):
    """Whether the hint names a legal move of the player to act (die, square, and piece face)."""
    if text.startswith("Hint: PASS"):
        return any(a.kind == "pass" for a in state.legal_actions(state.current_player()))
    m = re.match(r"Hint: D(\d) row (\d) col (\d): (piece D(\d)|cross a \w+|D0, a floor)", text)
    assert m, text
    die, row, col = int(m[1]), int(m[2]), int(m[3])
    legend = state.game.layout.legend
    for a in state.legal_actions(state.current_player()):
        if (a.kind != "pass" and (a.die, a.row, a.col) == (die, row, col)
                and (m[5] is None or legend[int(m[5])] == a.piece)):
            return True
    return False


def test_the_pc_answers_with_a_legal_move_of_the_player_to_act(tmp_path):
    from test_console_record import city_events

    from doodlebox.history.console_record import to_record
    from doodlebox.logger.answers import hint_text
    from doodlebox.rules.games import read_record

    events = city_events()[:8]                 # round 1: P1 took a die; P2 is to move
    events[0]["hint"] = 1
    store = _store_with(tmp_path, events)
    try:
        text = hint_text(store, UID, 1, 1, len(events))
        log = store.game_log_of(UID, 1, 1)
        data = to_record(log)
    finally:
        store.close()
    assert data["hints"] is True
    rec, game = read_record(data, "x")
    state = game.replay(rec).state
    assert state.current_player() == 1
    assert len(text) <= 46 and _legal(state, text), text


def test_the_pc_says_why_there_is_no_hint(tmp_path):
    from test_console_record import city_events

    from doodlebox.logger.answers import hint_text

    events = city_events()[:6]                 # the start roads: ROLL is next
    store = _store_with(tmp_path, events)
    try:
        assert hint_text(store, UID, 1, 1, 6) == "no hint: ROLL first"
        began = time.monotonic()               # an event the PC has not yet: it waits, then says so
        assert hint_text(store, UID, 1, 1, 7).startswith("no hint yet")
        assert time.monotonic() - began < 1.0
        store.append(UID, 2, 1, {"k": "game", "g": 1, "ed": "puzzle", "n": 3, "var": "", "subj": "standard"})
        assert hint_text(store, UID, 2, 1, 1).startswith("no hint: a drawing game")
    finally:
        store.close()


def test_the_link_thread_answers_a_hint_request_from_its_own_thread(tmp_path):
    from test_console_record import city_events

    from doodlebox.link.frames import decode
    from doodlebox.link.session import Console
    from doodlebox.logger.answers import Coach

    _store_with(tmp_path, city_events()[:8]).close()
    sent: list[dict] = []
    notes: list[str] = []

    class Owner:
        db_path = tmp_path / "games.sqlite3"
        on_note = notes.append
        sent_answers = 0

        class link:
            @staticmethod
            def send(msg):
                sent.append(msg)

    hinter = Coach(Owner)                      # type: ignore[arg-type]
    hinter.warm()                              # (a `game` with hints on: the coach loaded meanwhile)
    began = time.monotonic()
    hinter.add(Console(UID, "0.7.0", 1), {"t": "hint?", "g": 1, "s": 8})
    while not sent and time.monotonic() - began < 10:
        time.sleep(0.01)
    hinter.stop()
    assert notes == [] and len(sent) == 1, notes
    (msg,) = sent
    assert msg["t"] == "hint" and msg["g"] == 1 and msg["text"].startswith("Hint: D"), msg
    from doodlebox.link import frames
    assert decode(frames.encode("hint", g=1, text=msg["text"]))["text"] == msg["text"]   # the schema takes it


def test_a_chord_pressed_again_and_again_is_answered_once_not_once_a_press(tmp_path, monkeypatch):
    from test_console_record import city_events

    from doodlebox.link.session import Console
    from doodlebox.logger import answers

    _store_with(tmp_path, city_events()[:8]).close()
    asked: list[int] = []
    sent: list[dict] = []

    def slow_text(store, uid, boot, g, s, at=None):
        asked.append(s)
        time.sleep(0.3)                        # a search's time: the presses pile up meanwhile
        return f"Hint: for event {s}"

    monkeypatch.setattr(answers, "hint_text", slow_text)

    class Owner:
        db_path = tmp_path / "games.sqlite3"
        on_note = staticmethod(lambda text: None)
        sent_answers = 0

        class link:
            @staticmethod
            def send(msg):
                sent.append(msg)

    coach = answers.Coach(Owner)        # type: ignore[arg-type]
    console = Console(UID, "0.8.1", 1)
    for s in range(1, 9):                      # 8 chords in a row, faster than the PC answers
        coach.add(console, {"t": "hint?", "g": 1, "s": s})
    began = time.monotonic()
    while len(sent) < 2 and time.monotonic() - began < 10:
        time.sleep(0.01)
    time.sleep(0.4)
    coach.stop()
    assert asked[-1] == 8 and len(asked) <= 2, asked      # the first maybe (begun at once), then the newest
    assert [m["text"] for m in sent][-1] == "Hint: for event 8" and len(sent) == len(asked)


def test_an_old_host_refuses_the_request_and_a_new_one_checks_it():
    from doodlebox.link import frames

    assert frames.decode(frames.encode("hint?", g=1, s=0)) == {"t": "hint?", "v": frames.VERSION, "g": 1, "s": 0}
    with pytest.raises(frames.FrameError):
        frames.decode(frames.encode("hint?", g=1))
    with pytest.raises(frames.FrameError):
        frames.decode(frames.encode("hint", g=1, text="x" * 61))
    game = {"k": "game", "g": 1, "ed": "city", "n": 2, "var": "", "hint": 2}
    with pytest.raises(frames.FrameError):
        frames.decode(frames.encode("ev", boot=1, s=1, e=game))


# -- the whole path -------------------------------------------------------------------------------
class LinkedVm:
    """The firmware in the VM (the virtual console), its pty read by the host's LinkThread (the
    one `doodlebox log` runs) into tmp_path's database; `press` a button, `shown` waits for the
    panel to say something."""

    def __init__(self, tmp_path):
        from doodlebox.logger.link_thread import LinkThread
        from doodlebox.virtual.console import VirtualConsole

        self.vc = VirtualConsole(mode="vm", flash_dir=tmp_path / "flash", seed=5).start()
        self.notes: list[str] = []
        self.host = LinkThread(self.vc.port, tmp_path / "games.sqlite3", on_note=self.notes.append)

    def __enter__(self):
        self.host.start()
        assert self.host.wait_ready(30) and self.host.error is None, (self.host.error, self.notes)
        return self

    def __exit__(self, *exc):
        self.host.stop()
        self.vc.stop()

    def press(self, name, wait=0.4):
        self.vc.press(name, 80)
        time.sleep(wait)

    def shown(self, pred, seconds=20):
        from doodlebox.virtual.screen import panel_lines

        end = time.monotonic() + seconds
        while time.monotonic() < end:
            lines = panel_lines(self.vc)
            if pred(lines):
                return lines
            time.sleep(0.2)
        raise AssertionError(panel_lines(self.vc))


@pytest.mark.slow
def test_the_chord_in_a_city_game_on_the_virtual_console_shows_the_pcs_hint(tmp_path):
    """The firmware in the VM, its pty read by the host's LinkThread (the one `doodlebox log`
    runs): hints on in the lobby, a City game to round 1, MENU held and PASS pressed."""
    with LinkedVm(tmp_path) as t:
        vc, host, notes, press, shown = t.vc, t.host, t.notes, t.press, t.shown
        shown(lambda ls: any("Hints: off" in line for line in ls))
        press("MENU")
        shown(lambda ls: any("Hints: on" in line for line in ls))
        press("D2")
        press("ROLL", 3)
        for _ in range(6):                     # the five start roads, then round 1
            press("ROLL", 0.6)
        shown(lambda ls: any("take a die" in line for line in ls))
        vc.hardware.press("MENU")              # held ...
        time.sleep(0.5)
        vc.press("PASS", 80)                   # ... and PASS pressed meanwhile
        time.sleep(0.4)
        vc.hardware.release("MENU")
        lines = shown(lambda ls: any("Hint: D" in line or "Hint: PASS" in line for line in ls))
        assert vc.error is None, vc.error
        assert host.sent_answers == 1, notes
        hint = [line for line in lines if line.startswith("!")]     # on the notice's black bars
        assert re.match(r"!Hint: (D\d row \d col \d:|PASS, cross out)", hint[0]), lines
        vc.press("D0", 80)                     # the next press lets it go
        shown(lambda ls: not any("Hint" in line for line in ls))
