"""`doodlebox log` under faults, as its own process (issue 11): it never dies silently, every
database fault is one line naming the file and the cause, it waits while the database is locked
or full and acknowledges nothing it has not committed, a wrong port creates no database, and
the frames that used to kill its link thread are refused while it goes on storing."""
from __future__ import annotations

import os
import random
import resource
import sqlite3
from pathlib import Path

import pytest
from cli_run import ENV
from fakeconsole import FakeConsole
from logger_rig import Logger, Stream, console_for, without_root_powers

from doodlebox.store import Store

pytestmark = pytest.mark.slow      # (tests/conftest.py: the quick tier)

ROOT = Path(__file__).resolve().parents[2]
VECTORS = __import__("json").loads((ROOT / "tests" / "vectors" / "frames.json").read_text())


def errors(text: str) -> list[str]:
    """The lines `doodlebox` prints for an error; a traceback is never one of them."""
    assert "Traceback" not in text, text
    return [line for line in text.splitlines() if line.startswith("doodlebox: ")]


def run_cli(*args: str, as_user: bool = False):
    import subprocess
    import sys

    return subprocess.run([sys.executable, "-m", "doodlebox.cli", *args], capture_output=True, text=True, env=ENV,
                          timeout=60, stdin=subprocess.DEVNULL,
                          preexec_fn=without_root_powers if as_user and os.geteuid() == 0 else None)


@pytest.fixture
def console(tmp_path):
    c = console_for(tmp_path)
    yield c
    c.pull()


def test_a_port_that_does_not_exist_creates_no_database(tmp_path):
    db = tmp_path / "new" / "games.sqlite3"
    r = run_cli("log", "--port", "/dev/nonexistent", "--db", str(db))
    (line,) = errors(r.stderr)
    assert r.returncode == 1 and line.startswith("doodlebox: cannot open /dev/nonexistent: ")
    assert not db.exists() and not db.parent.exists()


def test_a_read_only_file_is_said_to_be_read_only_and_can_still_be_listed(tmp_path, console):
    db = tmp_path / "games.sqlite3"
    store = Store(db)
    store.append("c0ffee", 1, 1, {"k": "game", "g": 1, "ed": "city", "n": 2, "var": ""})
    store.close()
    db.chmod(0o444)
    r = run_cli("log", "--port", console.path, "--db", str(db), "--wait", "2", as_user=True)
    assert r.returncode == 1, r
    assert errors(r.stderr) == [f"doodlebox: {db}: read-only: this user may not write {db}"]
    r = run_cli("games", "--db", str(db), as_user=True)
    assert r.returncode == 0 and "city" in r.stdout, r.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.sqlite3"]    # no -wal or -shm made
    bad = tmp_path / "bad.sqlite3"
    bad.write_bytes(b"not sqlite at all" * 200)
    bad.chmod(0o444)
    r = run_cli("games", "--db", str(bad), as_user=True)
    assert r.returncode == 1 and "not a doodlebox database" in errors(r.stderr)[0]


def test_a_read_only_folder_is_said_to_be_read_only(tmp_path, console):
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        r = run_cli("log", "--port", console.path, "--db", str(folder / "games.sqlite3"), "--wait", "2", as_user=True)
    finally:
        folder.chmod(0o755)
    assert r.returncode == 1, r
    (line,) = errors(r.stderr)
    assert line.startswith(f"doodlebox: {folder / 'games.sqlite3'}: read-only: this user may not write its folder")
    assert list(folder.iterdir()) == []


def _logger(tmp_path: Path, console: FakeConsole, pre: str = "") -> Logger:
    logger = Logger(console.path, tmp_path / "games.sqlite3", tmp_path / "log.txt", pre=pre).start()
    logger.wait_connected(console)
    return logger


def _stored(db: Path, uid: str) -> dict[int, int]:
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10)
    try:
        return dict(con.execute("SELECT boot, MAX(seq) FROM events WHERE uid=? GROUP BY boot", (uid,)).fetchall())
    finally:
        con.close()


def test_while_the_database_is_locked_the_logger_waits_says_so_and_acknowledges_nothing_new(tmp_path, console):
    stream = Stream(console, random.Random(1))
    logger = _logger(tmp_path, console)
    db = logger.db
    try:
        stream.run(0.3)
        assert console.run_until(console.all_acked, 10)
        other = sqlite3.connect(db, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
        before = _stored(db, console.uid)[1]
        acks = len(console.acks)
        stream.run(2.0)
        assert console.held() > 0 and all(s <= before for _, s, _ in console.acks[acks:])
        assert "the database is locked by another program while storing events" in logger.text()
        assert "retrying, nothing is acknowledged until it is stored" in logger.text()
        other.execute("ROLLBACK")
        assert console.run_until(console.all_acked, 20)
        assert "the database took the events again after" in logger.text()
    finally:
        code = logger.stop()
    assert code == 130 and errors(logger.text()) == []
    got = console.check(db)
    assert (got["lost"], got["duplicated"], got["wrong"]) == (0, 0, 0) and got["made"] > before


def test_while_the_database_cannot_grow_the_logger_waits_says_so_and_acknowledges_nothing_new(tmp_path, console):
    """A full disk, made with the logger's file size limit (it ignores SIGXFSZ: a write error to
    report, not a death)."""
    stream = Stream(console, random.Random(2))
    logger = _logger(tmp_path, console)
    assert logger.proc is not None
    try:
        stream.run(0.3)
        assert console.run_until(console.all_acked, 10)
        resource.prlimit(logger.proc.pid, resource.RLIMIT_FSIZE, (4096, resource.RLIM_INFINITY))
        before = _stored(logger.db, console.uid)[1]
        acks = len(console.acks)
        stream.run(1.5)
        assert console.held() > 0 and all(s <= before for _, s, _ in console.acks[acks:])
        assert "full: the file size limit of this process (ulimit -f, 4096 bytes) is reached" in logger.text()
        resource.prlimit(logger.proc.pid, resource.RLIMIT_FSIZE, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
        assert console.run_until(console.all_acked, 20)
    finally:
        code = logger.stop()
    assert code == 130 and errors(logger.text()) == []
    got = console.check(logger.db)
    assert (got["lost"], got["duplicated"], got["wrong"]) == (0, 0, 0)


# -- failures injected into the link thread ----------------------------------------------------------
INJECT = """
import doodlebox.link.session as _s
_real = _s.HostLink._commit
_calls = [0]
def _commit(self, console, items):
    _calls[0] += 1
    if {when}:
        raise RuntimeError("injected fault")
    return _real(self, console, items)
_s.HostLink._commit = _commit
"""


def test_a_failure_in_the_link_thread_is_a_note_and_the_link_goes_on(tmp_path, console):
    logger = _logger(tmp_path, console, pre=INJECT.format(when="_calls[0] == 3"))
    stream = Stream(console, random.Random(3))
    try:
        stream.run(1.0)
        assert console.run_until(console.all_acked, 20)
    finally:
        code = logger.stop()
    assert code == 130 and errors(logger.text()) == []
    assert ("note: the link failed (RuntimeError('injected fault')); every event acknowledged is stored; "
            "starting again") in logger.text()
    got = console.check(logger.db)
    assert (got["lost"], got["duplicated"], got["wrong"]) == (0, 0, 0)


def test_a_failure_that_keeps_coming_ends_the_logger_with_one_line(tmp_path, console):
    logger = _logger(tmp_path, console, pre=INJECT.format(when="_calls[0] >= 2"))
    stream = Stream(console, random.Random(4))
    stream.run(0.2)
    assert console.run_until(lambda: not logger.running(), 20)
    assert logger.proc is not None and logger.proc.returncode == 1
    assert errors(logger.text()) == ["doodlebox: the link failed 3 times in 60 s, last: RuntimeError('injected fault') "
                                     "(every event acknowledged is stored)"]


def test_a_link_thread_ended_by_anything_ends_the_logger_with_one_line(tmp_path, console):
    pre = """
import doodlebox.link.session as _s
class Halt(BaseException):
    pass
def _poll(self):
    raise Halt("the thread's end")
_s.HostLink.poll = _poll
"""
    logger = Logger(console.path, tmp_path / "games.sqlite3", tmp_path / "log.txt", pre=pre).start()
    assert console.run_until(lambda: not logger.running(), 20)
    assert logger.proc is not None and logger.proc.returncode == 1
    assert errors(logger.text()) == ['doodlebox: the link stopped: Halt("the thread\'s end") '
                                     "(every event acknowledged is stored)"]


def test_an_event_that_cannot_be_printed_is_a_note_and_the_printout_goes_on(tmp_path, console):
    pre = """
import doodlebox.link.describe as _live
_real = _live.describe
def describe(event):
    if event.get("k") == "start" and event.get("col") == 2:
        raise ValueError("a printout bug")
    return _real(event)
_live.describe = describe
"""
    logger = _logger(tmp_path, console, pre=pre)
    stream = Stream(console, random.Random(5))
    try:
        stream.run(0.5)
        assert console.run_until(console.all_acked, 20)
    finally:
        code = logger.stop()
    assert code == 130 and errors(logger.text()) == []
    assert "note: an event could not be printed (ValueError('a printout bug')); it is stored" in logger.text()
    assert "game over after round" in logger.text() or "takes die" in logger.text()


def test_the_frames_that_killed_the_link_thread_are_refused_and_the_logger_goes_on(tmp_path, console):
    """Issue 11's inputs, each sent three times by a console over the pty, between good events:
    each said once, none stored or acknowledged (they say boot 3, which this console has not
    reached; one of its own boot whose event fails is stored as `refused`: test_host_link.py),
    every good event stored, and every note a line of its own."""
    from test_host_link import ISSUE_11

    bad = [VECTORS_STRICT[name].encode() for name in ISSUE_11 if "hello" not in name]
    logger = _logger(tmp_path, console)
    stream = Stream(console, random.Random(6))
    try:
        for line in bad:
            stream.run(0.05)
            assert console.pty is not None
            console.pty.write(line * 3)
        stream.run(0.3)
        assert console.run_until(console.all_acked, 20)
        assert logger.running()
    finally:
        code = logger.stop()
    text = logger.text()
    assert code == 130 and errors(text) == []
    said = [line for line in text.splitlines() if line.startswith("  note: bad frame: ")]
    assert len(said) == len(bad)
    assert f"{3 * len(bad)} bad frame(s)" in text
    got = console.check(logger.db)
    assert (got["lost"], got["duplicated"], got["wrong"]) == (0, 0, 0)


VECTORS_STRICT = {c["name"]: c["line"] for c in VECTORS["strict"]}
