"""The whole path on this machine: the firmware files in the MicroPython VM (192K heap) with
hardware models, its USB serial on a real pseudo-terminal, `doodlebox log` as its own process
reading it with pyserial, and SQLite. The host is killed (SIGKILL) twice mid-game and started
again; the database must hold every event of the game exactly once."""
import sqlite3
import time

import pytest
import serial
from hostproc import HostProcess, StoreFeed

from doodlebox.table.dice import PRESS_GAP_S, PRESS_MS, Table
from doodlebox.virtual.console import VirtualConsole

pytestmark = pytest.mark.slow      # (tests/conftest.py: the quick tier)

KILL_AT_ROLLS = (3, 9)  # the host is killed just before these ROLL presses (each sends an event)


def swallow(port, seconds):
    """Read and throw away what the console sends, until an event frame has gone by (or for
    `seconds` at most: a machine under load may be slow to run the press); returns it."""
    with serial.Serial(port, timeout=0.05) as s:
        got, end = b"", time.monotonic() + seconds
        while time.monotonic() < end and b'"t":"ev"' not in got:
            got += s.read(4096)
        return got + s.read(4096)


@pytest.fixture
def console(tmp_path):
    vc = VirtualConsole(mode="vm", flash_dir=tmp_path / "flash", seed=5).start()
    yield vc
    vc.stop()


def test_a_whole_game_survives_host_restarts(console, tmp_path):
    db, log = tmp_path / "games.sqlite3", tmp_path / "host.log"
    host = HostProcess(console.port, db, log).start()
    host.wait_connected()
    feed = StoreFeed(db).start()
    rolls = 0
    lost = []

    def press(name):
        nonlocal rolls
        rolls += name == "ROLL"
        if name != "ROLL" or rolls not in KILL_AT_ROLLS:
            console.press(name, PRESS_MS)
            time.sleep(PRESS_GAP_S)
            return
        host.kill()
        console.press(name, PRESS_MS)  # its event goes out to no one ...
        lost.append(swallow(console.port, 10))  # ... and is lost, like bytes on a pulled cable
        host.start()

    try:
        table = Table(press, feed.events, seed=11, timeout=30)
        seen = table.play_game(players=3)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and not any(e["k"] == "end" for e in seen):
            time.sleep(0.1)
    finally:
        code = host.stop()
        feed.stop()
    assert console.error is None, console.error
    assert host.starts == 3
    # while no host ran, the console sent events that nobody read: only resends saved them
    assert all(b'"t":"ev"' in chunk for chunk in lost), lost
    assert code == 130, log.read_text()  # Ctrl-C: the shell's code for an interrupted program

    rows = sqlite3.connect(db).execute("SELECT uid, boot, seq, kind FROM events ORDER BY seq").fetchall()
    seqs = [r[2] for r in rows]
    assert seqs == list(range(1, len(rows) + 1)), "every event once, in order, no gap"
    assert {(r[0], r[1]) for r in rows} == {(rows[0][0], 1)}
    kinds = [r[3] for r in rows]
    assert kinds[0] == "game" and kinds[-1] == "end"
    assert kinds.count("start") == 5 and kinds.count("roll") >= 2
    # the bot checked each stored event against the rules as it arrived: none was lost
    assert len(seen) == len(rows)
    assert sqlite3.connect(db).execute("SELECT COUNT(*) FROM gaps").fetchone()[0] == 0
    games = sqlite3.connect(db).execute("SELECT players, end_reason, events FROM games").fetchall()
    assert games == [(3, "trees", len(rows))]
    text = log.read_text()
    assert text.count("connected: console") == 3
    # the two killed hosts printed no summary; the last one's count and the first two's
    # committed events add up to the whole game
    summary = [line for line in text.splitlines() if line.startswith("stored ")]
    assert len(summary) == 1
    assert 0 < int(summary[0].split()[1]) < len(rows)
