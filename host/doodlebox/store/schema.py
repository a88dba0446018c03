"""The database's tables, schema version 6 (PRAGMA user_version; on PostgreSQL a table of its
own: store/postgres.py), and the steps that upgrade a new, version 1, 2, 3, 4 or 5 database to it in
one transaction (docs/stored-games.md). A step is a statement with its named arguments, or a
function of the connection (version 4's people made from the names: store/people.py), the same
on both backends."""
from __future__ import annotations

import sqlite3
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

from doodlebox.store.errors import StoreError
from doodlebox.store.people import people_from_names

SCHEMA_VERSION = 6
STATES = ("playing", "ended", "resumed", "abandoned", "imported")
IMPORTED = ""        # the uid of an imported game's row (a console's uid is never empty)

_TABLES = """
CREATE TABLE IF NOT EXISTS consoles (
    uid TEXT PRIMARY KEY, fw TEXT, first_seen REAL NOT NULL, last_seen REAL NOT NULL);
CREATE TABLE IF NOT EXISTS streams (
    uid TEXT NOT NULL, boot INTEGER NOT NULL, next_seq INTEGER NOT NULL,
    PRIMARY KEY (uid, boot));
CREATE TABLE IF NOT EXISTS events (
    id INTEGER PRIMARY KEY, uid TEXT NOT NULL, boot INTEGER NOT NULL, seq INTEGER NOT NULL,
    game INTEGER, kind TEXT NOT NULL, body TEXT NOT NULL, received REAL NOT NULL,
    UNIQUE (uid, boot, seq));
CREATE TABLE IF NOT EXISTS gaps (
    uid TEXT NOT NULL, boot INTEGER NOT NULL, from_seq INTEGER NOT NULL, to_seq INTEGER NOT NULL,
    noted REAL NOT NULL);
"""
_GAMES_V1 = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY, uid TEXT NOT NULL, boot INTEGER NOT NULL, g INTEGER NOT NULL,
    edition TEXT, players INTEGER, variant TEXT, started REAL, ended REAL, end_reason TEXT,
    rounds INTEGER NOT NULL DEFAULT 0, events INTEGER NOT NULL DEFAULT 0,
    UNIQUE (uid, boot, g));
"""
# version 2: the game's state, and a resumed game's link both ways (the resume event's `of`, `at`)
_GAMES_V2 = [
    "ALTER TABLE games ADD COLUMN state TEXT NOT NULL DEFAULT 'playing'",
    "ALTER TABLE games ADD COLUMN continues INTEGER",
    "ALTER TABLE games ADD COLUMN continued_by INTEGER",
    "ALTER TABLE games ADD COLUMN of_boot INTEGER",
    "ALTER TABLE games ADD COLUMN of_g INTEGER",
    "ALTER TABLE games ADD COLUMN resume_at INTEGER",
    "CREATE INDEX IF NOT EXISTS events_of_game ON events (uid, boot, game, seq)",
    "UPDATE games SET state = 'ended' WHERE end_reason IS NOT NULL",
    # a version 1 host knew no resume: a game left playing when its console began one in a
    # later boot was abandoned
    "UPDATE games SET state = 'abandoned', ended = COALESCE(ended, :now) WHERE state = 'playing' AND EXISTS "
    "(SELECT 1 FROM games AS later WHERE later.uid = games.uid AND later.boot > games.boot)",
]
# version 3: the names of a game's seats, and the records of games played on paper
_TABLES_V3 = """
CREATE TABLE IF NOT EXISTS players (
    game INTEGER NOT NULL, seat INTEGER NOT NULL, name TEXT NOT NULL, PRIMARY KEY (game, seat));
CREATE TABLE IF NOT EXISTS imported (
    game INTEGER PRIMARY KEY REFERENCES games(id), record TEXT NOT NULL, violations INTEGER NOT NULL,
    source TEXT NOT NULL);
"""
# version 4: people (a seat's name linked to a person across games), the aliases a merge leaves, and
# the league: its id (random, made once) and, in a venue's file, the league it was synced to
_TABLES_V4 = """
CREATE TABLE IF NOT EXISTS people (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL, folded TEXT NOT NULL UNIQUE, created REAL NOT NULL);
CREATE TABLE IF NOT EXISTS aliases (
    folded TEXT PRIMARY KEY, person INTEGER NOT NULL REFERENCES people(id));
CREATE TABLE IF NOT EXISTS league (
    id TEXT NOT NULL, name TEXT NOT NULL DEFAULT '', synced_to TEXT);
"""
_PLAYERS_V4 = [
    "ALTER TABLE players ADD COLUMN person INTEGER REFERENCES people(id)",
    "CREATE UNIQUE INDEX IF NOT EXISTS players_person ON players (game, person)",
    "INSERT INTO league (id, name) SELECT :league, '' WHERE NOT EXISTS (SELECT 1 FROM league)",
]
# version 5: an event's place is its identity; each event keeps a hash of its body (NULL for one
# stored before: the hash of its body is taken when it is compared), and an event that came to a
# place held by another is kept apart, never stored nor acknowledged (store/placing.py)
_EVENTS_V5 = [
    "ALTER TABLE events ADD COLUMN hash TEXT",
    "CREATE TABLE IF NOT EXISTS conflicts (id INTEGER PRIMARY KEY, uid TEXT NOT NULL, boot INTEGER NOT NULL, "
    "seq INTEGER NOT NULL, hash TEXT NOT NULL, body TEXT NOT NULL, received REAL NOT NULL, noted REAL NOT NULL, "
    "UNIQUE (uid, boot, seq, hash))",
    "CREATE INDEX IF NOT EXISTS gaps_of_stream ON gaps (uid, boot)",     # read at every batch of a link
]
# version 6: the sheets games were played on (a table's own: the `game` event's `sx`), by their hash
# (store/sheets.py): `edition` the dice edition or "deadly", `body` the sheet's JSON
_SHEETS_V6 = [
    "CREATE TABLE IF NOT EXISTS sheets (hash TEXT PRIMARY KEY, edition TEXT NOT NULL, name TEXT NOT NULL, "
    "body TEXT NOT NULL, added REAL NOT NULL)",
]
OURS = {"consoles", "streams", "events", "gaps", "games", "players", "imported", "people", "aliases", "league",
        "conflicts", "sheets"}
Step = tuple[str | Callable[[Any], None], dict]


def check(path: Path | str, version: int, tables: set[str]) -> None:
    """StoreError for a database this doodlebox cannot take: a newer schema (exit 2), or another
    program's tables in one with no version."""
    if version > SCHEMA_VERSION:
        raise StoreError(f"{path}: schema version {version} is newer than this doodlebox "
                         f"({SCHEMA_VERSION}): update doodlebox", "newer")
    others = tables - OURS
    if others and not version:
        raise StoreError(f"{path}: not a doodlebox database (it has the tables "
                         f"{', '.join(sorted(others)[:5])})", "notadb")


def steps(version: int, tables: set[str]) -> list[Step]:
    """The statements (and their named arguments) that bring a database of schema `version`
    with these tables to SCHEMA_VERSION: a new one gets every table, a version 1 one its version
    2 columns, a version 2 one the version 3 tables, a version 3 one the version 4 tables, its
    players' `person` column and its people made from the names it holds (a function of the
    connection: store/people.py), a version 4 one the events' `hash` column and the `conflicts`
    table, a version 5 one the `sheets` table. The same steps on both backends (PostgreSQL with its own
    types: store/postgres.py, ddl())."""
    out: list[Step] = [(s, {}) for s in _TABLES.split(";") if s.strip()]
    if "games" not in tables or version < 2:
        out.append((_GAMES_V1, {}))
        out += [(s, {"now": time.time()} if ":now" in s else {}) for s in _GAMES_V2]
    out += [(s, {}) for s in _TABLES_V3.split(";") if s.strip()]
    if version < 4:
        out += [(s, {}) for s in _TABLES_V4.split(";") if s.strip()]
        out += [(s, {"league": uuid.uuid4().hex} if ":league" in s else {}) for s in _PLAYERS_V4]
        out.append((people_from_names, {}))
    if version < 5:
        out += [(s, {}) for s in _EVENTS_V5]
    if version < 6:
        out += [(s, {}) for s in _SHEETS_V6]
    return out


def upgrade(db: sqlite3.Connection, version: int, tables: set[str]) -> None:
    """steps() and the version (PRAGMA user_version) in one transaction. The version and the
    tables are read again under the write lock: another connection (a second console's link
    opening the same new file) may have upgraded it meanwhile, and its steps are not made twice."""
    db.execute("BEGIN IMMEDIATE")
    try:
        version = db.execute("PRAGMA user_version").fetchone()[0]
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if version >= SCHEMA_VERSION:
            db.execute("COMMIT")
            return
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        for statement, args in steps(version, tables):
            if callable(statement):
                statement(db)
            else:
                db.execute(statement, args)
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise
