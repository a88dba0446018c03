"""The coach's analyses on the page (issue 32; host/doodlebox/web/analyses.py, docs/web.md, "The
coach's analyses"): made in a process of their own, a request is answered at once with the
analysis or "under way" (202), a bound reached is 429 (this client's) or 503 (the queue's), each
with Retry-After; the same game asked twice is one analysis; on the network a new analysis needs
the page's token (403 without one), and one made is served to anyone; the page is answered while
analyses are queued and running; the analysis, once made, is coach.analysis's. What is answered,
never how fast: an analysis that must still be under way is given playouts it cannot finish."""
from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import faults_web
import pytest
from cli_run import ROOT

from doodlebox.history import game_records
from doodlebox.history.games_view import import_records
from doodlebox.store import Store
from doodlebox.web import coach
from doodlebox.web.server import WebServer

pytestmark = pytest.mark.slow      # (tests/conftest.py: the quick tier)

# the long ones first: games 1, 2, ... in this order
RECORDS = ("suzhou-bonuses", "city-hotel15", "treasures-shared", "monsters-bottles", "suzhou-control",
           "monsters-kraken", "shanghai-floors", "shanghai-ring", "city-solo", "treasures-solo")
SOLO = RECORDS.index("city-solo") + 1
TOKEN = "coach-token-0123456789"
ENDLESS = 10 ** 7          # playouts a plan: an analysis that is still under way when the test ends


@pytest.fixture(scope="module")
def db(tmp_path_factory) -> Path:
    path: Path = tmp_path_factory.mktemp("web-coach") / "games.sqlite3"
    store = Store(path)
    try:
        import_records(store, [ROOT / "tests" / "golden" / f"{name}.json" for name in RECORDS], False)
    finally:
        store.close()
    return path


@pytest.fixture(scope="module")
def clients() -> list[str | None]:
    """Client addresses of their own (127.0.0.10, ...), as the server counts clients."""
    return faults_web.sources(12)


def ask(web: WebServer, path: str, source: str | None = None, token: str | None = None) -> tuple[int, dict, bytes]:
    auth = f"Authorization: Bearer {token}\r\n" if token else ""
    status, headers, body = faults_web.exchange(
        web.port, f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{web.port}\r\n{auth}Connection: close\r\n\r\n".encode(),
        30, source)
    assert status, body[:200]
    return status, headers, body


def coach_api(web: WebServer, gid: int, source: str | None = None, token: str | None = None) -> tuple[int, dict, dict]:
    status, headers, body = ask(web, f"/api/game/{gid}/coach", source, token)
    return status, headers, json.loads(body)


def until_made(web: WebServer, gid: int, token: str | None = None, limit: float = 180.0) -> dict:
    """Game `gid`'s analysis, asked again after each Retry-After (bounded: `limit` s)."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        status, headers, data = coach_api(web, gid, token=token)
        if status == 200:
            return data
        assert status == 202 and int(headers["Retry-After"]) > 0, (status, data)
        time.sleep(0.2)
    raise AssertionError(f"game {gid}'s analysis not made in {limit:g} s")


def record_of(db: Path, gid: int) -> dict:
    store = Store(db, readonly=True)
    try:
        return game_records.record(store, gid)
    finally:
        store.close()


def test_a_bound_reached_is_429_or_503_with_retry_after(db, clients):
    a, b, c = clients[:3]
    with WebServer(db, 0) as web:
        queue = web.views.analyses
        queue.playouts, queue.per_client, queue.queued = ENDLESS, 1, 2
        status, headers, data = coach_api(web, 1, a)
        assert status == 202 and data["under_way"] and int(headers["Retry-After"]) > 0, data
        # this client has one queued: its next game is 429, on either path
        status, headers, data = coach_api(web, 2, a)
        assert status == 429 and int(headers["Retry-After"]) > 0, data
        assert "this client has 1 analyses queued" in data["error"] and "\n" not in data["error"]
        status, headers, body = ask(web, "/game/2/coach.svg", a)
        assert status == 429 and headers["Content-Type"] == "image/svg+xml" and int(headers["Retry-After"]) > 0
        assert body.startswith(b"<svg") and b"try again" in body
        # another client queues game 2; the queue (2) is then full for a third
        assert coach_api(web, 2, b)[0] == 202
        status, headers, data = coach_api(web, 3, c)
        assert status == 503 and int(headers["Retry-After"]) > 0 and "queue is full" in data["error"], data
        if a is not None:
            # game 1 asked again, by its client or another, joins the analysis: no bound, no new one
            assert coach_api(web, 1, a)[0] == 202 and coach_api(web, 1, c)[0] == 202
        assert queue.started == 2 and queue.busy() == 2


def test_the_page_is_answered_while_eight_analyses_are_queued(db, clients):
    """The issue's case: eight games' analyses asked at once. Each request is answered (none
    waits for its analysis), and then, with analyses still queued and running, the page and the
    other paths are answered 200 while the coach still says "under way"."""
    with WebServer(db, 0) as web:
        web.views.analyses.playouts = ENDLESS
        out: list[int] = [0] * 8

        def one(k: int) -> None:
            out[k] = ask(web, f"/game/{k + 1}/coach.svg", clients[k])[0]

        threads = [threading.Thread(target=one, args=(k,), daemon=True) for k in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(120)
        assert all(s in (202, 429, 503) for s in out), out
        assert web.views.analyses.busy() > 0
        for path in ("/", "/api/games", "/game/1", "/api/live"):
            assert ask(web, path)[0] == 200, path
        status, headers, data = coach_api(web, 1, clients[0])
        assert status == 202 and data["under_way"] and int(headers["Retry-After"]) > 0


def test_the_same_game_asked_twice_is_one_analysis(db, clients):
    with WebServer(db, 0) as web:
        web.views.analyses.playouts = ENDLESS
        out: list[int] = [0, 0]
        paths = ("/game/4/coach.svg", "/api/game/4/coach")

        def one(k: int) -> None:
            out[k] = ask(web, paths[k], clients[k])[0]

        threads = [threading.Thread(target=one, args=(k,), daemon=True) for k in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(120)
        assert out == [202, 202]
        assert coach_api(web, 4)[0] == 202
        assert web.views.analyses.started == 1 and web.views.analyses.busy() == 1


def test_a_network_page_without_a_token_starts_no_analysis(db):
    with WebServer(db, 0, host="0.0.0.0") as web:
        for path in ("/api/game/1/coach", "/game/1/coach.svg"):
            status, headers, body = ask(web, path, token=TOKEN)
            assert status == 403 and b"starts no analysis" in body and b"without a token" in body, body[:300]
            assert "Retry-After" not in headers
        assert web.views.analyses.started == 0
        assert ask(web, "/")[0] == 200


def test_with_a_token_an_analysis_needs_it_and_one_made_is_served_to_anyone(db):
    for host in ("0.0.0.0", "127.0.0.1"):          # on 127.0.0.1 a token given is needed there too, as for writes
        with WebServer(db, 0, host=host, token=TOKEN) as web:
            web.views.analyses.playouts = 1
            for token in (None, TOKEN[:-1], TOKEN + "x", "Basic " + TOKEN):
                status, _, data = coach_api(web, SOLO, token=token)
                assert status == 403 and "token" in data["error"] and TOKEN not in data["error"], (host, token, data)
            assert web.views.analyses.started == 0
            made = until_made(web, SOLO, token=TOKEN)
            assert web.views.analyses.started == 1
            status, _, data = coach_api(web, SOLO)               # without the token: the one made
            assert status == 200 and data == made
            assert ask(web, f"/game/{SOLO}/coach.svg")[0] == 200
            assert coach_api(web, 1)[0] == 403                   # another game: none started
            assert web.views.analyses.started == 1


def test_the_analysis_made_is_the_one_coach_analysis_gives(db):
    """The page's analysis (made in its process with WEB_PLAYOUTS and the fixed seed) is
    web/coach.analysis's, field for field but the seconds it took, and its chart is chart_svg's."""
    with WebServer(db, 0) as web:
        made = until_made(web, SOLO)
        status, headers, svg = ask(web, f"/game/{SOLO}/coach.svg")
    here = coach.analysis(record_of(db, SOLO))
    assert here["analysed"] and made["seconds"] > 0
    assert {**made, "seconds": 0} == json.loads(json.dumps({**here, "seconds": 0}))    # (but the time it took)
    assert status == 200 and headers["Content-Type"] == "image/svg+xml" and svg == coach.chart_svg(here).encode()
