"""An event's place is its identity (docs/stored-games.md, "Sync"; store/placing.py): a gap is a
note of what has not arrived, never a reason to refuse what arrives later; a different event at a
known place is a conflict, never a duplicate. Issue 32's three CRITICAL scenarios on an SQLite
and a PostgreSQL league:
- a console logged at a venue, then straight into the league: the sync fills the league's gap;
- two venue files of one console synced in either order: the same league;
- a sync while a logger commits into the venue file between the sync's reads: no false gap;
- two different events under one identity: a conflict (exit 2), kept apart, the league's game
  intact.
And the property behind them: any order and any interleaving of the same deliveries (a link's
appends, a sync's, gaps recorded, duplicates) ends in the same events, gaps and games as the
events stored in order (hypothesis)."""
from __future__ import annotations

import random
import sqlite3
import tempfile
import threading
from pathlib import Path

import pytest
from console_events import console_events
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from randomplay import random_game

from doodlebox.cli import main
from doodlebox.rules.games import find_game
from doodlebox.store import Store
from doodlebox.store.sync import sync

UID, FW, T0 = "c0ffee00", "0.8.1", 1_700_000_000.0
IDS = ("id", "continues", "continued_by", "people")


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.slow)])
def new_league(request, tmp_path):
    """A function that makes a new, empty league database (a file, or one on a throwaway server)."""
    made = []

    def make() -> Path | str:
        if request.param == "sqlite":
            made.append(tmp_path / f"league-{len(made)}.sqlite3")
        else:
            made.append(request.getfixturevalue("pg_server").database())
        return made[-1]
    return make


def history(seed: int = 5) -> list[dict]:
    """Console UID's boot 1: three Doodle City games one after another (numbered 1..N)."""
    events: list[dict] = []
    for g in (1, 2, 3):
        events += console_events(random_game(find_game("city"), seed + g, 2 + g % 2), g=g)
    return events


def put(store: Store, events: list[dict], first: int, last: int, boot: int = 1, uid: str = UID, **kw):
    """Events first..last (numbered from 1) of `events` into `store`, each with its own time."""
    items = [(boot, s, events[s - 1]) for s in range(first, last + 1)]
    return store.append_many(uid, items, [T0 + s for s in range(first, last + 1)], **kw)


def reference(tmp: Path, events: list[dict]) -> dict:
    """What a database that got every event in order holds."""
    store = Store(tmp / "reference.sqlite3")
    store.hello(UID, FW, [(1, 1, 1)])
    put(store, events, 1, len(events))
    out = held(store)
    store.close()
    return out


def held(store: Store) -> dict:
    """A database's events, gaps, streams and games, without row numbers."""
    return {"games": [{k: v for k, v in g.items() if k not in IDS} for g in store.games()],
            "events": store.events(), "gaps": sorted(store.gaps()), "streams": store.streams()}


# -- the three CRITICAL scenarios, on both backends ---------------------------------------------------
def test_a_console_logged_at_a_venue_then_straight_into_the_league_loses_nothing(tmp_path, new_league):
    events = history()
    cut = len(events) // 2                    # inside the second game
    venue = Store(tmp_path / "venue.sqlite3")
    venue.hello(UID, FW, [(1, 1, 1)])
    put(venue, events, 1, cut)
    league = Store(new_league())
    said = league.hello(UID, FW, [(1, cut + 1, cut + 1)])          # the console's hello: first = cut + 1
    assert [(g.first, g.last) for g in said.gaps] == [(1, cut)]
    put(league, events, cut + 1, len(events))
    done = sync(venue, league)
    assert (done.events, done.there) == (cut, 0)
    assert held(league) == reference(tmp_path, events) and done.complete
    assert {g["state"] for g in league.games()} == {"ended"} and len(league.games()) == 3
    again = sync(venue, league)
    assert (again.events, again.there) == (0, cut)


def test_two_venue_files_synced_in_either_order_are_the_same_league(tmp_path, new_league):
    events = history(seed=9)
    cut = len(events) // 2
    a, b = Store(tmp_path / "a.sqlite3"), Store(tmp_path / "b.sqlite3")
    a.hello(UID, FW, [(1, 1, 1)])
    put(a, events, 1, cut)
    b.hello(UID, FW, [(1, cut + 1, cut + 1)])                      # B's console had sent 1..cut to A
    put(b, events, cut + 1, len(events))
    want = reference(tmp_path, events)
    for order in ((a, b), (b, a)):
        league = Store(new_league())
        done = [sync(venue, league, league_ok=True) for venue in order]    # the same venues, a second league
        assert held(league) == want, [v.path.name for v in order]
        assert all(d.complete for d in done)
        league.close()


def test_a_sync_beside_a_logger_committing_between_its_reads_records_no_false_gap(tmp_path, new_league,
                                                                                   monkeypatch):
    events = history(seed=13)
    first = len(events) - 10
    path = tmp_path / "venue.sqlite3"
    venue, logger = Store(path), Store(path)
    venue.hello(UID, FW, [(1, 1, 1)])
    put(venue, events, 1, first)
    reads = Store.events_after
    landed = []

    def commit_between_reads(self, after, limit):
        rows = reads(self, after, limit)
        if not rows and not landed:           # the sync has read the last events: the logger commits
            landed.append(put(logger, events, first + 1, len(events)))
        return rows

    monkeypatch.setattr(Store, "events_after", commit_between_reads)
    league = Store(new_league())
    done = sync(venue, league)
    assert landed and done.gaps == 0 and league.gaps() == []
    assert sync(venue, league).events == 10                        # the rest, at the next sync
    assert held(league) == reference(tmp_path, events)


def test_two_different_events_under_one_identity_are_a_conflict_never_a_duplicate(tmp_path, new_league, capsys):
    city = console_events(random_game(find_game("city"), 3, 3), g=1)
    suzhou = console_events(random_game(find_game("suzhou"), 4, 2), g=1)
    league_db = new_league()
    league = Store(league_db)
    league.hello(UID, FW, [(1, 1, 1)])
    put(league, city, 1, len(city))
    before = held(league)
    venue = Store(tmp_path / "venue.sqlite3")
    venue.hello(UID, FW, [(1, 1, 1)])
    put(venue, suzhou, 1, len(suzhou))
    venue.close()
    league.close()
    capsys.readouterr()
    assert main(["sync", "--db", str(tmp_path / "venue.sqlite3"), "--to", str(league_db)]) == 2
    out, err = capsys.readouterr()
    assert f"console {UID} boot 1: event 1 is not the event" in out
    assert f"its events from 1 on are not synced ({len(suzhou)} of them)" in out
    assert "1 conflict(s)" in out and "not everything was synced" in err
    league = Store(league_db)
    assert held(league) == before                                  # the league's City game untouched
    assert [(u, b, s) for u, b, s, _, _ in league.conflicts()] == [(UID, 1, 1)]
    assert [g["edition"] for g in league.games()] == ["city"]


# -- the logger's link meets a conflict -------------------------------------------------------------
def test_the_link_keeps_a_conflict_apart_and_never_acknowledges_it(tmp_path):
    from test_host_link import FakePort, ev, hello, sent

    from doodlebox.link.session import HostLink

    store = Store(tmp_path / "db.sqlite3")
    other = {"k": "game", "g": 1, "ed": "suzhou", "n": 2, "var": ""}
    store.hello("abc", FW, [(1, 1, 1)])
    store.append("abc", 1, 1, other)                     # another console's event, under this one's id
    store.append("abc", 1, 2, {"k": "start", "g": 1, "col": 1, "d": 4})
    port, notes = FakePort(), []
    link = HostLink(port, store, on_note=notes.append)
    port.inbox = hello(nxt=4) + ev(1) + ev(2) + ev(3)
    link.poll()
    assert not [m for m in sent(port) if m[0] == "ack" and m[2] >= 1]
    assert link.counts["conflict"] == 1 and link.counts["held"] == 2
    assert len([n for n in notes if "is not the event" in n]) == 1
    assert [s for _, _, s, _ in store.events()] == [1, 2] and store.events()[0][3] == other
    assert [(u, b, s) for u, b, s, _, _ in store.conflicts()] == [("abc", 1, 1)]
    port.sent.clear()
    port.inbox = ev(1) + ev(2)                           # sent again: kept apart once, said once
    link.poll()
    link._sent_at -= 10                                  # and the keepalive acknowledges none of it
    link.poll()
    assert all(s == 0 for t, _, s in sent(port) if t == "ack")
    assert len(store.conflicts()) == 1 and len([n for n in notes if "is not the event" in n]) == 1


# -- a damaged row of a venue ------------------------------------------------------------------------
def test_a_damaged_row_stops_only_its_own_boot_and_a_later_sync_takes_the_rest(tmp_path, capsys):
    events = history(seed=21)
    path = tmp_path / "venue.sqlite3"
    venue = Store(path)
    venue.hello(UID, FW, [(1, 1, 1)])
    put(venue, events, 1, len(events))
    other = console_events(random_game(find_game("suzhou"), 2, 2), g=1)
    venue.hello("beef", FW, [(4, 1, 1)])
    venue.append_many("beef", [(4, s, e) for s, e in enumerate(other, 1)])
    venue.close()
    row, bad = 40, len(events) - 39                      # the UID's event 40: its events 40.. are left
    con = sqlite3.connect(path)
    good = con.execute("SELECT body FROM events WHERE id=?", (row,)).fetchone()[0]
    con.execute("UPDATE events SET body='{not json' WHERE id=?", (row,))
    con.commit()
    con.close()
    league_db = tmp_path / "league.sqlite3"
    capsys.readouterr()
    assert main(["sync", "--db", str(path), "--to", str(league_db)]) == 2
    out = capsys.readouterr().out
    assert f"console {UID} boot 1: events row {row}: not JSON (event 40); mend the row and sync again: its events " \
           f"from 40 on are not synced ({bad} of them)" in out
    league = Store(league_db)
    assert [s for u, _, s, _ in league.events() if u == UID] == list(range(1, 40))
    assert len([1 for u, _, _, _ in league.events() if u == "beef"]) == len(other)    # every other console's
    league.close()
    con = sqlite3.connect(path)
    con.execute("UPDATE events SET body=? WHERE id=?", (good, row))
    con.commit()
    con.close()
    assert main(["sync", "--db", str(path), "--to", str(league_db)]) == 0
    assert held(Store(league_db))["events"] == Store(path).events()


# -- two syncs at once ---------------------------------------------------------------------------------
def test_two_syncs_at_once_store_every_event_once(tmp_path, new_league):
    events = history(seed=31)
    thirds = [0, len(events) // 3, 2 * len(events) // 3, len(events)]
    venues = []
    for k in range(3):
        v = Store(tmp_path / f"v{k}.sqlite3")
        v.hello(UID, FW, [(1, thirds[k] + 1, thirds[k] + 1)])
        put(v, events, thirds[k] + 1, thirds[k + 1])
        venues.append(v.path)
        v.close()
    league_db = new_league()
    Store(league_db).close()
    errors: list[BaseException] = []

    def run(path: Path) -> None:
        try:
            for _ in range(2):
                sync(Store(path), Store(league_db), chunk=17)
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(p,)) for p in venues]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    assert not errors
    assert held(Store(league_db)) == reference(tmp_path, events)


# -- the property: any order of the same deliveries ------------------------------------------------------
def synthetic() -> dict[int, list[dict]]:
    """A console's three boots, their games begun, resumed, ended and abandoned (the store does
    not check the rules: kinds, games, rounds, ends and resumes are what its games rows are made of)."""
    def game(g, claims, end=False, r0=1):
        out = [{"k": "game", "g": g, "ed": "city", "n": 2, "var": ""}]
        out += [{"k": "claim", "g": g, "r": r0 + k // 2, "p": k % 2, "d": k} for k in range(claims)]
        return out + ([{"k": "end", "g": g, "why": "rounds", "r": r0 + claims // 2}] if end else [])

    boot1 = game(1, 10, end=True) + game(2, 6)
    boot2 = [{"k": "resume", "g": 1, "of": [1, 2], "at": len(boot1), "r": 3}]
    boot2 += [{"k": "claim", "g": 1, "r": 4 + k // 2, "p": k % 2, "d": 50 + k} for k in range(5)]
    boot2 += [{"k": "end", "g": 1, "why": "trees", "r": 6}] + game(2, 4, r0=1)
    boot3 = game(1, 3)
    return {1: boot1, 2: boot2, 3: boot3}


def state_of(store: Store) -> dict:
    return {"games": [{k: v for k, v in g.items() if k not in IDS} for g in store.games()],
            "events": store.events(), "gaps": sorted(store.gaps()), "streams": store.streams()}


def invariant(store: Store) -> None:
    """Every number below a stream's frontier is stored or a gap; none is both."""
    stored: dict[tuple[str, int], set[int]] = {}
    for u, b, s, _ in store.events():
        stored.setdefault((u, b), set()).add(s)
    gaps: dict[tuple[str, int], set[int]] = {}
    for u, b, a, z in store.gaps():
        gaps.setdefault((u, b), set()).update(range(a, z + 1))
    for u, b, f in store.streams():
        have, missing = stored.get((u, b), set()), gaps.get((u, b), set())
        assert not have & missing
        assert set(range(1, f)) <= have | missing and f not in have | missing


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2 ** 32))
def test_any_order_of_the_same_deliveries_ends_as_the_events_stored_in_order(seed):
    rng = random.Random(seed)
    boots = synthetic()
    with tempfile.TemporaryDirectory() as tmp:
        ref = Store(Path(tmp) / "ref.sqlite3")
        for boot, evs in boots.items():
            ref.append_many(UID, [(boot, s, e) for s, e in enumerate(evs, 1)],
                            [T0 + boot * 1000 + s for s in range(1, len(evs) + 1)])
        want = state_of(ref)
        store = Store(Path(tmp) / "db.sqlite3")
        ops = []
        for boot, evs in boots.items():
            n = len(evs)
            for _ in range(rng.randrange(1, 5)):           # pieces a sync brings, maybe twice
                a = rng.randrange(1, n + 1)
                ops.append(("sync", boot, a, rng.randrange(a, n + 1)))
            for _ in range(rng.randrange(0, 3)):           # a link: from where it is, some events
                ops.append(("link", boot, rng.randrange(1, n + 1), rng.randrange(1, 8)))
            for _ in range(rng.randrange(0, 3)):           # a gap recorded: held by another store
                a = rng.randrange(1, n + 1)
                ops.append(("gap", boot, a, rng.randrange(a, n + 1)))
        rng.shuffle(ops)
        ops += [("sync", boot, 1, len(evs)) for boot, evs in boots.items()]    # then every event once more
        for what, boot, a, b in ops:
            evs = boots[boot]
            if what == "gap":
                store.add_gaps(UID, boot, [(a, b)])
            else:
                last = min(len(evs), b if what == "sync" else a + b - 1)
                items = [(boot, s, evs[s - 1]) for s in range(a, last + 1)]
                got = store.append_many(UID, items, [T0 + boot * 1000 + s for s, in [(i[1],) for i in items]],
                                        anywhere=what == "sync")
                assert all(r.status in ("stored", "duplicate", "gap") for r in got)
                assert what == "link" or "gap" not in {r.status for r in got}
            invariant(store)
        assert state_of(store) == want
