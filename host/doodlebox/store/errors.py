"""Every SQLite failure as one StoreError naming the database file and the cause (`cause`:
locked, full, readonly, notadb, damaged, newer, old, cantopen, io, other); `transient` says whether
waiting may cure it. `problem()` tells them apart by SQLite's result code. A row that cannot be
what it was stored as is Damaged (exit 2): it names the file, the game and the row.

A PostgreSQL database (store/postgres.py) adds the causes url, auth, nodb, down (it cannot be
connected to: exit 2, as a newer schema), lost (a connection lost while using it: transient), slow
(a statement the server did not finish within its statement_timeout: transient) and gone (the
database, or its tables, dropped while doodlebox used it: as a deleted file, nothing more is
acknowledged)."""
from __future__ import annotations

import os
import resource
import shutil
from pathlib import Path

from doodlebox.errors import DoodleboxError, InputError

# SQLite's primary result codes (https://sqlite.org/rescode.html)
_BUSY, _LOCKED, _READONLY, _IOERR, CORRUPT, _FULL, _CANTOPEN, NOTADB, _PERM = 5, 6, 8, 10, 11, 13, 14, 26, 3
_BY_TEXT = (("locked", _BUSY), ("is full", _FULL), ("readonly", _READONLY), ("disk I/O", _IOERR),
            ("not a database", NOTADB), ("malformed", CORRUPT), ("unable to open", _CANTOPEN))


# what the user gave cannot be used as it is: exit 2 (the others are faults of the database: 1)
INPUT_CAUSES = ("newer", "url", "auth", "nodb", "down")


class StoreError(DoodleboxError):
    """One line: the database file and what is wrong with it."""

    def __init__(self, text: str, cause: str = "other"):
        super().__init__(text)
        self.cause = cause
        if cause in INPUT_CAUSES:
            self.exit_code = 2

    @property
    def transient(self) -> bool:
        """Waiting may cure it (another program lets go of the lock, room is made on the disk,
        the server comes back, or finishes what held it up)."""
        return self.cause in ("locked", "full", "lost", "slow")


class Damaged(InputError):
    """A row that cannot be what doodlebox stored (a bit flipped on the disk, a row changed by
    hand, a page SQLite finds malformed): "FILE: game 3: damaged: events row 17: not JSON".
    `row` says which row and what is wrong with it ("events row 17: not JSON"), `game` the
    game it belongs to, when that is known."""

    def __init__(self, path: Path | str, row: str, game: int | None = None):
        super().__init__(f"{path}: " + (f"game {game}: " if game is not None else "") + f"damaged: {row}")
        self.path, self.row, self.game = path, row, game

    def of_game(self, gid: int) -> Damaged:
        """The same damage, said of game `gid` (where the row was read for it)."""
        return self if self.game is not None else Damaged(self.path, self.row, gid)


class DamagedFile(StoreError):
    """A database SQLite finds malformed (a bit flipped on the disk, a file cut short): exit 2,
    as for a Damaged row."""

    exit_code = 2


def problem(path: Path, exc: BaseException, doing: str = "") -> StoreError:
    """The StoreError for an sqlite3 (or OS) error on the database `path`: locked, full,
    read-only, not a database, ... told apart by SQLite's result code."""
    code = getattr(exc, "sqlite_errorcode", None)
    text = str(exc)
    primary: int | None = code & 0xFF if isinstance(code, int) else None
    if primary is None:   # an sqlite3 without error codes: its message
        primary = next((c for words, c in _BY_TEXT if words in text), None)
    what = f" while {doing}" if doing else ""
    if primary in (_BUSY, _LOCKED):
        return StoreError(f"{path}: the database is locked by another program{what} ({text})", "locked")
    if primary == _FULL:
        return StoreError(f"{path}: {_full_cause(path)}{what} ({text})", "full")
    if primary == _IOERR:
        cause = _full_cause(path, None)
        if cause:
            return StoreError(f"{path}: {cause}{what} ({text})", "full")
        return StoreError(f"{path}: the disk failed to read or write it{what} ({text})", "io")
    if primary in (_READONLY, _PERM) or isinstance(exc, PermissionError):
        return StoreError(f"{path}: read-only: {_readonly_cause(path)}{what} ({text})", "readonly")
    if primary == _CANTOPEN:
        if not _writable_folder(path):
            return StoreError(f"{path}: read-only: {_readonly_cause(path)}{what} ({text})", "readonly")
        return StoreError(f"{path}: cannot be opened{what} ({text})", "cantopen")
    damaged = damage(exc)
    if damaged:
        return DamagedFile(f"{path}: damaged: {damaged}{what}", "damaged")
    if primary == NOTADB:
        return StoreError(f"{path}: not a doodlebox database ({text})", "notadb")
    if isinstance(exc, OSError):
        return StoreError(f"{path}: {exc.strerror or exc}{what}", "cantopen")
    return StoreError(f"{path}: {text}{what}", "other")


def damage(exc: BaseException) -> str | None:
    """What is damaged, when an sqlite3 error (or the decoding of a value it read) says the
    file is: a page SQLite finds malformed, text that is not UTF-8; None otherwise."""
    text = str(exc)
    code = getattr(exc, "sqlite_errorcode", None)
    if isinstance(exc, UnicodeDecodeError) or "Could not decode to UTF-8" in text:
        return "text that is not UTF-8"
    if (code & 0xFF == CORRUPT) if isinstance(code, int) else "malformed" in text:
        return f"SQLite finds the file malformed ({text})"
    return None


def _full_cause(path: Path, default: str | None = "the disk or the database is full") -> str | None:
    """Why a write had no room: no space left on the disk, or the file size limit (ulimit -f)."""
    soft, _ = resource.getrlimit(resource.RLIMIT_FSIZE)
    if soft != resource.RLIM_INFINITY:
        biggest = max((_size(Path(f"{path}{tail}")) for tail in ("", "-wal", "-journal")), default=0)
        if biggest + 65536 >= soft:
            return f"full: the file size limit of this process (ulimit -f, {soft} bytes) is reached"
    try:
        free = shutil.disk_usage(path.parent).free
    except OSError:
        return default
    if free < 1 << 20:
        return f"full: {free} bytes left on the disk"
    return default


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _writable_folder(path: Path) -> bool:
    return os.access(path.parent if path.parent.exists() else path.parent.parent, os.W_OK)


def _readonly_cause(path: Path) -> str:
    for f in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        if f.exists() and not os.access(f, os.W_OK):
            return f"this user may not write {f}"
    if not _writable_folder(path):
        return f"this user may not write its folder {path.parent} (SQLite keeps files next to it)"
    return "SQLite may not write it (a read-only disk?)"

