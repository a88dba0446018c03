"""Doodle Puzzle's drawing minute as it is heard: the firmware's own loop (board/loop.py), app,
game (doodle/puzzle.py) and buzzer (board/buzzer.py) on the virtual console's hardware models
(host/doodlebox/virtual/hardware.py) under CPython, on a simulated clock: the buzzer model's
tone log must hold ten countdown beeps at 50..59 s of running time, the alarm at 60,000 ms
(within one loop step of the start + 60 s of running time), and a pause and a resume (MENU)
shifting what follows by the time paused. No sleeping: time passes only when the loop sleeps.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from board_rig import STEP_MAX, PicoOnModels

from doodle import link
from doodle import puzzle as P

pytestmark = pytest.mark.slow      # (tests/conftest.py: the quick tier)

TICK_HZ = 2093       # board/buzzer.py TUNES: "tick"
ALARM_HZ = 2349      # "alarm": its first note (then 1568, 2349, ...)
PAUSE_HZ = 1047      # "pause": its first note
RESUME_HZ = 659      # "resume": its first note


class Console(PicoOnModels):
    """The Pico's board (board/pico.py) over the hardware models, its main loop, a clock."""

    def __init__(self, tmp: Path, monkeypatch, seed: int) -> None:
        self.out = bytearray()
        super().__init__(tmp, monkeypatch, seed, lambda n: b"", self.out.extend)

    @property
    def now(self) -> int:
        return self.loop.now

    def run(self, ms: int, until=None) -> None:
        """The loop for `ms` of the clock (or until `until()`), as main.py runs it."""
        end = self.clock.ms + ms
        while self.clock.ms < end:
            self.loop.run(steps=1)
            if until is not None and until():
                return

    def press(self, name: str) -> None:
        """A person's press: down 80 ms as the firmware reads it, up again, a pause."""
        self.hw.press_for(name, 80)
        self.run(2000, until=lambda: self.hw.pending_presses() == 0)
        self.run(100)

    def events(self) -> list[dict]:
        out = []
        for line in bytes(self.out).splitlines():
            msg, why = link.decode(line)
            assert why is None, (why, line)
            if msg["t"] == "ev":
                out.append(msg["e"])
        return out

    def tones(self, after_ms: int) -> list[tuple[int, int, int]]:
        """(start ms, Hz, ms) of every note since `after_ms`, on the loop's clock."""
        return [(round(s * 1000), f, round(d * 1000)) for s, f, d in self.hw.buzzer.tones() if s * 1000 >= after_ms]

    def panel(self) -> list[str]:
        from doodlebox.virtual.screen import lines

        return lines(self.hw.epaper.image())


@pytest.fixture
def console(tmp_path, monkeypatch):
    c = Console(tmp_path, monkeypatch, seed=11)
    yield c
    c.close()


def start_the_minute(c: Console) -> int:
    """From a fresh console's lobby: Doodle Puzzle, 3 players; the roles dealt (face up), the
    number, then ROLL: the minute's start on the loop's clock."""
    c.run(500)
    for _ in range(6):                  # city, suzhou, treasures, shanghai, monsters, deadly, puzzle
        c.press("D0")
    assert c.app.edition == "puzzle" and c.app.players == 3
    c.press("ROLL")                     # the game begins (after a collection)
    c.run(300)
    c.press("ROLL")                     # the deal
    c.press("D0")
    c.press("D2")                       # number 8
    assert [e["k"] for e in c.events()][-3:] == ["game", "roles", "subject"]
    c.press("ROLL")
    g = c.app.game
    assert g.phase == P.MINUTE and g.t_start > 0
    return g.t_start


def check_the_minute(c: Console, start: int, pauses: list[tuple[int, int]]) -> None:
    """The beeps and the alarm where the minute's running time puts them; `pauses` the
    (start, end) of each pause on the loop's clock."""

    def at(running_ms: int) -> int:
        """When the minute's running time reached `running_ms` (the clock: the pauses before
        it added)."""
        t = start + running_ms
        before = 0
        for a, b in pauses:
            if a - start - before < running_ms:
                t += b - a
            before += b - a
        return t

    notes = c.tones(start)
    ticks = [n for n in notes if n[1] == TICK_HZ]
    assert len(ticks) == 10, notes
    for k, (s, _hz, ms) in enumerate(ticks):
        want = at(50000 + 1000 * k)
        assert 0 <= s - want <= STEP_MAX, (k, s, want)     # at 10, 9, ... 1 s left, on the step
        assert 38 <= ms <= 40 + STEP_MAX                    # a short beep
    alarm = [n for n in notes if n[1] == ALARM_HZ]
    assert alarm, notes
    want = at(60000)
    assert 0 <= alarm[0][0] - want <= STEP_MAX, (alarm[0][0], want)
    assert ticks[-1][0] < alarm[0][0] < ticks[-1][0] + 1000 + STEP_MAX
    # the alarm is unlike the beeps: seven notes, high and low in turn, over 1.2 s
    seq = [n for n in notes if n[0] >= alarm[0][0]][:7]
    assert [hz for _s, hz, _ms in seq] == [ALARM_HZ, 1568] * 3 + [ALARM_HZ]
    assert seq[-1][0] + seq[-1][2] - seq[0][0] >= 1200 - STEP_MAX
    # nothing is heard while it is paused, but the pause and the resume
    for a, b in pauses:
        inside = [n for n in notes if a <= n[0] < b]
        assert [hz for _s, hz, _ms in inside][:1] == [PAUSE_HZ] and all(n[1] != TICK_HZ for n in inside)
        assert any(n[1] == RESUME_HZ and b <= n[0] <= b + STEP_MAX for n in notes)
    # the timer event: the console's clock at the start and at the alarm, the time paused
    (timer,) = [e for e in c.events() if e["k"] == "timer"]
    paused = sum(b - a for a, b in pauses)
    assert timer == {"k": "timer", "g": 1, "r": 1, "start": start, "end": alarm[0][0], "paused": paused}
    assert 60000 <= timer["end"] - timer["start"] - timer["paused"] <= 60000 + STEP_MAX


def test_ten_beeps_and_the_alarm_at_sixty_seconds(console):
    c = console
    start = start_the_minute(c)
    assert [n[1] for n in c.tones(start)][:2] == [784, 1047]           # "go"
    c.run(30000)
    big = c.panel()[2]                  # the time left in big digits ("@0:30" on the panel), under the action
    assert c.panel()[:2] == ["Puzzle R1/5", "^Drawys draw!"] and big.startswith("@0:"), c.panel()
    left = int(big[3:])
    assert 29 <= left <= 31
    c.run(31000, until=lambda: c.app.game.phase != P.MINUTE)
    assert c.app.game.phase == P.PLACE
    c.run(1500)
    check_the_minute(c, start, [])


def test_pause_and_resume_shift_the_beeps_and_the_alarm(console):
    """MENU at 20 s pauses for 7.3 s; MENU in the countdown, between two beeps, pauses again:
    every beep after a pause, and the alarm, come that much later; none while paused."""
    c = console
    start = start_the_minute(c)
    g = c.app.game
    pauses = []
    for running_at, hold in ((20000, 7300), (55500, 2250)):
        c.run(70000, until=lambda at=running_at: g.running(c.now) >= at - 40)
        c.press("MENU")
        assert g.paused()
        a = [n for n in c.tones(start) if n[1] == PAUSE_HZ][-1][0]     # heard when MENU was read
        c.run(hold)
        big = c.panel()[2]
        assert c.panel()[1] == "^Paused" and big.startswith("@0:") and big.endswith(" PAUSED"), c.panel()
        c.press("MENU")
        assert not g.paused()
        b = [n for n in c.tones(start) if n[1] == RESUME_HZ][-1][0]
        pauses.append((a, b))
    c.run(10000, until=lambda: g.phase != P.MINUTE)
    c.run(1500)
    assert sum(b - a for a, b in pauses) > 9000
    check_the_minute(c, start, pauses)
