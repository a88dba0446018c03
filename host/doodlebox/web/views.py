"""What the page shows, as plain data read from the store: the history of games, one game (its
table, rounds, violations and sheets), the statistics, the game playing now and the league
(web/league.py). Nothing here writes HTML; every string in it may come from the database and is
escaped by pages.py and web/league.py.

The database is an SQLite file or a PostgreSQL database (a postgresql:// URL: the Store opens
either). One thread owns it, with one Store (an sqlite3 connection belongs to the thread that
opened it, a psycopg connection is used by one thread at a time, and game_records keeps each
game's outcome while its events are the same); the server's threads hand it their reads. A
PostgreSQL connection lost is a StoreError (the page's 503) and made again on the next read.
The games are game_records.games(), one game games_view.summary (what `doodlebox show`
prints), the statistics stats.collect (what `doodlebox stats` prints). Sheets, and whose turn
it is in the game being played, come from replaying the game's record (game_records.record) through
its rules engine (rules/games.py) outside that thread; replays, sheets and charts are cached
while what they were made of is the same, so a page that polls costs a replay only when the
game has moved on. The coach's analyses are made in a process of their own (web/analyses.py)."""
from __future__ import annotations

import json
import tempfile
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, TypeVar

from doodlebox.errors import DoodleboxError, InputError
from doodlebox.history import game_records, stats
from doodlebox.history.games_view import game_name, summary
from doodlebox.link.describe import describe
from doodlebox.rules.games import read_record
from doodlebox.rules.moment import moment
from doodlebox.store import IMPORTED, Store, StoreError
from doodlebox.store.postgres import shown
from doodlebox.web import coach, league
from doodlebox.web.analyses import Analyses

RECENT = 8           # events of the live game listed on the page
SHOWN_AFTER_END = 600.0   # s: a game that ended is still the live one for this long (its final scores)
CACHE = 32           # replays (with their sheets) kept

T = TypeVar("T")


class NotFound(InputError):
    """A game, a sheet or a chart that is not there (the page answers 404)."""


def where(db: Path | str) -> str:
    """The database as the page names it: the file, or the URL without its password."""
    if isinstance(db, Path):
        return str(db)

    return shown(db)


def open_store(db: Path | str, readonly: bool = False) -> Store:
    """The database (a file or a postgresql:// URL), opened for writing where it may be (names
    are set on the page), else read-only; `readonly`: read-only in any case (a page that
    writes nothing)."""
    if readonly:
        return Store(db, readonly=True, timeout=2.0)
    try:
        return Store(db, timeout=2.0)
    except StoreError as exc:
        if exc.cause != "readonly":
            raise
        return Store(db, readonly=True, timeout=2.0)


@dataclass
class Replayed:
    """A game's record and its replay, or why there is none (`problem`)."""
    record: dict | None
    replay: Any = None
    game: Any = None             # its GameType
    problem: str = ""
    pictures: dict[int, bytes] = field(default_factory=dict)   # seat -> sheet PNG


class Views:
    """Reads the database `db` (a file, or a postgresql:// URL) for the pages; safe to call from
    any thread. `readonly`: the store opened read-only. close() at the end."""
    def __init__(self, db: Path | str, readonly: bool = False):
        self.db: Path | str = db if isinstance(db, str) and "://" in db else Path(db)
        self.readonly = readonly
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="doodlebox-web-store")
        self._store: Store | None = None
        self._lock = threading.Lock()
        self._replays: OrderedDict[str, Replayed] = OrderedDict()
        self._stats: tuple[str, Any] = ("", None)              # (the games it was made of, stats.Stats)
        self._charts: dict[tuple[str, str], bytes] = {}        # (those games, chart) -> PNG
        self.analyses = Analyses()                             # the coach's, in a process of their own

    def close(self) -> None:
        self.analyses.close()

        def closing() -> None:
            if self._store is not None:
                self._store.close()
                self._store = None
        self._pool.submit(closing).result()
        self._pool.shutdown()

    # -- the database's thread ------------------------------------------------------------
    def _read(self, fn: Callable[[Store], T], none: T) -> T:
        """fn(store) in the database's thread; `none` while there is no database yet (`doodlebox
        log --web` makes it when the console first speaks)."""
        def run() -> T:
            if self._store is None:
                if isinstance(self.db, Path) and not self.db.exists():
                    return none
                self._store = open_store(self.db, self.readonly)
            return fn(self._store)
        return self._pool.submit(run).result()

    @staticmethod
    def _record(store: Store, gid: int) -> tuple[dict | None, str]:
        try:
            return game_records.record(store, gid), ""
        except InputError as exc:     # a console's log that cannot make a record (yet)
            return None, str(exc)

    def _replayed(self, record: dict | None, problem: str = "") -> Replayed:
        """A record replayed, from the cache while it is the same."""
        if record is None:
            return Replayed(None, problem=problem)
        key = json.dumps(record, sort_keys=True)
        with self._lock:
            hit = self._replays.get(key)
            if hit is not None:
                self._replays.move_to_end(key)
                return hit
        try:
            parsed, game = read_record(record, "the record")
            out = Replayed(record, game.replay(parsed), game)
        except DoodleboxError as exc:
            out = Replayed(record, problem=str(exc))
        with self._lock:
            self._replays[key] = out
            while len(self._replays) > CACHE:
                self._replays.popitem(last=False)
        return out

    # -- the history ----------------------------------------------------------------------
    def games(self) -> list[dict]:
        """Every game, newest first: id, edition (its name), players (names), date, status (its
        text) and standing (its word: game_records.status(), as every view's), winners (names:
        none unless its rules ended it), totals (None when the PC cannot score it: `error` says
        why), violations, rank (a finished solo game's)."""
        none: list[dict] = []
        rows = self._read(game_records.games, none)
        return [_row(r) for r in reversed(rows)]

    # -- one game -------------------------------------------------------------------------
    def game(self, gid: int) -> dict:
        """One game as games_view.summary gives it (table, rounds, violations_text, ...), with
        `sheets` (how many the page can draw) and `writable` (whether its names may be set)."""
        found = self._read(lambda s: (summary(s, gid), not s.readonly), None)
        if found is None:
            raise NotFound(f"no game {gid}: there is no database yet")
        out, writable = found
        out["writable"] = writable
        out["sheets"] = 0
        out["rounds_played"] = 0
        rp = self._replayed(out.get("record"))
        if rp.replay is not None and rp.game.render is not None:
            out["sheets"] = len(rp.replay.record.players)
            out["rounds_played"] = len(out["record"].get("rounds") or [])
        return out

    def sheet_png(self, gid: int, seat: int, upto: int | None = None) -> bytes:
        """Seat `seat`'s (0-based) sheet of game `gid` as PNG bytes; `upto`: as it stood after that
        many rounds (the record cut after them and replayed, as games_view's totals by round are:
        the page's round-by-round replay), None: as it is now."""
        def read(store: Store) -> tuple[dict | None, str]:
            store.find(gid)
            return self._record(store, gid)

        nothing: tuple[dict | None, str] = (None, "there is no database yet")
        record, problem = self._read(read, nothing)
        if record is not None and upto is not None:
            record = _cut(record, upto)
        rp = self._replayed(record, problem)
        if rp.replay is None or rp.game.render is None:
            raise NotFound(f"game {gid} has no sheets to draw" + (f": {rp.problem}" if rp.problem else ""))
        players = rp.replay.record.players
        if not 0 <= seat < len(players):
            raise NotFound(f"game {gid} has players 1 to {len(players)}")
        with self._lock:
            png = rp.pictures.get(seat)
        if png is None:
            with tempfile.TemporaryDirectory(prefix="doodlebox-web-") as tmp:
                out = Path(tmp) / "sheet.png"
                rp.game.render(rp.replay.state, seat, out, title=str(players[seat]))
                png = out.read_bytes()
            with self._lock:
                rp.pictures[seat] = png
        return png

    def coach(self, gid: int, client: str = "", refused: str | None = None) -> dict:
        """Game `gid`'s analysis by the coach (web/coach.py), made in a process of its own and kept
        while its record is the same (web/analyses.py): NotReady while it is under way, or when
        `client` (an address) may not queue it now; `refused`: why this request may start none."""
        def read(store: Store) -> tuple[dict | None, str]:
            store.find(gid)
            return self._record(store, gid)

        nothing: tuple[dict | None, str] = (None, "there is no database yet")
        record, problem = self._read(read, nothing)
        if record is None:
            return {"analysed": False, "why": problem}
        return self.analyses.get(record, client, refused)

    def coach_svg(self, gid: int, client: str = "", refused: str | None = None) -> bytes:
        """Game `gid`'s chart of expected final scores per turn (web/coach.py) as SVG bytes."""
        return coach.chart_svg(self.coach(gid, client, refused)).encode()

    def set_names(self, gid: int, names: list[str]) -> list[str]:
        """Name game `gid`'s seats (Store.set_names: BadNames, NoGame); the names as they now are."""
        found = self._read(lambda s: s.set_names(gid, names), None)
        if found is None:
            raise NotFound(f"no game {gid}: there is no database yet")
        return [str(n) for n in found]

    # -- the league -------------------------------------------------------------------------
    def standings(self) -> list[dict] | None:
        """Every edition's standings (web/league.standings); None without league data (no
        ratings module, or no database yet)."""
        return self._read(league.standings, None)

    def player(self, person: int) -> dict:
        """Person `person`'s ratings and games per edition (web/league.player), each game of their
        history with its row as the games table shows it (`row`, None for a game not listed);
        NotFound for a person the league has not rated."""
        def read(store: Store) -> dict | None:
            found = league.player(store, person)
            if found is None:
                return None
            rows = {r["id"]: _row(r) for r in game_records.games(store)}
            for edition in found["editions"]:
                for point in edition["history"]:
                    point["row"] = rows.get(point["game"])
            return found

        found = self._read(read, None)
        if found is None:
            raise NotFound(f"no player {person}: no league data yet")
        if not found["editions"]:
            raise NotFound(f"no player {person} in the league's standings")
        return found

    # -- the statistics ---------------------------------------------------------------------
    def stats(self, games: frozenset[int] | None = None) -> tuple[str, Any]:
        """(what it was made of, stats.Stats) of the stored games, collected again only when a
        game has changed; ("", None) without games. `games`: those games' only (the page's filter
        by edition and player; the dice's fairness is every game's rolls), ("", None) when none of
        them is counted."""
        key, found = self._stats_all()
        if found is None or games is None:
            return key, found
        mine = _only(found, games)
        if not (mine.played or mine.solo or mine.behave or mine.early):
            return "", None
        return f"{key}|{sorted(games)}", mine

    def _stats_all(self) -> tuple[str, Any]:
        def read(store: Store) -> tuple[str, Any]:
            rows = store.games()
            if not rows:
                return "", None
            key = repr([(r["id"], r["events"], r["state"], r["names"]) for r in rows])
            if self._stats[0] != key:
                self._stats = (key, stats.collect(store))
            return self._stats

        return self._read(read, ("", None))

    def stats_text(self, games: frozenset[int] | None = None) -> str:
        found = self.stats(games)[1]
        return stats.text(found) if found is not None else ""

    def chart_png(self, which: str, games: frozenset[int] | None = None) -> bytes:
        """One chart of `doodlebox stats` (stats.PLOTS) as PNG bytes (`games`: of those only)."""
        if which not in stats.PLOTS:
            raise NotFound(f"no chart {which!r} (charts: {', '.join(stats.PLOTS)})")
        key, found = self.stats(games)
        if found is None:
            raise NotFound("no statistics: no games stored yet")
        with self._lock:
            png = self._charts.get((key, which))
        if png is None:
            png = stats.plot_png(found, which)
            with self._lock:
                if not any(k == key for k, _ in self._charts) and len(self._charts) >= 4 * CACHE:
                    self._charts.clear()
                self._charts[(key, which)] = png
        return png

    # -- the game playing now ---------------------------------------------------------------
    def playing(self) -> dict | None:
        """The console's game being played (the last one started, while its state is `playing`,
        and for SHOWN_AFTER_END seconds after it ended): its round, whose turn, scores, the
        round's dice and latest events, `state`; None when no game is being played."""
        def read(store: Store):
            rows = [r for r in store.games() if r.get("uid") != IMPORTED]
            row = rows[-1] if rows else None
            if row is None or not (row["state"] == "playing" or (
                    row["state"] == "ended" and time.time() - (row["ended"] or 0) < SHOWN_AFTER_END)):
                return None
            log = store.game_log(row["id"])
            if log is None:
                return None
            return row, log, *self._record(store, row["id"])

        found = self._read(read, None)
        if found is None:
            return None
        row, log, record, problem = found
        names = [str(n) for n in row["names"]]
        rp = self._replayed(record, problem)
        events = [e for _, e in log.events]
        rounds = [e["r"] for e in events if type(e.get("r")) is int]
        o = game_records.replayed(rp.replay, rp.game) if rp.replay is not None else game_records.Outcome(None)
        standing, status = game_records.status(row, o)
        out: dict = {"id": row["id"], "g": row["g"], "label": log.label(), "edition": game_name(row["edition"]),
                     "state": row["state"], "standing": standing, "status": status,
                     "winners": [names[p] for p in o.winners if p < len(names)],
                     "players": names, "round": max(rounds or [0]),
                     "turn": "", "to_play": None, "scores": None, "violations": 0, "dice": _dice(events),
                     "events": [describe(e, game=row["id"], boot=row["boot"]).strip() for e in events[-RECENT:]],
                     "problem": rp.problem}
        if rp.replay is not None:
            state = rp.replay.state
            out["scores"] = list(state.result().totals)
            out["violations"] = len(rp.replay.violations)
            seat = state.current_player()               # whose turn: the page's player panels
            out["to_play"] = seat if 0 <= seat < len(names) and row["state"] == "playing" else None
            now = moment(state, names)                 # the round and the turn as every view says them
            out["round"] = now.round
            out["turn"] = "the game is over" if row["state"] != "playing" else now.to_play
        return out


def _cut(record: dict, rounds: int) -> dict:
    """The record as it stood after its first `rounds` rounds (games_view's totals by round cut it
    so: Deadly Doodles' counts, given at the end, are left out of a cut)."""
    held = list(record.get("rounds") or [])
    if rounds >= len(held):
        return record
    cut = dict(record, rounds=held[:max(0, rounds)])
    if "tallies" in cut:
        cut["tallies"] = [None] * len(record.get("players") or [])
    return cut


def _only(found: Any, games: frozenset[int]) -> Any:
    """stats.Stats of the games `games` only (the dice's tests are every game's)."""
    return replace(found, played=[p for p in found.played if p.game in games],
                   solo=[p for p in found.solo if p.game in games],
                   behave=[b for b in found.behave if b[0] in games], early=[e for e in found.early if e.game in games],
                   games=len(games), counted=len({p.game for p in found.played} & games)
                   + len({p.game for p in found.solo} & games) + len({b[0] for b in found.behave} & games),
                   left_out=[t for t in found.left_out if any(t.startswith(f"game {g} ") for g in games)])


def chosen(games: list[dict], edition: str = "", player: str = "") -> list[dict]:
    """The games of `edition` (its key: "city") with `player` among their names (either may be
    empty: any)."""
    return [g for g in games if (not edition or g["edition_key"] == edition)
            and (not player or player in g["players"])]


def _row(r: dict) -> dict:
    return {"id": r["id"], "edition": game_name(r["edition"]), "edition_key": str(r["edition"]),
            "players": [str(n) for n in r["names"]],
            "date": str(r["date"] or ""), "status": str(r.get("status_text") or r["state"]),
            "standing": str(r.get("standing") or ""), "totals": r.get("totals"),
            "winners": [str(w) for w in r.get("winners") or []], "violations": r.get("violations") or 0,
            "rank": str(r.get("rank") or ""), "error": str(r.get("error") or "")}


def _dice(events: list[dict]) -> dict | None:
    """The round's dice from the events: the column die, the white dice and who took each."""
    roll = None
    taken: dict[int, int] = {}
    for e in events:
        k = e.get("k")
        if k == "roll":
            roll, taken = e, {}
        elif k == "claim" and roll is not None and type(e.get("i")) is int and type(e.get("p")) is int:
            taken[e["i"]] = e["p"]
    if roll is None or not isinstance(roll.get("w"), list):
        return None
    whites = [w for w in roll["w"] if type(w) is int]
    return {"round": roll.get("r"), "column": roll.get("c"), "white": whites,
            "taken": [taken.get(i + 1) for i in range(len(whites))]}
