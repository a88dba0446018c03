"""Players as people (schema version 4, docs/stored-games.md "People"): a version 3 database
upgraded on both backends (its names become people, one per name ignoring case; different
spellings kept apart), seats named linked to people, two people merged (asked on a terminal,
--yes, refused without either), and `doodlebox stats` counting a person across games."""
from __future__ import annotations

import builtins
import json
import shutil
import sqlite3
import sys
from pathlib import Path

import pytest

from doodlebox.cli import main
from doodlebox.history import game_records
from doodlebox.history import stats as st
from doodlebox.store import BadMerge, BadNames, Store, StoreError, schema

ROOT = Path(__file__).resolve().parents[2]
# games 1..5: city (3 players), treasures (1), suzhou, monsters, shanghai (2)
V2 = ROOT / "tests" / "vectors" / "store-v2.sqlite3"
GOLDEN = ROOT / "tests" / "golden"
# the names a version 3 doodlebox stored (set_names): game 1 Ann, Ben, Cat; game 4 "ann" (Ann's
# name in another case) and "Ann B" (another spelling: another person until merged); game 3 one
# seat named, the other left P2; game 5 a seat named "P1" by hand (no person)
V3_NAMES = [(1, 0, "Ann"), (1, 1, "Ben"), (1, 2, "Cat"), (4, 0, "ann"), (4, 1, "Ann B"), (3, 0, "Ben"),
            (5, 0, "P1"), (5, 1, "Dan")]


def make_v3(path: Path) -> Path:
    """A version 3 file: the version 2 vector with version 3's tables (store/schema.py's
    _TABLES_V3, as the version 3 upgrade made them) and the names a version 3 store kept."""
    shutil.copy(V2, path)
    con = sqlite3.connect(path, isolation_level=None)
    for sql in schema._TABLES_V3.split(";"):
        if sql.strip():
            con.execute(sql)
    con.executemany("INSERT INTO players (game, seat, name) VALUES (?,?,?)", V3_NAMES)
    con.execute("PRAGMA user_version = 3")
    con.close()
    return path


def people_of(store: Store) -> dict[str, int]:
    return {p["name"]: p["games"] for p in store.people()}


def check_upgraded(store: Store) -> None:
    assert people_of(store) == {"Ann": 2, "Ann B": 1, "Ben": 2, "Cat": 1, "Dan": 1}
    assert store.names(1) == ["Ann", "Ben", "Cat"]
    assert store.names(4) == ["Ann", "Ann B"]           # "ann" is Ann: the same name, another case
    assert store.names(3) == ["Ben", "P2"] and store.names(5) == ["P1", "Dan"]
    seats = {g["id"]: g["people"] for g in store.games()}
    ann = store.person("ANN")["id"]
    assert seats[1][0] == seats[4][0] == ann and seats[5][0] is None and seats[3][1] is None
    assert seats[3][0] == seats[1][1]                  # Ben in two games: one person
    league = store.league()
    assert len(league["id"]) == 32 and league["synced_to"] is None


def test_a_version_3_file_is_upgraded_its_names_become_people(tmp_path):
    db = make_v3(tmp_path / "v3.sqlite3")
    before = sqlite3.connect(db).execute("SELECT * FROM games ORDER BY id").fetchall()
    store = Store(db)
    check_upgraded(store)
    assert store.db.execute("SELECT * FROM games ORDER BY id").fetchall() == before     # rows untouched
    league = store.league()["id"]
    store.close()
    assert sqlite3.connect(db).execute("PRAGMA user_version").fetchone()[0] == schema.SCHEMA_VERSION == 6
    again = Store(db)                                  # opened again: nothing to do, the same league
    assert again.league()["id"] == league and people_of(again)["Ann"] == 2
    again.close()
    assert Store(tmp_path / "new.sqlite3").league()["id"] != league      # each database its own league


def test_an_upgrade_from_version_3_that_fails_leaves_the_file_as_it_was(tmp_path, monkeypatch):
    db = make_v3(tmp_path / "v3.sqlite3")

    def broken(con) -> None:
        con.execute("INSERT INTO nowhere VALUES (1)")

    monkeypatch.setattr(schema, "people_from_names", broken)
    with pytest.raises(StoreError, match="no such table: nowhere"):
        Store(db)
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA user_version").fetchone()[0] == 3
    assert not {"people", "league", "aliases"} & {r[0] for r in con.execute("SELECT name FROM sqlite_master")}
    assert "person" not in [r[1] for r in con.execute("PRAGMA table_info(players)")]


@pytest.mark.slow
def test_a_version_3_database_on_postgresql_is_upgraded_as_the_file_is(pg_url, pg_server, tmp_path):
    from doodlebox.store.postgres import VERSION_TABLE, ddl

    src = sqlite3.connect(make_v3(tmp_path / "v3.sqlite3"))
    name = pg_url.rsplit("/", 1)[1]
    with pg_server.admin(name) as db:
        db.execute("SET ROLE doodle")
        for sql in schema._TABLES.split(";") + [schema._GAMES_V1] + schema._TABLES_V3.split(";"):
            if sql.strip():
                db.execute(ddl(sql))
        for sql in schema._GAMES_V2:
            if ":now" not in sql:
                db.execute(ddl(sql))
        db.execute(f"CREATE TABLE {VERSION_TABLE} (version INTEGER NOT NULL)")
        db.execute(f"INSERT INTO {VERSION_TABLE} VALUES (3)")
        for table in ("consoles", "streams", "events", "gaps", "games", "players"):
            cols = [r[1] for r in src.execute(f"PRAGMA table_info({table})")]
            rows = src.execute(f"SELECT {', '.join(cols)} FROM {table}").fetchall()
            if rows:
                db.cursor().executemany(f"INSERT INTO {table} ({', '.join(cols)}) VALUES "
                                        f"({', '.join(['%s'] * len(cols))})", rows)
        db.execute("SELECT setval(pg_get_serial_sequence('games', 'id'), (SELECT MAX(id) FROM games))")
        db.execute("SELECT setval(pg_get_serial_sequence('events', 'id'), (SELECT MAX(id) FROM events))")
    store = Store(pg_url)
    check_upgraded(store)
    on_file = Store(tmp_path / "v3.sqlite3")
    assert [(g["names"], g["state"]) for g in store.games()] == [(g["names"], g["state"]) for g in on_file.games()]
    # it goes on as a version 4 store: a new name is a new person, a known one in another case is known
    gid = store.add_imported([(json.loads((GOLDEN / "monsters-kraken.json").read_text()) | {"players": ["eve", "BEN"]},
                               0, "k.json", 1_700_000_000.0)])[0]
    assert store.names(gid) == ["eve", "Ben"] and people_of(store)["Ben"] == 3
    with pytest.raises(BadMerge, match="both played game 4"):
        store.merge_people(store.person("Ann B")["id"], store.person("Ann")["id"])
    assert store.merge_people(store.person("Dan")["id"], store.person("cat")["id"]) == 1
    assert people_of(store)["Cat"] == 2 and store.names(5) == ["P1", "Cat"] and store.person("DAN")["name"] == "Cat"
    store.close()
    with pg_server.admin(name) as db:
        assert db.execute(f"SELECT version FROM {VERSION_TABLE}").fetchall() == [(schema.SCHEMA_VERSION,)]


def test_naming_seats_links_them_to_people_made_as_needed(tmp_path):
    store = Store(tmp_path / "g.sqlite3")
    data = json.loads((GOLDEN / "city-hotel15.json").read_text())
    (gid,) = store.add_imported([(data, 0, "c.json", 1_700_000_000.0)])
    assert people_of(store) == {"Ann": 1, "Ben": 1, "Cat": 1}
    (other,) = store.add_imported([(data | {"players": ["  cat ", "Zoë", "ANN"]}, 0, "c2.json", 1_700_000_100.0)])
    assert store.names(other) == ["Cat", "Zoë", "Ann"]                      # the people's names
    assert people_of(store) == {"Ann": 2, "Ben": 1, "Cat": 2, "Zoë": 1}
    assert store.set_names(other, ["zoë", "Dan"]) == ["Zoë", "Dan", "P3"]   # P3: nobody
    assert people_of(store) == {"Ann": 1, "Ben": 1, "Cat": 1, "Dan": 1, "Zoë": 1}
    with pytest.raises(BadNames, match="two seats"):
        store.set_names(gid, ["Ann", "ann"])
    assert store.person("p3") is None and store.person("nobody") is None


@pytest.mark.parametrize("a, b", [("Ann", "\uff21nn"), ("Zo\u00eb", "Zoe\u0308"), ("ANN", "ann")])
def test_two_spellings_of_one_name_on_one_game_are_one_name_given_twice(tmp_path, a, b):
    """Issue 32: `Ann` and a full-width A's `Ann`, `Zoë` composed and decomposed: the same name after
    NFKC and case folding, given twice (not "one person, merged", which nobody did)."""
    store = Store(tmp_path / "g.sqlite3")
    (gid,) = store.add_imported([(json.loads((GOLDEN / "city-hotel15.json").read_text()), 0, "c.json", 1.7e9)])
    with pytest.raises(BadNames, match="is given to two seats") as err:
        store.set_names(gid, [a, b])
    assert "merged" not in str(err.value)


def test_a_seat_named_p1_in_any_width_is_nobody_and_its_game_is_not_a_league_game(tmp_path):
    from doodlebox.history import league

    store = Store(tmp_path / "g.sqlite3")
    data = json.loads((GOLDEN / "monsters-kraken.json").read_text())
    (gid,) = store.add_imported([(data | {"players": ["Ann", "Ben"]}, 0, "k.json", 1.7e9)])
    assert league.standings(store) != []
    assert store.set_names(gid, ["Ann", "\uff30\uff12"]) == ["Ann", "P2"]      # full-width P2: the seat's own name
    assert store.seats(gid)[1] == ("P2", None) and store.person("\uff30\uff12") is None
    assert league.standings(store) == []
    with pytest.raises(BadNames, match="two seats"):
        store.set_names(gid, ["p\uff12"])                                       # seat 1 named as seat 2 is


def test_two_people_merged_keep_one_name_and_the_name_merged_still_finds_them(tmp_path):
    store = Store(tmp_path / "g.sqlite3")
    data = json.loads((GOLDEN / "monsters-kraken.json").read_text())
    a, _, c = store.add_imported([(data | {"players": p}, 0, f"{k}.json", 1_700_000_000.0 + k)
                                  for k, p in enumerate([["Ann B", "Ben"], ["Ann", "Cat"], ["Ann", "Ann B"]])])
    ann_b, ann = store.person("Ann B")["id"], store.person("Ann")["id"]
    with pytest.raises(BadMerge, match="both played game 3"):
        store.merge_people(ann_b, ann)
    assert people_of(store)["Ann B"] == 2
    store.set_names(c, ["Ann", "Dan"])
    assert store.merge_people(ann_b, ann) == 1
    assert people_of(store) == {"Ann": 3, "Ben": 1, "Cat": 1, "Dan": 1}
    assert store.names(a) == ["Ann", "Ben"]
    assert store.person("ann b")["id"] == ann                     # the name merged is an alias
    assert store.set_names(c, ["Ann B", "Ben"]) == ["Ann", "Ben"]
    with pytest.raises(BadNames, match="one person"):
        store.set_names(c, ["Ann B", "Ann"])
    with pytest.raises(BadMerge, match="no person"):
        store.merge_people(ann_b, ann)


def _club(tmp_path: Path) -> Path:
    db = tmp_path / "club.sqlite3"
    store = Store(db)
    data = json.loads((GOLDEN / "monsters-kraken.json").read_text())     # seat 1 wins, 49 to 15
    store.add_imported([(data | {"players": p}, 0, f"{k}.json", 1_700_000_000.0 + 3600 * k)
                        for k, p in enumerate([["Ann B", "Ben"], ["Ben", "Ann"], ["Ann", "Cat"]])])
    store.close()
    return db


def test_people_lists_them_and_merges_with_yes(tmp_path, capsys):
    db = _club(tmp_path)
    assert main(["people", "--db", str(db)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split() == ["#", "name", "games", "since"]
    assert [line.split()[1:3] for line in out[1:]] == [["Ann", "2"], ["Ann", "B"], ["Ben", "2"], ["Cat", "1"]]
    assert main(["people", "--db", str(db), "--merge", "ann b", "ANN", "--yes"]) == 0
    assert capsys.readouterr().out.strip() == "merged 'Ann B' into 'Ann': 1 seat(s) moved; 'Ann' now has 3 game(s)"
    assert people_of(Store(db)) == {"Ann": 3, "Ben": 2, "Cat": 1}


def test_a_merge_without_a_terminal_and_without_yes_is_refused_in_one_line(tmp_path, capsys, monkeypatch):
    db = _club(tmp_path)
    monkeypatch.setattr(sys, "stdin", open("/dev/null"))
    assert main(["people", "--db", str(db), "--merge", "Ann B", "Ann"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "needs a yes" in err and "--yes" in err
    assert people_of(Store(db))["Ann B"] == 1
    assert main(["people", "--db", str(db), "--merge", "Ann C", "Ann", "--yes"]) == 2
    assert "no person 'Ann C'" in capsys.readouterr().err


@pytest.mark.parametrize("answer,merged", [("y", True), ("", False), ("no", False)])
def test_a_merge_on_a_terminal_asks_first(tmp_path, capsys, monkeypatch, answer, merged):
    db = _club(tmp_path)
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True, raising=False)
    asked = []
    monkeypatch.setattr(builtins, "input", lambda q: asked.append(q) or answer)
    assert main(["people", "--db", str(db), "--merge", "Ann B", "Ann"]) == (0 if merged else 1)
    assert asked == ["merge 'Ann B' (1 game(s)) into 'Ann' (2 game(s)): every game of 'Ann B' becomes 'Ann''s? "
                     "[y/N] "]
    assert ("Ann B" in people_of(Store(db))) is not merged


def test_stats_count_a_person_across_games_and_keep_their_format(tmp_path):
    db = _club(tmp_path)
    store = Store(db)
    before = st.collect(store)
    assert sorted(before.history()) == ["Ann", "Ann B", "Ben", "Cat"]
    assert before.win_rates()["monsters"] == {"Ann B": (1, 1), "Ben": (1, 2), "Ann": (1, 2), "Cat": (0, 1)}
    store.merge_people(store.person("Ann B")["id"], store.person("Ann")["id"])
    after = st.collect(store)
    assert [(p.total, p.game) for p in after.history()["Ann"]] == [(49, 1), (15, 2), (49, 3)]
    assert after.win_rates()["monsters"] == {"Ann": (2, 3), "Ben": (1, 2), "Cat": (0, 1)}
    text = st.text(after)
    assert "  Ann: 49 (monsters #1), 15 (monsters #2), 49 (monsters #3)  | best 49, mean 37.7" in text
    assert "  monsters: Ann 2/3 (67%), Ben 1/2 (50%), Cat 0/1 (0%)" in text
    assert [g["names"] for g in game_records.games(store)] == [["Ann", "Ben"], ["Ben", "Ann"], ["Ann", "Cat"]]
