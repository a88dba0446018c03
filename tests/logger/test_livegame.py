"""Live validation (host/doodlebox/logger/verdicts.py, logger/link_thread.py): after each turn stored, the PC's scores
go to the console as `score` (docs/protocol.md); violations are found once; what goes wrong in
validation never stops the link. Over real pseudo-terminals with pyserial and SQLite."""
from __future__ import annotations

import copy
import random
import threading
import time

import pytest
import serial
from console_events import console_events
from randomplay import random_game
from test_console_record import city_events

from doodlebox.history.console_record import ConsoleLogError
from doodlebox.link import frames
from doodlebox.link.describe import describe
from doodlebox.link.session import HostLink
from doodlebox.logger.link_thread import LinkThread
from doodlebox.logger.verdicts import LiveGames, verdict_lines
from doodlebox.rules.games import find_game
from doodlebox.store import Store
from doodlebox.virtual.pty_port import PtyPort


def test_a_turn_gets_the_pcs_scores_and_a_violation_is_found_once(tmp_path):
    store = Store(tmp_path / "g.sqlite3")
    live = LiveGames(store)
    events = city_events() + [
        {"k": "roll", "g": 1, "r": 2, "sp": 1, "c": 3, "w": [2, 2, 5]},
        {"k": "claim", "g": 1, "r": 2, "p": 1, "i": 1, "d": 2, "row": 2, "col": 3, "pc": "NS", "v": 0},
        {"k": "claim", "g": 1, "r": 2, "p": 0, "i": 1, "d": 2, "row": 2, "col": 3, "pc": "EW", "v": 0},  # taken
        {"k": "end", "g": 1, "r": 2, "why": "menu", "p": [0, 0]}]
    verdicts = []
    for s, e in enumerate(events, start=1):
        store.append("c0ffee", 2, s, e)
        verdicts.append(live.stored("c0ffee", 2, e))
    kinds = [e["k"] for e in events]
    assert [v is not None for v in verdicts] == [k in ("game", "claim", "tree", "end") for k in kinds]
    first = verdicts[0]
    assert first.message == {"t": "score", "g": 1, "r": 0, "p": [0, 0], "bad": 0, "why": "",
                             "id": store.game_log_of("c0ffee", 2, 1).id}   # the store's number, for the panel
    assert first.label == "game 1 (console c0ffee boot 2)" and first.kind == "game"
    after_p1 = verdicts[7].message                       # P1 circled 1 for her shop
    assert (after_p1["r"], after_p1["bad"]) == (1, 0) and after_p1["p"][0] > after_p1["p"][1]
    bad = verdicts[12]
    assert bad.message["bad"] == 1 and len(bad.new) == 1 and bad.new[0].rule == "taken"
    assert bad.message["why"].startswith("R2 P1: white die 1 was already taken by P2")
    assert len(bad.message["why"]) <= 60 and bad.message["why"].isascii()
    end = verdicts[13]
    assert end.kind == "end" and end.message["bad"] == 1 and end.new == []   # found once
    lines = verdict_lines(bad) + verdict_lines(end)
    assert lines[0].startswith("PC: violation in game 1 (console c0ffee boot 2): round 2, P1: die 1 at [2, 3] EW:")
    assert lines[0].endswith("[rule taken]") and lines[1].startswith("PC: final scores P1 ")


def test_a_game_that_cannot_be_a_record_is_said_once(tmp_path):
    store = Store(tmp_path / "g.sqlite3")
    live = LiveGames(store)
    events = city_events()
    events.insert(6, dict(events[7]))      # a claim before its roll
    raised = []
    for s, e in enumerate(events, start=1):
        store.append("c0ffee", 2, s, e)
        try:
            live.stored("c0ffee", 2, e)
        except ConsoleLogError as exc:
            raised.append(str(exc))
    assert raised == ["game 1 (console c0ffee boot 2): event 7 (claim): no roll before it"]


def test_describe_never_raises_on_odd_fields():
    """Issue 11: an event with odd field types killed the live printout."""
    for odd in ({"k": "roll", "sp": "x", "w": 5}, {"k": "claim", "p": [1], "via": 3, "pc": None},
                {"k": "end", "p": "many"}, {"k": "resume", "of": 7}, {"k": None}, {"k": "tree", "p": True}):
        assert isinstance(describe(odd), str)
    assert describe({"k": "resume", "g": 1, "of": [2, 3], "at": 17, "r": 4}) == (
        "console's game 1 resumes its game 3 of boot 2 after a power cut, in round 4 (from its event 17)")


def test_describe_reads_the_version_2_events():
    assert describe({"k": "claim", "g": 1, "r": 2, "p": 0, "i": 4, "d": 5, "row": 1, "col": 6, "pc": "SW",
                     "via": [5, 3], "v": 6}) == \
        "  P1 takes die 4 (5) via the park at row 5, column 3 -> row 1, column 6: SW, circles 6"
    assert describe({"k": "claim", "p": 1, "i": 2, "d": 2, "row": 2, "col": 3, "fl": 1, "v": 0}).endswith(": a floor")
    assert describe({"k": "refuse", "p": 2, "why": "third_time"}) == "  P3 refused: the sky scraper has all its floors"
    assert describe({"k": "end", "r": 9, "why": "hotel", "p": [3, 4]}) == \
        "game over after round 9: the top hotel value is circled: the console's scores P1 3, P2 4"


def test_describe_reads_the_card_games_events():
    """Protocol version 4: every Deadly Doodles and Doodle Puzzle event is one line for a person."""
    assert describe({"k": "game", "g": 2, "ed": "deadly", "n": 3, "var": "", "map": "b", "rec": "tally"}) == \
        "console's game 2: deadly for 3 player(s), map side B, drawings tally"
    assert describe({"k": "reveal", "g": 1, "r": 2, "cards": [12, 35, 3, 30, 20, 33]}) == \
        "round 2: cards 12 35 3 30 20 33 revealed"
    assert describe({"k": "draw", "g": 1, "r": 2, "p": 1, "card": 3, "room": "B1", "ends": "NS"}) == \
        "  P2 draws card 3 in B1, open NS"
    assert describe({"k": "roles", "g": 1, "r": 1, "roles": "SBGD"}) == \
        "round 1: roles dealt (P1 star, P2 Baddy, P3 Guessy, P4 Drawy)"
    assert describe({"k": "timer", "g": 1, "r": 1, "start": 1000, "end": 66000, "paused": 5000}) == \
        "  the drawing minute ran out (60 s, paused 5 s)"
    assert describe({"k": "mischief", "g": 1, "r": 1, "erase": 3, "draw": 0}) == "  Baddy's Mischief: erases on board 3"
    assert describe({"k": "mischief", "g": 1, "r": 1, "erase": 0, "draw": 0}) == "  Baddy's Mischief: nothing"
    assert describe({"k": "refuse", "g": 1, "r": 1, "p": 0, "i": 0, "why": "slot_twice"}) == \
        "  P1 refused: the slot is filled"
    for odd in ({"k": "timer", "end": "x"}, {"k": "roles", "roles": 5}, {"k": "mischief", "erase": []},
                {"k": "reveal", "cards": 7}):
        assert isinstance(describe(odd), str)


# -- over a real pseudo-terminal ----------------------------------------------------------------------
def read_frames(pty: PtyPort, want, timeout: float = 10.0) -> list[dict]:
    """Frames the host sent, decoded, until `want(frames)` holds."""
    got: list[dict] = []
    lines = frames.LineSplitter()
    deadline = time.monotonic() + timeout
    while not want(got):
        assert time.monotonic() < deadline, got[-5:]
        data = pty.read(4096)
        if not data:
            time.sleep(0.005)
            continue
        for line in lines.feed(data):
            assert isinstance(line, bytes)
            got.append(frames.decode(line))
    return got


def test_the_session_sends_score_over_a_pty_and_the_other_end_decodes_it(tmp_path):
    pty = PtyPort()
    port = serial.Serial(pty.path, timeout=0)
    try:
        link = HostLink(port, Store(tmp_path / "g.sqlite3"))
        msg = frames.score(3, 7, [21, 17, 30], 2, "R4 P2: white die 3 was already taken by P1 this round, and more")
        threads = [threading.Thread(target=link.send, args=(dict(msg, g=i),)) for i in range(1, 6)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        got = read_frames(pty, lambda fs: len(fs) == 5)
    finally:
        port.close()
        pty.close()
    assert sorted(f["g"] for f in got) == [1, 2, 3, 4, 5]
    assert all(f == dict(msg, g=f["g"], v=frames.VERSION) for f in got)
    assert got[0]["why"] == "R4 P2: white die 3 was already taken by P1 this round, an..."


class FakeConsole:
    """The console's end of the pty: sends hello and events as frames; reads what the host sends."""

    def __init__(self, pty: PtyPort, uid: str = "c0ffee", boot: int = 2):
        self.pty, self.uid, self.boot = pty, uid, boot
        self.got: list[dict] = []
        self._lines = frames.LineSplitter()

    def send(self, kind: str, **fields) -> None:
        self.pty.write(frames.encode(kind, **fields))

    def hello(self, first: int = 1) -> None:
        self.send("hello", fw="0.3.0", uid=self.uid, boot=self.boot, first=first, next=first,
                  held=[[self.boot, first, first]])

    def pump(self, until, timeout: float = 15.0) -> None:
        deadline = time.monotonic() + timeout
        while not until():
            assert time.monotonic() < deadline, self.got[-5:]
            data = self.pty.read(4096)
            if not data:
                time.sleep(0.002)
                continue
            for line in self._lines.feed(data):
                msg = frames.decode(line)
                self.got.append(msg)
                if msg["t"] == "hi":
                    self.hello()

    def drain(self, seconds: float) -> None:
        """Read what comes for a while."""
        end = time.monotonic() + seconds
        self.pump(lambda: time.monotonic() >= end, timeout=seconds + 5)

    def acked(self, boot: int, s: int) -> bool:
        return any(m["t"] == "ack" and m["boot"] == boot and m["s"] >= s for m in self.got)

    def scores(self) -> list[dict]:
        return [m for m in self.got if m["t"] == "score"]


@pytest.mark.slow
def test_the_link_thread_sends_the_pcs_scores_after_each_turn_of_the_current_boot(tmp_path):
    state = random_game(find_game("treasures"), 11, 3)
    events = console_events(state, refusals=random.Random(1))
    old = console_events(random_game(find_game("city"), 2, 2))[:12]     # a game of an earlier boot
    pty = PtyPort()
    console = FakeConsole(pty)
    notes: list[str] = []
    verdicts: list = []
    link = LinkThread(pty.path, tmp_path / "g.sqlite3", on_note=notes.append, handshake_timeout=5,
                      on_verdict=verdicts.append).start()
    try:
        console.pump(lambda: any(m["t"] == "hi" for m in console.got))   # answered with hello
        assert link.wait_ready(5) and link.error is None
        n_old = 0
        for s, e in enumerate(old, start=1):
            console.send("ev", boot=1, s=s, e=e)
            n_old += e["k"] in ("game", "claim", "tree")
            console.pump(lambda s=s, n_old=n_old: console.acked(1, s) and len(verdicts) == n_old)
        console.drain(0.1)
        assert console.scores() == [] and len(verdicts) == n_old
        scored = 0
        for s, e in enumerate(events, start=1):
            console.send("ev", boot=2, s=s, e=e)     # at the table's pace: each turn's score before the next
            scored += e["k"] in ("game", "claim", "tree", "end")
            console.pump(lambda s=s, scored=scored: console.acked(2, s) and len(console.scores()) == scored)
        console.drain(0.2)
    finally:
        link.stop()
        pty.close()
    scores = console.scores()
    assert all(m["g"] == 1 and m["bad"] == 0 and m["why"] == "" for m in scores)
    assert scores[0]["p"] == [0, 0, 0] and scores[-1]["p"] == state.scores() == events[-1]["p"]
    assert scores[-1]["r"] == state.round and notes == [] and link.sent_scores == len(scores)
    # each score follows the ack of its event: the event is committed first
    order = [(m["t"], m.get("s")) for m in console.got if m.get("boot", 2) == 2 and m["t"] in ("ack", "score")]
    assert order[0] == ("ack", 1) and order[1][0] == "score"


def test_validation_that_fails_is_a_note_and_the_link_goes_on(tmp_path, monkeypatch):
    real = LiveGames.stored
    calls = {"n": 0}

    def flaky(self, uid, boot, event, seq=None):
        calls["n"] += 1
        if calls["n"] == 3:
            raise RuntimeError("a bug in validation")
        return real(self, uid, boot, event, seq)

    monkeypatch.setattr(LiveGames, "stored", flaky)
    events = copy.deepcopy(city_events())
    events.insert(6, dict(events[7]))      # and a game that cannot be a record: said once
    events = [dict(e, g=2) for e in city_events()[:7]] + [dict(e) for e in events]
    pty = PtyPort()
    console = FakeConsole(pty)
    notes: list[str] = []
    link = LinkThread(pty.path, tmp_path / "g.sqlite3", on_note=notes.append, handshake_timeout=5).start()
    try:
        console.pump(lambda: any(m["t"] == "hi" for m in console.got))
        assert link.wait_ready(5)
        scored = 0
        for s, e in enumerate(events, start=1):     # at the table's pace: each turn validated before the next
            console.send("ev", boot=2, s=s, e=e)
            scored += e["k"] in ("game", "claim", "tree", "end")
            console.pump(lambda s=s, scored=scored: console.acked(2, s) and calls["n"] == scored)
        console.pump(lambda: len(console.scores()) >= 2)
        console.drain(0.3)      # and nothing more
    finally:
        link.stop()
        pty.close()
    assert link.error is None and link.link is not None and link.link.counts["stored"] == len(events)
    assert any("validation failed" in n and "a bug in validation" in n and "the link goes on" in n for n in notes)
    assert [n for n in notes if "cannot score" in n] == [
        "game 2 (console c0ffee boot 2): event 14 (claim): no roll before it; the PC cannot score this game"]
    assert [m["g"] for m in console.scores()] == [2, 1]   # each game's start; nothing for the broken game after
