"""A power cut in the middle of a game, end to end (issue 11): the firmware in the MicroPython
VM (192K) with its flash in a folder, `doodlebox log`'s link (pyserial over a pseudo-terminal,
SQLite), the bot pressing buttons. The console is cut off between two rounds (its VM stopped
at once, the PC's link with it), powered up again on the same flash, and resumes the game; the
bot goes on with it to the end. The PC stores every event once, the two parts are one game,
and its record validates with the console's own totals."""
from __future__ import annotations

import contextlib
import json
import queue
import shutil
import sqlite3
import time

import pytest
from cli_run import doodlebox
from flash_watch import Watch
from waiting import until

from doodlebox.logger.link_thread import LinkThread
from doodlebox.table.dice import PRESS_GAP_S, PRESS_MS, Table, read_lobby
from doodlebox.virtual.console import VirtualConsole

pytestmark = pytest.mark.slow      # (tests/conftest.py: the quick tier)


def attach(vc, db):
    link = LinkThread(vc.port, db, on_note=lambda t: None).start()
    assert link.wait_ready(30) and not link.error, link.error
    return link


def on_flash(flash) -> set[tuple[int, int]]:
    """(boot, s) of every record written whole in the console's journal, read as the host reads it."""
    watch = Watch(flash)
    watch.scan()
    return set(watch.written)


def in_store(db) -> set[tuple[int, int]]:
    """(boot, seq) of every event the PC stored."""
    if not db.exists():
        return set()
    con = sqlite3.connect(db)
    try:
        return set(con.execute("SELECT boot, seq FROM events").fetchall())
    except sqlite3.OperationalError:
        return set()                                 # not made yet
    finally:
        con.close()


def all_stored(flash, db) -> bool:
    """Every event on the console's flash is in the PC's store (its acknowledgement sent)."""
    return on_flash(flash) <= in_store(db)


def test_a_game_cut_off_by_a_power_cut_resumes_and_is_stored_once(tmp_path):
    flash, db = tmp_path / "flash", tmp_path / "games.sqlite3"
    vc = VirtualConsole(flash_dir=flash).start()
    link = attach(vc, db)
    try:
        def press(name: str) -> None:
            vc.press(name, PRESS_MS)
            time.sleep(PRESS_GAP_S)

        table = Table(press, link.events, seed=11, lobby=read_lobby(vc))
        table.play_game("treasures", 2, stop_after_round=3)
        assert until(lambda: all_stored(flash, db))     # the last claim stored and acknowledged
    finally:
        vc.stop()                                        # the power goes: no goodbye
        link.stop()
    seen_before = len(table.seen)

    vc = VirtualConsole(flash_dir=flash, firmware=False).start()   # the same flash, powered up
    link = attach(vc, db)
    try:
        table.press = lambda name: (vc.press(name, PRESS_MS), time.sleep(PRESS_GAP_S))
        table.events = link.events
        table.go_on(back_to_lobby=False)
        assert until(lambda: all_stored(flash, db))     # the game's end stored and acknowledged
    finally:
        vc.stop()
        link.stop()
    assert table.final is not None and len(table.seen) > seen_before + 10

    con = sqlite3.connect(db)
    games = con.execute("SELECT boot, g, state FROM games ORDER BY id").fetchall()
    assert [(b, s) for b, _, s in games] == [(1, "resumed"), (2, "ended")], games
    keys = con.execute("SELECT boot, seq FROM events").fetchall()
    assert len(keys) == len(set(keys))                   # every event stored once
    record = tmp_path / "r.json"
    r = doodlebox("export", "last", "--db", str(db), "-o", str(record))
    assert r.returncode == 0, r.stderr
    report = json.loads(doodlebox("validate", str(record), "--json").stdout)
    assert report["finished"] and report["valid"], report
    assert [sheet["total"] for sheet in report["sheets"]] == table.final["p"]


def test_a_game_begun_with_no_pc_and_cut_off_reaches_the_pc_that_comes_later(tmp_path):
    flash, db = tmp_path / "flash", tmp_path / "games.sqlite3"
    vc = VirtualConsole(flash_dir=flash).start()
    try:
        read_lobby(vc)
        for n in range(1, 8):       # the game, the five start roads (Doodle City) and round 1's roll
            vc.press("ROLL", PRESS_MS)
            assert until(lambda n=n: len(on_flash(flash)) == n), on_flash(flash)   # its event on flash
    finally:
        vc.stop()                   # the power goes before any PC was there
    vc = VirtualConsole(flash_dir=flash, firmware=False).start()
    try:
        assert until(lambda: (2, 1) in on_flash(flash))   # powered up: the journal read, the game resumed
        link = attach(vc, db)       # the PC comes only now
        try:
            deadline = time.monotonic() + 20
            got: list = []
            while len(got) < 8 and time.monotonic() < deadline:
                got.append(link.events.get(timeout=deadline - time.monotonic()))
        finally:
            link.stop()
    finally:
        vc.stop()
    assert [e["k"] for e in got] == ["game", "start", "start", "start", "start", "start", "roll", "resume"]
    assert got[-1]["of"] == [1, 1] and got[-1]["at"] == 7 and got[-1]["r"] == 1
    con = sqlite3.connect(db)
    assert con.execute("SELECT boot, seq FROM events ORDER BY id").fetchall() == \
        [(1, s) for s in range(1, 8)] + [(2, 1)]
    assert [s for (s,) in con.execute("SELECT state FROM games ORDER BY id")] == ["resumed", "playing"]


def test_a_pc_that_attaches_after_twenty_events_gets_them_all_and_the_console_lives_on(tmp_path):
    """Issue 11's late-attach crash: with 7 or more events held, a host attaching made the VM
    trap (automatic collections inside nested calls, docs/virtual-console.md). Twenty here."""
    flash = tmp_path / "flash"
    vc = VirtualConsole(flash_dir=flash).start()
    try:
        read_lobby(vc)
        for n, name in enumerate(["ROLL"] * 7 + ["PASS"] * 13, 1):   # the game, start roads, a roll; 13 PASSes
            vc.press(name, PRESS_MS)                  # (refused while a die fits, or a tree)
            assert until(lambda n=n: len(on_flash(flash)) == n), on_flash(flash)   # its event held on flash
        link = attach(vc, tmp_path / "games.sqlite3")
        try:
            got = [link.events.get(timeout=20) for _ in range(20)]
            assert until(lambda: link.link is not None and link.link.counts["stored"] == 20, 10)
        finally:
            link.stop()
        assert vc.error is None and vc.state == "firmware"
    finally:
        vc.stop()
    assert [e["k"] for e in got[:7]] == ["game"] + ["start"] * 5 + ["roll"]
    assert all(e["k"] in ("refuse", "tree", "roll") for e in got[7:])


def _seven_events(vc, db) -> list:
    """The game, Doodle City's five start roads and round 1's roll, logged by a PC."""
    link = attach(vc, db)
    try:
        read_lobby(vc)
        got: list = []
        for _ in range(7):
            vc.press("ROLL", PRESS_MS)
            with contextlib.suppress(queue.Empty):   # (an event taken for a duplicate never comes)
                got.append(link.events.get(timeout=20))   # its event stored and acknowledged
        return got
    finally:
        link.stop()


def test_a_console_whose_flash_was_wiped_is_a_console_of_its_own_and_none_of_its_events_is_lost(tmp_path):
    """docs/protocol.md, "A wiped flash is a new console": erased, the console counts its boots
    from 1 again, so its events have the numbers of events the PC holds; without an id of its
    own they were taken for duplicates, acknowledged and lost. Its flash makes 8 random hex
    digits once (id.txt): a new uid, every event stored."""
    flash, db = tmp_path / "flash", tmp_path / "games.sqlite3"
    uids = []
    for seed in (1, 2):              # a real Pico seeds from hardware at each power-up
        vc = VirtualConsole(flash_dir=flash, seed=seed).start()
        try:
            got = _seven_events(vc, db)
        finally:
            vc.stop()
        assert [e["k"] for e in got] == ["game"] + ["start"] * 5 + ["roll"]
        uids.append("d00d1eb000000001" + (flash / "id.txt").read_text())
        shutil.rmtree(flash)         # the flash erased (the firmware is laid out again)
    con = sqlite3.connect(db)
    assert uids[0] != uids[1]
    assert con.execute("SELECT uid, boot, count(*) FROM events GROUP BY uid, boot ORDER BY min(id)").fetchall() \
        == [(uids[0], 1, 7), (uids[1], 1, 7)]
    assert con.execute("SELECT uid FROM games ORDER BY id").fetchall() == [(uids[0],), (uids[1],)]


def test_two_new_virtual_consoles_of_one_seed_have_ids_of_their_own_and_the_same_dice(tmp_path):
    """Issue 32: two `doodlebox demo` runs into two databases were one console (the same id, the
    same boot 1), so a sync took one's events for the other's. A new flash's id comes from the
    operating system's randomness, as a Pico's from its ring oscillator; the dice from the seed."""
    got, uids = [], []
    for k in range(2):
        flash = tmp_path / f"flash{k}"
        vc = VirtualConsole(flash_dir=flash, seed=7).start()
        try:
            got.append(_seven_events(vc, tmp_path / f"games{k}.sqlite3"))
        finally:
            vc.stop()
        uids.append((flash / "id.txt").read_text())
    assert len(set(uids)) == 2 and all(len(u) == 8 for u in uids)
    assert [[(e["col"], e["d"]) for e in g if e["k"] == "start"] for g in got] == \
        [[(e["col"], e["d"]) for e in got[0] if e["k"] == "start"]] * 2


def test_a_console_that_counted_boots_before_it_had_an_id_keeps_the_boards_id(tmp_path):
    """A console updated from firmware that kept no id.txt: its boot counter goes on, so it keeps
    the board's id alone and the PC goes on with its numbers."""
    flash = tmp_path / "flash"
    flash.mkdir()
    (flash / "boot.txt").write_text("4")
    vc = VirtualConsole(flash_dir=flash).start()
    try:
        got = _seven_events(vc, tmp_path / "games.sqlite3")
    finally:
        vc.stop()
    assert got[0]["k"] == "game" and (flash / "id.txt").read_text() == ""
    con = sqlite3.connect(tmp_path / "games.sqlite3")
    assert con.execute("SELECT DISTINCT uid, boot FROM events").fetchall() == [("d00d1eb000000001", 5)]
