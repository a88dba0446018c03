"""The stored games as records, and what the PC's replay of them says: the one module above the
store (store/) where a stored game becomes a doodlebox-record/1 (a console's game from its events,
console_record.py; an imported game as it was imported, read again by its rules) and is replayed
by its game's rules engine (rules/games.py). `doodlebox games`, `show`, `export`, `stats` and the
web page read the records, totals and winners here (docs/stored-games.md); the store only stores.
"""
from __future__ import annotations

import weakref
from dataclasses import dataclass, field

from doodlebox.console_record import to_record
from doodlebox.errors import DoodleboxError, InputError
from doodlebox.rules.games import read_record
from doodlebox.store import Store
from doodlebox.store.errors import Damaged


@dataclass(frozen=True)
class Outcome:
    """What the PC's replay of a game's record says (games(), games_view): `totals` per seat
    (None when the game has no record: `error` says why, e.g. a log that cannot become one),
    the `winners`' seats (none before the rules say the game is over, and none in a solo game),
    `finished`, how many `violations`; a solo dice game's `rank` and `achievements`, a Behave
    game's `verdict` (Doodle Puzzle's shared scorecard)."""

    totals: list[int] | None
    winners: list[int] = field(default_factory=list)
    finished: bool = False
    violations: int = 0
    rank: str = ""
    achievements: tuple[str, ...] = ()
    verdict: str = ""
    error: str = ""


def outcome_of(data: dict, source: str) -> Outcome:
    """Replay a record (of any game: rules/games.py) and say how it stands."""
    try:
        rec, game = read_record(data, source)
    except DoodleboxError as exc:
        return Outcome(None, error=str(exc))
    rp = game.replay(rec)
    res = rp.state.result()
    report = game.as_json(rp)
    solo = len(rec.players) == 1
    sheets = report.get("sheets") or [{}]
    return Outcome(totals=list(res.totals), winners=list(res.winners) if rp.finished and not solo else [],
                   finished=bool(rp.finished), violations=len(rp.violations),
                   rank=(sheets[0].get("rank") or "") if solo else "",
                   achievements=tuple(sheets[0].get("achievements") or ()) if solo else (),
                   verdict=(report.get("shared") or {}).get("verdict") or "")


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
    return to_record(log)


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
        else:
            found = outcome_of(data, f"game {gid}")
        known[key] = found
    return found


def games(store: Store) -> list[dict]:
    """Every game as Store.games() lists it, oldest first, with what the PC's replay of its
    record says (Outcome): `totals` (None when it has no record yet), `winners` (names;
    `winner_seats` 0-based), `finished`, `violations`, `rank`, `achievements`, `verdict`,
    `error`. A game with a row that cannot be read has no totals; a row of its record found
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
        g.update(totals=o.totals, winners=[g["names"][p] for p in o.winners if p < len(g["names"])],
                 winner_seats=list(o.winners), finished=o.finished, violations=o.violations, rank=o.rank,
                 achievements=list(o.achievements), verdict=o.verdict, error=o.error)
    return out
