"""A firmware update keeps the journal: a console's flash as firmware 0.4.0 left it
(tests/vectors/flash-0.4.0: two boots, no PC ever attached, a game ended and one left
unfinished; its README says how it was made) is powered up with the firmware of this tree in
the MicroPython VM, with `doodlebox log`'s link attached. The PC must store every event of
every boot on that flash exactly once, the ended game must be `ended` with a record that
validates, and the console must resume the unfinished game in its new boot.

The image is read here on its own terms (docs/journal.md, "Records"), not with the firmware's
code: the test holds whatever the firmware becomes to the format 0.4.0 wrote."""
from __future__ import annotations

import binascii
import json
import shutil
import sqlite3
import time
from pathlib import Path

import pytest
from cli_run import doodlebox

from doodlebox.logger.link_thread import LinkThread
from doodlebox.virtual.console import VirtualConsole

pytestmark = pytest.mark.slow      # (tests/conftest.py: the quick tier)

VECTOR = Path(__file__).resolve().parents[1] / "vectors" / "flash-0.4.0"
BOARD_UID = "d00d1eb000000001"        # VirtualConsole's default unique_id, as the vector's was


def image_events(flash: Path) -> list[tuple[int, int, dict]]:
    """(boot, s, event) of every whole record of the journal's segments, in order: 0xA5, the
    payload's length (2 bytes), boot (4), s (4), the payload (JSON), CRC-32 (4) of the 10 header
    bytes after the marker and the payload; all little-endian."""
    out = []
    for seg in sorted((flash / "journal").glob("*.seg")):
        data = seg.read_bytes()
        at = 0
        while at < len(data):
            assert data[at] == 0xA5, f"{seg.name}@{at}: no record marker"
            n = int.from_bytes(data[at + 1:at + 3], "little")
            end = at + 11 + n
            assert 0 < n <= 480 and end + 4 <= len(data), f"{seg.name}@{at}: a record cut short"
            assert binascii.crc32(data[at + 1:end]) == int.from_bytes(data[end:end + 4], "little"), \
                f"{seg.name}@{at}: a bad CRC"
            boot = int.from_bytes(data[at + 3:at + 7], "little")
            s = int.from_bytes(data[at + 7:at + 11], "little")
            out.append((boot, s, json.loads(data[at + 11:end].decode("ascii"))))
            at = end + 4
    return out


def stored(db: Path, query: str, args: tuple = ()) -> list[tuple]:
    con = sqlite3.connect(db, timeout=5)
    try:
        return con.execute(query, args).fetchall()
    except sqlite3.OperationalError:          # no tables yet
        return []
    finally:
        con.close()


def test_the_firmware_of_today_sends_a_0_4_0_journal_and_resumes_its_unfinished_game(tmp_path):
    flash, db = tmp_path / "flash", tmp_path / "games.sqlite3"
    shutil.copytree(VECTOR, flash, ignore=shutil.ignore_patterns("README.md"))
    held = image_events(flash)
    keys = {(b, s) for b, s, _ in held}
    boots = sorted({b for b, _ in keys})
    # the vector as its README says: boots 1 and 2, each numbered from 1 with no gap, nothing acked
    assert boots == [1, 2] and len(keys) == len(held) == 99, (boots, len(held))
    for b in boots:
        assert sorted(s for bb, s in keys if bb == b) == list(range(1, 1 + sum(bb == b for bb, _ in keys)))
    assert not (flash / "journal" / "acked").exists()
    ends = [(b, s, e) for b, s, e in held if e["k"] == "end"]
    assert [(b, e["g"]) for b, s, e in ends] == [(1, 1)]
    last_boot = boots[-1]
    last = [e for b, s, e in held if b == last_boot]
    assert last[0]["k"] == "resume" and last[0]["of"] == [1, 2]       # the unfinished game, already resumed once
    old_boot = int((flash / "boot.txt").read_text())
    assert old_boot == last_boot
    uid = BOARD_UID + (flash / "id.txt").read_text()

    notes: list[str] = []
    started = time.monotonic()
    vc = VirtualConsole(flash_dir=flash, mode="vm").start()            # this tree's firmware laid out
    try:
        link = LinkThread(vc.port, db, on_note=notes.append).start()
        try:
            assert link.wait_ready(30) and not link.error, (link.error, notes)
            deadline = time.monotonic() + 40
            while time.monotonic() < deadline:
                got = set(stored(db, "SELECT boot, seq FROM events"))
                if keys <= got and stored(db, "SELECT 1 FROM events WHERE boot>? AND kind='resume'", (old_boot,)):
                    break
                time.sleep(0.2)
            # everything acknowledged: the link has nothing more to store
            settled, count = time.monotonic(), -1
            while time.monotonic() - settled < 1.0 and time.monotonic() < deadline:
                n = link.link.counts["stored"] if link.link is not None else 0
                if n != count:
                    settled, count = time.monotonic(), n
                time.sleep(0.1)
            assert link.error is None, (link.error, notes)
        finally:
            link.stop()
        assert vc.error is None and vc.state == "firmware", vc.error
    finally:
        vc.stop()
    took = time.monotonic() - started

    rows = stored(db, "SELECT uid, boot, seq, kind, body FROM events ORDER BY id")
    old = [r for r in rows if r[1] <= old_boot]
    assert len(old) == len(held), f"{len(old)} of the image's {len(held)} events stored (notes: {notes})"
    assert {r[0] for r in rows} == {uid}, "every event under the console's own id"
    assert {(b, s): e for _, b, s, _, body in old for e in [json.loads(body)]} == \
        {(b, s): e for b, s, e in held}, "every event of every boot stored exactly once, as it was on flash"
    new = [(b, s, json.loads(body)) for _, b, s, _, body in rows if b > old_boot]
    assert {b for b, _, _ in new} == {old_boot + 1}, "the new boot numbers on"

    resume = [e for _, _, e in new if e["k"] == "resume"]
    last_g = last[-1]["g"]
    assert len(resume) == 1 and resume[0]["of"] == [old_boot, last_g] and resume[0]["at"] == len(last), resume
    assert resume[0]["r"] == max(e.get("r", 0) for e in last), resume

    games = stored(db, "SELECT id, boot, g, state, edition FROM games ORDER BY id")
    assert [(b, g, st, ed) for _, b, g, st, ed in games] == [
        (1, 1, "ended", "city"), (1, 2, "resumed", "treasures"), (2, 1, "resumed", "treasures"),
        (old_boot + 1, resume[0]["g"], "playing", "treasures")], games

    record = tmp_path / "city.json"
    r = doodlebox("export", str(games[0][0]), "--db", str(db), "-o", str(record))
    assert r.returncode == 0, r.stderr
    report = json.loads(doodlebox("validate", str(record), "--json").stdout)
    assert report["finished"] and report["valid"], report
    assert [sheet["total"] for sheet in report["sheets"]] == ends[0][2]["p"]
    assert took < 50, f"the console took {took:.0f} s to send a 99-event journal"
