"""Every SQLite failure as one StoreError naming the database file and the cause (`cause`:
locked, full, readonly, notadb, newer, old, cantopen, io, other); `transient` says whether
waiting may cure it. `problem()` tells them apart by SQLite's result code."""
from __future__ import annotations

import os
import resource
import shutil
from pathlib import Path

from doodlebox.errors import DoodleboxError

# SQLite's primary result codes (https://sqlite.org/rescode.html)
_BUSY, _LOCKED, _READONLY, _IOERR, CORRUPT, _FULL, _CANTOPEN, NOTADB, _PERM = 5, 6, 8, 10, 11, 13, 14, 26, 3
_BY_TEXT = (("locked", _BUSY), ("is full", _FULL), ("readonly", _READONLY), ("disk I/O", _IOERR),
            ("not a database", NOTADB), ("malformed", CORRUPT), ("unable to open", _CANTOPEN))


class StoreError(DoodleboxError):
    """One line: the database file and what is wrong with it."""

    def __init__(self, text: str, cause: str = "other"):
        super().__init__(text)
        self.cause = cause

    @property
    def transient(self) -> bool:
        """Waiting may cure it (another program lets go of the lock, room is made on the disk)."""
        return self.cause in ("locked", "full")


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
    if primary in (NOTADB, CORRUPT):
        return StoreError(f"{path}: not a doodlebox database ({text})", "notadb")
    if isinstance(exc, OSError):
        return StoreError(f"{path}: {exc.strerror or exc}{what}", "cantopen")
    return StoreError(f"{path}: {text}{what}", "other")


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

