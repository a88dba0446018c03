"""The sheets games were played on, in the store (schema version 6, docs/stored-games.md "The
sheets"; host/doodlebox/store/sheets.py): a version 5 database upgraded in place on both backends,
keeping everything; a sheet kept once by its hash, a body that is not its hash refused, a row
spoilt said as damage; `doodlebox sync` carrying a venue's sheets with the events that name them,
into SQLite and PostgreSQL, where the game played on one validates."""
from __future__ import annotations

import json
import sqlite3

import pytest
from own_sheets import CITY_NAME, dice_events, own_city, own_map
from test_sync import FW, snapshot, venue

from doodlebox.history import game_records
from doodlebox.sheets import library
from doodlebox.store import BadSheet, SheetRow, Store, StoreError, placing, schema, sheet_hash
from doodlebox.store.errors import Damaged
from doodlebox.store.postgres import VERSION_TABLE
from doodlebox.store.sync import sync

UID = "c0ffee"


def body(data: dict) -> str:
    return json.dumps(data, indent=1)


# -- the schema ----------------------------------------------------------------------------------
def test_a_version_5_file_is_upgraded_in_place_keeping_everything(tmp_path):
    db = tmp_path / "venue.sqlite3"
    venue(db)
    before = snapshot(Store(db))
    con = sqlite3.connect(db, isolation_level=None)
    con.execute("DROP TABLE sheets")
    con.execute("PRAGMA user_version = 5")
    con.close()
    with pytest.raises(StoreError, match="schema version 5: `doodlebox log` upgrades it to 6"):
        Store(db, readonly=True)
    store = Store(db)                                  # opened for writing: upgraded
    assert snapshot(store) == before and store.sheets_held() == []
    assert sqlite3.connect(db).execute("PRAGMA user_version").fetchone()[0] == schema.SCHEMA_VERSION == 6
    columns = [r[1:3] for r in sqlite3.connect(db).execute("PRAGMA table_info(sheets)")]
    assert columns == [("hash", "TEXT"), ("edition", "TEXT"), ("name", "TEXT"), ("body", "TEXT"), ("added", "REAL")]
    x = sheet_hash(own_city())
    assert store.add_sheet(x, "city", CITY_NAME, body(own_city())) == x


@pytest.mark.slow
def test_a_version_5_database_on_postgresql_is_upgraded_in_place_keeping_everything(pg_url, pg_server):
    store = Store(pg_url)
    store.hello(UID, FW, [(1, 1, 1)])
    store.append_many(UID, [(1, s, e) for s, e in enumerate(dice_events(own_city(), 1, named=False), start=1)])
    store.set_names(1, ["Ann", "Ben"])
    before = snapshot(store)
    store.close()
    name = pg_url.rsplit("/", 1)[1]
    with pg_server.admin(name) as db:
        db.execute("DROP TABLE sheets")
        db.execute(f"UPDATE {VERSION_TABLE} SET version = 5")
    store = Store(pg_url)
    assert snapshot(store) == before and store.sheets_held() == []
    x = sheet_hash(own_map())
    assert store.add_sheet(x, "deadly", "our-side-a", body(own_map())) == x
    assert store.sheet(x) == ("deadly", "our-side-a", own_map())
    with pg_server.admin(name) as db:
        assert db.execute(f"SELECT version FROM {VERSION_TABLE}").fetchall() == [(6,)]
        types = dict(db.execute("SELECT column_name, data_type FROM information_schema.columns "
                                "WHERE table_name = 'sheets'").fetchall())
        assert types == {"hash": "text", "edition": "text", "name": "text", "body": "text",
                         "added": "double precision"}


# -- a sheet kept by its hash ------------------------------------------------------------------------
def test_a_sheet_is_kept_once_by_its_hash_and_a_body_not_of_its_hash_is_refused(tmp_path):
    store = Store(tmp_path / "games.sqlite3")
    city, x = own_city(), sheet_hash(own_city())
    assert store.sheet(x) is None and store.sheets_held() == []
    assert store.add_sheet(x, "city", CITY_NAME, body(city)) == x
    held = store.sheets_held()
    assert [h[:3] for h in held] == [(x, "city", CITY_NAME)]
    assert store.add_sheet(x, "city", "another-name", json.dumps(city)) == x       # the same hash: nothing changes
    assert store.sheets_held() == held and store.sheet(x) == ("city", CITY_NAME, city)
    other = dict(city, name="Another")
    refused = [(x, "city", "mine", body(other)),                   # not its hash
               (x.upper(), "city", "mine", body(city)),           # not a hash
               (x, "city", "Mine", body(city)),                   # not a name
               (x, "city", "a" * 17, body(city)),
               (x, "", "mine", body(city)),                       # no edition
               (x, "city", "mine", "{not json")]
    for row in refused:
        with pytest.raises(BadSheet) as err:
            store.add_sheet(*row)
        assert err.value.exit_code == 2 and "\n" not in str(err.value)
    assert store.sheets_held() == held
    y = sheet_hash(other)
    assert store.add_sheet(y, "city", CITY_NAME, body(other)) == y                 # one name, two sheets: both kept
    assert {h[0] for h in store.sheets_held()} == {x, y}


def test_the_stores_hash_is_the_librarys():
    for sheet in library.sheets():
        if sheet.default:
            assert sheet_hash(sheet.data) == library.sheet_hash(sheet.data) == sheet.hash


def test_a_sheets_row_spoilt_is_damage_and_never_used(tmp_path):
    db = tmp_path / "games.sqlite3"
    store = Store(db)
    x = store.add_sheet(sheet_hash(own_city()), "city", CITY_NAME, body(own_city()))
    con = sqlite3.connect(db, isolation_level=None)
    con.execute("UPDATE sheets SET body = ? WHERE hash = ?", (json.dumps(dict(own_city(), trees=9)), x))
    with pytest.raises(Damaged, match=f"damaged: sheets row {x}: its sheet hashes to [0-9a-f]{{12}}, not {x}"):
        store.sheet(x)
    con.execute("UPDATE sheets SET body = 'x' WHERE hash = ?", (x,))
    with pytest.raises(Damaged, match=f"sheets row {x}: not JSON"):
        store.sheet(x)


def test_the_sheets_given_with_events_are_stored_in_their_transaction(tmp_path, monkeypatch):
    store = Store(tmp_path / "games.sqlite3")
    city = own_city()
    row = SheetRow(sheet_hash(city), "city", CITY_NAME, body(city), 1_700_000_000.0)
    events = [(1, s, e) for s, e in enumerate(dice_events(city, 2), start=1)]

    def fails(*args, **kwargs):
        raise RuntimeError("the disk went away")
    with monkeypatch.context() as m:
        m.setattr(placing, "save", fails)
        with pytest.raises(RuntimeError):
            store.append_many(UID, events, anywhere=True, with_sheets=[row])
    assert store.sheets_held() == [] and store.events() == []      # neither the events nor the sheet
    store.append_many(UID, events, anywhere=True, with_sheets=[row])
    assert store.sheets_held() == [(row.hash, "city", CITY_NAME, row.added)]
    log = store.game_log("last")
    assert log is not None and log.sheets == {row.hash: city}


# -- sync -----------------------------------------------------------------------------------------
def a_venue_with_sheets(path) -> tuple[str, str]:
    """The venue of test_sync, and console d00d's game played on a sheet of the table's own (which
    the venue holds), and a map side it holds that no game names; their hashes."""
    venue(path)
    store = Store(path)
    city, side = own_city(), own_map()
    x = store.add_sheet(sheet_hash(city), "city", CITY_NAME, body(city))
    y = store.add_sheet(sheet_hash(side), "deadly", "our-side-a", body(side))
    store.hello("d00d", FW, [(1, 1, 1)])
    store.append_many("d00d", [(1, s, e) for s, e in enumerate(dice_events(city, 5), start=1)])
    store.close()
    return x, y


def _league_has_the_game_on_its_sheet(league: Store, venue_store: Store, x: str) -> None:
    ours = {g["uid"]: g for g in game_records.games(venue_store)}["d00d"]
    theirs = {g["uid"]: g for g in game_records.games(league)}["d00d"]
    assert theirs["error"] == "" and theirs["violations"] == 0 and theirs["standing"] == "finished"
    assert theirs["totals"] == ours["totals"]
    assert game_records.record(league, theirs["id"])["layout"] == own_city()
    assert league.sheet(x)[::2] == ("city", own_city())


def test_sync_carries_the_venues_sheets_and_the_game_played_on_one_validates_in_the_league(tmp_path):
    src, dst = tmp_path / "venue.sqlite3", tmp_path / "league.sqlite3"
    x, y = a_venue_with_sheets(src)
    done = sync(Store(src), Store(dst))
    assert done.complete and done.sheets == 2 and "; 2 sheet(s) added" in done.text(src, dst)
    league = Store(dst)
    assert {h for h, *_ in league.sheets_held()} == {x, y} and league.sheet(x) == ("city", CITY_NAME, own_city())
    _league_has_the_game_on_its_sheet(league, Store(src), x)
    assert snapshot(league) == snapshot(Store(src))
    again = sync(Store(src), Store(dst))
    assert again.sheets == 0 and "sheet" not in again.text(src, dst) and snapshot(Store(dst)) == snapshot(Store(src))


def test_a_sheet_the_league_holds_is_left_as_it_is_and_a_venues_spoilt_row_is_said(tmp_path):
    src, dst = tmp_path / "venue.sqlite3", tmp_path / "league.sqlite3"
    x, y = a_venue_with_sheets(src)
    league = Store(dst)
    league.add_sheet(x, "city", "theirs", body(own_city()))
    con = sqlite3.connect(src, isolation_level=None)
    con.execute("UPDATE sheets SET body = '[]' WHERE hash = ?", (y,))
    done = sync(Store(src), league)
    assert not done.complete and done.damaged == 1 and done.sheets == 0
    assert f"damaged: sheets row {y}: its sheet hashes to" in done.text(src, dst)
    assert [h[:3] for h in league.sheets_held()] == [(x, "city", "theirs")]      # its name kept
    _league_has_the_game_on_its_sheet(league, Store(src), x)


@pytest.mark.slow
def test_sync_into_postgresql_carries_the_sheets(pg_url, tmp_path):
    src = tmp_path / "venue.sqlite3"
    x, y = a_venue_with_sheets(src)
    for _ in range(2):
        done = sync(Store(src), Store(pg_url))
    assert done.complete and done.sheets == 0
    league = Store(pg_url)
    assert {h for h, *_ in league.sheets_held()} == {x, y}
    _league_has_the_game_on_its_sheet(league, Store(src), x)
    assert snapshot(league) == snapshot(Store(src))
