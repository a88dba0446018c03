"""A console re-plugged comes back on a new port, end to end (issue 18): the firmware in the
192K MicroPython VM behind a pseudo-terminal, the shipped LinkThread following it as
`doodlebox log` follows the virtual console (ports.Follow with the console's current pty),
SQLite. A Pico is powered by its USB, so a re-plug is a power cut too: the firmware stops
where it is and boots again on its flash (VirtualConsole.replug), behind a new pty opened while
the old one is still held, as a Pico comes back as /dev/ttyACM1 while ttyACM0 is held."""
import sqlite3

import pytest
from waiting import until

from doodlebox.link.ports import Follow
from doodlebox.logger.link_thread import LinkThread
from doodlebox.virtual.console import VirtualConsole

pytestmark = pytest.mark.slow      # (tests/conftest.py: the quick tier)


def _events(db):
    con = sqlite3.connect(db)
    try:
        return con.execute("SELECT boot, seq, kind FROM events ORDER BY boot, seq").fetchall()
    finally:
        con.close()


def test_the_virtual_console_back_on_a_new_pty_is_followed_and_nothing_is_lost(tmp_path):
    db = tmp_path / "g.sqlite3"
    vc = VirtualConsole(mode="vm", flash_dir=tmp_path / "flash", seed=5).start()
    notes: list[str] = []
    follow = Follow(vc.port, locate=lambda: vc.port if vc.running else None)
    link = LinkThread(vc.port, db, on_note=notes.append, handshake_timeout=30, follow=follow).start()
    ports = [vc.port]
    try:
        assert link.wait_ready(60) and link.error is None
        vc.press("ROLL")                         # the lobby's game begins: `game`
        assert until(lambda: [k for _, _, k in _events(db)] == ["game"], 30), _events(db)
        vc.press("ROLL")                         # its start roads rolled: `start`
        assert until(lambda: [k for _, _, k in _events(db)] == ["game", "start"], 30), _events(db)
        for boot in (2, 3):
            ports.append(vc.replug())
            assert ports[-1] != ports[-2]        # another device name (the old one still held then)
            back = f"console {follow.uid} back on {ports[-1]}"
            assert until(lambda back=back: back in notes, 60), notes
            # the game goes on after the power cut: `resume` is the new boot's first event
            assert until(lambda boot=boot: (boot, 1, "resume") in _events(db), 30), _events(db)
            vc.press("ROLL")
            assert until(lambda boot=boot: sum(1 for b, _, _ in _events(db) if b == boot) >= 2, 30), _events(db)
    finally:
        link.stop()
        vc.stop()
    assert vc.error is None and link.error is None, (vc.error, link.error)
    rows = _events(db)
    for boot in (1, 2, 3):                       # each boot's events once, in order, none missing
        seqs = [s for b, s, _ in rows if b == boot]
        assert seqs == list(range(1, len(seqs) + 1)) and seqs, rows
    con = sqlite3.connect(db)
    try:
        assert con.execute("SELECT COUNT(*) FROM gaps").fetchone()[0] == 0
    finally:
        con.close()
    went = [n for n in notes if n.startswith("the console went away")]
    assert len(went) == 2 and all("on any port" in n for n in went), notes
