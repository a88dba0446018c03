"""The Store's ground floor (store/database.py): the connection it holds (an SQLite file or a
PostgreSQL server), its write transaction, and rows read with a fault said as damage of the row
read (Damaged: not UTF-8, not JSON, a page SQLite finds malformed) or as the database's own
(StoreError). The Store's parts (store/seats.py, store/sheets.py) stand on it."""
from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

from doodlebox.store.dbfile import check_file
from doodlebox.store.errors import Damaged, StoreError, damage, problem
from doodlebox.store.postgres import PgConnection
from doodlebox.store.transaction import Transaction


class Rows:
    """The connection and how it is read and written: `db` (sqlite3's, or PgConnection), `path`
    (the file, or the URL without its password), `readonly`, `identity` (the file opened for
    writing), the SQL words that differ (`_blob`, `_greatest`, `_least`), the errors it raises."""

    db: sqlite3.Connection | PgConnection
    path: Path | str
    readonly: bool
    identity: tuple[int, int] | None
    _errors: tuple[type[BaseException], ...]
    _blob: str
    _greatest: str
    _least: str

    def close(self) -> None:
        self.db.close()

    def check_file(self) -> None:
        """StoreError unless the path still names the file this store opened for writing and
        this user may still write it (dbfile.check_file). Called after every commit, and by the
        link before each `ack`."""
        if not self.readonly and self.identity is not None and isinstance(self.path, Path):
            check_file(self.path, self.identity)

    def _problem(self, exc: BaseException, doing: str) -> StoreError:
        """The StoreError for an error of the database (sqlite3's, psycopg's)."""
        if isinstance(self.db, PgConnection):
            return self.db.problem(exc, doing)
        return problem(Path(self.path), exc, doing)


    # -- writing (each event at its place: store/placing.py) ----------------------------------

    def _tx(self, doing: str) -> Transaction:
        return Transaction(self, doing)

    def _read(self, query: str, args: tuple = (), row: str = "", game: int | None = None) -> list[tuple]:
        """The rows a query finds. Damaged (naming `row`, or else the query's table, and the
        `game` read) for text that is not UTF-8 and for a page SQLite finds malformed;
        StoreError for the database's other faults."""
        try:
            return self.db.execute(query, args).fetchall()
        except self._errors as exc:
            damaged = damage(exc) if not isinstance(self.db, PgConnection) or isinstance(exc, UnicodeError) else None
            if damaged:
                raise Damaged(self.path, f"{row or _table(query)}: {damaged}", game) from None
            raise self._problem(exc, "reading it") from None

    def _json(self, blob: bytes | None, row: str, game: int | None = None) -> object:
        """A JSON column read as bytes (SELECT CAST(x AS BLOB)); Damaged when it is not UTF-8 JSON."""
        if not isinstance(blob, bytes):
            raise Damaged(self.path, f"{row}: empty", game)
        try:
            return json.loads(blob)
        except UnicodeDecodeError:
            raise Damaged(self.path, f"{row}: not UTF-8 text", game) from None
        except ValueError:
            raise Damaged(self.path, f"{row}: not JSON", game) from None


def _table(query: str) -> str:
    found = re.search(r"\bFROM (\w+)", query)
    return f"the {found.group(1)} table" if found else "the database"


def _short(value: object) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "..."


def _text(value: bytes | None) -> str | None:
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else value
