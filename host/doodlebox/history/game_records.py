"""The stored games as records, and what the PC's replay of them says: the one module above the
store (store/) where a stored game becomes a doodlebox-record/1 (a console's game from its events,
history/console_record.py; an imported game as it was imported, read again by its rules) and is replayed
by its game's rules engine (rules/games.py). `doodlebox games`, `show`, `export`, `stats` and the
web page read the records, totals, winners and status here (docs/stored-games.md); the store only
stores. How a game ended and who won is rules/ending.py's (ruling G1); status() joins it to what
the store knows (playing, resumed, abandoned, imported) in the one status every view shows.
"""
from __future__ import annotations

import json
import weakref
from dataclasses import dataclass, field, replace
from typing import Any

from doodlebox.errors import DoodleboxError, InputError
from doodlebox.history.console_record import MissingSheet, to_record
from doodlebox.rules import ending
from doodlebox.rules.games import read_record
from doodlebox.sheets import library
from doodlebox.store import Store
from doodlebox.store.errors import Damaged, StoreError


@dataclass(frozen=True)
class Outcome:
    """What the PC's replay of a game's record says (games(), games_view): `totals` per seat
    (None when the game has no record: `error` says why, e.g. a log that cannot become one),
    the `winners`' seats (rules/ending.py: only in a game its rules ended, and none in a solo
    game), `status` (ending.FINISHED, EARLY or NOT_FINISHED), `finished` (by its rules), how many
    `violations`; a solo dice game's `rank` and `achievements` (a finished one's), a Behave
    game's `verdict` (Doodle Puzzle's shared scorecard), the seats the PC played at the console
    (`bots`, 0-based: docs/console.md, "The PC's seats")."""

    totals: list[int] | None
    winners: list[int] = field(default_factory=list)
    finished: bool = False
    status: str = ending.NOT_FINISHED
    violations: int = 0
    rank: str = ""
    achievements: tuple[str, ...] = ()
    verdict: str = ""
    error: str = ""
    bots: tuple[int, ...] = ()


def outcome_of(data: dict, source: str) -> Outcome:
    """Replay a record (of any game: rules/games.py) and say how it stands."""
    try:
        rec, game = read_record(data, source)
    except DoodleboxError as exc:
        return Outcome(None, error=str(exc))
    bots = data.get("bots") or ()          # checked by read_record: the PC's seats, 0-based
    return replace(replayed(game.replay(rec), game), bots=tuple(bots))


def replayed(rp: Any, game: Any) -> Outcome:
    """How a replay (rules/common.Replay) of a record of `game` (its GameType) stands."""
    res = rp.state.result()
    report = game.as_json(rp)
    end = ending.ending(rp)
    solo = len(rp.record.players) == 1
    sheets = report.get("sheets") or [{}]
    return Outcome(totals=list(res.totals), winners=[] if solo else list(end.winners), finished=end.finished,
                   status=end.status,
                   violations=len(rp.violations),
                   rank=(sheets[0].get("rank") or "") if solo and end.finished else "",
                   achievements=tuple(sheets[0].get("achievements") or ()) if solo and end.finished else (),
                   verdict=(report.get("shared") or {}).get("verdict") or "")


# a game's status (status()): how it ended (rules/ending.py), or where it stands in the store
PLAYING, RESUMED, ABANDONED, DAMAGED = "playing", "resumed", "abandoned", "damaged"
STATUSES = (ending.FINISHED, ending.EARLY, PLAYING, RESUMED, ABANDONED, ending.NOT_FINISHED, DAMAGED)


def status(row: dict, o: Outcome) -> tuple[str, str]:
    """The one status of a stored game (its games row, Store.games(), and its Outcome) that every
    view shows: (word, text). `word` is one of STATUSES: finished (by its rules), ended early
    (ruling G1: MENU on the console, or a record that says so), playing, resumed (a later boot's
    game goes on with it), abandoned, not finished (an imported record cut short, or a game its
    console ended that the PC's replay finds still going), damaged (its games row cannot be
    read). `text` is the word for a person as `doodlebox games` lists it: "ended (trees)" (the
    console's reason), "ended early", "imported", "resumed by #4", with ", resumes #2" for a
    game that goes on with another."""
    state = row["state"]
    if state == DAMAGED:
        return DAMAGED, DAMAGED
    early = o.status == ending.EARLY or (
        o.totals is None and state == "ended" and row.get("end_reason") in ending.EARLY_REASONS)
    if early:
        word = ending.EARLY
    elif o.finished or (state == "ended" and o.totals is None):
        word = ending.FINISHED
    elif state in (PLAYING, RESUMED, ABANDONED):
        word = state
    else:
        word = ending.NOT_FINISHED
    if early:
        text = ending.EARLY
    elif state == "ended":
        text = f"ended ({row['end_reason']})"
    elif state == "resumed":
        text = f"resumed by #{row['continued_by']}" if row.get("continued_by") else "resumed"
    else:
        text = state
    if row.get("continues"):
        text += f", resumes #{row['continues']}"
    elif row.get("of_boot") is not None:
        text += f", resumes boot {row['of_boot']} game {row['of_g']} (not stored)"
    return word, text


def record(store: Store, which: int | str) -> dict:
    """A stored game as a doodlebox-record/1 with its seats' names: a console's game made from
    its events (console_record.to_record: ConsoleLogError when they cannot make one), an
    imported game as it was imported. NoGame when there is no such game, Damaged for a row of
    it that cannot be read."""
    gid = store.find(which)
    data = _record(store, store.game_row(gid))
    names = store.names(gid, len(data["players"]))
    if len(names) == len(data["players"]):
        data["players"] = names
    return data


def _record(store: Store, row: dict) -> dict:
    """The record of a game as it was made (the console's names P1..Pn). Damaged for an
    imported game's record that is no longer one (it was one when it was imported)."""
    gid = row["id"]
    if row["state"] == "imported":
        data = store.imported_record(gid)
        try:
            read_record(data, f"imported row {gid}")
        except InputError as exc:
            raise Damaged(store.path, str(exc), gid) from None     # "imported row 3: rounds[2]...: ..."
        return data
    log = store.game_log(gid)
    assert log is not None          # the row was just read
    try:
        return to_record(log)
    except MissingSheet as exc:     # a sheet the library holds (added after the game): kept, then used
        if not _from_library(store, exc.sx):
            raise
        log = store.game_log(gid)
        assert log is not None
        return to_record(log)


def _from_library(store: Store, sx: str) -> bool:
    """The library's sheet of hash `sx` put in the store (docs/sheets.md); False when the library
    has none, or the store cannot take it now."""
    for sheet in library.sheets():
        if sheet.hash == sx and not sheet.problem:
            try:
                store.add_sheet(sheet.hash, library.game_of(sheet), sheet.name, json.dumps(sheet.data))
            except StoreError:
                return False
            return True
    return False


# (game id, events, state) -> its replay's outcome, for each store open (a web page that polls
# replays a game only when it has moved on)
_OUTCOMES: weakref.WeakKeyDictionary[Store, dict[tuple, Outcome]] = weakref.WeakKeyDictionary()


def outcome(store: Store, gid: int, row: dict | None = None) -> Outcome:
    """What the PC's replay of game `gid`'s record says (computed once per state of the game
    while `store` is open). `row`: its games row, if read already (Store.game_row)."""
    row = row or store.game_row(gid)
    key = (gid, row["events"], row["state"])
    known = _OUTCOMES.setdefault(store, {})
    found = known.get(key)
    if found is None:
        try:
            data = _record(store, row)
        except Damaged:
            raise
        except InputError as exc:      # a log that cannot make a record (yet)
            found = Outcome(None, error=str(exc))
            if isinstance(exc, MissingSheet):
                return found           # (not kept: it makes a record once the sheet is added or synced)
        else:
            found = outcome_of(data, f"game {gid}")
        known[key] = found
    return found


def games(store: Store) -> list[dict]:
    """Every game as Store.games() lists it, oldest first, with what the PC's replay of its
    record says (Outcome): `totals` (None when it has no record yet), `winners` (names;
    `winner_seats` 0-based), `finished`, `violations`, `rank`, `achievements`, `verdict`,
    `error`, `bots`, and its `standing` and `status_text` (status(): the word and the text; `status` is
    still the store's state). A game with a row that cannot be read has no totals; a row of its record found
    damaged only now is named in `damaged` and `error` (its seats then "P1".."Pn")."""
    out = store.games()
    for g in out:
        if g["damaged"]:
            o = Outcome(None, error=g["error"])
        else:
            try:
                o = outcome(store, g["id"], g)
            except Damaged as exc:
                g.update(names=[f"P{seat + 1}" for seat in range(g["players"] or 0)], damaged=exc.row,
                         error=str(exc.of_game(g["id"])))
                o = Outcome(None, error=g["error"])
        word, text = status(g, o)
        g.update(totals=o.totals, winners=[g["names"][p] for p in o.winners if p < len(g["names"])],
                 winner_seats=list(o.winners), finished=o.finished, violations=o.violations, rank=o.rank,
                 achievements=list(o.achievements), verdict=o.verdict, error=o.error, bots=list(o.bots),
                 standing=word, status_text=text)
    return out
