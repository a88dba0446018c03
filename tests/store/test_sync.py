"""`doodlebox sync` (host/doodlebox/store/sync.py, docs/stored-games.md "Sync"): a venue's SQLite file
pushed into the league's database comes out as the same games (events through the store's own
append path, with their own times: started, ended, abandoned as at the venue), names linked to
the league's people; pushed twice it is the same games; killed mid-way and started again it loses
and doubles nothing; into another league's database it is refused, the database unchanged."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from cli_run import ENV
from console_events import console_events
from randomplay import random_game

from doodlebox.cli import main
from doodlebox.rules.games import find_game
from doodlebox.store import Store
from doodlebox.store.sync import OtherLeague, sync

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden"
FW = "0.6.1"


def venue(path: Path, seed: int = 3) -> Path:
    """A venue's file: console c0ffee played a city game to its end and began another (boot 1),
    then a new game in boot 2 (the other one abandoned); console beef's boot 3 begins after a gap
    (events 1-4 went to another PC) and plays a suzhou game; a record imported from paper; the
    seats of two games named."""
    store = Store(path)
    city = console_events(random_game(find_game("city"), seed, 3), g=1)
    more = console_events(random_game(find_game("city"), seed + 1, 2), g=2)
    store.hello("c0ffee", FW, [(1, 1, 1)])
    store.append_many("c0ffee", [(1, seq, e) for seq, e in enumerate(city + more[:15], start=1)])
    store.append_many("c0ffee", [(2, seq, e) for seq, e in enumerate(console_events(
        random_game(find_game("city"), seed + 2, 2), g=1)[:30], start=1)])
    store.hello("beef", FW, [(3, 5, 5)])
    suzhou = console_events(random_game(find_game("suzhou"), seed, 2), g=1)
    for k in range(0, len(suzhou), 40):              # a batch per read of the port
        store.append_many("beef", [(3, 5 + j, e) for j, e in enumerate(suzhou[k:k + 40], start=k)])
    store.add_imported([(json.loads((GOLDEN / "suzhou-bonuses.json").read_text()), 0, "suzhou-bonuses.json",
                         1_700_000_000.0)])
    store.set_names(1, ["Ann", "Ben", "Cat"])
    store.set_names(store.find("last") - 1, ["ben", "Dan"])
    store.close()
    return path


IDS = ("id", "continues", "continued_by")


def snapshot(store: Store) -> dict:
    """What a database holds, without its own row ids."""
    return {"games": [{k: v for k, v in g.items() if k not in IDS + ("people",)} for g in store.games()],
            "events": store.events(), "gaps": sorted(store.gaps()), "streams": store.streams(),
            "consoles": store.consoles(), "people": sorted((p["name"], p["games"]) for p in store.people())}


def test_a_venue_synced_is_the_same_games_and_synced_twice_still_is(tmp_path, capsys):
    src, dst = venue(tmp_path / "venue.sqlite3"), tmp_path / "league.sqlite3"
    assert main(["sync", "--to", str(dst), "--db", str(src)]) == 0
    out = capsys.readouterr().out.splitlines()
    source, target = Store(src), Store(dst)
    want = snapshot(source)
    assert len(want["games"]) == 5 and {g["state"] for g in want["games"]} == {"ended", "abandoned", "playing",
                                                                              "imported"}
    assert want["gaps"] == [("beef", 3, 1, 4)]
    assert snapshot(target) == want
    assert out[-1] == (f"{src} -> {dst}: {len(want['events'])} event(s) stored, 0 there already, 1 gap(s); "
                       "1 imported game(s) added, 0 there already; names set for 2 game(s); the league has 5 "
                       "game(s) (5 new)")
    assert source.league()["synced_to"] == target.league()["id"] != source.league()["id"]
    source.close()
    target.close()
    assert main(["sync", "--to", str(dst), "--db", str(src)]) == 0          # again: nothing new
    assert capsys.readouterr().out.splitlines()[-1] == (
        f"{src} -> {dst}: 0 event(s) stored, {len(want['events'])} there already; 0 imported game(s) added, 1 there "
        "already; names set for 0 game(s); the league has 5 game(s) (0 new)")
    assert snapshot(Store(dst)) == want


def test_two_venues_share_the_leagues_people_and_a_merge_in_the_league_holds(tmp_path):
    league = Store(tmp_path / "league.sqlite3")
    b = Store(tmp_path / "b.sqlite3")
    data = json.loads((GOLDEN / "monsters-kraken.json").read_text())
    (kraken,) = b.add_imported([(data | {"players": ["Ann B", "BEN"]}, 0, "k.json", 1_700_000_500.0)])
    sync(Store(venue(tmp_path / "a.sqlite3")), league)
    sync(b, league)
    people = {p["name"]: p["games"] for p in league.people()}
    assert {n: people[n] for n in ("Ann", "Ann B", "Ben", "Cat", "Dan")} == {"Ann": 1, "Ann B": 1, "Ben": 3, "Cat": 1,
                                                                             "Dan": 1}
    league.merge_people(league.person("Ann B")["id"], league.person("Ann")["id"])
    done = sync(b, league)                           # the venue still says "Ann B": the league's Ann
    assert (done.events, done.imported, done.named) == (0, 0, 0)
    tid = league.imported_as(b.imported_record(kraken))
    assert league.names(tid) == ["Ann", "Ben"] and league.person("Ann B")["games"] == 2
    assert "Ann B" not in {p["name"] for p in league.people()}
    b.set_names(kraken, ["Eve", "Ben"])              # renamed at the venue: the league takes it
    assert sync(b, league).named == 1 and league.names(tid) == ["Eve", "Ben"]


def test_a_sync_into_another_leagues_database_is_refused_and_changes_nothing(tmp_path, capsys):
    src = venue(tmp_path / "venue.sqlite3")
    ours, theirs = tmp_path / "ours.sqlite3", tmp_path / "theirs.sqlite3"
    assert main(["sync", "--to", str(ours), "--db", str(src)]) == 0
    Store(theirs).close()
    capsys.readouterr()
    before = snapshot(Store(theirs))
    assert main(["sync", "--to", str(theirs), "--db", str(src)]) == 2
    err = capsys.readouterr().err.strip()
    league = Store(theirs).league()["id"]
    assert err == (f"doodlebox: {theirs} is another league's database (league {league}): {src} was synced to league "
                   f"{Store(ours).league()['id']}; nothing synced (--other-league to sync into it anyway)")
    assert snapshot(Store(theirs)) == before and not before["games"]
    assert Store(src).league()["synced_to"] == Store(ours).league()["id"]
    with pytest.raises(OtherLeague):
        sync(Store(src), Store(theirs))
    assert main(["sync", "--to", str(src), "--db", str(src)]) == 2             # a database into itself
    assert "the same league's database" in capsys.readouterr().err
    assert main(["sync", "--to", str(theirs), "--db", str(src), "--other-league"]) == 0
    assert len(Store(theirs).games()) == 5


@pytest.mark.slow
def test_a_venue_synced_twice_into_postgresql_is_the_same_games(pg_url, tmp_path):
    src = venue(tmp_path / "venue.sqlite3")
    for _ in range(2):
        done = sync(Store(src), Store(pg_url))
    assert (done.events, done.games_before, done.games_after) == (0, 5, 5)
    assert snapshot(Store(pg_url)) == snapshot(Store(src))


@pytest.mark.slow
def test_a_sync_killed_mid_way_and_started_again_loses_nothing_and_doubles_nothing(pg_url, tmp_path):
    src = venue(tmp_path / "venue.sqlite3", seed=11)
    events = len(Store(src).events())
    cmd = [sys.executable, "-m", "doodlebox.cli", "sync", "--to", pg_url, "--db", str(src), "--chunk", "7"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV)
    try:
        first = proc.stdout.readline()                 # a chunk committed: killed while it goes on
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait(timeout=30)
        proc.stdout.close()
        proc.stderr.close()
    assert first.startswith("events: ") and proc.returncode == -signal.SIGKILL
    part = Store(pg_url)
    assert 0 < len(part.events()) < events
    part.close()
    r = subprocess.run(cmd, capture_output=True, text=True, env=ENV, timeout=120)
    assert r.returncode == 0, r.stderr
    assert snapshot(Store(pg_url)) == snapshot(Store(src))
    again = subprocess.run(cmd, capture_output=True, text=True, env=ENV, timeout=120)
    assert again.returncode == 0 and f"0 event(s) stored, {events} there already" in again.stdout
    assert snapshot(Store(pg_url)) == snapshot(Store(src))
