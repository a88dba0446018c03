"""The short version of `make faults` (tests/tools/faults.py --short): every kind of fault the host
meets, against the shipped `doodlebox log` and a console that keeps its events until they are
acknowledged; nothing lost, nothing stored twice, no crash, no corrupt event stored."""
from __future__ import annotations

import random
import signal

import faults
import pytest

pytestmark = pytest.mark.slow      # (tests/conftest.py: the quick tier)

SHORT = {name: (fault, quick) for name, fault, _, quick in faults.FAULTS}


@pytest.mark.parametrize("name", list(SHORT))
def test_fault(name):
    fault, quick = SHORT[name]
    r = fault(quick, random.Random(f"{name} 11"))
    assert r is not None, f"{name}: tests/tools/faults.py {fault.__name__} gave no result"
    assert not faults.failed(r), faults.line(r)


def test_a_fault_line_says_what_went_wrong():
    ok = {"what": "logger killed", "tried": 3, "lost": 0, "duplicated": 0, "wrong": 0, "events": 1200,
          "finished": True}
    assert faults.line(ok) == "logger killed: 3 tried, lost 0, duplicated 0 (1,200 events)" and not faults.failed(ok)
    for bad in ({"lost": 2}, {"duplicated": 1}, {"wrong": 1}, {"finished": False}, {"acked_before_stored": 1},
                {"said": 0}):
        assert faults.failed(dict(ok, **bad)), bad
    fuzz = {"what": "fuzzed frames", "tried": 100_000, "crashes": 0, "corrupt events accepted": 0, "decoded": 9,
            "stored": 3, "refused": 1, "bad": 99_991}
    assert faults.line(fuzz).startswith("fuzzed frames: 100,000 tried, crashes 0, corrupt events accepted 0")
    assert faults.failed(dict(fuzz, crashes=1)) and faults.failed(dict(fuzz, **{"corrupt events accepted": 1}))


# -- issue 18: what the console saw acknowledged, against the file at the path (tests/tools/faults_acks.py) ----------
def test_the_ack_counter_sees_a_planted_loss(tmp_path):
    """FakeConsole.acked_not_stored counts every event acknowledged that the file at the path does
    not hold; acknowledged before `since` (gone with a file deleted then) they are not counted."""
    from fakeconsole import FakeConsole

    from doodlebox.store import Store

    console = FakeConsole(uid="ab")
    try:
        for g in range(1, 7):
            console.add({"k": "game", "g": g, "ed": "city", "n": 2, "var": ""})
        db = tmp_path / "g.sqlite3"
        store = Store(db)
        for s in range(1, 4):
            store.append("ab", 1, s, console.made[1][s - 1])
        store.close()
        console._heard({"t": "ack", "v": 4, "boot": 1, "s": 2})
        assert console.acked_not_stored(db) == 0
        console._heard({"t": "ack", "v": 4, "boot": 1, "s": 5})       # 4 and 5 acknowledged, not stored
        assert console.acked_not_stored(db) == 2 and console.acked_not_stored(db, since=1) == 2
        assert console.acked_not_stored(db, since=2) == 0              # no ack after the second
        db.unlink()
        assert console.acked_not_stored(db) == 5 and console.acked_not_stored(db, since=1) == 3
    finally:
        console.pull()


def test_a_line_of_issue_18_says_what_went_wrong():
    ok = {"what": "database deleted", "tried": 2, "acked_not_stored": 0, "events": 80, "finished": True, "ok": 2,
          "ok_is": "one clear line", "exits": [1, 1]}
    assert faults.line(ok) == ("database deleted: 2 tried, acknowledged but not stored: 0 (80 events made after the "
                               "faults, one clear line 2 of 2)") and not faults.failed(ok)
    for bad in ({"acked_not_stored": 1}, {"ok": 1}, {"finished": False}, {"lost": 1}, {"duplicated": 1}):
        assert faults.failed(dict(ok, **bad)), bad
    assert "exit codes [1, -7]" in faults.line(dict(ok, ok=1, exits=[1, -7]))


WAL = "import doodlebox.store.dbfile as _f\n_f.JOURNAL_MODE = 'WAL'\nimport doodlebox.store.database as _d\n"


def test_the_deleted_line_fails_for_a_logger_that_does_not_check_its_file(monkeypatch):
    """A WAL database and no check of the file: the logger goes on acknowledging into the file
    deleted (the fault as issue 18 measured it), and the line counts those events."""
    import faults_acks

    monkeypatch.setattr(faults_acks, "EXIT_WAIT", 2.0)
    r = faults_acks.db_deleted(1, random.Random(1), pre=WAL + "_d.Store.check_file = lambda self: None\n")
    assert r["acked_not_stored"] > 0 and r["ok"] == 0 and faults.failed(r), faults.line(r)


def test_the_shm_line_fails_for_a_wal_database():
    """Under WAL the -shm is mapped into memory: cut short, the logger dies by SIGBUS."""
    import faults_acks

    r = faults_acks.shm_spoilt(1, random.Random(1), pre=WAL)
    assert r["ok"] == 0 and -signal.SIGBUS in r["exits"] and faults.failed(r), faults.line(r)


def test_the_signal_lines_fail_for_a_logger_that_does_not_handle_them():
    import faults_acks

    sigterm = dict((name, fault) for name, fault, _, _ in faults_acks.FAULTS)["logger stopped by SIGTERM"]
    r = sigterm(1, random.Random(1), pre="import doodlebox.cli.console as _c\n_c.STOP_SIGNALS = ()\n")
    assert r["ok"] == 0 and r["exits"] == [-signal.SIGTERM] and faults.failed(r), faults.line(r)
