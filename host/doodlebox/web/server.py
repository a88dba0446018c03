"""`doodlebox web`: the page, served by the standard library's HTTP server in a thread.

It listens on 127.0.0.1 only and answers only requests whose Host header names it
(127.0.0.1:PORT or localhost:PORT): anything else is 403, so a web site that rebinds its own
name to 127.0.0.1 cannot read the page. It answers GET, and POST on two paths: a click on a
virtual console's button (/api/press) and the players' names of a game (/api/names), each a
small JSON object sent by the page itself (Content-Type application/json, and an Origin, when
the browser sends one, that is the page's own). Input is parsed as JSON and checked, never
evaluated; every stored string is escaped into the HTML (pages.py).

| path | what |
|---|---|
| `/` | the live game, the virtual console's dice and buttons, the games, the statistics |
| `/game/N` | game N: names, table, rounds, violations, sheets |
| `/game/N/sheet/S.png` | seat S's sheet (1-based) |
| `/stats/NAME.png` | one chart of `doodlebox stats` (dice, scores, wins, solo) |
| `/live/panel.png` | the virtual console's e-paper panel |
| `/api/live` | JSON: the link, the virtual console, the game playing |
| `/api/games` | JSON: the games |
| `POST /api/press` | `{"button": "ROLL"}`: press it on the virtual console |
| `POST /api/names` | `{"game": N, "names": [...]}`: name the game's seats |
"""
from __future__ import annotations

import errno
import json
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from pathlib import Path
from urllib.parse import urlsplit

from doodlebox.errors import DoodleboxError, InputError
from doodlebox.store import NoGame, StoreError
from doodlebox.web import pages
from doodlebox.web.live import Live, NoConsole
from doodlebox.web.views import NotFound, Views

ADDRESS = "127.0.0.1"     # never another: the page is for this computer only
MAX_BODY = 4096           # bytes of a POST's JSON
HEADERS = {
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
                               "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}
STATIC = {"page.js": "text/javascript; charset=utf-8", "page.css": "text/css; charset=utf-8",
          "die.svg": "image/svg+xml"}
GAME = re.compile(r"/game/([0-9]{1,9})")
CHART = re.compile(r"/stats/([a-z]{1,16})\.png")
SHEET = re.compile(r"/game/([0-9]{1,9})/sheet/([0-9]{1,2})\.png")


class WebError(DoodleboxError):
    """An answer other than 200: its status and one line."""

    def __init__(self, status: int, text: str):
        super().__init__(text)
        self.status = status


class WebServer:
    """The page for the database `db` on 127.0.0.1:`port` (0: a free port; `url` says which).
    `live`: the virtual console and link of a `doodlebox log` process, if any. A port that
    cannot be had is an InputError (one line, exit 2) naming the command's `option`."""

    def __init__(self, db: str | Path, port: int = 8765, live: Live | None = None, option: str = "--port"):
        if not 0 <= port <= 65535:
            raise InputError(f"{option} {port}: a port is 1 to 65535 (0: any free one)")
        try:
            self.httpd = _Server((ADDRESS, port), _Handler)
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                raise InputError(f"port {port} on {ADDRESS} is busy: another program listens on it "
                                 f"(choose another with {option})") from None
            raise InputError(f"cannot serve on {ADDRESS}:{port}: {exc.strerror or exc}") from None
        self.httpd.app = self
        self.db = Path(db)
        self.port = int(self.httpd.server_address[1])
        self.views = Views(self.db)
        self.live = live if live is not None else Live()
        self.hosts = {f"{ADDRESS}:{self.port}", f"localhost:{self.port}"}
        self.origins = {f"http://{h}" for h in self.hosts}
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"http://{ADDRESS}:{self.port}/"

    def start(self) -> WebServer:
        self._thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.2},
                                        name="doodlebox-web", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._thread is not None:
            self.httpd.shutdown()
            self._thread.join(timeout=5)
            self._thread = None
        self.httpd.server_close()
        self.views.close()

    def __enter__(self) -> WebServer:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    # -- the answers ------------------------------------------------------------------------
    def get(self, path: str) -> tuple[str, bytes]:
        """(content type, body) of a GET; WebError for anything else than 200."""
        db = str(self.db)
        if path == "/":
            from doodlebox.stats import TITLES

            games = self.views.games()
            return _html(pages.index(db, games, self.live.console(), self.views.stats_text(), TITLES))
        if path == "/api/live":
            return _json(self.live_state())
        if path == "/api/games":
            return _json({"games": self.views.games()})
        if path == "/live/panel.png":
            png = self.live.panel_png()
            if png is None:
                raise WebError(404, "no virtual console here")
            return "image/png", png
        m = CHART.fullmatch(path)
        if m:
            return "image/png", self.views.chart_png(m.group(1))
        if path.startswith("/static/") and path[8:] in STATIC:
            return STATIC[path[8:]], (resources.files("doodlebox.web") / "static" / path[8:]).read_bytes()
        m = GAME.fullmatch(path)
        if m:
            return _html(pages.game(db, self.views.game(int(m.group(1)))))
        m = SHEET.fullmatch(path)
        if m:
            return "image/png", self.views.sheet_png(int(m.group(1)), int(m.group(2)) - 1)
        raise WebError(404, f"no page {path}")

    def post(self, path: str, data: dict) -> dict:
        if path == "/api/press":
            button = data.get("button")
            if not isinstance(button, str):
                raise WebError(400, 'give the button as {"button": "ROLL"}')
            return {"pressed": button, "waiting": self.live.press(button)}
        if path == "/api/names":
            gid, names = data.get("game"), data.get("names")
            if type(gid) is not int or not isinstance(names, list) or not all(isinstance(n, str) for n in names):
                raise WebError(400, 'give the names as {"game": 3, "names": ["Ann", "Bo"]}')
            return {"game": gid, "names": self.views.set_names(gid, names)}
        raise WebError(404, f"nothing to post to at {path}")

    def live_state(self) -> dict:
        out: dict = {"link": self.live.link_text(), "console": self.live.console(), "game": None, "problem": ""}
        try:
            out["game"] = self.views.playing()
        except DoodleboxError as exc:    # the database locked for a moment, ...: said, and polled again
            out["problem"] = str(exc)
        return out


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    app: WebServer


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    server_version = "doodlebox"
    sys_version = ""

    def log_message(self, format: str, *args) -> None:   # quiet: the terminal is `doodlebox log`'s
        pass

    def do_GET(self) -> None:
        self._answer(post=False)

    def do_POST(self) -> None:
        self._answer(post=True)

    def _answer(self, post: bool) -> None:
        app = self.server.app
        path = urlsplit(self.path).path
        api = post or path.startswith("/api/") or path.endswith(".png")
        try:
            host = (self.headers.get("Host") or "").strip().lower()
            if host not in app.hosts:
                raise WebError(403, f"refused: the Host header must be {ADDRESS}:{app.port} or localhost:{app.port}")
            if post:
                self._send(200, *_json(app.post(path, self._body())))
            else:
                self._send(200, *app.get(path))
        except WebError as exc:
            self._problem(exc.status, str(exc), api)
        except (NotFound, NoGame) as exc:
            self._problem(404, str(exc), api)
        except NoConsole as exc:
            self._problem(409, str(exc), api)
        except StoreError as exc:
            self._problem(503, str(exc), api)
        except InputError as exc:
            self._problem(400, str(exc), api)
        except (BrokenPipeError, ConnectionResetError):
            pass
        except Exception as exc:   # a bug: the page says so, and the server goes on
            self._problem(500, f"a bug in doodlebox: {exc!r}", api)

    def _body(self) -> dict:
        """The POST's JSON object, from the page itself; WebError otherwise."""
        app = self.server.app
        origin = self.headers.get("Origin")
        if origin is not None and origin.lower() not in app.origins:
            raise WebError(403, f"refused: a request from {origin[:80]} (only the page itself may post)")
        kind = (self.headers.get("Content-Type") or "").split(";")[0].strip().lower()
        if kind != "application/json":
            raise WebError(415, "post JSON (Content-Type: application/json)")
        length = self.headers.get("Content-Length") or ""
        if not length.isdigit():
            raise WebError(411, "a POST needs its Content-Length")
        if int(length) > MAX_BODY:
            raise WebError(413, f"at most {MAX_BODY} bytes of JSON")
        raw = self.rfile.read(int(length))
        try:
            data = json.loads(raw.decode("utf-8"), parse_constant=_no_constant)
        except (UnicodeDecodeError, ValueError) as exc:
            raise WebError(400, f"not JSON: {exc}") from None
        if not isinstance(data, dict):
            raise WebError(400, "post a JSON object")
        return data

    def _send(self, status: int, kind: str, body: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        for k, v in HEADERS.items():
            self.send_header(k, v)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _problem(self, status: int, text: str, api: bool) -> None:
        try:
            if api:
                self._send(status, *_json({"error": text}))
            else:
                self._send(status, *_html(pages.problem(str(self.server.app.db), status, text)))
        except (BrokenPipeError, ConnectionResetError):
            pass


def _no_constant(name: str):
    raise ValueError(f"{name} is not a number JSON has")


def _html(text: str) -> tuple[str, bytes]:
    return "text/html; charset=utf-8", text.encode("utf-8")


def _json(data) -> tuple[str, bytes]:
    return "application/json", json.dumps(data).encode("utf-8")
