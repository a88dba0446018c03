"""`doodlebox sync`: a venue PC's games pushed into the league's database (docs/stored-games.md,
"Sync"). The venue's database is read as one snapshot (Store.snapshot: a `doodlebox log` may be
writing it meanwhile); then its consoles, every event at its place (Store.append_many with
`anywhere`, each event's own time), its gaps (Store.add_gaps), its imported records (each once:
Store.import_once) and the names of its games' seats, linked to the league's people. The sheets
its games were played on (a `game` event's `sx`: schema version 6) go with the events that name
them, in the same transaction (Store.append_many's `with_sheets`), so the league never holds such a
game without its sheet; then every other sheet the venue holds. A sheet the league holds by its
hash already is left as it is.

An event's place is its identity (console, boot, number): an event the league holds already is
there (the same hash) or a conflict (another event at its place: kept apart in the league, never
stored, and that console's boot is not synced past it); a gap the league recorded is filled by
the events that arrive for it. So syncs in any order, from any number of venues, beside loggers
writing either side, end with every event stored once.

A row of the venue that cannot be read (damage) is said with its place, and its console's boot is
not synced past it; every other console's events are. Both make the sync's answer exit code 2,
naming what was left: a later sync takes the rest once the row is mended.

The league: every database has a random league id (Store.league()). A venue's file records the
league it was first synced to, and a sync into another league's database is refused (OtherLeague,
exit 2) before anything is written, unless asked for (`--other-league`)."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from doodlebox.errors import InputError
from doodlebox.store import BadNames, Store
from doodlebox.store.errors import Damaged
from doodlebox.store.people import placeholder
from doodlebox.store.sheets import BadSheet, SheetRow, checked

Stream = tuple[str, int]      # (uid, boot)


class OtherLeague(InputError):
    """A sync into the database of another league than the one the file was synced to."""


@dataclass
class Synced:
    """What a sync did."""

    events: int = 0           # stored in the league's database now
    there: int = 0            # there already (an earlier sync, or the console logged into it too)
    gaps: int = 0             # gap ranges newly recorded in the league
    conflicts: int = 0        # events of the venue whose place in the league holds another event
    damaged: int = 0          # rows of the venue that cannot be read
    left: int = 0             # events not synced: after a conflict or a damaged row of their boot
    imported: int = 0
    imported_before: int = 0
    sheets: int = 0           # sheets the league did not hold, stored now
    named: int = 0            # games whose names were set
    games_before: int = 0
    games_after: int = 0
    notes: list[str] = field(default_factory=list)     # names the league could not take, one line each
    problems: list[str] = field(default_factory=list)  # conflicts and damage: what was left, one line each

    @property
    def complete(self) -> bool:
        """Everything the venue holds is in the league (exit 0), or not (exit 2)."""
        return not self.problems

    def text(self, source: object, target: object) -> str:
        return (f"{source} -> {target}: {self.events} event(s) stored, {self.there} there already"
                + (f", {self.gaps} gap(s)" if self.gaps else "")
                + (f", {self.conflicts} conflict(s)" if self.conflicts else "")
                + (f", {self.damaged} damaged row(s)" if self.damaged else "")
                + (f", {self.left} not synced" if self.left else "")
                + f"; {self.imported} imported game(s) added, {self.imported_before} there already"
                + (f"; {self.sheets} sheet(s) added" if self.sheets else "")
                + f"; names set for {self.named} game(s); the league has {self.games_after} game(s) "
                  f"({self.games_after - self.games_before} new)"
                + "".join(f"\n  {note}" for note in self.notes + self.problems))


def check_league(source: Store, target: Store, league_ok: bool = False) -> str:
    """The target's league id, once the source may be synced into it: OtherLeague (exit 2) when the
    source was synced to another league (and not `league_ok`), InputError for the same database."""
    mine, theirs = source.league(), target.league()
    if mine["id"] == theirs["id"]:
        raise InputError(f"{source.path} and {target.path} are the same league's database (league "
                         f"{theirs['id']}): nothing to sync")
    if mine["synced_to"] not in (None, theirs["id"]) and not league_ok:
        raise OtherLeague(f"{target.path} is another league's database (league {theirs['id']}): {source.path} "
                          f"was synced to league {mine['synced_to']}; nothing synced (--other-league to sync "
                          "into it anyway)")
    return theirs["id"]


def sync(source: Store, target: Store, chunk: int = 500, league_ok: bool = False,
         progress: Callable[[str], None] | None = None) -> Synced:
    """Push everything of `source` into `target` (module docstring); what was done."""
    league = check_league(source, target, league_ok)
    done = Synced(games_before=len(target.games()))
    if source.league()["synced_to"] != league:
        source.set_synced_to(league)
    with source.snapshot() as snap:
        for uid, fw, first, last in snap.consoles():
            target.add_console(uid, fw, first, last)
        stopped = _Stopped(done)
        sheets = _Sheets(snap, target, done)
        _events(snap, target, max(1, chunk), done, stopped, sheets, progress)
        sheets.rest()
        for (uid, boot), ranges in _gaps(snap).items():
            if (uid, boot) not in stopped.at:
                done.gaps += len(target.add_gaps(uid, boot, ranges))
        stopped.say()
        where = _games(snap, target, done)
        _names(snap, target, where, done)
    done.games_after = len(target.games())
    if progress:
        progress(f"games: {done.games_after} in the league ({done.games_after - done.games_before} new)")
    return done


class _Stopped:
    """The boots a sync does not take past a place (a conflict, a damaged row): where, why, and
    how many of their events were left."""

    def __init__(self, done: Synced):
        self.done = done
        self.at: dict[Stream, tuple[int, str]] = {}
        self.left: dict[Stream, int] = {}

    def stop(self, stream: Stream, seq: int, why: str) -> None:
        if stream not in self.at:
            self.at[stream] = (seq, why)
            self.left[stream] = 0

    def leave(self, stream: Stream) -> None:
        self.left[stream] += 1
        self.done.left += 1

    def say(self) -> None:
        for (uid, boot), (seq, why) in self.at.items():
            self.done.problems.append(f"console {uid} boot {boot}: {why}: its events from {seq} on are not synced "
                                      f"({self.left[(uid, boot)]} of them)")


class _Sheets:
    """The venue's sheets on their way into the league: those a run of events names go with it
    (`of`), the rest at the end (`rest`); each one's row read once. A row of the venue that is not
    a sheet (damage) is said and not carried: the games it names make no record in the league
    until it is mended and synced again."""

    def __init__(self, snap: Store, target: Store, done: Synced):
        self.snap, self.target, self.done = snap, target, done
        self.venue = [h for h, *_ in snap.sheets_held()]
        self.there = {h for h, *_ in target.sheets_held()}      # (counted as added: those not among them)
        self.rows: dict[str, SheetRow | None] = {}

    def _row(self, hash: str) -> SheetRow | None:
        if hash not in self.rows:
            self.rows[hash] = None
            try:
                row = self.snap.sheet_row(hash)
                if row is not None:
                    self.rows[hash] = checked(row.hash, row.edition, row.name, row.body, row.added)
            except (Damaged, BadSheet) as exc:
                self.done.damaged += 1
                why = exc.row if isinstance(exc, Damaged) else f"sheets row {hash}: {exc}"
                self.done.problems.append(f"{self.snap.path}: damaged: {why}: that sheet is not synced (the games "
                                          "played on it make no record in the league until it is mended and synced "
                                          "again)")
        return self.rows[hash]

    def of(self, items: list[tuple[int, int, dict]]) -> list[SheetRow]:
        """The rows of the sheets the `game` events among `items` name, that the league does not
        hold yet."""
        named = dict.fromkeys(e["sx"] for _, _, e in items if e.get("k") == "game" and isinstance(e.get("sx"), str))
        rows = [self._row(h) for h in named if h not in self.there]
        return [r for r in rows if r is not None]

    def carried(self, rows: list[SheetRow]) -> None:
        for r in rows:
            if r.hash not in self.there:
                self.there.add(r.hash)
                self.done.sheets += 1

    def rest(self) -> None:
        """Every sheet of the venue the league does not hold yet, in one transaction."""
        rows = [r for r in (self._row(h) for h in self.venue if h not in self.there) if r is not None]
        self.target.add_sheets(rows)
        self.carried(rows)


def _events(snap: Store, target: Store, chunk: int, done: Synced, stopped: _Stopped, sheets: _Sheets,
            progress: Callable[[str], None] | None) -> None:
    """Every event of the snapshot in the order it was stored, `chunk` rows at a time, each run of
    one console's events in one transaction of the target (append_many, `anywhere`), with the
    sheets its games were played on."""
    after = 0
    while True:
        rows = snap.events_after(after, chunk)
        if not rows:
            return
        runs: dict[str, tuple[list[tuple[int, int, dict]], list[float]]] = {}
        order: list[str] = []
        for rid, uid, boot, seq, event, received in rows:
            if not (isinstance(uid, str) and type(boot) is int and type(seq) is int):
                done.damaged += 1
                done.problems.append(f"{snap.path}: damaged: events row {rid}: its console, boot or number "
                                     f"({uid!r}, {boot!r}, {seq!r}) cannot be read: that row is not synced")
                continue
            stream = (uid, boot)
            if isinstance(event, Damaged):
                done.damaged += 1
                stopped.stop(stream, seq, f"{event.row} (event {seq}); mend the row and sync again")
            if isinstance(event, Damaged) or stream in stopped.at:
                stopped.leave(stream)
                continue
            if uid not in runs:
                runs[uid] = ([], [])
                order.append(uid)
            runs[uid][0].append((boot, seq, event))
            runs[uid][1].append(float(received))
        for uid in order:
            items, times = runs[uid]
            _push(target, uid, items, times, done, stopped, sheets)
        after = rows[-1][0]
        if progress:
            progress(f"events: {done.events} stored, {done.there} there already")


def _push(target: Store, uid: str, items: list[tuple[int, int, dict]], times: list[float], done: Synced,
          stopped: _Stopped, sheets: _Sheets) -> None:
    rows = sheets.of(items)
    placed = target.append_many(uid, items, times, anywhere=True, with_sheets=rows)
    sheets.carried(rows)
    for (boot, seq, _), stored in zip(items, placed):
        if stored.status == "stored":
            done.events += 1
        elif stored.status == "duplicate":
            done.there += 1
        elif stored.status == "conflict":
            done.conflicts += 1
            stopped.stop((uid, boot), seq, f"event {seq} is not the event {target.path} holds under that number "
                                           "(two consoles with one id?); kept apart there (its conflicts table)")
            stopped.leave((uid, boot))
        else:       # held: after a conflict of its boot in this run
            stopped.leave((uid, boot))


def _gaps(snap: Store) -> dict[Stream, list[tuple[int, int]]]:
    out: dict[Stream, list[tuple[int, int]]] = {}
    for uid, boot, first, last in snap.gaps():
        out.setdefault((uid, boot), []).append((first, last))
    return out


def _games(snap: Store, target: Store, done: Synced) -> dict[int, int]:
    """Each game of the snapshot that is in the league now: its id there (an imported record
    added when it is not)."""
    where: dict[int, int] = {}
    for g in snap.games():
        if g["state"] == "imported":
            src, violations = snap.imported_source(g["id"]) or ("", 0)
            found, new = target.import_once(snap.imported_record(g["id"]), violations, src, g["started"])
            done.imported += new
            done.imported_before += not new
            where[g["id"]] = found
        else:
            there = target.game_id(g["uid"], g["boot"], g["g"])
            if there is not None:
                where[g["id"]] = there
    return where


def _names(snap: Store, target: Store, where: dict[int, int], done: Synced) -> None:
    """The names of every game the venue named, unless the league's are the same already."""
    for gid, tid in where.items():
        if not snap.named_seats(gid):
            continue           # never named at the venue: the league's names stay
        names = snap.names(gid)
        while names and placeholder(names[-1]):
            names.pop()
        if not _same(target, tid, names):
            try:
                target.set_names(tid, names)
            except BadNames as exc:      # two of them one person in the league (merged there)
                done.notes.append(f"game {tid} of the league keeps its names: {exc}")
                continue
            done.named += 1


def _same(target: Store, tid: int, names: list[str]) -> bool:
    """Game `tid` of the league has these names already: each seat the person the name is there
    (a name merged there into another person is that person), or for a seat nobody is, its name."""
    if target.named_seats(tid) != len(names):
        return False
    for (name, person), want in zip(target.seats(tid), names):
        found = target.person(want)
        if (found["id"] if found else None) != person or (found is None and name != want):
            return False
    return True
