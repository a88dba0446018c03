"""The store on a real PostgreSQL server (tests/support/pgserver.py, a throwaway cluster; nothing mocked):
the same store and link tests as on SQLite, the same schema versions and upgrades, a newer schema
refused, a URL, a password or a server that is not right said in one line (exit 2) through the
real command, a database locked, and a connection lost while logging: retried, and nothing
acknowledged that is not committed."""
from __future__ import annotations

import json
import shutil
import sqlite3
import threading
import time
from pathlib import Path

import cli_run
import pytest
import test_host_link
import test_store
from cli_run import doodlebox
from pgserver import PASSWORD, free_port

from doodlebox.link.session import HostLink
from doodlebox.store import SCHEMA_VERSION, Store, StoreError
from doodlebox.store.postgres import VERSION_TABLE, WRITERS, shown

pytestmark = pytest.mark.slow      # (tests/conftest.py: the quick tier)

ROOT = Path(__file__).resolve().parents[2]
ROLL = {"k": "roll", "g": 1, "r": 1, "sp": 0, "c": 2, "w": [1, 2, 3, 4]}
GAME = {"k": "game", "g": 1, "ed": "city", "n": 2, "var": ""}


def dbname(url: str) -> str:
    return url.rsplit("/", 1)[1]


@pytest.fixture
def passwordless(pg_url, monkeypatch) -> str:
    """The database's URL without its password, which libpq takes from PGPASSWORD (in this
    process and in `doodlebox` run as its own): what Store.path says, so a test may hand it on."""
    monkeypatch.setenv("PGPASSWORD", PASSWORD)
    monkeypatch.setitem(cli_run.ENV, "PGPASSWORD", PASSWORD)
    return shown(pg_url)


# -- the SQLite store's own tests, run as they are on PostgreSQL ----------------------------------
# Each of these opens its database with Store(path): here every path names the test's PostgreSQL
# database instead (the same one for every Store it opens, as the same file would be).
SHARED = [
    (test_store.test_a_resumed_game_is_one_game, {"edition": "suzhou", "cut": 40}),
    (test_store.test_a_resume_of_a_game_the_store_does_not_have_cannot_be_a_record, {}),
    (test_store.test_a_game_of_an_earlier_boot_is_abandoned_when_its_console_begins_another, {}),
    (test_store.test_several_boots_in_one_batch_and_their_gaps, {}),
    (test_store.test_random_batches_store_each_stream_in_order_once, {}),
    (test_store.test_names_belong_to_the_whole_of_a_resumed_game, {}),
    (test_store.test_an_imported_record_is_a_game_with_its_names_and_its_outcome, {}),
    (test_host_link.test_store_then_ack_duplicates_and_gaps, {}),
    (test_host_link.test_a_restarted_host_stores_nothing_twice, {}),
    (test_host_link.test_events_another_host_acknowledged_are_recorded_as_a_gap, {}),
    (test_host_link.test_several_boots_held_older_first_each_acknowledged_in_its_own_boot, {}),
    (test_host_link.test_an_older_boot_the_store_already_has_in_part, {}),
]


@pytest.mark.parametrize("test,args", SHARED, ids=[t.__name__.removeprefix("test_") for t, _ in SHARED])
def test_the_sqlite_store_tests_pass_on_postgresql(test, args, passwordless, tmp_path, monkeypatch):
    module = test_store if test.__module__ == "test_store" else test_host_link
    opened: list[Store] = []

    def on_server(path, *a, **kw) -> Store:
        opened.append(Store(passwordless, *a, **kw))
        return opened[-1]

    monkeypatch.setattr(module, "Store", on_server)
    test(tmp_path, **args)
    assert opened and {s.path for s in opened} == {passwordless} and not list(tmp_path.glob("*.sqlite3"))
    assert opened[0].events() or opened[0].games()        # what the test stored is on the server


# -- the schema ----------------------------------------------------------------------------------
def test_a_new_database_gets_the_schema_and_its_version(pg_url, pg_server):
    Store(pg_url).close()
    with pg_server.admin(dbname(pg_url)) as db:
        tables = {r[0] for r in db.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")}
        assert tables == {"consoles", "streams", "events", "gaps", "games", "players", "imported", "people", "aliases",
                          "league", "conflicts", "sheets", VERSION_TABLE}
        assert db.execute(f"SELECT version FROM {VERSION_TABLE}").fetchall() == [(SCHEMA_VERSION,)]
        types = dict(db.execute("SELECT column_name, data_type FROM information_schema.columns "
                                "WHERE table_name = 'games'").fetchall())
        assert (types["id"], types["started"], types["state"]) == ("bigint", "double precision", "text")
    store = Store(pg_url)                      # opened again: nothing to do
    assert store.games() == [] and store.next_seq("c0ffee", 1) == 1
    store.close()


def _load(sqlite_file: Path, url: str, version: int, pg_server) -> None:
    """A database of an earlier doodlebox on the server: the tables of schema `version` (the
    same steps as SQLite's, store/schema.py) with the rows of a file that version wrote."""
    from doodlebox.store import schema
    from doodlebox.store.postgres import ddl

    src = sqlite3.connect(sqlite_file)
    with pg_server.admin(dbname(url)) as db:
        db.execute("SET ROLE doodle")         # the tables are doodle's, as doodlebox made them
        for sql in schema._TABLES.split(";") + [schema._GAMES_V1]:
            if sql.strip():
                db.execute(ddl(sql))
        if version >= 2:
            for sql in schema._GAMES_V2:
                if ":now" not in sql:
                    db.execute(ddl(sql))
        db.execute(f"CREATE TABLE {VERSION_TABLE} (version INTEGER NOT NULL)")
        db.execute(f"INSERT INTO {VERSION_TABLE} VALUES ({version})")
        for table in ("consoles", "streams", "events", "gaps", "games"):
            cols = [r[1] for r in src.execute(f"PRAGMA table_info({table})")]
            rows = src.execute(f"SELECT {', '.join(cols)} FROM {table}").fetchall()
            if rows:
                db.cursor().executemany(f"INSERT INTO {table} ({', '.join(cols)}) VALUES "
                                        f"({', '.join(['%s'] * len(cols))})", rows)
        db.execute("SELECT setval(pg_get_serial_sequence('games', 'id'), (SELECT MAX(id) FROM games))")
        db.execute("SELECT setval(pg_get_serial_sequence('events', 'id'), (SELECT MAX(id) FROM events))")


@pytest.mark.parametrize("version", [1, 2])
def test_a_database_of_an_earlier_version_is_upgraded_as_the_same_file_is(version, pg_url, pg_server, tmp_path):
    vector = test_store.V1 if version == 1 else test_store.V2
    _load(vector, pg_url, version, pg_server)
    file = tmp_path / "old.sqlite3"
    shutil.copy(vector, file)
    on_file, on_server = Store(file), Store(pg_url)
    changes = ("ended",)           # a game abandoned by the upgrade ends when it is upgraded
    assert ([{k: v for k, v in g.items() if k not in changes} for g in on_server.games()]
            == [{k: v for k, v in g.items() if k not in changes} for g in on_file.games()])
    assert on_server.events() == on_file.events() and on_server.gaps() == on_file.gaps()
    states = [g["state"] for g in on_server.games()]
    assert "abandoned" in states if version == 1 else states.count("ended") == 3
    # it goes on as a version 3 store
    on_server.append("c0ffee", 9, 1, dict(GAME))
    assert on_server.set_names(on_server.find("last"), ["Ann", "Ben"]) == ["Ann", "Ben"]
    on_server.close()
    with pg_server.admin(dbname(pg_url)) as db:
        assert db.execute(f"SELECT version FROM {VERSION_TABLE}").fetchall() == [(SCHEMA_VERSION,)]


def test_an_upgrade_that_fails_leaves_the_database_as_it_was(pg_url, pg_server, monkeypatch):
    from doodlebox.store import schema

    _load(test_store.V1, pg_url, 1, pg_server)
    monkeypatch.setattr(schema, "_GAMES_V2", [*schema._GAMES_V2[:3], "ALTER TABLE nowhere ADD x INTEGER"])
    with pytest.raises(StoreError, match="nowhere") as err:
        Store(pg_url)
    assert "table-secret" not in str(err.value)
    with pg_server.admin(dbname(pg_url)) as db:
        assert db.execute(f"SELECT version FROM {VERSION_TABLE}").fetchall() == [(1,)]
        columns = {r[0] for r in db.execute("SELECT column_name FROM information_schema.columns "
                                            "WHERE table_name = 'games'")}
        assert "state" not in columns and "players" not in {
            r[0] for r in db.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")}


def test_a_newer_schema_is_refused_in_one_line_and_the_database_keeps_what_it_had(pg_url, pg_server):
    store = Store(pg_url)
    store.append("c0ffee", 1, 1, dict(GAME))
    store.close()
    with pg_server.admin(dbname(pg_url)) as db:
        db.execute(f"UPDATE {VERSION_TABLE} SET version = {SCHEMA_VERSION + 1}")
    with pytest.raises(StoreError, match=f"schema version {SCHEMA_VERSION + 1} is newer") as err:
        Store(pg_url)
    assert err.value.cause == "newer" and err.value.exit_code == 2
    r = doodlebox("games", "--db", pg_url)
    _one_line(r, f"schema version {SCHEMA_VERSION + 1} is newer than this doodlebox")
    with pg_server.admin(dbname(pg_url)) as db:
        assert db.execute("SELECT count(*) FROM events").fetchone()[0] == 1
        assert db.execute(f"SELECT version FROM {VERSION_TABLE}").fetchone()[0] == SCHEMA_VERSION + 1


def test_a_newer_sqlite_file_is_exit_2_as_well(tmp_path):
    db = tmp_path / "new.sqlite3"
    Store(db).close()
    sqlite3.connect(db).execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    _one_line(doodlebox("games", "--db", str(db)), f"schema version {SCHEMA_VERSION + 1} is newer")


def test_a_user_that_may_only_read_lists_the_games_and_cannot_name_them(pg_url, pg_server):
    store = Store(pg_url)
    store.append("c0ffee", 1, 1, dict(GAME))
    store.close()
    with pg_server.admin(dbname(pg_url)) as db:
        db.execute(f"DROP ROLE IF EXISTS reader_{dbname(pg_url)}")
        db.execute(f"CREATE ROLE reader_{dbname(pg_url)} LOGIN PASSWORD 'reads'")
        db.execute(f"GRANT SELECT ON ALL TABLES IN SCHEMA public TO reader_{dbname(pg_url)}")
    url = pg_server.url(dbname(pg_url), user=f"reader_{dbname(pg_url)}", password="reads")
    r = doodlebox("games", "--db", url)
    assert r.returncode == 0 and "city" in r.stdout, r.stderr
    _one_line(doodlebox("names", "1", "Ann", "--db", url), "read-only: the server lets this user only read", 1)


def test_the_tables_may_live_in_a_schema_of_their_own(pg_url, pg_server):
    with pg_server.admin(dbname(pg_url)) as db:
        db.execute("CREATE SCHEMA league AUTHORIZATION doodle")
        db.execute("CREATE TABLE public.recipes (name TEXT)")     # another program's, beside it
    url = pg_url + "?options=-csearch_path%3Dleague"
    store = Store(url)
    store.append("c0ffee", 1, 1, dict(GAME))
    assert store.path == shown(pg_url) and [g["edition"] for g in store.games()] == ["city"]
    store.close()
    with pg_server.admin(dbname(pg_url)) as db:
        assert db.execute("SELECT count(*) FROM league.games").fetchone()[0] == 1


def test_a_database_of_another_program_is_not_touched(pg_url, pg_server):
    with pg_server.admin(dbname(pg_url)) as db:
        db.execute("CREATE TABLE recipes (name TEXT)")
    with pytest.raises(StoreError, match=r"not a doodlebox database \(it has the tables recipes\)"):
        Store(pg_url)
    with pg_server.admin(dbname(pg_url)) as db:
        assert [r[0] for r in db.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")] == [
            "recipes"]


# -- the command line: one line, exit 2 --------------------------------------------------------
def _one_line(r, says: str, code: int = 2) -> None:
    lines = r.stderr.strip().splitlines()
    assert r.returncode == code, (r.stdout, r.stderr)
    assert len(lines) == 1 and lines[0].startswith("doodlebox: ") and says in lines[0], r.stderr
    assert "Traceback" not in r.stderr and PASSWORD not in r.stderr and "wrong-pw" not in r.stderr


def test_the_commands_read_and_write_a_postgresql_database(pg_url, monkeypatch, tmp_path):
    store = Store(pg_url)
    for seq, e in enumerate([dict(GAME), {"k": "start", "g": 1, "col": 1, "d": 2}], start=1):
        store.append("c0ffee", 1, seq, e)
    store.close()
    record = ROOT / "tests" / "golden" / "suzhou-bonuses.json"
    r = doodlebox("import", str(record), "--db", pg_url)
    assert r.returncode == 0 and "imported as game 2" in r.stdout, r.stderr
    r = doodlebox("names", "1", "Ann", "Ben", "--db", pg_url)
    assert r.returncode == 0, r.stderr
    r = doodlebox("games", "--db", pg_url)
    assert r.returncode == 0 and "Ann, Ben" in r.stdout and "Li, Mei, Tao" in r.stdout, r.stderr
    r = doodlebox("stats", "--db", pg_url)
    assert r.returncode == 0 and "Li" in r.stdout, r.stderr
    monkeypatch.setitem(cli_run.ENV, "DOODLEBOX_DB", pg_url)       # no --db: $DOODLEBOX_DB
    r = doodlebox("export", "2", "-o", str(tmp_path / "game.json"))
    assert r.returncode == 0 and json.loads((tmp_path / "game.json").read_text()) == json.loads(record.read_text())
    r = doodlebox("show", "9")
    _one_line(r, "no game 9")
    assert shown(pg_url) in r.stderr


def test_doodlebox_log_stores_into_postgresql(pg_url, pg_server):
    """The shipped `doodlebox log` with its virtual console (CPython), into the server; the URL
    it prints has no password (it printed --db as given)."""
    import signal
    import subprocess
    import sys

    proc = subprocess.Popen([sys.executable, "-m", "doodlebox.cli", "log", "--cpython", "--db", pg_url],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=cli_run.ENV)
    try:
        deadline = time.monotonic() + 60
        seen = []
        while time.monotonic() < deadline and not seen:
            time.sleep(0.2)
            with pg_server.admin(dbname(pg_url)) as db:
                if VERSION_TABLE in {r[0] for r in db.execute("SELECT tablename FROM pg_tables")}:
                    seen = db.execute("SELECT uid, fw FROM consoles").fetchall()
        assert proc.poll() is None
        proc.send_signal(signal.SIGINT)
        out, _ = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert seen and "connected: console" in out and f"store: {shown(pg_url)}" in out, out
    assert PASSWORD in pg_url and PASSWORD not in out, out
    assert proc.returncode == 130 and "Traceback" not in out, out


def test_a_wrong_password_a_server_down_and_a_bad_url_are_one_line_and_exit_2(pg_url, pg_server):
    store = Store(pg_url)
    store.append("c0ffee", 1, 1, dict(GAME))
    store.close()
    cases = {
        pg_server.url(dbname(pg_url), password="wrong-pw"): "the server refuses the user or the password",
        pg_server.url(dbname(pg_url), user="nobody"): "the server refuses the user or the password",
        pg_url.replace(f":{pg_server.port}/", f":{free_port()}/"): "cannot reach the PostgreSQL server",
        pg_url.rsplit("/", 1)[0] + "/nosuchdb": "the server has no such database",
        f"postgresql://doodle:{PASSWORD}@127.0.0.1:notaport/x": "not a PostgreSQL URL",
        f"postgresql://doodle:{PASSWORD}@127.0.0.1:{pg_server.port}": "the URL names no database",
        f"postgresql://doodle:{PASSWORD}@127.0.0.1:{pg_server.port}/x?bogus=1": "not a PostgreSQL URL",
        "postgres://doodle@[::1/x": "not a PostgreSQL URL",
    }
    record = str(ROOT / "tests" / "golden" / "suzhou-bonuses.json")
    for k, (url, says) in enumerate(cases.items()):
        # a command that reads, one that writes, one that may create the database
        command = (["games"], ["names", "1", "Cy"], ["import", record])[k % 3]
        _one_line(doodlebox(*command, "--db", url), says)
    with pytest.raises(StoreError) as err:
        Store(pg_server.url(dbname(pg_url), password="wrong-pw"))
    assert err.value.cause == "auth" and not err.value.transient
    after = Store(pg_url)
    assert [(g["id"], g["names"]) for g in after.games()] == [(1, ["P1", "P2"])]      # what it had
    after.close()


# -- locked, lost, down: transient, and nothing acknowledged that is not committed ---------------
def test_a_database_locked_by_another_writer_is_said_and_nothing_is_stored(pg_url, pg_server):
    store = Store(pg_url, timeout=0.3)
    with pg_server.admin(dbname(pg_url)) as other:
        other.execute("SELECT pg_advisory_lock(%s)", (WRITERS,))       # another doodlebox writing
        with pytest.raises(StoreError) as err:
            store.append("c0ffee", 1, 1, dict(ROLL))
        assert err.value.cause == "locked" and err.value.transient
        assert str(err.value).startswith(f"{shown(pg_url)}: the database is locked by another program while "
                                          "storing events")
        assert store.events() == []                           # reading is not held up
    assert store.append("c0ffee", 1, 1, dict(ROLL)).ack == 1
    store.close()


def _held_in_a_transaction(pg_server, url: str, uid: str, boot: int):
    """An admin connection that holds the streams row of (uid, boot) locked: a transaction that
    stores the next event of it waits there, in the middle, until the lock is let go."""
    other = pg_server.admin(dbname(url))
    other.execute("BEGIN")
    assert other.execute("SELECT next_seq FROM streams WHERE uid = %s AND boot = %s FOR UPDATE",
                         (uid, boot)).fetchone()
    return other


def _waiting(pg_server, url: str) -> None:
    """Until a connection of `doodle` waits for a lock."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        with pg_server.admin() as db:
            if db.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = %s AND usename = 'doodle' "
                          "AND wait_event_type = 'Lock'", (dbname(url),)).fetchone()[0]:
                return
        time.sleep(0.02)
    raise AssertionError("nothing waits for the lock")


def test_a_connection_lost_in_a_transaction_is_transient_nothing_is_stored_and_the_next_one_connects(
        pg_url, pg_server):
    store = Store(pg_url, timeout=20)
    store.append("c0ffee", 1, 1, dict(ROLL))
    other = _held_in_a_transaction(pg_server, pg_url, "c0ffee", 1)
    got: list = []
    t = threading.Thread(target=lambda: got.append(_raised(lambda: store.append_many(
        "c0ffee", [(1, 2, dict(ROLL)), (1, 3, dict(ROLL))]))))
    t.start()
    _waiting(pg_server, pg_url)        # events 2 and 3 inserted, the stream's next not yet
    assert pg_server.end_connections(dbname(pg_url)) == 1
    t.join(10)
    other.execute("ROLLBACK")
    other.close()
    (err,) = got
    assert isinstance(err, StoreError) and err.cause == "lost" and err.transient, err
    assert "while storing events" in str(err) and PASSWORD not in str(err)
    assert store.next_seq("c0ffee", 1) == 2 and [s for _, _, s, _ in store.events()] == [1]   # connected again
    assert [r.status for r in store.append_many("c0ffee", [(1, 2, dict(ROLL)), (1, 3, dict(ROLL))])] == [
        "stored", "stored"]
    pg_server.end_connections(dbname(pg_url))          # ended while idle: the next write connects again
    assert store.append("c0ffee", 1, 4, dict(ROLL)).status == "stored"
    assert [s for _, _, s, _ in store.events()] == [1, 2, 3, 4]
    store.close()


def _raised(work):
    try:
        return work()
    except Exception as exc:
        return exc


class _CheckedPort(test_host_link.FakePort):
    """A console's port that, at every ack it is sent, looks (on a connection of its own) at
    what the database has committed: an ack of an event not committed is counted."""

    def __init__(self, pg_server, url: str):
        super().__init__()
        self.server, self.url = pg_server, url
        self.early: list[tuple[int, int]] = []

    def write(self, data):
        n = super().write(data)
        msg = self.sent[-1]
        if msg["t"] == "ack" and msg["s"]:
            with self.server.admin(dbname(self.url)) as db:
                held = db.execute("SELECT count(*) FROM events WHERE boot = %s AND seq <= %s",
                                  (msg["boot"], msg["s"])).fetchone()[0]
            if held != msg["s"]:
                self.early.append((msg["boot"], msg["s"]))
        return n


def test_the_link_retries_through_a_lost_connection_and_acknowledges_only_what_is_committed(pg_url, pg_server):
    from test_host_link import ev, hello

    notes: list[str] = []
    port = _CheckedPort(pg_server, pg_url)
    link = HostLink(port, Store(pg_url, timeout=20), on_note=notes.append)
    port.inbox = hello() + ev(1) + ev(2)
    link.poll()
    assert test_host_link.sent(port) == [("ack", 1, 2)]
    port.sent.clear()
    other = _held_in_a_transaction(pg_server, pg_url, "abc", 1)
    port.inbox = ev(3) + ev(4) + ev(5)
    t = threading.Thread(target=link.poll)
    t.start()
    for _ in range(2):                   # lost twice: the retry connects again and waits again
        _waiting(pg_server, pg_url)
        assert test_host_link.sent(port) == []            # nothing acknowledged meanwhile
        assert pg_server.end_connections(dbname(pg_url)) == 1
    _waiting(pg_server, pg_url)
    other.execute("ROLLBACK")
    other.close()
    t.join(20)
    assert not t.is_alive()
    assert test_host_link.sent(port) == [("ack", 1, 5)] and port.early == []
    assert link.counts["retries"] == 2 and link.counts["stored"] == 5
    assert "the connection to the server was lost while storing events" in notes[0]
    assert "retrying, nothing is acknowledged until it is stored" in notes[0]
    assert [s for _, _, s, _ in link.store.events()] == [1, 2, 3, 4, 5]


def test_a_server_that_goes_down_while_logging_is_waited_for(pg_url, pg_server):
    store = Store(pg_url)
    store.append("c0ffee", 1, 1, dict(ROLL))
    pg_server.halt()
    try:
        with pytest.raises(StoreError) as err:
            store.append("c0ffee", 1, 2, dict(ROLL))
        assert err.value.cause == "lost" and err.value.transient
        with pytest.raises(StoreError) as err:         # still down: connecting again fails, transient
            store.append("c0ffee", 1, 2, dict(ROLL))
        assert err.value.cause == "lost" and "cannot be made again" in str(err.value)
    finally:
        pg_server.launch()
    assert store.append("c0ffee", 1, 2, dict(ROLL)).status == "stored"
    assert [s for _, _, s, _ in store.events()] == [1, 2]
    store.close()


def test_game_and_people_numbers_go_on_by_one_after_the_server_stops_at_once(pg_url, pg_server):
    """Issue 32: after an immediate stop of PostgreSQL its identity columns jumped by 32 (the
    sequence's cache), and the panel said "game 34". A new row's number is one more than the
    highest, in the writers' turn."""
    store = Store(pg_url)
    for g in (1, 2):
        store.append("c0ffee", 1, g, dict(GAME, g=g))
    store.set_names(1, ["Ann", "Ben"])
    store.close()
    pg_server.halt()
    pg_server.launch()
    store = Store(pg_url)
    store.append("c0ffee", 1, 3, dict(GAME, g=3))
    store.set_names(3, ["Cat", "Dan"])
    assert [g["id"] for g in store.games()] == [1, 2, 3]
    assert sorted(p["id"] for p in store.people()) == [1, 2, 3, 4]
    store.close()


def test_a_read_only_store_reads_and_refuses_to_write(pg_url):
    store = Store(pg_url)
    store.append("c0ffee", 1, 1, dict(GAME))
    store.close()
    reader = Store(pg_url, readonly=True)
    assert [g["edition"] for g in reader.games()] == ["city"]
    with pytest.raises(StoreError) as err:
        reader.set_names(1, ["Ann"])
    assert err.value.cause == "readonly" and reader.names(1) == ["P1", "P2"]
    reader.close()


def test_demo_games_from_three_consoles_at_once_land_in_postgresql(pg_url, tmp_path):
    """Issue 22: `doodlebox demo --consoles 3 --db postgresql://...`: three virtual consoles (the
    firmware in the VM) each play a game at the same time, each logged by a link of its own into
    the server; the lines name the database without its password."""
    import subprocess
    import sys

    env = dict(cli_run.ENV, XDG_DATA_HOME=str(tmp_path / "data"))
    r = subprocess.run([sys.executable, "-m", "doodlebox.cli", "demo", "--consoles", "3", "--players", "1",
                        "--db", pg_url, "--press-ms", "60", "--gap-ms", "50"],
                       capture_output=True, text=True, env=env, timeout=600, stdin=subprocess.DEVNULL)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    store = Store(pg_url)
    try:
        games = store.games()
    finally:
        store.close()
    assert len(games) == 3 and len({g["uid"] for g in games}) == 3, games
    assert all(g["state"] == "ended" for g in games), games
    assert r.stdout.count("The console's own totals and the PC's agree") == 3, r.stdout[-3000:]
    assert PASSWORD in pg_url and PASSWORD not in r.stdout + r.stderr
    assert f"kept in {shown(pg_url)}" in r.stdout
