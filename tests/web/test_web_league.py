"""`doodlebox web` for a club (issue 22): the page of a PostgreSQL league database (a real server:
tests/support/pgserver.py), the page open to the network (`--host 0.0.0.0`), read-only there unless a
write sends the page's token, and the league view (/league, /player/N) of doodlebox/league.py's
standings and rating histories.

The pages are tested with fake standings (doodlebox/league.py's two functions monkeypatched) and
against the real ratings on PostgreSQL."""
from __future__ import annotations

import http.client
import json
import re
import signal
import socket
import subprocess
import sys
import time

import pytest
from cli_run import ENV
from cli_run import doodlebox as run
from markupsafe import escape
from pgserver import PASSWORD
from test_web_server import EVIL, get, make_db, post

import doodlebox.history
from doodlebox.store import Store
from doodlebox.store.postgres import shown
from doodlebox.web.server import WebServer

pytestmark = pytest.mark.slow      # (tests/conftest.py: the quick tier)

TOKEN = "league-night-token-0123456789"
NAMES = {"game": 2, "names": ["Lin", "Mei", "Tao"]}


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


class Web:
    """`doodlebox web ...` as its own process: its first lines (stdout and stderr), its port."""

    def __init__(self, *args: str, env: dict | None = None):
        self.proc = subprocess.Popen([sys.executable, "-m", "doodlebox.cli", "web", "--port", "0", *args],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                     env=dict(ENV, **(env or {})), stdin=subprocess.DEVNULL)
        self.line = self.proc.stdout.readline() if self.proc.stdout else ""
        m = re.match(r"web: http://127\.0\.0\.1:(\d+)/", self.line)
        if not m:
            self.stop()
            raise AssertionError(f"no address from the command: {self.line!r} {self.proc.stderr.read()!r}")
        self.port = int(m.group(1))

    def request(self, path: str, address: str = "127.0.0.1", method: str = "GET", body: bytes | None = None,
                headers: dict | None = None) -> tuple[int, bytes]:
        c = http.client.HTTPConnection(address, self.port, timeout=30)
        try:
            c.request(method, path, body=body, headers=headers or {})
            r = c.getresponse()
            return r.status, r.read()
        finally:
            c.close()

    def stop(self) -> tuple[int, str]:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        return self.proc.returncode, self.proc.stderr.read() if self.proc.stderr else ""


def own_address() -> str | None:
    """An address of this computer other than a loopback one, if it has one."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))       # no packet is sent: the route's source address
            address = s.getsockname()[0]
    except OSError:
        return None
    return None if address.startswith("127.") or address == "0.0.0.0" else address


# -- PostgreSQL ---------------------------------------------------------------------------------
def test_the_page_serves_a_postgresql_database_without_showing_its_password(pg_url):
    facts = make_db(pg_url)            # the same three games as the file's tests, on the server
    with WebServer(pg_url, 0) as server:
        status, _, body = get(server, "/")
        page = body.decode()
        assert status == 200, page
        rows = dict(re.findall(r'<tr id="game-(\d+)">(.*?)</tr>', page))
        assert sorted(rows) == ["1", "2", "3"]
        assert f"Ann {facts['ended'].scores()[0]}" in rows["1"] and "Li 46, Mei 32, Tao 26" in rows["2"]
        assert "&lt;img src=x onerror=f()&gt;" in page and EVIL not in page
        assert shown(pg_url) in page and PASSWORD not in page
        games = {g["id"]: g for g in json.loads(get(server, "/api/games")[2])["games"]}
        assert games[2]["winners"] == ["Li"]
        status, _, body = get(server, "/game/2")
        assert status == 200 and "Doodle China: Suzhou" in body.decode() and PASSWORD not in body.decode()
        assert json.loads(get(server, "/api/live")[2])["game"]["id"] == 3
        # a write on 127.0.0.1 without a token, as on a file
        status, answer = post(server, "/api/names", NAMES)
        assert status == 200 and answer["names"] == NAMES["names"]
        assert get(server, "/game/99")[0] == 404
    store = Store(pg_url, readonly=True)
    try:
        assert store.names(2) == NAMES["names"]
    finally:
        store.close()


def test_the_command_serves_a_postgresql_database_and_a_wrong_password_is_one_line(pg_url):
    make_db(pg_url)
    web = Web("--db", pg_url)
    try:
        assert shown(pg_url) in web.line and PASSWORD not in web.line
        status, body = web.request("/", headers={"Host": f"127.0.0.1:{web.port}"})
        assert status == 200 and b'id="game-2"' in body and PASSWORD.encode() not in body
    finally:
        code, err = web.stop()
    assert code == 130 and PASSWORD not in err, err
    wrong = pg_url.replace(f":{PASSWORD}@", ":not-the-password@")
    r = run("web", "--db", wrong, "--port", "0")
    assert r.returncode == 2 and r.stdout == "" and r.stderr.count("\n") == 1, r.stderr
    assert "not-the-password" not in r.stderr and shown(wrong) in r.stderr


# -- the network ----------------------------------------------------------------------------------
def test_host_0_0_0_0_listens_everywhere_says_so_and_is_read_only_without_a_token(tmp_path):
    db = tmp_path / "games.sqlite3"
    make_db(db)
    web = Web("--db", str(db), "--host", "0.0.0.0", env={"DOODLEBOX_WEB_TOKEN": ""})
    try:
        # 127.0.0.2 is this computer but not 127.0.0.1: only a server on every interface answers it
        status, body = web.request("/", address="127.0.0.2")
        assert status == 200 and b'data-writes="closed"' in body and b'id="read-only"' in body
        mine = own_address()
        if mine is not None:
            assert web.request("/api/games", address=mine)[0] == 200
        # a Host header that names no address of this computer: a site rebinding its own name
        assert web.request("/", headers={"Host": f"evil.example:{web.port}"})[0] == 403
        assert web.request("/", headers={"Host": f"192.0.2.77:{web.port + 1}"})[0] == 403
        status, body = web.request("/api/names", method="POST", body=json.dumps(NAMES).encode(),
                                   headers={"Content-Type": "application/json", **bearer(TOKEN)})
        assert status == 403 and "read-only" in json.loads(body)["error"]
        status, body = web.request("/game/2")
        assert status == 200 and b'id="names-save"' not in body and b'id="seat-1" maxlength="24" value="Li" disabled' \
            in body
    finally:
        code, err = web.stop()
    assert code == 130
    assert err.startswith("warning: the page is reachable from the network on 0.0.0.0:") and "read-only" in err, err
    store = Store(db, readonly=True)
    try:
        assert store.names(2) == ["Li", "Mei", "Tao"]
    finally:
        store.close()


def test_the_token_from_the_environment_opens_writes_to_the_network(tmp_path):
    db = tmp_path / "games.sqlite3"
    make_db(db)
    web = Web("--db", str(db), "--host", "0.0.0.0", env={"DOODLEBOX_WEB_TOKEN": TOKEN})
    try:
        data = json.dumps(NAMES).encode()
        kind = {"Content-Type": "application/json"}
        assert web.request("/api/names", address="127.0.0.2", method="POST", body=data, headers=kind)[0] == 403
        status, body = web.request("/api/names", address="127.0.0.2", method="POST", body=data,
                                   headers={**kind, **bearer(TOKEN)})
        assert status == 200 and json.loads(body)["names"] == NAMES["names"], body
    finally:
        code, err = web.stop()
    assert code == 130 and "writes need the token" in err and TOKEN not in err
    r = run("web", "--db", str(db), "--port", "0", "--token", "short")
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "16 to 256" in r.stderr


def test_writes_need_the_token_compared_and_never_a_wrong_one(tmp_path):
    db = tmp_path / "games.sqlite3"
    make_db(db)
    with WebServer(db, 0, host="0.0.0.0", token=TOKEN) as server:
        assert server.writes == "token" and server.address == ("0.0.0.0", server.port)
        page = get(server, "/game/2")[2].decode()
        assert 'data-writes="token"' in page and 'id="token-form"' in page and 'id="names-save"' in page
        assert TOKEN not in page
        for headers in ({}, bearer(TOKEN[:-1]), bearer(TOKEN + "x"), bearer(TOKEN.upper()),
                        {"Authorization": f"Basic {TOKEN}"}, {"Authorization": "Bearer"}, bearer("é" * 20)):
            status, answer = post(server, "/api/names", {"game": 2, "names": ["X", "Y", "Z"]}, headers)
            assert status == 403 and TOKEN not in answer["error"], (headers, answer)
            status, answer = post(server, "/api/press", {"button": "ROLL"}, headers)
            assert status == 403, (headers, answer)
            assert post(server, "/api/token", {}, headers)[0] == 403
        assert post(server, "/api/token", {}, bearer(TOKEN)) == (200, {"token": "accepted"})
        status, answer = post(server, "/api/names", NAMES, bearer(TOKEN))
        assert status == 200 and answer["names"] == NAMES["names"]
        # the token lets a write through; the write is still checked
        assert post(server, "/api/press", {"button": "ROLL"}, bearer(TOKEN))[0] == 409
        status, _, _ = get(server, "/api/names", method="POST", body=json.dumps(NAMES).encode(),
                           headers={"Content-Type": "application/json", "Origin": "http://evil.example",
                                    **bearer(TOKEN)})
        assert status == 403
    # on 127.0.0.1 a token, once given, is needed too; without one the page writes as before
    with WebServer(db, 0, token=TOKEN) as server:
        assert post(server, "/api/names", NAMES)[0] == 403
        assert post(server, "/api/names", NAMES, bearer(TOKEN))[0] == 200
    with WebServer(db, 0) as server:
        assert server.writes == "open" and 'id="token-form"' not in get(server, "/")[2].decode()
        assert post(server, "/api/names", NAMES)[0] == 200
        assert post(server, "/api/token", {}, bearer(TOKEN))[0] == 403      # no token to give


# -- the league ------------------------------------------------------------------------------------
def fake_league(monkeypatch, rows: list[dict], histories: dict[tuple[int, str], list[dict]]) -> None:
    """doodlebox.history.league's standings and history as given."""
    from doodlebox.history import league

    calls: list = []

    def standings(store, edition=None):
        calls.append(("standings", edition))
        assert isinstance(store, Store)
        return [dict(r) for r in rows if edition in (None, r["edition"])]

    def history(store, person_id, edition):
        calls.append(("history", person_id, edition))
        return [dict(h) for h in histories.get((person_id, edition), [])]

    monkeypatch.setattr(league, "standings", standings, raising=False)
    monkeypatch.setattr(league, "history", history, raising=False)


def test_the_league_and_each_players_page_from_the_standings(tmp_path, monkeypatch):
    db = tmp_path / "games.sqlite3"
    make_db(db)
    now = time.time()
    rows = [
        {"person": 7, "name": "Ann", "edition": "city", "mu": 27.5, "sigma": 6.1, "rating": 9.2, "games": 3,
         "wins": 2, "last": now},
        {"person": 9, "name": EVIL, "edition": "city", "mu": 24.0, "sigma": 7.9, "rating": 0.3, "games": 2,
         "wins": 0, "last": now - 60},
        {"person": 12, "name": "Li", "edition": "suzhou", "mu": 26.0, "sigma": 8.0, "rating": 2.0, "games": 1,
         "wins": 1, "last": now},
        {"person": 7, "name": "Ann", "edition": "suzhou", "mu": 23.0, "sigma": 8.0, "rating": -1.0, "games": 1,
         "wins": 0, "last": now},
    ]
    history = {(7, "city"): [{"game": 1, "when": now - 300, "mu": 25.0, "sigma": 8.0, "rating": 1.0},
                             {"game": 3, "when": now - 200, "mu": 26.5, "sigma": 7.0, "rating": 5.5},
                             {"game": 1, "when": now, "mu": 27.5, "sigma": 6.1, "rating": 9.2}],
               (7, "suzhou"): [{"game": 2, "when": now, "mu": 23.0, "sigma": 8.0, "rating": -1.0}]}
    fake_league(monkeypatch, rows, history)
    with WebServer(db, 0) as server:
        assert 'id="league-link" href="/league"' in get(server, "/")[2].decode()
        status, _, body = get(server, "/league")
        page = body.decode()
        assert status == 200 and "No league data yet" not in page
        assert EVIL not in page and "&lt;img src=x onerror=f()&gt;" in page
        city = re.search(r'<table class="standings" data-edition="city">(.*?)</table>', page, re.S).group(1)
        assert re.findall(r'href="/player/(\d+)"', city) == ["7", "9"]     # best rating first
        assert ">Ann</a>" in city and ">9.2<" in city and ">27.5<" in city
        assert "Doodle City" in page and "Doodle China: Suzhou" in page
        suzhou = re.search(r'data-edition="suzhou">(.*?)</table>', page, re.S).group(1)
        assert re.findall(r'href="/player/(\d+)"', suzhou) == ["12", "7"]
        assert json.loads(get(server, "/api/league")[2])["standings"][0]["person"] == 7
        status, _, body = get(server, "/player/7")
        page = body.decode()
        assert status == 200 and "<h2>Ann</h2>" in page, page[-600:]
        charts = re.findall(r'<svg class="rating-chart".*?</svg>', page, re.S)
        assert len(charts) == 2
        points = re.search(r'<polyline [^>]*points="([^"]*)"', charts[0]).group(1).split()
        assert len(points) == 3 and len(re.findall(r"<circle ", charts[0])) == 3
        ys = [float(p.split(",")[1]) for p in points]
        assert ys[0] > ys[1] > ys[2]           # the rating went up: the line goes up the chart
        assert re.findall(r'<tr id="played-(\d+)"><td><a href="/game/\d+">', page) == ["1", "3", "1", "2"]
        assert "Li, Mei, Tao" in page and "Li 46, Mei 32, Tao 26" in page    # game 2's row, as the games table
        status, _, body = get(server, "/player/9")
        assert status == 200 and "&lt;img src=x onerror=f()&gt;" in body.decode() and EVIL not in body.decode()
        assert "No rated games in this edition" in body.decode()
        status, _, body = get(server, "/player/8")
        assert status == 404 and "no player 8" in body.decode()
        for path in ("/player/x", "/player/7/", "/player/" + "9" * 30, "/league/7"):
            assert get(server, path)[0] == 404, path


def test_without_the_league_module_the_page_says_there_is_no_league_data(tmp_path, monkeypatch):
    db = tmp_path / "games.sqlite3"
    make_db(db)
    monkeypatch.setitem(sys.modules, "doodlebox.history.league", None)      # its import is an ImportError
    monkeypatch.delattr(doodlebox.history, "league", raising=False)
    with WebServer(db, 0) as server:
        status, _, body = get(server, "/league")
        assert status == 200 and 'id="no-league"' in body.decode() and "No league data yet" in body.decode()
        status, _, body = get(server, "/player/1")
        assert status == 404 and "no league data yet" in body.decode()
        assert json.loads(get(server, "/api/league")[2]) == {"standings": None}


def test_the_league_pages_from_the_real_ratings_on_postgresql(pg_url):
    from doodlebox.history import league

    make_db(pg_url)
    store = Store(pg_url)
    try:
        rows = league.standings(store, None)
        histories = {(r["person"], r["edition"]): league.history(store, r["person"], r["edition"]) for r in rows}
    finally:
        store.close()
    with WebServer(pg_url, 0) as server:
        page = get(server, "/league")[2].decode()
        assert ("No league data yet" in page) == (not rows)
        assert EVIL not in page
        for r in rows:
            assert f'href="/player/{int(r["person"])}">{escape(r["name"])}</a>' in page
        for person in {r["person"] for r in rows}:
            status, _, body = get(server, f"/player/{int(person)}")
            assert status == 200, body
            played = re.findall(r'<tr id="played-(\d+)">', body.decode())
            mine = [h for (p, _), hs in histories.items() if p == person for h in hs]
            assert sorted(played) == sorted(str(h["game"]) for h in mine)
            assert body.decode().count('<svg class="rating-chart"') == sum(1 for r in rows if r["person"] == person)


def test_a_host_that_is_not_this_computers_is_one_line(tmp_path):
    db = tmp_path / "games.sqlite3"
    make_db(db)
    for host in ("192.0.2.200", "nothing.invalid"):
        r = run("web", "--db", str(db), "--port", "0", "--host", host)
        assert r.returncode == 2 and r.stderr.count("\n") == 1, r.stderr
