"""The SQLite store (host/doodlebox/store/), schema version 3: a version 1 or 2 file upgraded, each
game's state (playing, ended, resumed, abandoned), a resumed game exported and validated as one
game, and the database's faults told apart (locked, full, read-only, not a database)."""
from __future__ import annotations

import json
import random
import shutil
import sqlite3
from pathlib import Path

import pytest
from cli_run import doodlebox
from console_events import console_events
from randomplay import random_game
from test_console_record import expected_record

from doodlebox.history import game_records
from doodlebox.history.console_record import ConsoleLogError, to_record
from doodlebox.logger.verdicts import LiveGames
from doodlebox.rules.games import find_game
from doodlebox.store import SCHEMA_VERSION, Store, StoreError

ROOT = Path(__file__).resolve().parents[2]
V1 = ROOT / "tests" / "vectors" / "store-v1.sqlite3"   # written by the version 1 store (commit 9413faf)


def test_a_version_1_file_is_upgraded_in_place(tmp_path):
    db = tmp_path / "old.sqlite3"
    shutil.copy(V1, db)
    con = sqlite3.connect(db)      # closed: a WAL file is turned into the rollback journal's mode only alone
    assert con.execute("PRAGMA user_version").fetchone()[0] == 1
    con.close()
    store = Store(db)
    games = {(g["uid"], g["boot"], g["g"]): g for g in store.games()}
    assert {k: (g["state"], g["end_reason"], g["edition"]) for k, g in games.items()} == {
        ("c0ffee", 1, 1): ("ended", "menu", "city"),
        ("c0ffee", 2, 1): ("abandoned", None, "suzhou"),     # its console began a game in boot 3
        ("c0ffee", 3, 1): ("playing", None, "monsters"),
        ("beef", 1, 1): ("playing", None, "city")}
    assert games[("c0ffee", 2, 1)]["ended"] is not None
    assert len(store.events()) == 7 and store.next_seq("c0ffee", 3) == 3
    # it goes on as a version 2 store: the next event of boot 3, then a new boot's game
    assert store.append("c0ffee", 3, 3, {"k": "start", "g": 1, "col": 2, "d": 1}).status == "stored"
    store.append("c0ffee", 4, 1, {"k": "game", "g": 1, "ed": "city", "n": 2, "var": ""})
    assert [(g["uid"], g["boot"], g["state"]) for g in store.games()][2:] == [
        ("c0ffee", 3, "abandoned"), ("beef", 1, "playing"), ("c0ffee", 4, "playing")]
    store.close()
    assert sqlite3.connect(db).execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    Store(db).close()                                   # opened again: nothing to do
    r = doodlebox("games", "--db", str(db))
    assert r.returncode == 0 and "abandoned" in r.stdout and "ended early" in r.stdout    # MENU: ruling G1


def test_an_upgrade_that_fails_leaves_the_version_1_file_as_it_was(tmp_path, monkeypatch):
    from doodlebox.store import schema as store_module

    db = tmp_path / "old.sqlite3"
    shutil.copy(V1, db)
    monkeypatch.setattr(store_module, "_GAMES_V2", [*store_module._GAMES_V2[:3], "ALTER TABLE nowhere ADD x"])
    with pytest.raises(StoreError, match="no such table"):
        Store(db)
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA user_version").fetchone()[0] == 1
    assert "state" not in [r[1] for r in con.execute("PRAGMA table_info(games)")]


def test_two_links_opening_one_new_file_at_once_upgrade_it_once(tmp_path):
    # a second console's link opened the new file while the first upgraded it: it had read the
    # version (0) before the first committed, and its upgrade then failed ("duplicate column
    # name: state"). The version is read again under the write lock.
    from doodlebox.store import schema

    db = tmp_path / "club.sqlite3"
    Store(db).close()                               # the first link: created, version 3
    con = sqlite3.connect(db, isolation_level=None)
    schema.upgrade(con, 0, set())                   # the second, with what it read before
    assert con.execute("PRAGMA user_version").fetchone()[0] == schema.SCHEMA_VERSION
    con.close()
    Store(db).close()


def _split(events: list[dict], at: int) -> tuple[list[dict], list[dict]]:
    """A game cut by a power off after its event number `at` (1-based)."""
    return events[:at], events[at:]


@pytest.mark.parametrize("edition,cut", [("city", 23), ("suzhou", 40), ("monsters", 61)])
def test_a_resumed_game_is_one_game(tmp_path, edition, cut):
    """Boot 1: game 1 ends, game 2 is played to its event `cut` (the console also wrote two
    more the journal lost: not played again, so left out); power off. Boot 2: the console
    resumes it as its game 1 with a `resume` event, and plays on to the end."""
    state = random_game(find_game(edition), 5, 3)
    events = console_events(state, g=2)
    before, after = _split(events, cut)
    store = Store(tmp_path / "g.sqlite3")
    first = console_events(random_game(find_game("city"), 1, 2), g=1)
    seq = 0
    for e in first + before + [dict(after[0]), dict(after[1])]:       # the last two: not played again
        seq += 1
        store.append("c0ffee", 1, seq, e)
    at = seq - 2
    live = LiveGames(store)
    resume = {"k": "resume", "g": 1, "of": [1, 2], "at": at, "r": before[-1].get("r", 0)}
    assert store.append("c0ffee", 2, 1, resume).status == "stored"
    verdict = live.stored("c0ffee", 2, resume)
    rp = find_game(edition).replay(find_game(edition).parse(to_record(store.game_log_of("c0ffee", 2, 1)), "so far"))
    assert verdict is not None and verdict.message["g"] == 1 and verdict.message["p"] == rp.state.scores()
    for s, e in enumerate(after, start=2):
        store.append("c0ffee", 2, s, dict(e, g=1))
    games = {(g["boot"], g["g"]): g for g in store.games()}
    old, new = games[(1, 2)], games[(2, 1)]
    assert (old["state"], old["continued_by"]) == ("resumed", new["id"])
    assert (new["state"], new["continues"], new["resume_at"], new["edition"]) == ("ended", old["id"], at, edition)
    assert games[(1, 1)]["state"] == "ended"
    log = store.game_log(new["id"])
    assert log is not None and log.parts == ((1, 2, len(before)), (2, 1, len(after) + 1))
    assert log.label() == f"game {new['id']} (console c0ffee boot 2, resumed from boot 1 game 2)"
    data = to_record(log)
    assert data == expected_record(state)                   # the whole game, as if never cut
    out = tmp_path / "game.json"
    r = doodlebox("export", str(new["id"]), "--db", str(store.path), "-o", str(out))
    assert r.returncode == 0, r.stderr
    assert json.loads(out.read_text()) == data
    r = doodlebox("games", "--db", str(store.path))
    assert f"resumed by #{new['id']}" in r.stdout and f"ended ({events[-1]['why']}), resumes #{old['id']}" in r.stdout


def test_a_resume_of_a_game_the_store_does_not_have_cannot_be_a_record(tmp_path):
    store = Store(tmp_path / "g.sqlite3")
    store.append("c0ffee", 7, 1, {"k": "resume", "g": 1, "of": [6, 3], "at": 40, "r": 5})
    (g,) = store.games()
    assert (g["state"], g["continues"], g["of_boot"], g["of_g"]) == ("playing", None, 6, 3)
    with pytest.raises(ConsoleLogError, match=r"event 1 \(resume\): it resumes game 3 of boot 6, which is not stored"):
        to_record(store.game_log(g["id"]))


def test_a_game_of_an_earlier_boot_is_abandoned_when_its_console_begins_another(tmp_path):
    store = Store(tmp_path / "g.sqlite3")
    game = {"k": "game", "g": 1, "ed": "city", "n": 2, "var": ""}
    store.append("a0", 1, 1, game)
    store.append("b0", 1, 1, game)              # another console: not touched
    store.append("a0", 1, 2, dict(game, g=2))   # the same boot's next game: the first is not abandoned by it
    store.append("a0", 2, 1, {"k": "start", "g": 1, "col": 1, "d": 2})   # no game event: nothing yet
    assert [g["state"] for g in store.games()] == ["playing"] * 3
    store.append("a0", 3, 1, game)
    assert [(g["uid"], g["boot"], g["g"], g["state"]) for g in store.games()] == [
        ("a0", 1, 1, "abandoned"), ("b0", 1, 1, "playing"), ("a0", 1, 2, "abandoned"), ("a0", 3, 1, "playing")]


def test_several_boots_in_one_batch_and_their_gaps(tmp_path):
    store = Store(tmp_path / "g.sqlite3")
    said = store.hello("c0ffee", "0.3.0", [(1, 4, 6), (2, 1, 3)])
    assert [(g.boot, g.first, g.last) for g in said.gaps] == [(1, 1, 3)]
    roll = {"k": "roll", "g": 1, "r": 1, "sp": 0, "c": 1, "w": [1, 2, 3]}
    got = store.append_many("c0ffee", [(1, 4, roll), (1, 6, roll), (1, 5, roll), (2, 1, roll), (2, 1, roll)])
    assert [(r.status, r.ack) for r in got] == [("stored", 4), ("gap", 4), ("stored", 5), ("stored", 1),
                                                ("duplicate", 1)]
    assert store.hello("c0ffee", "0.3.0", [(1, 1, 2)]).behind == [(1, 2, 6)]   # the console lost its journal


# -- the database's faults ----------------------------------------------------------------------
def test_a_database_locked_by_another_program_is_said_and_nothing_is_stored(tmp_path):
    db = tmp_path / "g.sqlite3"
    store = Store(db, timeout=0.1)
    other = sqlite3.connect(db, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    with pytest.raises(StoreError) as err:
        store.append("c0ffee", 1, 1, {"k": "start", "g": 1, "col": 1, "d": 2})
    assert err.value.cause == "locked" and err.value.transient
    assert str(err.value).startswith(f"{db}: the database is locked by another program while storing events")
    other.execute("ROLLBACK")
    assert store.events() == [] and store.append("c0ffee", 1, 1, {"k": "start", "g": 1, "col": 1, "d": 2}).ack == 1


def test_a_full_database_is_said_and_the_batch_is_not_stored(tmp_path):
    store = Store(tmp_path / "g.sqlite3")
    pages = store.db.execute("PRAGMA page_count").fetchone()[0]
    store.db.execute(f"PRAGMA max_page_count = {pages + 2}")
    big = [(1, s, {"k": "refuse", "g": 1, "r": 1, "p": 0, "i": 1, "why": "taken"}) for s in range(1, 400)]
    with pytest.raises(StoreError) as err:
        store.append_many("c0ffee", big)
    assert err.value.cause == "full" and err.value.transient and "full" in str(err.value)
    assert store.events() == [] and store.next_seq("c0ffee", 1) == 1
    store.db.execute("PRAGMA max_page_count = 1000000")
    assert [r.status for r in store.append_many("c0ffee", big)] == ["stored"] * 399


def test_a_file_that_is_not_a_database_and_one_of_another_program(tmp_path):
    bad = tmp_path / "bad.sqlite3"
    bad.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(StoreError, match="not a doodlebox database") as err:
        Store(bad)
    assert err.value.cause == "notadb"
    theirs = tmp_path / "theirs.sqlite3"
    sqlite3.connect(theirs).execute("CREATE TABLE recipes (name TEXT)")
    with pytest.raises(StoreError, match=r"not a doodlebox database \(it has the tables recipes\)"):
        Store(theirs)
    assert [r[0] for r in sqlite3.connect(theirs).execute("SELECT name FROM sqlite_master")] == ["recipes"]


def test_a_newer_schema_is_refused(tmp_path):
    db = tmp_path / "new.sqlite3"
    Store(db).close()
    sqlite3.connect(db).execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(StoreError, match=f"schema version {SCHEMA_VERSION + 1} is newer") as err:
        Store(db)
    assert err.value.cause == "newer"


def test_random_batches_store_each_stream_in_order_once(tmp_path):
    """Frames of three boots, shuffled, repeated and cut into batches as reads bring them: the
    store holds each boot's events 1..n once, in order, whatever came."""
    rng = random.Random(4)
    store = Store(tmp_path / "g.sqlite3")
    want = {b: [{"k": "start", "g": 1, "col": 1 + s % 6, "d": 1 + (s * b) % 6} for s in range(40)] for b in (1, 2, 3)}
    for _ in range(300):
        batch = []
        for _ in range(rng.randint(1, 12)):
            b = rng.choice((1, 2, 3))
            nxt = store.next_seq("c0ffee", b)
            s = max(1, min(40, nxt + rng.randint(-3, 2)))
            batch.append((b, s, want[b][s - 1]))
        store.append_many("c0ffee", batch)
    for b in (1, 2, 3):
        got = [(s, e) for _, bb, s, e in store.events() if bb == b]
        assert got == list(enumerate(want[b], start=1))[:len(got)] and len(got) > 20


# -- schema version 3: names, imported records, each game's outcome ------------------------------
V2 = ROOT / "tests" / "vectors" / "store-v2.sqlite3"   # written by the version 2 store (commit b2fea41)
GOLDEN = ROOT / "tests" / "golden"


def test_a_version_2_file_is_upgraded_in_place(tmp_path):
    db = tmp_path / "old.sqlite3"
    shutil.copy(V2, db)
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA user_version").fetchone()[0] == 2
    before = con.execute("SELECT * FROM games ORDER BY id").fetchall()
    events = con.execute("SELECT COUNT(*) FROM events").fetchone()[0]
    con.close()
    store = Store(db)
    tables = {r[0] for r in store.db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"players", "imported"} <= tables
    assert store.db.execute("SELECT * FROM games ORDER BY id").fetchall() == before      # rows untouched
    assert len(store.events()) == events
    games = game_records.games(store)
    assert [(g["id"], g["edition"], g["status"], g["names"]) for g in games] == [
        (1, "city", "ended", ["P1", "P2", "P3"]), (2, "treasures", "ended", ["P1"]),
        (3, "suzhou", "abandoned", ["P1", "P2"]), (4, "monsters", "ended", ["P1", "P2"]),
        (5, "shanghai", "playing", ["P1", "P2"])]
    city = find_game("city")
    rp = city.replay(city.parse(to_record(store.game_log(1)), "game 1"))
    assert (games[0]["totals"], games[0]["finished"]) == (rp.state.scores(), True)
    assert games[0]["winners"] == [f"P{p + 1}" for p in rp.state.result().winners]
    assert games[1]["rank"] and games[1]["winners"] == []                    # solo: a rank, no winner
    assert (games[2]["finished"], games[2]["winners"]) == (False, [])        # abandoned in its first round
    store.set_names(1, ["Ann", "Ben", "Cat"])
    assert game_records.record(store, 1)["players"] == ["Ann", "Ben", "Cat"]
    store.close()
    assert sqlite3.connect(db).execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 6
    assert Store(db, readonly=True).names(1) == ["Ann", "Ben", "Cat"]


def test_an_upgrade_from_version_2_that_fails_leaves_the_file_as_it_was(tmp_path, monkeypatch):
    from doodlebox.store import schema as store_module

    db = tmp_path / "old.sqlite3"
    shutil.copy(V2, db)
    monkeypatch.setattr(store_module, "_TABLES_V3", store_module._TABLES_V3 + "; CREATE TABLE players (x)")
    with pytest.raises(StoreError, match="already exists"):
        Store(db)
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA user_version").fetchone()[0] == 2
    assert not {"players", "imported"} & {r[0] for r in con.execute("SELECT name FROM sqlite_master")}


def test_a_version_2_file_that_may_not_be_written_says_it_needs_the_upgrade(tmp_path):
    db = tmp_path / "old.sqlite3"
    shutil.copy(V2, db)
    with pytest.raises(StoreError, match="schema version 2: `doodlebox log` upgrades it to 6"):
        Store(db, readonly=True)


def test_names_belong_to_the_whole_of_a_resumed_game(tmp_path):
    state = random_game(find_game("city"), 4, 3)
    events = console_events(state, g=1)
    store = Store(tmp_path / "g.sqlite3")
    for seq, e in enumerate(events[:20], start=1):
        store.append("c0ffee", 1, seq, e)
    assert store.set_names(1, ["Ann", "Ben"]) == ["Ann", "Ben", "P3"]
    store.append("c0ffee", 2, 1, {"k": "resume", "g": 1, "of": [1, 1], "at": 20, "r": 2})
    for seq, e in enumerate(events[20:], start=2):
        store.append("c0ffee", 2, seq, e)
    assert store.names(2) == ["Ann", "Ben", "P3"]                  # the game that goes on with it
    assert game_records.record(store, "last")["players"] == ["Ann", "Ben", "P3"]
    store.set_names(2, ["Cy", "Di", "Ed"])
    assert store.names(1) == store.names(2) == ["Cy", "Di", "Ed"]
    assert game_records.record(store, 2) == dict(expected_record(state), players=["Cy", "Di", "Ed"])
    g = {g["id"]: g for g in game_records.games(store)}
    assert (g[1]["status"], g[2]["status"], g[2]["totals"]) == ("resumed", "ended", state.scores())


def test_an_imported_record_is_a_game_with_its_names_and_its_outcome(tmp_path):
    store = Store(tmp_path / "g.sqlite3")
    data = json.loads((GOLDEN / "suzhou-bonuses.json").read_text())
    assert store.imported_as(data) is None
    (gid,) = store.add_imported([(data, 0, "suzhou-bonuses.json", 1_700_000_000.0)])
    assert store.imported_as(json.loads(json.dumps(data))) == gid
    (g,) = game_records.games(store)
    assert (g["uid"], g["boot"], g["state"], g["players"], g["edition"], g["rounds"]) == ("", 0, "imported", 3,
                                                                                         "suzhou", 15)
    assert (g["names"], g["totals"], g["winners"], g["violations"]) == (["Li", "Mei", "Tao"], [46, 32, 26], ["Li"], 0)
    assert game_records.record(store, gid) == data and game_records.record(store, "last") == data
    assert store.game_log("last") is None                  # no console game: imported ones have no events
    store.set_names(gid, ["Lia", "May"])
    assert game_records.record(store, gid)["players"] == ["Lia", "May", "P3"]
    assert store.imported_source(gid) == ("suzhou-bonuses.json", 0)
    # a console game played later is "last"; the imported game keeps its number
    store.append("c0ffee", 1, 1, {"k": "game", "g": 1, "ed": "city", "n": 2, "var": ""})
    assert store.find("last") == gid + 1 and store.game_log("last").id == gid + 1


def test_the_links_of_one_logger_take_turns_and_are_never_told_the_file_is_locked(tmp_path):
    # 20 links in one `doodlebox log` (club.Club) each polled SQLite's lock (0.5 s), and lost:
    # "locked" notes, resends, acks 2-6 s late (make bench's club section). In one process they
    # now wait for their turn; only another program's lock is "locked".
    import threading

    db = tmp_path / "club.sqlite3"
    Store(db).close()
    errors: list[str] = []
    stored = []
    start = threading.Barrier(8)

    def link(k: int) -> None:
        store = Store(db, timeout=0.01)
        start.wait()
        try:
            for s in range(1, 26):
                stored.extend(store.append_many(f"c0ffee{k:02d}", [(1, s, {"k": "claim", "g": 1, "r": 1})]))
        except StoreError as exc:
            errors.append(str(exc))
        finally:
            store.close()

    threads = [threading.Thread(target=link, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == [] and len(stored) == 8 * 25
    con = sqlite3.connect(db)
    assert con.execute("SELECT COUNT(*) FROM events").fetchone()[0] == 8 * 25
    con.close()
