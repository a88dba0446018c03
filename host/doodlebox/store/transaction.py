"""A write transaction of the Store (store/database.py): the process's turn to write the
database, then BEGIN ... COMMIT and the file checked, or ROLLBACK; every fault a StoreError."""
from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from doodlebox.store.errors import StoreError
from doodlebox.store.postgres import PgConnection

Store = Any    # store/database.py's Store (not imported: it imports this module)

# One writer at a time per database within this process: the links of a `doodlebox log` that
# follows many consoles (club.Club) queue here for their turn, instead of each polling the
# database's own lock (SQLite's busy wait, PostgreSQL's lock_timeout), which with 20 links made
# "locked" notes, resends and acks 2-6 s late (make bench's club section, 2026-12-02).
_WRITERS: dict[str, threading.Lock] = {}
_WRITERS_GUARD = threading.Lock()
WRITER_WAIT_S = 30.0     # a turn not had within this long: "locked" (transient), as the database's own lock


def _writer(store: Store) -> threading.Lock:
    lock = store.__dict__.get("_turn")
    if lock is None:
        key = str(store.path) if isinstance(store.db, PgConnection) else str(Path(store.path).resolve())
        with _WRITERS_GUARD:
            lock = _WRITERS.setdefault(key, threading.Lock())
        store._turn = lock
    return lock


class Transaction:
    """The process's turn to write this database (`_writer`), then BEGIN IMMEDIATE ... COMMIT,
    then Store.check_file(); or ROLLBACK on any error. An sqlite3
    error becomes the store's StoreError (locked, full, read-only, ...), or, when the file was
    deleted or replaced meanwhile (SQLite says SQLITE_READONLY_DBMOVED), check_file()'s. On
    PostgreSQL: BEGIN with the writers' lock (PgConnection.begin), COMMIT; a psycopg error
    becomes the StoreError PgConnection.problem() says (a connection lost: "lost", transient)."""

    def __init__(self, store: Store, doing: str):
        self.store = store
        self.doing = doing
        self.errors = tuple(e for e in store._errors if e is not UnicodeDecodeError)

    def __enter__(self) -> Transaction:
        db = self.store.db
        self.turn = _writer(self.store)
        if not self.turn.acquire(timeout=WRITER_WAIT_S):
            raise StoreError(f"{self.store.path}: {self.doing}: another link of this doodlebox has been writing "
                             f"for {WRITER_WAIT_S:.0f} s", "locked")
        try:
            self._begin(db)
        except BaseException:
            self.turn.release()
            raise
        return self

    def _begin(self, db) -> None:
        try:
            if isinstance(db, PgConnection):
                db.begin()
            else:
                db.execute("BEGIN IMMEDIATE")
        except self.errors as exc:
            if isinstance(db, PgConnection):
                try:
                    db.rollback()
                except self.errors:
                    pass
            self.store.check_file()
            raise self.store._problem(exc, self.doing) from None

    def __exit__(self, exc_type, exc, tb) -> None:
        try:
            self._end(exc_type, exc)
        finally:
            self.turn.release()

    def _end(self, exc_type, exc) -> None:
        db = self.store.db
        if exc_type is None:
            try:
                if isinstance(db, PgConnection):
                    db.commit()
                else:
                    db.execute("COMMIT")
            except self.errors as failed:
                exc = failed
            else:
                self.store.check_file()     # committed, and in the file at the path
                return
        try:
            if isinstance(db, PgConnection):
                db.rollback()
            elif db.in_transaction:
                db.execute("ROLLBACK")
        except self.errors:
            pass
        if isinstance(exc, self.errors):
            self.store.check_file()
            raise self.store._problem(exc, self.doing) from None
