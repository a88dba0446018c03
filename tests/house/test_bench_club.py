"""`make bench`'s club harness (tests/tools/bench_club.py) on a small club: 3 fake consoles x 30 events,
one shipped `doodlebox log --port ... --port ...` (its own process), into an SQLite file and into
a real PostgreSQL server (tests/support/pgserver.py). Nothing lost, nothing stored twice, nothing
acknowledged that the database did not hold, each console's events under its own uid. No timing
is asserted: the figures are the bench's."""
from __future__ import annotations

import pytest
from bench_club import line, run_club

pytestmark = pytest.mark.slow      # (tests/conftest.py: the quick tier)

CONSOLES, EVENTS = 3, 30


def _check(r: dict) -> None:
    assert r["connected"] and r["finished"], line(r) + "\n" + "\n".join(r["log_tail"])
    assert (r["lost"], r["duplicated"], r["wrong"], r["acked_before_stored"]) == (0, 0, 0, 0), line(r)
    assert r["made"] == r["stored"] == CONSOLES * EVENTS, line(r)
    assert r["exit"] == 130 and not r["traceback"], (r["exit"], r["log_tail"])      # Ctrl-C, as a person ends it
    assert r["checks"] >= 1
    assert len(r["per_console"]) == CONSOLES
    for uid, got in r["per_console"].items():
        assert (got["made"], got["stored"]) == (EVENTS, EVENTS), (uid, got)
    assert r["by_uid"] == {uid: EVENTS for uid in r["per_console"]}, r["by_uid"]
    assert line(r).startswith(f"club, {CONSOLES} consoles into {r['backend']}")
    assert f": {CONSOLES * EVENTS} events in " in line(r) and ", lost 0, duplicated 0, acked before stored 0" in line(r)


@pytest.mark.parametrize("rate", [None, 20.0])     # all at once; paced, 20 events/s each
def test_three_consoles_at_once_into_sqlite(tmp_path, rate):
    r = run_club(tmp_path / "club.sqlite3", tmp_path, consoles=CONSOLES, games=1, events=EVENTS, timeout=60, rate=rate)
    assert r["backend"] == "sqlite" and r["rate"] == rate
    _check(r)


@pytest.mark.parametrize("rate", [None, 20.0])
def test_three_consoles_at_once_into_postgresql(tmp_path, pg_url, rate):
    r = run_club(pg_url, tmp_path, consoles=CONSOLES, games=1, events=EVENTS, timeout=60, rate=rate)
    assert r["backend"] == "postgresql" and r["rate"] == rate
    _check(r)
