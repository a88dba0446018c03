"""`doodlebox sync`: a venue PC's games pushed into the league's database (docs/stored-games.md,
"Sync"): its consoles, every event through the league store's own append path (Store.append_many,
with each event's own time), so the games they make come out as they are in the venue's file; its
gaps; its imported records (Store.add_imported, skipped when the same record is there); the
names of its games' seats, linked to the league's people.

Again and again: an event is known by (uid, boot, seq), a record by its content, so a game pushed
twice is one game. Events go in transactions of `chunk`, each committed before the next is read,
so a sync stopped anywhere (killed, the connection lost) loses nothing the league has, and the
next sync takes up where it stopped: what is there is skipped.

The league: every database has a random league id (Store.league()). A venue's file records the
league it was first synced to, and a sync into another league's database is refused (OtherLeague,
exit 2) before anything is written, unless asked for (`--other-league`)."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from doodlebox.errors import InputError
from doodlebox.store import BadNames, Store
from doodlebox.store.people import placeholder


class OtherLeague(InputError):
    """A sync into the database of another league than the one the file was synced to."""


@dataclass
class Synced:
    """What a sync did."""

    events: int = 0           # stored in the league's database now
    there: int = 0            # there already (an earlier sync, or the console logged into it too)
    gaps: int = 0
    imported: int = 0
    imported_before: int = 0
    named: int = 0            # games whose names were set
    games_before: int = 0
    games_after: int = 0
    notes: list[str] = field(default_factory=list)     # names the league could not take, one line each

    def text(self, source: object, target: object) -> str:
        return (f"{source} -> {target}: {self.events} event(s) stored, {self.there} there already"
                + (f", {self.gaps} gap(s)" if self.gaps else "")
                + f"; {self.imported} imported game(s) added, {self.imported_before} there already"
                + f"; names set for {self.named} game(s); the league has {self.games_after} game(s) "
                  f"({self.games_after - self.games_before} new)"
                + "".join(f"\n  {note}" for note in self.notes))


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
    for uid, fw, first, last in source.consoles():
        target.add_console(uid, fw, first, last)
    _events(source, target, max(1, chunk), done, progress)
    for uid, boot, nxt in source.streams():          # a gap at the end of a boot, with no event after it
        if nxt > target.next_seq(uid, boot) and target.skip_to(uid, boot, nxt) is not None:
            done.gaps += 1
    where: dict[int, int] = {}
    for g in source.games():
        if g["state"] == "imported":
            data = source.imported_record(g["id"])
            found = target.imported_as(data)
            if found is None:
                src, violations = source.imported_source(g["id"]) or ("", 0)
                found = target.add_imported([(data, violations, src, g["started"])])[0]
                done.imported += 1
            else:
                done.imported_before += 1
            where[g["id"]] = found
        else:
            found = target.game_id(g["uid"], g["boot"], g["g"])
            if found is not None:
                where[g["id"]] = found
    for gid, tid in where.items():
        if not source.named_seats(gid):
            continue           # never named at the venue: the league's names stay
        names = source.names(gid)
        while names and placeholder(names[-1]):
            names.pop()
        if not _same(target, tid, names):
            try:
                target.set_names(tid, names)
            except BadNames as exc:      # two of them one person in the league (merged there)
                done.notes.append(f"game {tid} of the league keeps its names: {exc}")
                continue
            done.named += 1
    done.games_after = len(target.games())
    if progress:
        progress(f"games: {done.games_after} in the league ({done.games_after - done.games_before} new)")
    return done


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


def _events(source: Store, target: Store, chunk: int, done: Synced, progress: Callable[[str], None] | None) -> None:
    """Every event of `source` in the order it was stored, `chunk` at a time, each run of one
    console's events in one transaction of the target (append_many); a gap the source recorded
    before an event recorded in the target too (skip_to)."""
    nexts: dict[tuple[str, int], int] = {}
    after = 0
    while True:
        rows = source.events_after(after, chunk)
        if not rows:
            return
        run: list[tuple[int, int, dict]] = []
        times: list[float] = []
        run_uid = ""
        for _, uid, boot, seq, event, received in rows:
            if run and uid != run_uid:
                _push(target, run_uid, run, times, done)
                run, times = [], []
            run_uid = uid
            key = (uid, boot)
            if key not in nexts:
                nexts[key] = target.next_seq(uid, boot)
            if seq < nexts[key]:
                done.there += 1
                continue
            if seq > nexts[key]:          # the source has a gap here
                _push(target, uid, run, times, done)
                run, times = [], []
                if target.skip_to(uid, boot, seq) is not None:
                    done.gaps += 1
            run.append((boot, seq, event))
            times.append(received)
            nexts[key] = seq + 1
        _push(target, run_uid, run, times, done)
        after = rows[-1][0]
        if progress:
            progress(f"events: {done.events} stored, {done.there} there already")


def _push(target: Store, uid: str, run: list[tuple[int, int, dict]], times: list[float], done: Synced) -> None:
    if not run:
        return
    for stored in target.append_many(uid, run, times):
        if stored.status == "stored":
            done.events += 1
        else:
            done.there += 1
