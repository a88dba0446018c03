"""Issue 32: the shipped `doodlebox log` (tests/tools/faults.py's Logger, a fake console on a pty:
tests/support/fakeconsole.py) into a real PostgreSQL server (tests/support/pgserver.py) that stops answering, and
whose database is dropped, or emptied, under it.

- The server's processes of the logger's sessions stopped (SIGSTOP) for 8 s: no timeout comes
  back from a stopped process and TCP keepalives are still answered, so the logger watches the
  wait itself: one note after 5 s ("the server has not answered for 5 s; holding the console's
  events ..."), one when it answers again, nothing acknowledged meanwhile, every event stored.
- The database dropped (and made again, empty) or its tables dropped: one line naming the
  database, exit code 1, no traceback (as a deleted SQLite file), not `relation "streams" does
  not exist`."""
from __future__ import annotations

import os
import random
import re
import signal
import time

import pytest
from fakeconsole import FakeConsole
from logger_rig import Logger, Stream

from doodlebox.store.postgres import STALL_S, shown

pytestmark = pytest.mark.slow      # (tests/conftest.py: the quick tier)


def dbname(url: str) -> str:
    return url.rsplit("/", 1)[1]


def _backends(pg_server, url: str) -> list[int]:
    """The server processes of the logger's sessions (application_name doodlebox) on the database."""
    with pg_server.admin() as db:
        return [r[0] for r in db.execute("SELECT pid FROM pg_stat_activity WHERE datname = %s AND "
                                         "application_name = 'doodlebox'", (dbname(url),))]


@pytest.fixture
def logged(pg_url, tmp_path):
    """A fake console, `doodlebox log --port ... --db URL` connected to it, and a stream of games."""
    console = FakeConsole()
    logger = Logger(console.path, pg_url, tmp_path / "log.txt").start()      # type: ignore[arg-type]
    try:
        logger.wait_connected(console)
        yield console, logger, Stream(console, random.Random(32), rate=40.0)
    finally:
        logger.stop()
        console.pull()


def test_a_server_that_stops_answering_is_said_and_nothing_is_acknowledged_until_it_answers(
        pg_url, pg_server, logged):
    console, logger, stream = logged
    stream.run(1.0)
    assert stream.finish(30), logger.text()
    pids = _backends(pg_server, pg_url)
    assert pids, "no session of the logger on the server"
    acked_before = len(console.acks)
    for pid in pids:
        os.kill(pid, signal.SIGSTOP)
    stopped, stopped_pc = time.monotonic(), time.perf_counter()
    said_after = None
    try:
        while time.monotonic() - stopped < 8.0:
            stream.run(0.1)
            if said_after is None and "has not answered" in logger.text():
                said_after = time.monotonic() - stopped
        frozen = console.acks[acked_before:]
    finally:
        for pid in pids:
            os.kill(pid, signal.SIGCONT)
    print(f"the stall said {said_after} s after the server's sessions stopped")
    # at most the batch whose COMMIT had returned as they stopped is acknowledged, nothing after
    top = max((s for _, s, _ in console.acks[:acked_before]), default=0)
    late = [(s, round(t - stopped_pc, 2)) for _, s, t in frozen if t - stopped_pc > 0.5 and s > top]
    assert not late, (late, logger.text()[-2000:])
    assert stream.finish(60), logger.text()[-2000:]
    code = logger.stop()
    text = logger.text()
    where = shown(pg_url)
    assert text.count("the server has not answered") == 1, text
    assert (f"note: {where}: the server has not answered for {STALL_S:.0f} s; holding the console's events "
            "(nothing is acknowledged until it answers)") in text, text
    again = re.findall(rf"note: {re.escape(where)}: the server answered again after ([0-9.]+) s", text)
    assert len(again) == 1 and 7.0 <= float(again[0]) <= 20.0, text
    assert said_after is not None and STALL_S <= said_after < 8.0, text
    assert code == 130 and "Traceback" not in text, text
    got = console.check(pg_url)
    assert got["lost"] == 0 and got["duplicated"] == 0 and got["wrong"] == 0 and got["stored"] == got["made"], got


@pytest.mark.parametrize("how", ["tables dropped", "database dropped and made again", "database dropped"])
def test_a_database_dropped_or_emptied_under_the_logger_ends_it_in_one_line(how, pg_url, pg_server, logged):
    console, logger, stream = logged
    stream.run(0.5)
    assert stream.finish(30), logger.text()
    name = dbname(pg_url)
    with pg_server.admin(name if how == "tables dropped" else "postgres") as admin:
        if how == "tables dropped":
            tables = [r[0] for r in admin.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")]
            admin.execute("DROP TABLE " + ", ".join(tables) + " CASCADE")
        else:
            admin.execute(f"DROP DATABASE {name} WITH (FORCE)")
            if how == "database dropped and made again":
                admin.execute(f"CREATE DATABASE {name} OWNER doodle")
    acked = len(console.acks)
    for _ in range(3):
        stream.add(1)
    assert console.run_until(lambda: not logger.running(), 30), logger.text()[-2000:]
    code = logger.proc.wait() if logger.proc is not None else None
    time.sleep(0.1)
    text = logger.text()
    last = text.strip().splitlines()[-1]
    where = shown(pg_url)
    if how == "database dropped":      # the connection made again finds no database
        assert last == (f"doodlebox: {where}: the database is gone (it was dropped while doodlebox was storing into "
                        "it): nothing more is acknowledged (the console keeps its events for the next doodlebox "
                        "log)"), text
    else:
        assert last == (f"doodlebox: {where}: the database's tables are gone (the database was dropped or emptied "
                        "while doodlebox was storing into it): nothing more is acknowledged (the console keeps its "
                        "events for the next doodlebox log)"), text
    assert code == 1 and "Traceback" not in text and 'relation "streams"' not in text, text
    top = max(s for _, s, _ in console.acks[:acked])          # nothing more is acknowledged
    assert all(s <= top for _, s, _ in console.acks[acked:]), (console.acks[acked - 1:], text)
