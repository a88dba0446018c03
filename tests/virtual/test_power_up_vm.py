"""Power-up with a hard journal, end to end (issue 17): the firmware in the MicroPython VM with
a 128 KB heap (a Pico has 210-240 KB), its flash a folder, the shipped link (pyserial over a
pseudo-terminal, SQLite). A full journal (every segment of the budget held, no PC for ~20
games) powers up and the PC gets every event once; a damaged record reaches the PC as a
stand-in it refuses while every whole record after it is stored; a boot whose number the
flash refused sends nothing until the number is on flash."""
from __future__ import annotations

import json
import sqlite3
import sys
import time
from pathlib import Path

import pytest
from journal_bytes import records
from test_journal import play

from board.flash import Flash
from doodle import bootnum, flashlog, journal
from doodle.app import App
from doodlebox.logger.link_thread import LinkThread
from doodlebox.virtual.console import VirtualConsole

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "guest"))
import table_script  # tests/guest: a scripted game for the firmware core

pytestmark = pytest.mark.slow      # (tests/conftest.py: the quick tier)

HEAP = "128K"


def fill(folder: Path, games: int | None = None) -> int:
    """Games of 2-player Doodle City played on the firmware's core under CPython with no PC, on
    board/flash.py in `folder`, until the journal is full (or `games` of them); the events made."""
    flash = Flash(str(folder) + "/")
    boot, saved, _ = bootnum.next_boot(flash)
    assert saved
    app = App(table_script.rand, boot, "c0ffee", flash)
    clock = [0]
    n = 0
    while not app.journal.full() and (games is None or n < games):
        play(app, clock, "city", 2, ack=False)
        n += 1
    for _ in range(3):
        clock[0] += journal.FLUSH_MS
        app.tick(clock[0])
    return app.journal.next - 1


def on_flash(folder: Path) -> set[tuple[int, int]]:
    got = set()
    for f in sorted((folder / "journal").glob("*.seg")):
        data = f.read_bytes()
        got |= {(b, s) for b, s, *_ in records(data)}
    return got


def stored(db: Path, want: int, timeout: float, vc: VirtualConsole) -> list[tuple[int, int, str]]:
    """The events stored once `want` of them are (or at the timeout, or when the firmware stopped).
    An event stored twice cannot be: the store keeps one row per (uid, boot, seq)."""
    deadline = time.monotonic() + timeout
    rows: list = []
    while time.monotonic() < deadline and vc.error is None:
        if db.exists():
            con = sqlite3.connect(db)
            try:
                rows = con.execute("SELECT boot, seq, body FROM events ORDER BY id").fetchall()
            except sqlite3.OperationalError:
                rows = []
            con.close()
            if len(rows) >= want:
                return rows
        time.sleep(0.25)
    return rows


def test_a_full_journal_powers_up_in_a_128k_heap_and_the_pc_gets_every_event_once(tmp_path):
    folder, db = tmp_path / "flash", tmp_path / "games.sqlite3"
    folder.mkdir()
    made = fill(folder)
    held = on_flash(folder)
    assert len(held) == made and len(flashlog.segments(Flash(str(folder) + "/"))) == journal.BUDGET
    vc = VirtualConsole(flash_dir=folder, heap=HEAP).start()
    try:
        link = LinkThread(vc.port, db, on_note=lambda t: None).start()
        try:
            rows = stored(db, made, 240, vc)
        finally:
            link.stop()
        assert link.error is None and vc.error is None, (link.error, vc.error)
    finally:
        vc.stop()
    keys = [(b, s) for b, s, _ in rows]
    assert len(keys) == len(set(keys))                  # every event once
    assert held <= set(keys), sorted(held - set(keys))[:5]


def test_a_damaged_record_is_refused_by_the_pc_and_every_whole_one_after_it_is_stored(tmp_path):
    folder, db = tmp_path / "flash", tmp_path / "games.sqlite3"
    folder.mkdir()
    made = fill(folder, games=1)
    seg = sorted((folder / "journal").glob("*.seg"))[0]
    data = bytearray(seg.read_bytes())
    at = records(data)[5][2]                            # the 6th record's payload
    data[at + 2] ^= 0x01
    seg.write_bytes(bytes(data))
    vc = VirtualConsole(flash_dir=folder, heap=HEAP).start()
    try:
        link = LinkThread(vc.port, db, on_note=lambda t: None).start()
        try:
            rows = stored(db, made, 60, vc)
        finally:
            link.stop()
        assert vc.error is None, vc.error
    finally:
        vc.stop()
    old = {s: body for b, s, body in rows if b == 1}
    assert sorted(old) == list(range(1, made + 1))      # nothing after the damage waits or is lost
    refused = {s: json.loads(body) for s, body in old.items() if json.loads(body)["k"] == "refused"}
    assert list(refused) == [6] and '"k":"lost"' in refused[6]["frame"]   # said, and kept in its place


def test_a_boot_the_flash_would_not_number_sends_nothing_until_its_number_is_saved(tmp_path):
    folder, db = tmp_path / "flash", tmp_path / "games.sqlite3"
    folder.mkdir()
    (folder / "boot.txt").write_text("6")
    (folder / "boot.txt.tmp").mkdir()                   # the counter's write fails (as on a full flash)
    vc = VirtualConsole(flash_dir=folder, heap=HEAP).start()
    try:
        notes: list[str] = []
        link = LinkThread(vc.port, db, on_note=notes.append, handshake_timeout=20.0).start()
        try:
            for _ in range(3):                          # a game begun: its events wait in RAM
                vc.press("ROLL", 120)
            deadline = time.monotonic() + 60            # the presses read, and the PC told why
            while (vc.hardware.pending_presses() or not any("flash refused the boot number" in n for n in notes)) \
                    and time.monotonic() < deadline and vc.error is None:
                time.sleep(0.05)
            assert any("flash refused the boot number" in n for n in notes), notes   # the PC is told why
            assert (folder / "boot.txt").read_text() == "6"
            assert stored(db, 1, 2.0, vc) == []              # nothing under a number that could come again
            (folder / "boot.txt.tmp").rmdir()           # room again
            rows = stored(db, 2, 30, vc)
        finally:
            link.stop()
    finally:
        vc.stop()
    assert (folder / "boot.txt").read_text() == "7"
    assert rows and {b for b, _, _ in rows} == {7} and rows[0][1] == 1
