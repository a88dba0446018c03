"""The PC's scores of the move that ends a round are in the picture of the round's full refresh
(issue 36, "The PC's scores reach the panel late"): the firmware's own loop (board/loop.py), app
and e-paper driver on the virtual console's hardware models under CPython, on a simulated clock,
with a PC on its USB that acknowledges every event and sends its scores after each one it scores
(logger/verdicts.py SCORED), as `doodlebox log` does.

A game's new title is a full refresh (2 s on the panel: docs/console.md), and a picture asked for
meanwhile waits for it. The console began that refresh as soon as the round's last move was
made, before the move's event was even written and sent (the journal sends within FLUSH_MS), so
the PC's scores of that move always waited the whole 2 s behind it (~1.9 s at every round's end
in the VM, the bot rolling 2.5 s after it). Now, with the PC connected, that screen waits for
them (at most board/loop.py's _HOLD_MS)."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest
from board_rig import PicoOnModels
from panel_watch import line

from doodle import link
from doodlebox.virtual.screen import lines

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "guest"))
import table_script  # tests/guest: a scripted game for the firmware core

pytestmark = pytest.mark.slow      # (tests/conftest.py: the quick tier)

SCORED = ("game", "end", "resume", "claim", "tree")     # logger/verdicts.py's, of a dice game


class Pc:
    """The PC's end of the USB: reads the console's frames; each event acknowledged, then (for
    the kinds it scores) its `score` sent, the totals made of the event's number so that every
    move's scores differ; a keepalive each second."""

    def __init__(self, players: int, scores: bool = True) -> None:
        self.players = players
        self.scoring = scores             # False: a PC that acknowledges and never scores
        self.inbox = bytearray()          # console -> PC, not read yet
        self.outbox = bytearray()         # PC -> console
        self.scores: dict[int, list[int]] = {}   # event s -> the totals sent after it
        self.kinds: dict[int, str] = {}
        self.said_at = -1000

    def read(self, n: int) -> bytes:      # the console's USB read
        data = bytes(self.outbox[:n])
        del self.outbox[:n]
        return data

    def send(self, msg: dict) -> None:
        self.outbox += link.encode(msg)

    def serve(self, now: int) -> None:
        *done, rest = bytes(self.inbox).split(b"\n")
        self.inbox[:] = rest
        for frame in done:
            msg, why = link.decode(frame + b"\n")
            assert why is None, (why, frame)
            if msg["t"] != "ev":
                continue
            e, s = msg["e"], msg["s"]
            self.kinds[s] = e["k"]
            self.send({"t": "ack", "boot": msg["boot"], "s": s})
            self.said_at = now
            if e["k"] in SCORED and self.scoring:
                self.scores[s] = [10 * s + p for p in range(self.players)]
                self.send({"t": "score", "g": e["g"], "r": e.get("r", 0), "p": self.scores[s], "bad": 0,
                           "why": ""})
        if now - self.said_at >= 1000:
            self.said_at = now
            self.send({"t": "ack", "boot": 1, "s": 0})


class Console(PicoOnModels):
    """The Pico's board over the hardware models, its main loop, a clock, the PC on its USB."""

    def __init__(self, tmp: Path, monkeypatch, players: int, scores: bool = True) -> None:
        self.pc = Pc(players, scores)
        super().__init__(tmp, monkeypatch, 7, self.pc.read, self.pc.inbox.extend)
        self.fulls: list[tuple[int, list[str]]] = []   # each full refresh: (the newest event made, the picture)

    def run(self, ms: int, until=None) -> None:
        end = self.clock.ms + ms
        epaper = self.hw.epaper
        while self.clock.ms < end:
            n = epaper.full_refreshes
            self.loop.run(steps=1)
            if epaper.full_refreshes != n:
                self.fulls.append((self.app.journal.next - 1, lines(epaper.image())))
            self.pc.serve(self.clock.ms)
            if until is not None and until():
                return

    def press(self, name: str) -> None:
        """A person's press, and the table's pause after it (time to read, to draw)."""
        self.hw.press_for(name, 80)
        self.run(2000, until=lambda: self.hw.pending_presses() == 0)
        self.run(1500)


def play(c: Console, rounds: int) -> None:
    """A 2-player City game, its start roads and its moves chosen by tests/guest/table_script.py,
    until round `rounds` is rolled."""
    table_script._state[0] = 4242
    c.run(3000)
    assert c.app._up
    for name in table_script.steps(c.app, [0], "city", 2, ack=False):
        c.press(name)
        g = c.app.game
        if g is not None and g.round >= rounds:
            return


def test_the_round_end_full_refresh_shows_the_pc_scores_of_the_move_that_ended_the_round(tmp_path, monkeypatch):
    c = Console(tmp_path, monkeypatch, players=2)
    try:
        play(c, rounds=4)
        checked = 0
        for newest, picture in c.fulls:
            if c.pc.kinds.get(newest) in ("claim", "tree"):      # a round's end (not the start roads')
                checked += 1
                shown = [s for s in picture if s.startswith("PC: if end")]
                assert shown == [line(c.pc.scores[newest])], (newest, shown, picture)
        assert checked >= 3, c.fulls
    finally:
        c.close()


def test_a_pc_that_never_scores_does_not_keep_the_new_round_off_the_panel(tmp_path, monkeypatch):
    """The round's screen waits for the PC's scores a moment only: a PC that acknowledges and
    sends none (one that cannot score the game) still sees every round's title, each its full
    refresh, before the next move."""
    c = Console(tmp_path, monkeypatch, players=2, scores=False)
    try:
        play(c, rounds=4)
        titles = [picture[0] for _newest, picture in c.fulls]
        assert [t for t in titles if t.startswith("City round")] == [f"City round {r}" for r in (1, 2, 3, 4)], titles
    finally:
        c.close()
