"""The page's server holds up (issue 18): every bad request is a 4xx with its reason, never a 500
(a game number beyond SQLite's integers, JSON nested 2000 deep, a Content-Length written in other
digits than 0-9), a slow or half-open client is dropped after the timeout (in its headers and in
its body), and short versions of `make faults`'s two web lines (tests/tools/faults_web.py): 50
requests at once all answered, 10 slow clients held while ordinary requests are answered, and
the server's threads bounded all along. What is answered and dropped is asserted, never how fast."""
from __future__ import annotations

import json
import random
import socket
import time
from pathlib import Path

import faults_web
import pytest
from cli_run import ROOT

from doodlebox.history.games_view import import_records
from doodlebox.store import Store
from doodlebox.web.server import MAX_DEPTH, TIMEOUT, WebServer

pytestmark = pytest.mark.slow      # (tests/conftest.py: the quick tier)

GOLDEN = ROOT / "tests" / "golden" / "suzhou-bonuses.json"
NAMES = ["Lin", "Mei", "Tao"]     # game 1's seats


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db: Path = tmp_path_factory.mktemp("web-limits") / "games.sqlite3"
    store = Store(db)
    try:
        import_records(store, [GOLDEN], False)
    finally:
        store.close()
    with WebServer(db, 0) as web:
        yield web


def exchange(port: int, data: bytes, timeout: float = 30.0) -> tuple[int, dict, bytes]:
    """`data` sent as it is on a connection of its own: (status, headers, body) of the answer."""
    status, headers, body = faults_web.exchange(port, data, timeout)
    assert status, body[:200]
    return status, headers, body


def post_raw(server: WebServer, path: str, body: bytes, length: bytes | None = None) -> tuple[int, dict, bytes]:
    head = (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nContent-Type: application/json\r\n"
            "Connection: close\r\n").encode()
    head += b"Content-Length: " + (length if length is not None else str(len(body)).encode()) + b"\r\n\r\n"
    return exchange(server.port, head + body)


def post_json(server: WebServer, path: str, data) -> tuple[int, str]:
    status, _, body = post_raw(server, path, json.dumps(data).encode())
    return status, json.loads(body)["error"] if status != 200 else ""


# -- bad requests: a 4xx and its reason ---------------------------------------------------------
@pytest.mark.parametrize("gid", [10 ** 30, 2 ** 63, -(2 ** 63) - 1, 0, -1])
def test_a_game_number_beyond_sqlite_is_no_game(server, gid):
    """The server checks the range before the store is asked (SQLite's integers are 64-bit: a
    larger one was an OverflowError, a 500)."""
    status, error = post_json(server, "/api/names", {"game": gid, "names": NAMES})
    assert status == 404 and f"no game {gid}" in error


def test_json_nested_2000_deep_is_refused(server):
    for body in (b'{"game": 1, "names": ' + b"[" * 2000 + b"]" * 2000 + b"}",
                 b'{"game": 1, "names": ' + b'{"a":' * 600 + b"1" + b"}" * 600 + b"}",
                 b'{"button": ' + b"[" * (MAX_DEPTH + 1) + b"]" * (MAX_DEPTH + 1) + b"}"):
        assert len(body) <= 4096
        for path in ("/api/names", "/api/press"):
            status, headers, answer = post_raw(server, path, body)
            assert status == 400, (path, answer[:200])
            assert json.loads(answer)["error"] == f"JSON nested deeper than {MAX_DEPTH} arrays or objects"
            assert "script-src 'self'" in headers["Content-Security-Policy"]
    # brackets inside strings are text, not depth; as deep as allowed is parsed (and then checked)
    status, error = post_json(server, "/api/names", {"game": 1, "names": ["[[[[" * 20 + "{" * 40]})
    assert status == 400 and "longer than" in error
    within = b'{"game": 1, "names": ' + b"[" * (MAX_DEPTH - 1) + b"]" * (MAX_DEPTH - 1) + b"}"
    status, _, answer = post_raw(server, "/api/names", within)
    assert status == 400 and "give the names" in json.loads(answer)["error"]


# a header's bytes are read as Latin-1: b"\xb2" is "²", which str.isdigit() and int() take
@pytest.mark.parametrize("length", [b"\xb2", b"3\xb9", b"\xb3\xb5", "\u0663\u0665".encode(),
                                    "\uff11\uff12".encode(), b"+35", b"3_5", b"0x23", b"35.0", b"3 5"])
def test_a_content_length_in_other_than_ascii_digits_is_400(server, length):
    body = json.dumps({"game": 1, "names": NAMES}).encode()
    status, headers, answer = post_raw(server, "/api/names", body, length)
    assert status == 400, answer[:200]
    assert b"Content-Length" in answer
    assert headers["X-Content-Type-Options"] == "nosniff" and "frame-ancestors 'none'" in \
        headers["Content-Security-Policy"]


def test_a_path_with_other_digits_is_no_page(server):
    """(These were refused before too: the paths' patterns are ASCII. Kept as a guard.)"""
    host = f"Host: 127.0.0.1:{server.port}\r\nConnection: close\r\n\r\n".encode()
    for path in (b"/game/%C2%B2", b"/game/%D9%A3", b"/game/1/sheet/%C2%B2.png", b"/game/%EF%BC%91"):
        status, _, _ = exchange(server.port, b"GET " + path + b" HTTP/1.1\r\n" + host)
        assert status == 404, path
    for path in ("/game/²", "/game/٣", "/game/1/sheet/¹.png"):
        status, _, answer = exchange(server.port, b"GET " + path.encode() + b" HTTP/1.1\r\n" + host)
        assert status in (400, 404), (path, answer[:200])


def test_the_names_still_work_after_the_bad_requests(server):
    assert post_json(server, "/api/names", {"game": 1, "names": NAMES}) == (200, "")


# -- slow clients: dropped after the timeout ------------------------------------------------------
def dropped_after(s: socket.socket, limit: float) -> float | None:
    """Seconds until the server closes `s` (None: still open after `limit`, or it answered)."""
    t0 = time.monotonic()
    s.settimeout(limit)
    try:
        data = s.recv(4096)
    except TimeoutError:
        return None
    except OSError:
        data = b""
    return time.monotonic() - t0 if not data else None


@pytest.mark.parametrize("where", ["request line", "headers", "body", "nothing sent"])
def test_a_half_open_client_is_dropped_after_the_timeout(server, where):
    host = f"Host: 127.0.0.1:{server.port}\r\n"
    partial = {"request line": "GET /api/ga",
               "headers": f"GET /api/games HTTP/1.1\r\n{host}X-Slow: 1",
               "body": f"POST /api/names HTTP/1.1\r\n{host}Content-Type: application/json\r\n"
                       'Content-Length: 40\r\n\r\n{"game": 1,',
               "nothing sent": ""}[where]
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
        s.sendall(partial.encode())
        after = dropped_after(s, TIMEOUT + 10)
    assert after is not None, f"a client stopped in its {where} is still held after {TIMEOUT + 10} s"


def test_a_client_that_drips_its_request_is_dropped_too(server):
    """One byte every second keeps a connection busy, never silent: the request must still be whole
    TIMEOUT s after its first byte."""
    request = f"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nX-Slow: " + "x" * 100
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
        closed = False
        for ch in request[:3 * TIMEOUT + 10]:
            try:
                s.sendall(ch.encode())
                s.settimeout(1.0)
                if s.recv(4096) == b"":
                    closed = True
                    break
            except TimeoutError:
                continue
            except OSError:
                closed = True
                break
    assert closed, "a client dripping its request is held for ever"


# -- short versions of make faults's web lines (a real `doodlebox web` process) --------------------
def test_50_requests_at_once_are_all_answered():
    r = faults_web.fault_concurrent(50, random.Random(18))
    assert r["answered"] == 50 and r["errors"] == 0, faults_web.line("web", r)
    assert r["threads"] <= faults_web.threads_allowed(), faults_web.line("web", r)


def test_10_slow_clients_are_held_then_dropped_while_others_are_answered():
    r = faults_web.fault_slow(10, random.Random(18))
    assert r["answered"] == r["ordinary"] and r["ordinary_errors"] == 0, faults_web.line("web", r)
    assert r["dropped"] == 10, faults_web.line("web", r)
    assert r["threads"] <= faults_web.threads_allowed(), faults_web.line("web", r)
