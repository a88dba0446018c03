"""The sheets games were played on (schema version 6, docs/stored-games.md "The sheets"): a
table's own sheet, a dice edition's layout or a Deadly Doodles map side, kept by its hash so that
a game whose `game` event names it (`sx`) can be made a record on any PC that holds the games
(docs/protocol.md, `game`). The store checks what it can without the rules: the hash (the first
12 hex digits of SHA-256 over the sheet's JSON with its keys sorted, as
doodlebox.sheets.library.sheet_hash), the name's form; that a sheet is one the rules can use is
the caller's to check (doodlebox.rules.datafiles.check) before it is added."""
from __future__ import annotations

import hashlib
import json
import re
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from doodlebox.errors import InputError
from doodlebox.store.errors import Damaged
from doodlebox.store.rows import Rows

NAME = re.compile(r"[a-z0-9_-]{1,16}")        # a sheet's name (it travels to the console: docs/sheets.md)
HASH = re.compile(r"[0-9a-f]{12}")            # its hash
EDITION = re.compile(r"[a-z][a-z0-9_-]{0,31}")   # the dice edition, or "deadly"


class BadSheet(InputError):
    """A sheet the store cannot take: a body that is not JSON or does not hash to the hash given,
    a name or an edition that is not one (exit 2, nothing stored)."""


@dataclass(frozen=True)
class SheetRow:
    """One row of the `sheets` table as it is stored: `body` is the sheet's JSON."""

    hash: str
    edition: str
    name: str
    body: str
    added: float


def sheet_hash(data: Any) -> str:
    """The first 12 hex digits of SHA-256 over the sheet's JSON, keys sorted, no spaces: the
    same sheet, the same hash, wherever it is (doodlebox.sheets.library.sheet_hash's formula)."""
    return hashlib.sha256(json.dumps(data, sort_keys=True, separators=(",", ":")).encode()).hexdigest()[:12]


def checked(hash: str, edition: str, name: str, body: str | bytes, added: float | None = None) -> SheetRow:
    """The row to store; BadSheet unless `body` is JSON that hashes to `hash`, and the name and the
    edition are ones a sheet can have."""
    if not isinstance(hash, str) or not HASH.fullmatch(hash):
        raise BadSheet(f"{hash!r} is not a sheet's hash: 12 lowercase hex digits")
    if not isinstance(name, str) or not NAME.fullmatch(name):
        raise BadSheet(f"{name!r} is not a sheet's name: 1 to 16 of a-z, 0-9, - and _")
    if not isinstance(edition, str) or not EDITION.fullmatch(edition):
        raise BadSheet(f"{edition!r} is not an edition (a dice edition, or deadly)")
    try:
        data = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        raise BadSheet(f"the sheet {name!r} ({hash}) is not JSON") from None
    found = sheet_hash(data)
    if found != hash:
        raise BadSheet(f"the sheet {name!r} hashes to {found}, not {hash}: not stored")
    text = body.decode() if isinstance(body, bytes) else body
    return SheetRow(hash, edition, name, text, time.time() if added is None else added)


def put(db: Any, row: SheetRow) -> bool:
    """The row stored, in the transaction begun, unless a sheet of its hash is there already (it
    is then left as it is); whether it was new."""
    return db.execute("INSERT INTO sheets (hash, edition, name, body, added) VALUES (?,?,?,?,?) "
                      "ON CONFLICT (hash) DO NOTHING",
                      (row.hash, row.edition, row.name, row.body, row.added)).rowcount == 1


class HeldSheets(Rows):
    """The sheets games were played on, as the Store holds them (schema version 6). A part of the
    Store (store/database.py)."""

    def add_sheet(self, hash: str, edition: str, name: str, body: str | bytes) -> str:
        """Keep a sheet of the table's own (a dice edition's layout, or a Deadly Doodles map side:
        `edition` "deadly"), `body` its JSON, under its hash; the hash. BadSheet (exit 2, nothing
        stored) for a body that does not hash to `hash` (sheet_hash), a name or an edition
        that is not one. A sheet of that hash held already is left as it is (its name too). That
        the body is a sheet the rules can use is the caller's to check (rules/datafiles.check)."""
        row = checked(hash, edition, name, body)
        with self._tx("storing a sheet"):
            put(self.db, row)
        return row.hash

    def add_sheets(self, rows: Iterable[SheetRow]) -> int:
        """Rows of another database's `sheets` table (sync.py), each checked again, in one
        transaction; how many were new here. BadSheet (nothing stored) for one that is not a sheet."""
        rows = [checked(r.hash, r.edition, r.name, r.body, r.added) for r in rows]
        if not rows:
            return 0
        with self._tx("storing sheets"):
            return sum(put(self.db, row) for row in rows)

    def sheet(self, hash: str) -> tuple[str, str, object] | None:
        """(edition, name, data) of the sheet of that hash, None when the store holds none. Damaged
        when its row is not what add_sheet() stored: its body not JSON, or not of that hash (a sheet
        whose content does not hash to its hash is never used)."""
        row = self.sheet_row(hash)
        if row is None:
            return None
        return row.edition, row.name, json.loads(row.body)

    def sheet_row(self, hash: str, game: int | None = None) -> SheetRow | None:
        """The `sheets` row of that hash as stored (sync.py hands it on), checked as sheet() says."""
        rows = self._read(f"SELECT hash, edition, name, {self._blob.format('body')}, added FROM sheets WHERE hash=?",
                          (hash,), f"sheets row {hash}", game)
        if not rows:
            return None
        h, edition, name, body, added = rows[0]
        found = sheet_hash(self._json(body, f"sheets row {hash}", game))
        if found != h:
            raise Damaged(self.path, f"sheets row {hash}: its sheet hashes to {found}, not {h}", game)
        if not (isinstance(edition, str) and isinstance(name, str) and isinstance(added, (int, float))):
            raise Damaged(self.path, f"sheets row {hash}: its edition, name or time is not what was stored", game)
        assert isinstance(body, bytes)          # (_json read it)
        return SheetRow(h, edition, name, body.decode(), float(added))

    def sheets_held(self) -> list[tuple[str, str, str, float]]:
        """(hash, edition, name, added) of every sheet held, oldest first."""
        return self._read("SELECT hash, edition, name, added FROM sheets ORDER BY added, hash", (), "the sheets table")

    def _sheets_of(self, events: Sequence[tuple[int, dict]], game: int | None = None) -> dict[str, object]:
        """The sheets the `game` events among `events` name (`sx`) that the store holds: hash ->
        data (GameLog.sheets); Damaged (of `game`) for a row of them that is not a sheet."""
        out: dict[str, object] = {}
        for _, e in events:
            sx = e.get("sx") if e.get("k") == "game" else None
            if isinstance(sx, str) and sx not in out:
                try:
                    row = self.sheet(sx)
                except Damaged as exc:
                    raise exc.of_game(game) if game is not None else exc from None
                if row is not None:
                    out[sx] = row[2]
        return out
