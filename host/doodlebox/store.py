"""SQLite store: every console event, committed before it is acknowledged; games derived.

Schema version 1 (PRAGMA user_version). `(uid, boot, seq)` identifies an event; the store
only appends the next expected event of each (uid, boot) stream (docs/protocol.md).
"""
from __future__ import annotations

import json
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

from doodlebox.errors import DoodleboxError

SCHEMA_VERSION = 1

SCHEMA = """
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
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY, uid TEXT NOT NULL, boot INTEGER NOT NULL, g INTEGER NOT NULL,
    edition TEXT, players INTEGER, variant TEXT, started REAL, ended REAL, end_reason TEXT,
    rounds INTEGER NOT NULL DEFAULT 0, events INTEGER NOT NULL DEFAULT 0,
    UNIQUE (uid, boot, g));
"""


class StoreError(DoodleboxError):
    pass


@dataclass(frozen=True)
class GameLog:
    """One stored game and its events in the order the console numbered them: (seq, event)."""

    id: int
    uid: str
    boot: int
    g: int
    events: list[tuple[int, dict]]

    def label(self) -> str:
        """How a person finds it again: "game 3 (console c0ffee boot 2)" (`doodlebox games`)."""
        return f"game {self.id} (console {self.uid} boot {self.boot})"


@dataclass(frozen=True)
class Stored:
    """What append() did: 'stored', 'duplicate' or 'gap'; `ack` is the highest seq held."""

    status: str
    ack: int


class Store:
    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self.db = sqlite3.connect(str(self.path), timeout=5.0, isolation_level=None)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=FULL")
            version = self.db.execute("PRAGMA user_version").fetchone()[0]
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path}: not a doodlebox database ({exc})") from None
        if version > SCHEMA_VERSION:
            raise StoreError(f"{self.path}: schema version {version} is newer than this doodlebox ({SCHEMA_VERSION})")
        self.db.executescript(SCHEMA)
        self.db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    def close(self) -> None:
        self.db.close()

    # -- writing -----------------------------------------------------------------------
    def console_seen(self, uid: str, fw: str, boot: int, first: int) -> int | None:
        """Record a hello; returns the first seq of a gap the console no longer holds, if any."""
        now = time.time()
        with self._tx():
            self.db.execute(
                "INSERT INTO consoles (uid, fw, first_seen, last_seen) VALUES (?,?,?,?) "
                "ON CONFLICT(uid) DO UPDATE SET fw=excluded.fw, last_seen=excluded.last_seen",
                (uid, fw, now, now))
            expected = self._next(uid, boot)
            if first > expected:
                self.db.execute("INSERT INTO gaps VALUES (?,?,?,?,?)", (uid, boot, expected, first - 1, now))
                self._set_next(uid, boot, first)
                return expected
        return None

    def append(self, uid: str, boot: int, seq: int, event: dict) -> Stored:
        """Store the event if it is the next one of its stream; committed on return."""
        with self._tx():
            expected = self._next(uid, boot)
            if seq < expected:
                return Stored("duplicate", expected - 1)
            if seq > expected:
                return Stored("gap", expected - 1)
            now = time.time()
            kind = str(event.get("k", "?"))
            game = event.get("g") if isinstance(event.get("g"), int) else None
            self.db.execute(
                "INSERT INTO events (uid, boot, seq, game, kind, body, received) VALUES (?,?,?,?,?,?,?)",
                (uid, boot, seq, game, kind, json.dumps(event, sort_keys=True), now))
            self._set_next(uid, boot, seq + 1)
            if game is not None:
                self._update_game(uid, boot, game, kind, event, now)
        return Stored("stored", seq)

    def _update_game(self, uid, boot, g, kind, event, now):
        if kind == "game":
            self.db.execute(
                "INSERT OR IGNORE INTO games (uid, boot, g, edition, players, variant, started) VALUES (?,?,?,?,?,?,?)",
                (uid, boot, g, event.get("ed"), event.get("n"), event.get("var"), now))
        self.db.execute(
            "UPDATE games SET events = events + 1, rounds = MAX(rounds, ?) WHERE uid=? AND boot=? AND g=?",
            (event.get("r", 0) if isinstance(event.get("r"), int) else 0, uid, boot, g))
        if kind == "end":
            self.db.execute("UPDATE games SET ended=?, end_reason=? WHERE uid=? AND boot=? AND g=?",
                            (now, event.get("why"), uid, boot, g))

    def _next(self, uid: str, boot: int) -> int:
        row = self.db.execute("SELECT next_seq FROM streams WHERE uid=? AND boot=?", (uid, boot)).fetchone()
        return row[0] if row else 1

    def _set_next(self, uid: str, boot: int, seq: int) -> None:
        self.db.execute("INSERT INTO streams VALUES (?,?,?) "
                        "ON CONFLICT(uid, boot) DO UPDATE SET next_seq=excluded.next_seq",
                        (uid, boot, seq))

    def _tx(self):
        return _Transaction(self.db)

    # -- reading -----------------------------------------------------------------------
    def games(self) -> list[dict]:
        cur = self.db.execute(
            "SELECT id, uid, boot, g, edition, players, variant, started, ended, end_reason, rounds, events "
            "FROM games ORDER BY started, id")
        cols = [d[0] for d in cur.description]
        return [dict(zip(cols, row)) for row in cur]

    def game_log(self, which: int | str) -> GameLog | None:
        """One game and its events: `which` is a games.id (as `doodlebox games` lists them) or
        "last" (the game started last); None when there is no such game."""
        q = "SELECT id, uid, boot, g FROM games "
        if which == "last":
            row = self.db.execute(q + "ORDER BY started DESC, id DESC LIMIT 1").fetchone()
        else:
            row = self.db.execute(q + "WHERE id=?", (int(which),)).fetchone()
        if row is None:
            return None
        gid, uid, boot, g = row
        return GameLog(gid, uid, boot, g, self.game_events(uid, boot, g))

    def game_log_of(self, uid: str, boot: int, g: int) -> GameLog:
        """Game `g` of a console's boot and its events, as far as they are stored (its number is
        0 while its `game` event is not)."""
        row = self.db.execute("SELECT id FROM games WHERE uid=? AND boot=? AND g=?", (uid, boot, g)).fetchone()
        return GameLog(row[0] if row else 0, uid, boot, g, self.game_events(uid, boot, g))

    def game_events(self, uid: str, boot: int, g: int) -> list[tuple[int, dict]]:
        """The events of game `g` of a console's boot, (seq, event) in order."""
        cur = self.db.execute("SELECT seq, body FROM events WHERE uid=? AND boot=? AND game=? ORDER BY seq",
                              (uid, boot, g))
        return [(seq, json.loads(body)) for seq, body in cur]

    def events(self, uid: str | None = None) -> list[tuple[str, int, int, dict]]:
        q = "SELECT uid, boot, seq, body FROM events"
        args: tuple = ()
        if uid:
            q += " WHERE uid=?"
            args = (uid,)
        q += " ORDER BY uid, boot, seq"
        return [(u, b, s, json.loads(body)) for u, b, s, body in self.db.execute(q, args)]

    def gaps(self) -> list[tuple]:
        return self.db.execute("SELECT uid, boot, from_seq, to_seq FROM gaps").fetchall()


class _Transaction:
    def __init__(self, db: sqlite3.Connection):
        self.db = db

    def __enter__(self):
        self.db.execute("BEGIN IMMEDIATE")
        return self

    def __exit__(self, exc_type, exc, tb):
        self.db.execute("ROLLBACK" if exc_type else "COMMIT")
        return False
