"""The store knows the file it holds (issue 18): after every commit, and before the link's every
`ack`, the path the user named must still name the file it opened, writable; else one line
naming the file and the cause, and nothing acknowledged. The journal is SQLite's rollback
journal: no -shm is mapped into memory, so nothing done to one can raise SIGBUS."""
from __future__ import annotations

import os
import shutil
import sqlite3
from pathlib import Path

import pytest

from doodlebox.link import frames
from doodlebox.link.session import HostLink
from doodlebox.store import Store, StoreError

GAME = {"k": "game", "g": 1, "ed": "city", "n": 2, "var": ""}
START = {"k": "start", "g": 1, "col": 2, "d": 3}
ROOT = Path(__file__).resolve().parents[2]


class Wire:
    """The port: what the console sends is read once; every frame the host writes is kept."""

    def __init__(self) -> None:
        self.inbox = b""
        self.sent: list[dict] = []

    def read(self, size: int = 1) -> bytes:
        data, self.inbox = self.inbox, b""
        return data

    def write(self, data: bytes) -> int:
        for line in data.splitlines(keepends=True):
            self.sent.append(frames.decode(line))
        return len(data)


def _linked(tmp_path: Path) -> tuple[Store, Wire, HostLink]:
    store = Store(tmp_path / "g.sqlite3")
    wire = Wire()
    link = HostLink(wire, store)
    wire.inbox = frames.encode("hello", fw="0.5.0", uid="c0ffee", boot=1, first=1, next=1, held=[[1, 1, 1]])
    link.poll()
    return store, wire, link


def _acks(wire: Wire) -> list[int]:
    return [m["s"] for m in wire.sent if m["t"] == "ack"]


def test_events_are_acknowledged_while_the_file_is_the_one_opened(tmp_path):
    store, wire, link = _linked(tmp_path)
    wire.inbox = frames.encode("ev", boot=1, s=1, e=GAME) + frames.encode("ev", boot=1, s=2, e=START)
    link.poll()
    assert _acks(wire) == [2]
    store.close()


@pytest.mark.parametrize("how", ["deleted", "replaced"])
def test_no_ack_once_the_file_is_deleted_or_replaced(tmp_path, how):
    store, wire, link = _linked(tmp_path)
    db = store.path
    if how == "deleted":
        db.unlink()
        said = f"{db}: the database was deleted while doodlebox was storing into it"
    else:
        other = tmp_path / "other.sqlite3"
        Store(other).close()
        os.replace(other, db)
        said = f"{db}: the database was replaced by another file while doodlebox was storing into it"
    wire.inbox = frames.encode("ev", boot=1, s=1, e=GAME)
    with pytest.raises(StoreError) as got:
        link.poll()
    assert str(got.value).startswith(said) and "\n" not in str(got.value) and got.value.cause == how
    assert not got.value.transient and _acks(wire) == []
    store.close()
    if how == "replaced":    # the file at the path holds none of it
        again = Store(db)
        assert again.events() == []
        again.close()


def test_the_keepalive_ack_is_not_sent_for_a_file_deleted(tmp_path, monkeypatch):
    store, wire, link = _linked(tmp_path)
    wire.inbox = frames.encode("ev", boot=1, s=1, e=GAME)
    link.poll()
    assert _acks(wire) == [1]
    store.path.unlink()
    monkeypatch.setattr(link, "_sent_at", link._sent_at - 60)    # idle long enough for a keepalive
    with pytest.raises(StoreError, match="the database was deleted"):
        link.poll()
    assert _acks(wire) == [1]
    store.close()


def test_a_commit_into_a_file_moved_away_is_refused_with_the_cause(tmp_path):
    """SQLite itself refuses to write a file moved (SQLITE_READONLY_DBMOVED): said as moved, not
    as read-only."""
    store = Store(tmp_path / "g.sqlite3")
    store.append("c0ffee", 1, 1, GAME)
    os.rename(store.path, tmp_path / "elsewhere.sqlite3")
    with pytest.raises(StoreError, match="the database was deleted while doodlebox was storing into it"):
        store.append("c0ffee", 1, 2, START)
    store.close()


def test_a_file_made_read_only_under_the_store_is_said(tmp_path, monkeypatch):
    store = Store(tmp_path / "g.sqlite3")
    real = os.access
    monkeypatch.setattr(os, "access", lambda p, mode: False if Path(p) == store.path and mode & os.W_OK
                        else real(p, mode))
    with pytest.raises(StoreError, match=f"^{store.path}: read-only: this user may no longer write {store.path}"):
        store.append("c0ffee", 1, 1, GAME)
    store.close()


def test_the_store_maps_no_shared_memory(tmp_path):
    store = Store(tmp_path / "g.sqlite3")
    store.append("c0ffee", 1, 1, GAME)
    reader = Store(store.path, readonly=True)      # a reader meanwhile (the page, doodlebox games)
    assert [e for *_, e in reader.events()] == [GAME]
    store.append("c0ffee", 1, 2, START)
    assert [e for *_, e in reader.events()] == [GAME, START]
    assert store.db.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    assert store.db.execute("PRAGMA mmap_size").fetchone()[0] == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.sqlite3"]     # no -wal, no -shm
    reader.close()
    store.close()


def test_a_spoilt_shm_next_to_the_file_is_no_fault(tmp_path):
    store = Store(tmp_path / "g.sqlite3")
    shm = Path(f"{store.path}-shm")
    shm.mkdir()
    store.append("c0ffee", 1, 1, GAME)
    store.close()
    store = Store(store.path)           # opened again with it there
    assert store.append("c0ffee", 1, 2, START).status == "stored"
    store.close()


def test_a_wal_file_of_an_earlier_doodlebox_is_turned_into_the_rollback_journal(tmp_path):
    db = tmp_path / "old.sqlite3"
    shutil.copy(ROOT / "tests" / "vectors" / "store-v2.sqlite3", db)
    con = sqlite3.connect(db)
    con.execute("PRAGMA journal_mode=WAL")
    other = sqlite3.connect(db)                     # another program has it open
    other.execute("SELECT 1 FROM games").fetchall()
    with pytest.raises(StoreError) as got:
        Store(db, timeout=0.1)
    assert got.value.cause == "locked" and got.value.transient and str(db) in str(got.value)
    other.close()
    con.close()
    store = Store(db)
    assert store.db.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    assert not Path(f"{db}-wal").exists() and not Path(f"{db}-shm").exists()
    assert store.games()
    store.close()
