"""Doodle Puzzle's drawing minute on the virtual console (the firmware in the 192K MicroPython VM,
`doodlebox log`'s link over its pty, the bot pressing buttons): once on the console's real
clock, the suite's one real minute, and once on the fast clock (hardware.ConsoleClock, which
`doodlebox demo --fast-clock` and tests/cli/test_demo.py use for Doodle Puzzle's five minutes).

Either way the console times the minute itself (its `timer` event: 60 s of running time, to the
step) and the bot checks it as in a whole game (puzzle_table.Table._minute). On the real clock
the minute takes a real minute; on the fast clock the console's time runs ahead while it waits
alone on its timer, and only its clock changes, not the firmware."""
from __future__ import annotations

import time

import pytest

from doodlebox.logger.link_thread import LinkThread
from doodlebox.rules.puzzle import engine as E
from doodlebox.table import puzzle as puzzle_table
from doodlebox.table.dice import PRESS_GAP_S, PRESS_MS, read_lobby
from doodlebox.virtual.console import VirtualConsole

pytestmark = pytest.mark.slow      # (tests/conftest.py: the quick tier)


class MinuteOver(Exception):
    pass


class OneMinute(puzzle_table.Table):
    """Doodle Puzzle's table up to the end of round 1's drawing minute; `real_s`: the real
    seconds from the ROLL that starts it to the console's `timer` event."""

    real_s = 0.0

    def _minute(self, state: E.State, pause: bool) -> None:
        started = time.monotonic()
        super()._minute(state, pause)
        self.real_s = time.monotonic() - started
        raise MinuteOver


def play_one_minute(tmp_path, fast_clock: bool) -> tuple[VirtualConsole, OneMinute]:
    vc = VirtualConsole(flash_dir=tmp_path / "flash", fast_clock=fast_clock).start()
    link = LinkThread(vc.port, tmp_path / "games.sqlite3", on_note=lambda t: None).start()
    try:
        assert link.wait_ready(60) and not link.error, link.error

        def press(name: str) -> None:
            vc.press(name, PRESS_MS)
            time.sleep(PRESS_GAP_S)

        table = OneMinute(press, link.events, seed=3, lobby=read_lobby(vc, timeout=60),
                          read=lambda game: read_lobby(vc, timeout=60, game=game))
        try:
            table.play_game(3)
        except MinuteOver:
            pass
        else:
            raise AssertionError("the game ended before its first minute")
    finally:
        link.stop()
        vc.stop()
    assert vc.error is None, vc.error
    return vc, table


def test_the_drawing_minute_on_the_real_clock_takes_a_real_minute(tmp_path):
    """The suite's one real minute: the console's clock is real time unless told otherwise."""
    vc, table = play_one_minute(tmp_path, fast_clock=False)
    assert len(table.minutes) == 1 and E.MINUTE_MS <= table.minutes[0] <= E.MINUTE_MS + 100
    assert table.real_s >= E.MINUTE_MS / 1000          # the console waited a whole real minute
    assert vc.clock.ahead == 0.0


def test_the_drawing_minute_on_the_fast_clock(tmp_path):
    """The same minute to the console (60 s of running time, its beeps and its alarm), most
    of it lived ahead of real time."""
    vc, table = play_one_minute(tmp_path, fast_clock=True)
    assert len(table.minutes) == 1 and E.MINUTE_MS <= table.minutes[0] <= E.MINUTE_MS + 100
    assert vc.clock.ahead > 30, vc.clock.ahead             # seconds of the minute that took no real time
    print(f"\nthe drawing minute on the fast clock: {table.real_s:.1f} real s, {vc.clock.ahead:.1f} s ahead")
    tones = vc.hardware.buzzer.tones()
    assert tones, "no countdown beeps, no alarm"
