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
from dataclasses import dataclass
from typing import Any

from doodlebox.errors import InputError

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
