"""The Store: one SQLite file, or a PostgreSQL database (store/postgres.py), opened (created or
upgraded: store/schema.py), events appended as the link takes them (hello, append_many: the
next expected of each stream, in one transaction), games derived from them, and what is read
back: the games, one game's log (GameLog, with the sheets its `game` event names), imported
records; its names and people are store/seats.py's, the sheets games were played on
store/sheets.py's, the connection and how rows are read store/rows.py's. Making a game's record
and replaying it is above the store (history/game_records.py): nothing here imports the rules or the
record makers.

The store knows the file it holds: every commit is followed by `check_file()` (the path the
user named still names the file opened, and it can still be written), so nothing a commit
returns, and nothing the link acknowledges, is in a file deleted or replaced meanwhile. Opening
the file, its journal's mode and that check are store/dbfile.py's (docs/stored-games.md, "The
database file").

The SQL here is SQLite's, written so that PostgreSQL takes it too (`?` marks, ON CONFLICT, no
INSERT OR IGNORE); the few words that differ are the Store's `_blob` and `_greatest`. On
PostgreSQL `path` is the URL without its password, and check_file() has no file to check: a
COMMIT that returned is on the server (docs/stored-games.md, "Two backends")."""
from __future__ import annotations

import json
import sqlite3
import tempfile
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from doodlebox.errors import InputError
from doodlebox.store import placing, sheets
from doodlebox.store.dbfile import open_readonly, open_writing
from doodlebox.store.errors import Damaged, StoreError, problem
from doodlebox.store.gamelog import GameLog, Gap, Hello, Stored
from doodlebox.store.postgres import PgConnection, is_url, open_server
from doodlebox.store.rows import _short, _text
from doodlebox.store.schema import IMPORTED
from doodlebox.store.seats import Seats
from doodlebox.store.sheets import HeldSheets

MAX_ID = 2 ** 63 - 1     # the highest games.id SQLite can hold
MAX_SEATS = 99           # more players in a games row is damage (Doodle Puzzle seats 8)


class NoGame(InputError):
    """A game that is not in the database: "FILE: no game 9 (see `doodlebox games`)"."""


class Store(Seats, HeldSheets):
    def __init__(self, path: str | Path, timeout: float = 5.0, readonly: bool = False):
        """Open (and create, or upgrade to SCHEMA_VERSION) the database at `path`, a file or a
        postgresql:// URL; `readonly` for the commands that only read (a file nobody may write
        can still be listed)."""
        self.readonly = readonly
        self.identity: tuple[int, int] | None = None     # (st_dev, st_ino) of the file opened for writing
        self.db: sqlite3.Connection | PgConnection
        self.path: Path | str
        if is_url(path):
            self.db = open_server(str(path), timeout, readonly)
            self.path = self.db.where
            self._errors: tuple[type[BaseException], ...] = (*PgConnection.errors, UnicodeDecodeError)
            self._blob, self._greatest, self._least = "convert_to({}, 'UTF8')", "GREATEST", "LEAST"
            return
        self.path = file = Path(path)
        self._errors = (sqlite3.Error, UnicodeDecodeError)
        # a text column read as bytes; MAX(a, b), MIN(a, b)
        self._blob, self._greatest, self._least = "CAST({} AS BLOB)", "MAX", "MIN"
        try:
            if readonly:
                self.db = open_readonly(file, timeout)
            else:
                self.db, self.identity = open_writing(file, timeout)
        except UnicodeDecodeError as exc:      # a table's name or its SQL in sqlite_master
            raise problem(file, exc, "opening it") from None

    def hello(self, uid: str, fw: str, held: Iterable[tuple[int, int, int]]) -> Hello:
        """Record a console's hello: for each boot it holds events of ([boot, first, next]), the
        numbers below `first` that the store neither holds nor has as a gap are recorded as one
        (another host acknowledged them, or the console reclaimed them: it will not send them).
        A `next` below the store's frontier is said (`behind`): the console lost its journal, or
        another console has its id; what it sends is compared with what the store holds."""
        now = time.time()
        out = Hello()
        with self._tx("recording the console's hello"):
            self.db.execute(
                "INSERT INTO consoles (uid, fw, first_seen, last_seen) VALUES (?,?,?,?) "
                "ON CONFLICT(uid) DO UPDATE SET fw=excluded.fw, last_seen=excluded.last_seen",
                (uid, fw, now, now))
            for boot, first, nxt in held:
                st = placing.load(self, uid, boot, [])
                if first > st.f:
                    out.gaps += placing.add_gap(self, st, st.f, first - 1, now)
                    placing.save(self, st)
                elif nxt < st.f:
                    out.behind.append((boot, nxt, st.f))
        return out

    def console_seen(self, uid: str, fw: str, boot: int, first: int) -> int | None:
        """Record a hello of one boot; returns the first seq of a gap the console no longer holds, if any."""
        gaps = self.hello(uid, fw, [(boot, first, first)]).gaps
        return gaps[0].first if gaps else None

    def append(self, uid: str, boot: int, seq: int, event: dict) -> Stored:
        """Store the event at its place (append_many); committed on return."""
        return self.append_many(uid, [(boot, seq, event)])[0]

    def append_many(self, uid: str, items: Sequence[tuple[int, int, dict]],
                    received: Sequence[float] | None = None, anywhere: bool = False,
                    with_sheets: Sequence[sheets.SheetRow] = ()) -> list[Stored]:
        """Each (boot, seq, event) at its place, all in one transaction, committed on return;
        what happened to each (store/placing.py): `stored`; `duplicate` (the same event is
        there); `conflict` (another event is there: kept apart in the `conflicts` table, and the
        rest of that boot's events here are `held`, not stored); `gap` (the link's only: a number
        above the frontier, not stored, to be sent again). Stored.ack is the highest number the
        console may be acknowledged for: every one up to it stored or a gap, none a conflict.
        `anywhere`: store a number above the frontier too (sync.py). `received`: when each was
        received (sync.py hands on another database's events with their own times, so that the
        games they make start and end when they did); default now. `with_sheets`: the sheets
        their games were played on (another database's rows, sync.py), stored in the same
        transaction (add_sheets: a sheet held already is left as it is; BadSheet, nothing stored,
        for one that is not a sheet). StoreError (nothing stored) when the database fails."""
        if not items:
            return []
        now = time.time()
        found: list[tuple[placing.Stream, str, int]] = []
        rows = [sheets.checked(r.hash, r.edition, r.name, r.body, r.added) for r in with_sheets]
        with self._tx("storing events"):
            for row in rows:
                sheets.put(self.db, row)
            streams: dict[int, placing.Stream] = {}
            again: dict[tuple[int, int], None] = {}       # games to derive again, in order
            for k, (boot, seq, event) in enumerate(items):
                st = streams.get(boot)
                if st is None:
                    st = streams[boot] = placing.load(self, uid, boot, [s for b, s, _ in items if b == boot])
                status, settle = placing.put(self, st, seq, event, received[k] if received is not None else now,
                                             anywhere)
                found.append((st, status, st.ack()))
                if settle:
                    again[(boot, event["g"])] = None
            for st in streams.values():
                placing.save(self, st)
            for boot, g in again:
                placing.settle(self, uid, boot, g)
        # as each stood then; below a conflict of its boot for every one (nothing past it is acknowledged)
        return [Stored(status, min(ack, st.ack())) for st, status, ack in found]

    def add_gaps(self, uid: str, boot: int, ranges: Iterable[tuple[int, int]]) -> list[Gap]:
        """Record these numbers of a boot (first, last) as gaps, but for those stored or in a gap
        already (sync.py: the gaps of the database it reads); the ranges newly recorded."""
        out: list[Gap] = []
        with self._tx("recording a gap"):
            st = placing.load(self, uid, boot, [])
            for first, last in ranges:
                out += placing.add_gap(self, st, first, last, time.time())
            placing.save(self, st)
        return out

    GAME_COLUMNS = ("id", "uid", "boot", "g", "edition", "players", "variant", "started", "ended", "end_reason",
                    "rounds", "events", "state", "continues", "continued_by", "of_boot", "of_g", "resume_at")

    # -- reading -----------------------------------------------------------------------
    def games(self) -> list[dict]:
        """Every game, oldest first: its row (GAME_COLUMNS: `players` is how many, `state` its
        status), `names` (its seats' names), `people` (the person of each seat, or None),
        `status`, `date` ("YYYY-MM-DD HH:MM", local time).
        What the PC's replay of each game's record says is game_records.games().

        A game with a row that cannot be read (Damaged) is listed too: `damaged` says which row
        and what is wrong with it ("events row 17: not JSON"; "" for the others), `error` the
        whole line; a games row itself damaged has the state "damaged"."""
        out = []
        for (gid,) in self._read("SELECT id FROM games ORDER BY started, id"):
            try:
                g = self.game_row(gid)
            except Damaged as exc:
                g = dict.fromkeys(self.GAME_COLUMNS, None) | {"id": gid, "state": "damaged", "events": 0}
                g.update(names=[], people=[], status="damaged", date="", damaged=exc.row, error=str(exc))
                out.append(g)
                continue
            g["status"] = g["state"]
            g["date"] = time.strftime("%Y-%m-%d %H:%M", time.localtime(g["started"])) if g["started"] else ""
            g["damaged"] = ""
            try:
                seats = self.seats(gid, g["players"])
                g["names"], g["people"] = [n for n, _ in seats], [p for _, p in seats]
            except Damaged as exc:
                g.update(names=[f"P{seat + 1}" for seat in range(g["players"] or 0)], damaged=exc.row,
                         error=str(exc.of_game(gid)))
                g["people"] = [None] * len(g["names"])
            out.append(g)
        return out

    def find(self, which: int | str) -> int:
        """The id of a game: `which` is its number as `doodlebox games` lists it (ASCII digits
        only: not the other digits int() takes), or "last" (the game started last); NoGame (one
        line, exit 2) when there is none, a number beyond what SQLite holds among them."""
        if which == "last":
            rows = self._read("SELECT id FROM games ORDER BY started DESC, id DESC LIMIT 1")
            if not rows:
                raise NoGame(f"{self.path}: no games stored")
            return rows[0][0]
        if not (type(which) is int or (isinstance(which, str) and which.isascii() and which.isdigit())):
            raise NoGame(f"{which!r} is not a game: give its number from `doodlebox games`, or last")
        gid = _game_id(which)
        if gid is None or not self._read("SELECT 1 FROM games WHERE id=?", (gid,)):
            raise NoGame(f"{self.path}: " + (f"no game {which} (see `doodlebox games`)" if self._read(
                "SELECT 1 FROM games LIMIT 1") else "no games stored"))
        return gid

    def game_log(self, which: int | str) -> GameLog | None:
        """One game the console played and its events: `which` is a games.id (as `doodlebox
        games` lists them) or "last" (the console's game started last: imported games have no
        events); None when there is no such game. A game that resumed another has that game's
        events first (GameLog)."""
        q = "SELECT id FROM games "
        gid = _game_id(which)
        rows = (self._read(q + "WHERE uid != ? ORDER BY started DESC, id DESC LIMIT 1", (IMPORTED,))
                if which == "last" else self._read(q + "WHERE id=?", (gid,)) if gid is not None else [])
        return self._log(rows[0][0]) if rows else None

    def game_row(self, gid: int) -> dict:
        """Game `gid`'s games row (GAME_COLUMNS); NoGame when there is none, Damaged for a number
        of players or a start time it cannot have."""
        rows = self._read(f"SELECT {', '.join(self.GAME_COLUMNS)} FROM games WHERE id=?", (gid,),
                          f"games row {gid}", gid)
        if not rows:
            raise NoGame(f"{self.path}: no game {gid} (see `doodlebox games`)")
        row = dict(zip(self.GAME_COLUMNS, rows[0]))
        players, started = row["players"], row["started"]
        if not (players is None or (type(players) is int and 0 <= players <= MAX_SEATS)):
            raise Damaged(self.path, f"games row {gid}: {players!r} players", gid)
        if started is not None and not (isinstance(started, (int, float)) and 0 <= started < 1e11):
            raise Damaged(self.path, f"games row {gid}: the start time {started!r} is not a time", gid)
        return row

    def imported_record(self, gid: int) -> dict:
        """The record imported as game `gid`, as it was stored: a JSON object with its players
        (history/game_records.py reads it again by its rules). Damaged when it is not one any more,
        StoreError when it is not stored."""
        rows = self._read(f"SELECT {self._blob.format('record')} FROM imported WHERE game=?", (gid,),
                          f"imported row {gid}", gid)
        if not rows:
            raise StoreError(f"{self.path}: game {gid} is imported but its record is not stored", "other")
        data = self._json(rows[0][0], f"imported row {gid}", gid)
        if not isinstance(data, dict) or not isinstance(data.get("players"), list):
            raise Damaged(self.path, f"imported row {gid}: {_short(data)} is not a record (a JSON object with "
                                     "its players)", gid)
        return data

    def imported_as(self, data: dict) -> int | None:
        """The game a record was imported as already, if it was (the same record, field for field)."""
        rows = self._read("SELECT game FROM imported WHERE record=?", (_canonical(data),))
        return rows[0][0] if rows else None

    def add_imported(self, items: Sequence[tuple[dict, int, str, float]]) -> list[int]:
        """Store records of games played on paper, all in one transaction: (record, violations
        found, source, when it was played as a time stamp) each; their new game ids. The record
        is kept as given (its names become the game's names: names(), set_names())."""
        with self._tx("importing records"):
            return [self._add_imported(*item) for item in items]

    def _add_imported(self, data: dict, violations: int, source: str, started: float) -> int:
        """One record stored, in the transaction begun: its game's row (its number one more than
        the highest), the record, its seats' people."""
        g = self.db.execute("SELECT COALESCE(MAX(g), 0) + 1 FROM games WHERE uid=? AND boot=0",
                            (IMPORTED,)).fetchone()[0]
        gid = self.db.execute("SELECT COALESCE(MAX(id), 0) + 1 FROM games").fetchone()[0]
        variant = data.get("variant", "")
        self.db.execute(
            "INSERT INTO games (id, uid, boot, g, edition, players, variant, started, state, rounds, events) "
            "VALUES (?,?,0,?,?,?,?,?,'imported',?,0)",
            (gid, IMPORTED, g, data.get("edition"), len(data["players"]),
             variant if isinstance(variant, str) else "", started, len(data.get("rounds") or [])))
        self.db.execute("INSERT INTO imported (game, record, violations, source) VALUES (?,?,?,?)",
                        (gid, _canonical(data), violations, source))
        people = self._people_of(data["players"], time.time(), unique=True)
        self.db.executemany("INSERT INTO players (game, seat, name, person) VALUES (?,?,?,?)",
                            [(gid, seat, n, p) for seat, (n, p) in enumerate(zip(data["players"], people))])
        return gid

    def import_once(self, data: dict, violations: int, source: str, started: float) -> tuple[int, bool]:
        """A record stored as add_imported() stores it unless the same record is stored already,
        checked in the same transaction (two syncs at once add it once): its game id, and
        whether it is new."""
        with self._tx("importing a record"):
            rows = self.db.execute("SELECT game FROM imported WHERE record=?", (_canonical(data),)).fetchall()
            if rows:
                return rows[0][0], False
            return self._add_imported(data, violations, source, started), True

    def imported_source(self, gid: int) -> tuple[str, int] | None:
        """(the file it was imported from, the violations found then) of an imported game."""
        rows = self._read("SELECT source, violations FROM imported WHERE game=?", (gid,), f"imported row {gid}", gid)
        return (rows[0][0], rows[0][1]) if rows else None

    def game_log_of(self, uid: str, boot: int, g: int) -> GameLog:
        """Game `g` of a console's boot and its events, as far as they are stored (its number is
        0 while its `game` event is not)."""
        rows = self._read("SELECT id FROM games WHERE uid=? AND boot=? AND g=?", (uid, boot, g))
        if rows:
            return self._log(rows[0][0])
        events = self.game_events(uid, boot, g)
        return GameLog(0, uid, boot, g, events, sheets=self._sheets_of(events))

    def _log(self, gid: int) -> GameLog:
        """The game `gid` with the games it resumes, oldest first."""
        chain: list[tuple] = []
        seen: set[int] = set()
        row = self._read("SELECT id, uid, boot, g, continues, resume_at, state FROM games WHERE id=?", (gid,),
                         f"games row {gid}")[0]
        while True:
            chain.append(row)
            seen.add(row[0])
            if row[4] is None or row[4] in seen or len(chain) > 64:
                break
            rows = self._read("SELECT id, uid, boot, g, continues, resume_at, state FROM games WHERE id=?", (row[4],),
                              f"games row {row[4]}")
            if not rows:
                break
            row = rows[0]
        chain.reverse()
        events: list[tuple[int, dict]] = []
        parts: list[tuple[int, int, int]] = []
        for k, (_, uid, boot, g, _, _, _) in enumerate(chain):
            try:
                own = self.game_events(uid, boot, g)
            except Damaged as exc:
                raise exc.of_game(gid) from None
            if k + 1 < len(chain):
                at = chain[k + 1][5]
                own = [(s, e) for s, e in own if s <= at]
            events.extend(own)
            parts.append((boot, g, len(own)))
        top = chain[-1]
        return GameLog(top[0], top[1], top[2], top[3], events, tuple(parts) if len(parts) > 1 else (), top[6],
                       self._sheets_of(events, gid))

    def game_events(self, uid: str, boot: int, g: int, after: int = 0,
                    upto: int | None = None) -> list[tuple[int, dict]]:
        """The events of game `g` of a console's boot, (seq, event) in order: those numbered
        above `after` and, with `upto`, not above it (live validation reads only what is new)."""
        q = f"SELECT seq, {self._event_columns()} FROM events WHERE uid=? AND boot=? AND game=? AND seq>?"
        args: tuple = (uid, boot, g, after)
        if upto is not None:
            q += " AND seq<=?"
            args += (upto,)
        rows = self._read(q + " ORDER BY seq", args, f"the events of console {uid} boot {boot} game {g}")
        return [(seq, self._event(*row)) for seq, *row in rows]

    def events(self, uid: str | None = None) -> list[tuple[str, int, int, dict]]:
        """(uid, boot, seq, event) of every stored event (of one console), in order. Damaged
        for a row whose event cannot be read."""
        q = f"SELECT uid, boot, seq, {self._event_columns()} FROM events"
        args: tuple = ()
        if uid:
            q += " WHERE uid=?"
            args = (uid,)
        q += " ORDER BY uid, boot, seq"
        return [(u, b, s, self._event(*row)) for u, b, s, *row in self._read(q, args)]

    def events_of_kind(self, *kinds: str, damaged: list[Damaged] | None = None) -> list[tuple[str, int, int, dict]]:
        """(uid, boot, seq, event) of every stored event of these kinds (`roll`, `start`: the
        dice each console rolled), in the order they were stored. A row whose event cannot be
        read is Damaged, or with a `damaged` list, added to it and left out."""
        marks = ", ".join("?" * len(kinds))
        rows = self._read(f"SELECT uid, boot, seq, {self._event_columns()} FROM events WHERE kind IN ({marks}) "
                          "ORDER BY id", kinds)
        out = []
        for u, b, s, *row in rows:
            try:
                out.append((u, b, s, self._event(*row)))
            except Damaged as exc:
                if damaged is None:
                    raise
                damaged.append(exc)
        return out

    def _event_columns(self) -> str:
        """An events row as _event() reads it: id, kind, game, body (kind and body as bytes)."""
        return f"id, {self._blob.format('kind')}, game, {self._blob.format('body')}"

    def _event(self, rid: int, kind: bytes | None, game: int | None, body: bytes | None) -> dict:
        """The event stored in events row `rid`. Damaged unless its body is a JSON object whose
        "k" and "g" are the row's kind and game, as append_many() stores them."""
        e = self._json(body, f"events row {rid}")
        if not isinstance(e, dict):
            raise Damaged(self.path, f"events row {rid}: {_short(e)} is not an event (a JSON object)")
        k = e.get("k", "?")
        if isinstance(k, str) and k.encode() != kind:
            said = f"says 'k' {_short(k)}" if "k" in e else "has no 'k'"
            raise Damaged(self.path, f"events row {rid}: its event {said}, the row's kind is {_text(kind)!r}")
        if (e.get("g") if type(e.get("g")) is int else None) != game:
            said = f"says 'g' {_short(e['g'])}" if "g" in e else "has no 'g'"
            raise Damaged(self.path, f"events row {rid}: its event {said}, the row's game is {game!r}")
        return e

    # -- the league (schema version 4) -----------------------------------------------------------
    def league(self) -> dict:
        """This database's league row: `id` (random, made with the database or its upgrade to
        version 4), `name`, and `synced_to` (the league a venue's file was synced to, or None)."""
        rows = self._read("SELECT id, name, synced_to FROM league", (), "the league table")
        if not rows:
            raise StoreError(f"{self.path}: the league table has no row (made by hand?)", "other")
        return {"id": rows[0][0], "name": rows[0][1], "synced_to": rows[0][2]}

    def set_synced_to(self, league: str) -> None:
        """Record that this database's games are synced into the league `league` (sync.py)."""
        with self._tx("recording the league it is synced to"):
            self.db.execute("UPDATE league SET synced_to=?", (league,))

    # -- what sync.py reads and writes -----------------------------------------------------------
    def consoles(self) -> list[tuple[str, str | None, float, float]]:
        """(uid, fw, first_seen, last_seen) of every console."""
        return self._read("SELECT uid, fw, first_seen, last_seen FROM consoles ORDER BY uid")

    def add_console(self, uid: str, fw: str | None, first_seen: float, last_seen: float) -> None:
        """A console seen elsewhere (another database's row): added, or its times widened."""
        with self._tx("recording a console"):
            self.db.execute(
                "INSERT INTO consoles (uid, fw, first_seen, last_seen) VALUES (?,?,?,?) ON CONFLICT(uid) DO UPDATE "
                f"SET fw=CASE WHEN excluded.last_seen >= consoles.last_seen THEN excluded.fw ELSE consoles.fw END, "
                f"first_seen={self._least}(consoles.first_seen, excluded.first_seen), "
                f"last_seen={self._greatest}(consoles.last_seen, excluded.last_seen)",
                (uid, fw, first_seen, last_seen))

    def streams(self) -> list[tuple[str, int, int]]:
        """(uid, boot, the seq expected next) of every stream."""
        return self._read("SELECT uid, boot, next_seq FROM streams ORDER BY uid, boot")

    def events_after(self, after: int, limit: int) -> list[tuple[int, object, object, object, dict | Damaged, float]]:
        """(row id, uid, boot, seq, event, received) of the events stored after row `after`, in the
        order they were stored, at most `limit`. `event` is the Damaged of a row whose event cannot
        be read, and uid, boot and seq are as the row holds them (sync.py checks their types):
        one damaged row does not stop the reading of the others."""
        rows = self._read(f"SELECT uid, boot, seq, received, {self._event_columns()} FROM events WHERE id>? "
                          "ORDER BY id LIMIT ?", (after, limit))
        out: list[tuple[int, object, object, object, dict | Damaged, float]] = []
        for u, b, sq, rec, *row in rows:
            try:
                event: dict | Damaged = self._event(*row)
            except Damaged as exc:
                event = exc
            out.append((row[0], u, b, sq, event, rec))
        return out

    def conflicts(self) -> list[tuple[str, int, int, str, float]]:
        """(uid, boot, seq, body, received) of every event kept apart: it came to a place that
        holds another event (store/placing.py), oldest first."""
        return self._read("SELECT uid, boot, seq, body, received FROM conflicts ORDER BY id")

    @contextmanager
    def snapshot(self) -> Iterator[Store]:
        """This database as it stands now, to be read at leisure while others write it (sync.py):
        an SQLite file copied in one read transaction (SQLite's online backup into a temporary
        file: the file is locked only while it is copied) and opened read-only, damage said of the
        file named; a PostgreSQL database read in one repeatable-read, read-only transaction."""
        if isinstance(self.db, PgConnection):
            try:
                self.db.begin(lock=False)
                self.db.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            except self._errors as exc:
                self.db.rollback()
                raise self._problem(exc, "beginning a snapshot to read") from None
            try:
                yield self
            finally:
                try:
                    self.db.rollback()
                except self._errors:
                    pass
            return
        with tempfile.TemporaryDirectory(prefix="doodlebox-snapshot-") as tmp:
            copy = Path(tmp) / "snapshot.sqlite3"
            target = sqlite3.connect(copy)
            try:
                self.db.backup(target)
            except sqlite3.Error as exc:
                raise self._problem(exc, "copying it to read") from None
            finally:
                target.close()
            snap = Store(copy, readonly=True)
            snap.path = self.path
            try:
                yield snap
            finally:
                snap.close()

    def game_id(self, uid: str, boot: int, g: int) -> int | None:
        """The games.id of game `g` of a console's boot, if it is stored."""
        rows = self._read("SELECT id FROM games WHERE uid=? AND boot=? AND g=?", (uid, boot, g))
        return rows[0][0] if rows else None

    def named_seats(self, gid: int) -> int:
        """How many seats of game `gid` (or of the games it is one with) have a name stored."""
        return max((len(self._read("SELECT seat FROM players WHERE game=?", (game,))) for game in self._chain(gid)),
                   default=0)

    def gaps(self) -> list[tuple]:
        return self._read("SELECT uid, boot, from_seq, to_seq FROM gaps")

    def next_seq(self, uid: str, boot: int) -> int:
        """The number the store expects next of a console's boot."""
        rows = self._read("SELECT next_seq FROM streams WHERE uid=? AND boot=?", (uid, boot))
        return rows[0][0] if rows else 1


def _game_id(which: int | str) -> int | None:
    """`which` (an int, or a str of ASCII digits) as a games.id; None when SQLite holds none
    such (below 1, beyond MAX_ID, or not a number)."""
    if isinstance(which, str) and which.isascii() and which.isdigit():
        which = int(which)
    return which if type(which) is int and 0 < which <= MAX_ID else None


def _canonical(data: dict) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
