"""The database file: SQLite opened for writing (its folder made, the file created or upgraded,
in the rollback journal's mode) or for reading only, and whether the path the user named still
names the file opened (deleted, replaced, read-only).

The journal is SQLite's rollback journal (`journal_mode=DELETE`, `mmap_size=0`), not WAL: no
-shm file, so no shared memory mapped, and no SIGBUS when something truncates or spoils it
(docs/stored-games.md, "The database file")."""
from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from doodlebox.store.errors import CORRUPT, NOTADB, StoreError, problem
from doodlebox.store.schema import SCHEMA_VERSION, check, upgrade

JOURNAL_MODE = "DELETE"   # SQLite's rollback journal: no -shm mapped (docs/stored-games.md, "The database file")


def open_writing(path: Path, timeout: float) -> tuple[sqlite3.Connection, tuple[int, int]]:
    """The file opened for writing (its folder made, the file created or upgraded to
    SCHEMA_VERSION, in the rollback journal's mode), and its (st_dev, st_ino)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise problem(path, exc, "creating its folder") from None
    _may_write(path)
    db = None
    try:
        db = sqlite3.connect(str(path), timeout=timeout, isolation_level=None)
        identity = _identity(path)       # the file SQLite has just opened
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        version = db.execute("PRAGMA user_version").fetchone()[0]
        check(path, version, tables)
        _rollback_journal(path, db)
        db.execute("PRAGMA mmap_size=0")
        db.execute("PRAGMA synchronous=FULL")
        if version < SCHEMA_VERSION:
            upgrade(db, version, tables)
        check_file(path, identity)
    except sqlite3.Error as exc:
        if db is not None:
            db.close()
        raise problem(path, exc, "opening it") from None
    except StoreError:
        if db is not None:
            db.close()
        raise
    except OSError as exc:     # the file gone the moment it was opened
        if db is not None:
            db.close()
        raise problem(path, exc, "opening it") from None
    return db, identity


def _may_write(path: Path) -> None:
    """Read-only, said before SQLite opens it: SQLite would open a file it may not write for
    reading only, and make its -wal and -shm files as read-only as the file itself, so that
    the database stays read-only after the file is made writable again."""
    wal = Path(f"{path}-wal")
    # the -shm counts only for a file in WAL mode (SQLite opens a file with a -wal in WAL mode)
    shm = (Path(f"{path}-shm"),) if wal.exists() or _wal_header(path) else ()
    for f in (path, wal, *shm):
        if f.exists() and not os.access(f, os.R_OK | os.W_OK):
            raise StoreError(f"{path}: read-only: this user may not write {f}", "readonly")
    if not os.access(path.parent, os.W_OK | os.X_OK):
        raise StoreError(f"{path}: read-only: this user may not write its folder {path.parent} (SQLite keeps "
                         "its -wal and -shm files next to the database)", "readonly")


def open_readonly(path: Path, timeout: float) -> sqlite3.Connection:
    """The file opened for reading only: it is never written, nor a file made next to it."""
    last: BaseException | None = None
    # a file of an earlier doodlebox in WAL mode without a -wal file has every row in the file
    # itself: read it as it is (immutable), and make no -shm or -wal next to it, which would be
    # as read-only as the file. A file in the rollback journal's mode is read as it is written
    # (a `doodlebox log` may be storing into it meanwhile), which makes no file next to it
    immutable = _wal_header(path) and not Path(f"{path}-wal").exists()
    modes = ("ro&immutable=1", "ro") if immutable else ("ro",)
    for mode in modes:
        db = None
        try:
            db = sqlite3.connect(f"file:{path}?mode={mode}", uri=True, timeout=timeout, isolation_level=None)
            tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            version = db.execute("PRAGMA user_version").fetchone()[0]
            check(path, version, tables)
            if version < SCHEMA_VERSION:
                raise StoreError(f"{path}: schema version {version}: `doodlebox log` upgrades it to "
                                 f"{SCHEMA_VERSION} (it needs to write the file)", "old")
            return db
        except sqlite3.Error as exc:
            if db is not None:
                db.close()
            last = exc
            if getattr(exc, "sqlite_errorcode", 0) & 0xFF in (NOTADB, CORRUPT):
                break
        except StoreError:
            if db is not None:
                db.close()
            raise
    assert last is not None
    raise problem(path, last, "opening it") from None


def check_file(path: Path, identity: tuple[int, int]) -> None:
    """StoreError unless the path the user named still names the file this store opened
    (the same st_dev and st_ino: not deleted, not replaced by another file) and this user
    may still write it and its folder (SQLite makes its -journal there at every commit)."""
    try:
        now = _identity(path)
    except FileNotFoundError:
        raise StoreError(f"{path}: the database was deleted while doodlebox was storing into it: nothing more "
                         "is acknowledged (the console keeps its events for the next doodlebox log)",
                         "deleted") from None
    except OSError as exc:
        raise StoreError(f"{path}: cannot be looked at ({exc.strerror or exc}): nothing more is acknowledged",
                         "io") from None
    if now != identity:
        raise StoreError(f"{path}: the database was replaced by another file while doodlebox was storing into "
                         "it: nothing more is acknowledged (the console keeps its events for the next "
                         "doodlebox log)", "replaced")
    if not os.access(path, os.W_OK):
        raise StoreError(f"{path}: read-only: this user may no longer write {path}: nothing more is "
                         "acknowledged", "readonly")
    if not os.access(path.parent, os.W_OK | os.X_OK):
        raise StoreError(f"{path}: read-only: this user may no longer write its folder {path.parent} (SQLite "
                         "keeps its -journal there): nothing more is acknowledged", "readonly")


def _identity(path: Path) -> tuple[int, int]:
    st = os.stat(path)
    return st.st_dev, st.st_ino


def _rollback_journal(path: Path, db: sqlite3.Connection) -> None:
    """Put the file in the rollback journal's mode. A WAL file of an earlier doodlebox is
    checkpointed into the file and its -wal and -shm removed; SQLite does that only while no
    other connection has it open, else it is "locked" (and `doodlebox log` waits)."""
    mode = db.execute(f"PRAGMA journal_mode={JOURNAL_MODE}").fetchone()[0]
    if str(mode).lower() != JOURNAL_MODE.lower():
        raise StoreError(f"{path}: the database is locked by another program while opening it (a file in {mode} "
                         "mode, which doodlebox turns into its rollback journal's mode only while no other "
                         "program has it open)", "locked")


def _wal_header(path: Path) -> bool:
    """The file says it is in WAL mode (its header's read and write versions are 2)."""
    try:
        with open(path, "rb") as f:
            head = f.read(20)
    except OSError:
        return False
    return len(head) == 20 and head[18] == 2
