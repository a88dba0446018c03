"""`doodlebox web` over HTTP, without a browser: the server in this process (and the command as its
own process), a database holding a console game that ended, one being played and a record
imported from paper. What the page lists and draws, and what it refuses: a Host header that is
not its own, an address other than 127.0.0.1, a POST that is not the page's own JSON, stored
strings that would be HTML, a busy port."""
from __future__ import annotations

import http.client
import io
import json
import random
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from cli_run import ENV, ROOT, doodlebox
from console_events import console_events
from PIL import Image
from randomplay import random_game, step

from doodlebox.history.games_view import import_records
from doodlebox.rules.games import find_game
from doodlebox.store import Store
from doodlebox.web.live import Live
from doodlebox.web.server import WebServer

pytestmark = pytest.mark.slow      # (tests/conftest.py: the quick tier)

GOLDEN = ROOT / "tests" / "golden" / "suzhou-bonuses.json"
UID = "c0ffee"
EVIL = "<img src=x onerror=f()>"   # 23 characters: a name has at most 24


def make_db(path: Path) -> dict:
    """Game 1: a whole Doodle City game from the console (3 players, named, one name HTML);
    game 2: an imported Suzhou record; game 3: a Doodle City game of a later boot, its round 2
    being played. Returns what the tests compare with."""
    store = Store(path)
    try:
        ended = random_game(find_game("city"), 4, 3)
        for s, e in enumerate(console_events(ended, g=1), start=1):
            assert store.append(UID, 1, s, e).status == "stored"
        store.set_names(1, ["Ann", EVIL, 'Bo "B" & co'])
        import_records(store, [GOLDEN], False)
        playing = find_game("city").new_game(2, "").new_state()
        rng = random.Random(3)
        while playing.round < 2 or playing.is_chance_node() or playing.turn < 1:
            step(playing, rng)
        events = console_events(playing, g=1)
        for s, e in enumerate(events, start=1):
            assert store.append(UID, 2, s, e).status == "stored"
        roll = [e for e in events if e["k"] == "roll"][-1]
        return {"ended": ended, "playing": playing, "roll": roll}
    finally:
        store.close()


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    db = tmp_path_factory.mktemp("web") / "games.sqlite3"
    facts = make_db(db)
    server = WebServer(db, 0, Live()).start()
    yield server, facts
    server.stop()


def get(server: WebServer, path: str, host: str | None = None, method: str = "GET", body: bytes | None = None,
        headers: dict | None = None) -> tuple[int, dict, bytes]:
    c = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    try:
        c.putrequest(method, path, skip_host=True)
        c.putheader("Host", host if host is not None else f"127.0.0.1:{server.port}")
        for k, v in (headers or {}).items():
            c.putheader(k, v)
        if body is not None:
            c.putheader("Content-Length", str(len(body)))
        c.endheaders(body)
        r = c.getresponse()
        return r.status, dict(r.getheaders()), r.read()
    finally:
        c.close()


def post(server: WebServer, path: str, data, headers: dict | None = None) -> tuple[int, dict]:
    h = {"Content-Type": "application/json", **(headers or {})}
    status, _, body = get(server, path, method="POST", body=json.dumps(data).encode(), headers=h)
    return status, json.loads(body)


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    with Image.open(io.BytesIO(data)) as im:
        im.load()
        return im.size


def test_the_page_lists_every_game_with_names_and_scores(site):
    server, facts = site
    status, headers, body = get(server, "/")
    assert status == 200 and headers["Content-Type"].startswith("text/html")
    assert "script-src 'self'" in headers["Content-Security-Policy"]
    page = body.decode()
    rows = dict(re.findall(r'<tr id="game-(\d+)">(.*?)</tr>', page))
    assert sorted(rows) == ["1", "2", "3"]
    totals = facts["ended"].scores()
    assert "Doodle City" in rows["1"] and "ended" in rows["1"]
    assert f"Ann {totals[0]}" in rows["1"]
    assert "Doodle China: Suzhou" in rows["2"] and "Li, Mei, Tao" in rows["2"] and "imported" in rows["2"]
    assert "Li 46, Mei 32, Tao 26" in rows["2"] and "<td>Li</td>" in rows["2"]
    assert "playing" in rows["3"]
    # the stored names are text, never markup
    assert EVIL not in page and "&lt;img src=x onerror=f()&gt;" in page
    assert "Bo &#34;B&#34; &amp; co" in page       # (Jinja2's autoescape: a quote as &#34;)
    # the same as JSON
    status, _, body = get(server, "/api/games")
    games = {g["id"]: g for g in json.loads(body)["games"]}
    assert games[1]["players"] == ["Ann", EVIL, 'Bo "B" & co'] and games[1]["totals"] == totals
    assert games[2]["winners"] == ["Li"]


def test_a_game_page_draws_every_sheet_and_the_statistics_their_charts(site):
    server, _ = site
    status, _, body = get(server, "/game/1")
    page = body.decode()
    assert status == 200 and "Doodle City" in page and "Rounds" in page
    assert EVIL not in page and "&lt;img src=x onerror=f()&gt;" in page
    sheets = re.findall(r'src="(/game/1/sheet/\d\.png)"', page)
    assert sheets == [f"/game/1/sheet/{k}.png" for k in (1, 2, 3)]
    for path in sheets:
        status, headers, data = get(server, path)
        assert status == 200 and headers["Content-Type"] == "image/png"
        width, height = png_size(data)
        assert width > 300 and height > 200
    status, _, data = get(server, "/game/2/sheet/3.png")
    assert status == 200 and png_size(data)[0] > 300
    for which in ("dice", "scores", "wins", "solo"):
        status, _, data = get(server, f"/stats/{which}.png")
        assert status == 200 and png_size(data)[0] > 300, which
    for path in ("/game/1/sheet/4.png", "/game/99", "/game/99/sheet/1.png", "/stats/nothing.png", "/nope",
                 "/live/panel.png", "/static/../views.py"):
        assert get(server, path)[0] == 404, path


def test_the_game_being_played_is_live(site):
    server, facts = site
    status, _, body = get(server, "/api/live")
    live = json.loads(body)
    assert status == 200 and live["console"] is None
    game = live["game"]
    state, roll = facts["playing"], facts["roll"]
    assert game["id"] == 3 and game["round"] == 2 and game["players"] == ["P1", "P2"]
    assert game["dice"]["column"] == roll["c"] and game["dice"]["white"] == roll["w"]
    assert game["scores"] == state.scores()
    assert game["turn"] == f"P{state.current_player() + 1}: take a die"      # rules/moment.py (ruling V1)
    assert sum(t is not None for t in game["dice"]["taken"]) == state.turn


def test_a_game_that_has_just_ended_stays_live_with_its_final_scores(tmp_path):
    db = tmp_path / "games.sqlite3"
    facts = make_db(db)
    store = Store(db)
    try:
        nxt = store.next_seq(UID, 2)
        scores = facts["playing"].scores()
        assert store.append(UID, 2, nxt, {"k": "end", "g": 1, "r": 2, "why": "menu", "p": scores}).status == "stored"
    finally:
        store.close()
    with WebServer(db, 0) as server:
        game = json.loads(get(server, "/api/live")[2])["game"]
    assert game["id"] == 3 and game["state"] == "ended" and game["turn"] == "the game is over"
    assert game["scores"] == scores and game["events"][-1].startswith("game 3 over after round 2")


def test_only_a_local_host_header_is_answered(site):
    server, _ = site
    port = server.port
    assert get(server, "/", host=f"localhost:{port}")[0] == 200
    for host in ("evil.example", f"evil.example:{port}", f"127.0.0.1:{port + 1}", "127.0.0.1", "", f"0.0.0.0:{port}"):
        status, _, body = get(server, "/", host=host)
        assert status == 403, host
        assert b'id="games-table"' not in body and b"Ann" not in body      # none of the page's games
    assert get(server, "/api/live", host="rebound.example")[0] == 403
    # no Host header at all
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(b"GET / HTTP/1.0\r\n\r\n")
        assert s.recv(100).split(b"\r\n")[0].endswith(b"403 Forbidden")


def test_it_listens_on_127_0_0_1_only(site):
    server, _ = site
    assert server.address == ("127.0.0.1", server.port)
    # every 127.x address reaches this machine: a server on 0.0.0.0 would answer 127.0.0.2
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.2", server.port), timeout=5).close()


def test_posts_must_be_the_pages_own_json(site):
    server, _ = site
    ok = json.dumps({"button": "ROLL"}).encode()
    cases = [
        ({"Content-Type": "text/plain"}, ok, 415),
        ({"Content-Type": "application/x-www-form-urlencoded"}, b"button=ROLL", 415),
        ({"Content-Type": "application/json", "Origin": "http://evil.example"}, ok, 403),
        ({"Content-Type": "application/json", "Origin": f"http://127.0.0.1:{server.port + 1}"}, ok, 403),
        ({"Content-Type": "application/json"}, b"{'button': 'ROLL'}", 400),
        ({"Content-Type": "application/json"}, b'{"button": NaN}', 400),
        ({"Content-Type": "application/json"}, b'["ROLL"]', 400),
        ({"Content-Type": "application/json"}, b" " * 5000, 413),
        ({"Content-Type": "application/json"}, b'{"button": 7}', 400),
    ]
    for headers, body, want in cases:
        status, _, answer = get(server, "/api/press", method="POST", body=body, headers=headers)
        assert status == want, (headers, body[:40], answer)
        assert "error" in json.loads(answer)
    # the page's own post, but no virtual console in this process
    status, answer = post(server, "/api/press", {"button": "ROLL"},
                          {"Origin": f"http://localhost:{server.port}"})
    assert status == 409 and "no virtual console" in answer["error"]
    assert post(server, "/nothing", {})[0] == 404
    assert get(server, "/api/press")[0] == 404
    status, _, _ = get(server, "/", host="evil.example", method="POST", body=ok,
                       headers={"Content-Type": "application/json"})
    assert status == 403


def test_names_set_on_the_page_are_stored(tmp_path):
    db = tmp_path / "games.sqlite3"
    make_db(db)
    with WebServer(db, 0) as server:
        status, answer = post(server, "/api/names", {"game": 2, "names": ["Lin", "Mei", "Tao"]})
        assert status == 200 and answer["names"] == ["Lin", "Mei", "Tao"]
        assert "Lin, Mei, Tao" in get(server, "/")[2].decode()
        for data, want, words in (({"game": 2, "names": ["x" * 25]}, 400, "longer than"),
                                  ({"game": 2, "names": ["A", "a"]}, 400, "two seats"),
                                  ({"game": 2, "names": ["A", "B", "C", "D"]}, 400, "3 player(s)"),
                                  ({"game": 42, "names": ["A"]}, 404, "no game 42"),
                                  ({"game": "2", "names": ["A"]}, 400, "give the names"),
                                  ({"game": 2, "names": "Ann"}, 400, "give the names")):
            status, answer = post(server, "/api/names", data)
            assert status == want and words in answer["error"], (data, answer)
    store = Store(db, readonly=True)
    try:
        assert store.names(2) == ["Lin", "Mei", "Tao"]
    finally:
        store.close()


def test_a_virtual_console_is_pressed_and_its_panel_drawn(tmp_path):
    from doodlebox.virtual.console import VirtualConsole

    vc = VirtualConsole(mode="cpython", flash_dir=tmp_path / "flash", seed=2).start()
    try:
        with WebServer(tmp_path / "none.sqlite3", 0, Live(vc)) as server:
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline and vc.hardware.epaper.full_refreshes == 0:
                time.sleep(0.05)
            status, _, data = get(server, "/live/panel.png")
            assert status == 200 and png_size(data) == (2 * 296, 2 * 128)
            page = get(server, "/")[2].decode()
            for name in ("D0", "D1", "D6", "ROLL", "PASS", "MENU"):
                assert f'id="press-{name}"' in page
            live = json.loads(get(server, "/api/live")[2])
            assert live["game"] is None and len(live["console"]["dice"]) == 7
            assert post(server, "/api/press", {"button": "D9"})[0] == 400
            refreshes = live["console"]["panel"]
            status, answer = post(server, "/api/press", {"button": "ROLL"})   # the lobby starts a game
            assert status == 200 and answer["pressed"] == "ROLL"
            while time.monotonic() < deadline and json.loads(get(server, "/api/live")[2])["console"]["panel"] == \
                    refreshes:
                time.sleep(0.05)
            assert json.loads(get(server, "/api/live")[2])["console"]["panel"] > refreshes, "the press did nothing"
    finally:
        vc.stop()
    assert vc.error is None


# -- the command ----------------------------------------------------------------------------
def test_the_command_serves_the_page_until_ctrl_c(tmp_path):
    db = tmp_path / "games.sqlite3"
    make_db(db)
    proc = subprocess.Popen([sys.executable, "-m", "doodlebox.cli", "web", "--db", str(db), "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV,
                            stdin=subprocess.DEVNULL)
    try:
        line = proc.stdout.readline() if proc.stdout else ""
        m = re.match(r"web: http://127\.0\.0\.1:(\d+)/", line)
        assert m, line + (proc.stderr.read() if proc.stderr else "")
        c = http.client.HTTPConnection("127.0.0.1", int(m.group(1)), timeout=30)
        c.request("GET", "/")
        r = c.getresponse()
        assert r.status == 200 and b'id="game-2"' in r.read()
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=15)
    assert proc.returncode == 130


def test_a_busy_port_or_no_database_is_one_line_and_exit_2(tmp_path):
    db = tmp_path / "games.sqlite3"
    make_db(db)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        r = doodlebox("web", "--db", str(db), "--port", str(port))
        assert r.returncode == 2 and r.stdout == ""
        assert r.stderr == f"doodlebox: port {port} on 127.0.0.1 is busy: another program listens on it " \
                           "(choose another with --port)\n"
        # `log --web` says so before it starts a console or touches the database
        r = doodlebox("log", "--cpython", "--db", str(tmp_path / "other.sqlite3"), "--web", str(port))
        assert r.returncode == 2 and r.stdout == ""
        assert r.stderr == f"doodlebox: port {port} on 127.0.0.1 is busy: another program listens on it " \
                           "(choose another with --web)\n"
        assert not (tmp_path / "other.sqlite3").exists()
    r = doodlebox("web", "--db", str(tmp_path / "missing.sqlite3"))
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "no database at" in r.stderr
    (tmp_path / "junk.sqlite3").write_bytes(b"not a database at all" * 100)
    r = doodlebox("web", "--db", str(tmp_path / "junk.sqlite3"), "--port", "0")
    assert r.stderr.count("\n") == 1 and "not a doodlebox database" in r.stderr
    assert r.returncode == doodlebox("games", "--db", str(tmp_path / "junk.sqlite3")).returncode != 0
    r = doodlebox("web", "--db", str(db), "--port", "70000")
    assert r.returncode == 2 and r.stderr.count("\n") == 1
