"""`make faults`, the sync lines of issue 32: a club's league fed by venues' files (host/doodlebox/
sync.py, docs/stored-games.md "Sync"), into an SQLite file and into a PostgreSQL database (a
throwaway cluster: tests/support/pgserver.py), each line ending "lost 0, duplicated 0":

    sync, venue files in every order       one console's boots split over venue files (each venue
                                           saw a part; a hello that began later recorded a gap),
                                           synced into a new league in every order
    sync, venue then straight into league  a console logged at a venue, then into the league
                                           (whose hello records a gap), then the venue synced
    sync beside a running logger           a logger's commit forced between every two reads of
                                           every sync (a writer into the venue file), thousands
                                           of them; then the shipped `doodlebox log` storing a
                                           console's events into the venue at a brisk pace while
                                           syncs run one after another; a last sync
    sync, two at once                      three venues synced by three threads at once, twice

Lost: an event a venue holds (or the console made) that the league does not hold with the same
body. Duplicated: an event the league holds that no venue holds, and a game the league holds
twice. Each line also says whether the league's games are the games of the events stored in
order (the same rows: begun, ended, abandoned, resumed), and the number of events."""
from __future__ import annotations

import itertools
import random
import shutil
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

BACKENDS = ("sqlite", "postgresql")
FW = "0.8.1"
T0 = 1_700_000_000.0
_server: Any = None


def _league(folder: Path, backend: str, k: int) -> Path | str:
    """A new empty league database: a file in `folder`, or a database on the throwaway server."""
    global _server
    if backend == "sqlite":
        return folder / f"league-{k}.sqlite3"
    if _server is None:
        import atexit

        from pgserver import PgServer

        _server = PgServer().start()
        atexit.register(_server.stop)
    return _server.database()


def _history(rng: random.Random, uid: str, games: int = 3) -> list[tuple[str, int, int, dict]]:
    """A console's events: two boots of whole games, the second boot's first game left unfinished
    (its console begins another in a third boot: abandoned)."""
    from fakeconsole import game_events

    out = []
    for boot, n in ((1, games), (2, 2), (3, 1)):
        evs = [e for g in game_events(n, seed=rng.randrange(1 << 30)) for e in g]
        if boot == 2:
            evs = evs[: len(evs) - 15]
        out += [(uid, boot, s, e) for s, e in enumerate(evs, 1)]
    return out


def _store(path: Path | str, events: list[tuple[str, int, int, dict]], gaps: bool = True):
    """A database holding these events (each with its own time), and, for each boot that begins
    above 1, the hello that recorded the numbers below as a gap."""
    from doodlebox.store import Store

    store = Store(path)
    by: dict[tuple[str, int], list[tuple[int, dict]]] = {}
    for uid, boot, s, e in events:
        by.setdefault((uid, boot), []).append((s, e))
    for (uid, boot), evs in by.items():
        first = min(s for s, _ in evs)
        if gaps:
            store.hello(uid, FW, [(boot, first, first)])
        store.append_many(uid, [(boot, s, e) for s, e in evs], [T0 + boot * 10_000 + s for s, _ in evs])
    return store


def _reference(folder: Path, events: list[tuple[str, int, int, dict]]) -> list[dict]:
    """The games of a database that got these events in order."""
    with tempfile.TemporaryDirectory(dir=folder) as tmp:
        ref = _store(Path(tmp) / "reference.sqlite3", events)
        try:
            return _games(ref)
        finally:
            ref.close()


def _games(store) -> list[dict]:
    """The games rows without their numbers, by console, boot and game (two consoles' games may
    begin at the same instant here, and the list is in the order they began)."""
    rows = [{k: v for k, v in g.items() if k not in ("id", "continues", "continued_by", "people")}
            for g in store.games()]
    return sorted(rows, key=lambda g: (g["uid"], g["boot"], g["g"]))


def _count(league, want: dict[tuple[str, int, int], dict], games: list[dict], out: dict) -> None:
    """Add to out's lost and duplicated: the league against the events it should hold."""
    held = {(u, b, s): e for u, b, s, e in league.events()}
    out["lost"] += sum(1 for k, e in want.items() if held.get(k) != e)
    out["duplicated"] += sum(1 for k in held if k not in want)
    mine = _games(league)
    out["duplicated"] += max(0, len(mine) - len(games))
    out["games_ok"] = out.get("games_ok", True) and mine == games
    out["events"] = out.get("events", 0) + len(want)


def _result(what: str, tried: int, unit: str) -> dict:
    return {"what": what, "tried": tried, "unit": unit, "sync": True, "lost": 0, "duplicated": 0}


def _split(events: list[tuple[str, int, int, dict]], parts: int, rng: random.Random) -> list[list]:
    """The events cut at random places into `parts` venues' shares (each a run of numbers)."""
    cuts = sorted(rng.sample(range(1, len(events)), parts - 1))
    return [events[a:b] for a, b in zip([0, *cuts], [*cuts, len(events)])]


# -- the faults --------------------------------------------------------------------------------------
def every_order(backend: str) -> Callable[[int, random.Random], dict]:
    def fault(files: int, rng: random.Random) -> dict:
        from doodlebox.store import Store
        from doodlebox.store.sync import sync

        d = Path(tempfile.mkdtemp(prefix="doodlebox-sync-"))
        try:
            events = _history(rng, "5ca1ab1e") + _history(rng, "c0ffee", games=1)
            games = _reference(d, events)
            want = {(u, b, s): e for u, b, s, e in events}
            venues = []
            for k, share in enumerate(_split(events, files, rng)):
                _store(d / f"venue-{k}.sqlite3", share).close()
                venues.append(d / f"venue-{k}.sqlite3")
            orders = list(itertools.permutations(venues))
            out = _result(f"sync, venue files in every order, into {backend}", len(orders), f"orders of {files} files")
            for k, order in enumerate(orders):
                league = Store(_league(d, backend, k))
                for v in order:
                    sync(Store(v), league, league_ok=True)
                _count(league, want, games, out)
                league.close()
            return out
        finally:
            shutil.rmtree(d, ignore_errors=True)
    return fault


def venue_then_league(backend: str) -> Callable[[int, random.Random], dict]:
    def fault(n: int, rng: random.Random) -> dict:
        from doodlebox.store.sync import sync

        d = Path(tempfile.mkdtemp(prefix="doodlebox-sync-"))
        out = _result(f"sync, a console logged at a venue then straight into the league, into {backend}", n, "tried")
        try:
            for k in range(n):
                events = _history(rng, f"be{k:04x}ef")
                games = _reference(d, events)
                cut = rng.randrange(1, len(events))
                venue = _store(d / f"venue-{k}.sqlite3", events[:cut])
                league = _store(_league(d, backend, k), events[cut:])   # its hello: a gap below `cut`
                sync(venue, league)
                _count(league, {(u, b, s): e for u, b, s, e in events}, games, out)
                venue.close()
                league.close()
            return out
        finally:
            shutil.rmtree(d, ignore_errors=True)
    return fault


def beside_logger(backend: str) -> Callable[[int, random.Random], dict]:
    def fault(n: int, rng: random.Random) -> dict:
        d = Path(tempfile.mkdtemp(prefix="doodlebox-sync-"))
        try:
            out = _result(f"sync beside a running logger, into {backend}", 0, "interleavings")
            forced = _forced(d, backend, n, rng, out)
            natural = _natural(d, backend, max(2, n // 50), rng, out)
            out["tried"] = forced + natural
            out["notes"] = [f"{forced:,} commits forced between a sync's reads, {natural} syncs beside the shipped "
                            "doodlebox log"]
            return out
        finally:
            shutil.rmtree(d, ignore_errors=True)
    return fault


def _forced(d: Path, backend: str, commits: int, rng: random.Random, out: dict) -> int:
    """Syncs one after another while a writer (a logger's commit) stores one more event into the
    venue at every read any store of this process makes, until `commits` were forced; then a last
    sync. How many commits were forced."""
    from doodlebox.store import Store
    from doodlebox.store.sync import sync

    events = _history(rng, "f0cced", games=14)
    path = d / "venue-forced.sqlite3"
    _store(path, events[:1]).close()
    writer = Store(path)
    league = Store(_league(d, backend, 100))
    reads = Store._read
    done = [1]
    busy = threading.local()

    def commit_then_read(self, *args, **kw):
        if done[0] < min(commits + 1, len(events)) and not getattr(busy, "on", False) and self is not writer:
            busy.on = True
            try:
                uid, boot, s, e = events[done[0]]
                writer.append_many(uid, [(boot, s, e)], [T0 + boot * 10_000 + s], anywhere=True)
                done[0] += 1
            finally:
                busy.on = False
        return reads(self, *args, **kw)

    Store._read = commit_then_read           # type: ignore[method-assign]
    try:
        while done[0] < min(commits + 1, len(events)):
            sync(Store(path), league)
    finally:
        Store._read = reads                  # type: ignore[method-assign]
    sync(Store(path), league)
    stored = events[:done[0]]
    _count(league, {(u, b, s): e for u, b, s, e in stored}, _reference(d, stored), out)
    writer.close()
    league.close()
    return done[0] - 1


def _natural(d: Path, backend: str, syncs: int, rng: random.Random, out: dict) -> int:
    """The shipped `doodlebox log` storing a console's games into the venue (tests/tools/faults.py's
    Rig) while `syncs` syncs run; then the console's every event acknowledged, a last sync, and
    the league against what the console made."""
    from logger_rig import Rig

    from doodlebox.store import Store
    from doodlebox.store.sync import sync

    league_at = _league(d, backend, 200)
    with Rig("sync-logger", rng) as rig:
        rig.stream.rate = 500.0
        for _ in range(syncs):
            rig.stream.run(rng.uniform(0.02, 0.2))
            sync(Store(rig.db), Store(league_at))
        rig.finish()
        sync(Store(rig.db), Store(league_at))
        got = rig.console.check(league_at)
        out["lost"] += got["lost"] + got["wrong"]
        out["duplicated"] += got["duplicated"]
        out["events"] = out.get("events", 0) + got["made"]
        shutil.rmtree(rig.dir, ignore_errors=True)
    return syncs


def two_at_once(backend: str) -> Callable[[int, random.Random], dict]:
    def fault(n: int, rng: random.Random) -> dict:
        from doodlebox.store import Store
        from doodlebox.store.sync import sync

        d = Path(tempfile.mkdtemp(prefix="doodlebox-sync-"))
        out = _result(f"sync, three at once, into {backend}", n, "tried")
        try:
            for k in range(n):
                events = _history(rng, f"a7{k:04x}")
                games = _reference(d, events)
                venues = []
                for j, share in enumerate(_split(events, 3, rng)):
                    _store(d / f"venue-{k}-{j}.sqlite3", share).close()
                    venues.append(d / f"venue-{k}-{j}.sqlite3")
                league_at = _league(d, backend, 300 + k)
                Store(league_at).close()
                errors: list[BaseException] = []

                def run(path: Path, league_at: Path | str = league_at, errors: list = errors,
                        chunk: int = rng.choice((7, 50, 500))) -> None:
                    try:
                        for _ in range(2):
                            sync(Store(path), Store(league_at), chunk=chunk)
                    except BaseException as exc:
                        errors.append(exc)

                threads = [threading.Thread(target=run, args=(v,)) for v in venues]
                for t in threads:
                    t.start()
                for t in threads:
                    t.join(timeout=600)
                out.setdefault("errors", []).extend(str(e) for e in errors)
                league = Store(league_at)
                _count(league, {(u, b, s): e for u, b, s, e in events}, games, out)
                league.close()
            return out
        finally:
            shutil.rmtree(d, ignore_errors=True)
    return fault


# (name, function, how many in `make faults`, how many in --short / make test)
FAULTS: list[tuple[str, Callable[[int, random.Random], dict], int, int]] = []
for _b in BACKENDS:
    FAULTS += [
        (f"sync every order ({_b})", every_order(_b), 4, 3),
        (f"sync venue then league ({_b})", venue_then_league(_b), 10, 2),
        (f"sync beside a logger ({_b})", beside_logger(_b), 2000, 100),
        (f"sync at once ({_b})", two_at_once(_b), 5, 1),
    ]


def line(head: str, r: dict[str, Any]) -> str:
    """`make faults`'s line for one of these: ends with what was lost and duplicated."""
    notes = [f"{r.get('events', 0):,} events"] + r.get("notes", [])
    notes.append("the games as the events in order" if r.get("games_ok", True) else "THE GAMES DIFFER")
    if r.get("errors"):
        notes.append(f"ERRORS {len(r['errors'])}: {r['errors'][0][:200]}")
    return f"{head} ({', '.join(notes)}): lost {r['lost']}, duplicated {r['duplicated']}"


def failed(r: dict[str, Any]) -> bool:
    return bool(r["lost"] or r["duplicated"] or not r.get("games_ok", True) or r.get("errors"))
