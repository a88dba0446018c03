"""tests/tools/vm_faults.py, the harness of `make faults`' "soak" and "power cut (VM)" lines, can fail:
its record reader against the format of docs/journal.md, its tally of lost and duplicated
events against a database, and, end to end through the VM and the shipped LinkThread, a flash
spoilt between the games and the PC (a record the console cannot send: lost; a record whose
event was changed: lost and duplicated). The lines themselves run in tests/house/test_faults.py."""
from __future__ import annotations

import json
import random
import sqlite3
import zlib

import faults
import flash_watch
import pc_tally
import pytest
import vm_faults

pytestmark = pytest.mark.slow      # (tests/conftest.py: the quick tier)


def record(boot: int, s: int, payload: bytes) -> bytes:
    head = len(payload).to_bytes(2, "little") + boot.to_bytes(4, "little") + s.to_bytes(4, "little")
    return bytes([0xA5]) + head + payload + zlib.crc32(head + payload).to_bytes(4, "little")


def test_the_reader_takes_whole_records_only_and_reads_past_a_torn_part(tmp_path):
    (tmp_path / "journal").mkdir()
    one, two, three = (record(1, s, b'{"k":"x","s":%d}' % s) for s in (1, 2, 3))
    seg = tmp_path / "journal" / "00000001.seg"
    seg.write_bytes(one + two[:-3])                   # the second one torn
    w = flash_watch.Watch(tmp_path)
    w.scan()
    assert sorted(w.written) == [(1, 1)]
    seg.write_bytes(one + two[:-3] + three)           # a whole one after the torn part
    w.scan()
    assert sorted(w.written) == [(1, 1), (1, 3)]
    bad = bytearray(one)
    bad[-1] ^= 1                                      # a CRC that does not match
    (tmp_path / "journal" / "00000002.seg").write_bytes(bytes(bad))
    w.scan()
    assert sorted(w.written) == [(1, 1), (1, 3)] and w.events() == 2


def database(path, rows):
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE events (id INTEGER PRIMARY KEY, uid TEXT, boot INT, seq INT, body TEXT)")
    con.executemany("INSERT INTO events (uid, boot, seq, body) VALUES (?, ?, ?, ?)", rows)
    con.commit()
    con.close()


def test_the_tally_counts_lost_and_duplicated(tmp_path):
    w = flash_watch.Watch(tmp_path)
    ev = [{"k": "roll", "g": 1, "s": s} for s in range(4)]
    for s in (1, 2, 3):
        w.written[(1, s)] = {flash_watch.canonical(json.dumps(ev[s]))}
    w.written[(2, 1)] = {flash_watch.canonical(json.dumps(ev[1])), flash_watch.canonical(json.dumps(ev[2]))}  # reused
    database(tmp_path / "db", [("u", 1, 1, json.dumps(ev[1])),
                               ("u", 1, 3, json.dumps(ev[0])),      # another event than was written
                               ("u", 1, 9, json.dumps(ev[1])),      # never written
                               ("u", 2, 1, json.dumps(ev[2]))])     # one of the two written under (2, 1)
    got = pc_tally.tally(w, tmp_path / "db")
    assert (got["lost"], got["duplicated"], got["reused"], got["events"]) == (3, 2, 1, 5)


def test_a_spoilt_flash_fails_the_soak():
    """A solo game, the flash spoilt before the PC comes (vm_faults.spoil): the line fails, and
    says why. A record that cannot be read is lost (a firmware that sends a stand-in for it also
    has it stored as an event it never wrote); a record whose event was changed is lost, and
    the changed one is stored though it was never written."""
    with vm_faults.compiled_once():
        r = vm_faults.soak(1, random.Random(5), inject="drop,rewrite", games=[("suzhou", 1)],
                           quiet_s=4.0)
    assert faults.failed(r), faults.line(r)
    assert r["lost"] == 2 and r["duplicated"] >= 1, faults.line(r)
    assert r["MemoryError"] == 0 and r["exceptions"] == 0, faults.line(r)


def test_a_vm_line_fails_on_a_firmware_exception_a_growing_heap_or_a_stopped_run():
    ok = {"what": "soak", "tried": 30, "unit": "games", "lost": 0, "duplicated": 0, "events": 2400, "MemoryError": 0,
          "exceptions": 0, "notes": ["30 games played to the end"]}
    assert faults.line(ok) == "soak: 30 games, lost 0, duplicated 0, MemoryError 0 (2,400 events, 30 games played " \
                              "to the end)" and not faults.failed(ok)
    for bad in ({"MemoryError": 1}, {"exceptions": 1}, {"heap_grows": True}, {"stopped": True},
                {"step_over_margin": True}):
        assert faults.failed(dict(ok, **bad)), bad
    assert "OTHER FIRMWARE EXCEPTIONS 2" in faults.line(dict(ok, exceptions=2))


def test_every_game_in_the_128k_vm():
    """The seven games one after another in one power-up of the firmware in a 128K VM (two
    thirds of the virtual console's heap; a Pico has 210-240 KB), the PC off, then the PC
    takes every event: none lost or stored twice, no MemoryError, each game played to its end
    and valid on the PC."""
    with vm_faults.compiled_once():
        r = vm_faults.soak(len(vm_faults.SOAK_GAMES), random.Random(3), heap="128K")
    assert not faults.failed(r), faults.line(r)
    assert r["over"] == 7 and r["wrong"] == 0 and r["MemoryError"] == 0, faults.line(r)
    assert {e for e, _ in vm_faults.SOAK_GAMES} == {"city", "suzhou", "treasures", "shanghai", "monsters",
                                                    "deadly", "puzzle"}
    # what a game leaves in RAM once it is over: its names interned (never freed) and little else.
    # A firmware that held ~15 KB after each game (the board built by a module loaded for it and
    # let go) passed every other check here.
    before = next(h[1] for h in r["heap"] if h[0] == 0)
    left = [h[1] - before for h in r["heap"] if h[0] > 0]
    assert left and max(left) <= 12_000, (before, left)
