"""`doodlebox web`: the page, served by waitress (a WSGI server from PyPI) in a thread.

It listens on 127.0.0.1 only and answers only requests whose Host header names it
(127.0.0.1:PORT or localhost:PORT): anything else is 403, so a web site that rebinds its own
name to 127.0.0.1 cannot read the page. It answers GET, and POST on two paths: a click on a
virtual console's button (/api/press) and the players' names of a game (/api/names), each a
small JSON object sent by the page itself (Content-Type application/json, and an Origin, when
the browser sends one, that is the page's own). Input is parsed as JSON and checked, never
evaluated; every stored string is escaped into the HTML (pages.py).

It holds up (docs/web.md, "Limits"): one thread reads every connection and hands a request to
one of THREADS workers only once its head and body have all arrived, so a slow client costs a
socket, never a worker; a connection silent for TIMEOUT s, or a request not whole TIMEOUT s
after its first byte, is dropped; at most CONNECTIONS are open, BACKLOG more wait to be
accepted. A bad request is a 4xx with its reason: a Content-Length other than ASCII digits, a
JSON body nested deeper than MAX_DEPTH, a game number out of SQLite's range, a path other
than the ASCII ones below.

| path | what |
|---|---|
| `/` | the live game, the virtual console's dice and buttons, the games, the statistics |
| `/game/N` | game N: names, table, rounds, violations, sheets |
| `/game/N/sheet/S.png` | seat S's sheet (1-based) |
| `/game/N/coach.svg` | a dice game's expected final score per turn, each player (web/coach.py) |
| `/api/game/N/coach` | JSON: its analysis (`doodlebox analyse --json`'s fields, with `losses`) |
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
import logging
import re
import threading
import time
from collections.abc import Callable, Iterable
from http import HTTPStatus
from importlib import resources
from pathlib import Path
from urllib.parse import urlsplit

from waitress import wasyncore  # type: ignore[import-untyped]
from waitress.channel import HTTPChannel  # type: ignore[import-untyped]
from waitress.server import TcpWSGIServer  # type: ignore[import-untyped]
from waitress.task import ErrorTask, ThreadedTaskDispatcher  # type: ignore[import-untyped]

from doodlebox.errors import DoodleboxError, InputError
from doodlebox.store import NoGame, StoreError
from doodlebox.web import pages
from doodlebox.web.live import Live, NoConsole
from doodlebox.web.views import NotFound, Views

ADDRESS = "127.0.0.1"     # never another: the page is for this computer only
MAX_BODY = 4096           # bytes of a POST's JSON
MAX_DEPTH = 32            # arrays and objects inside each other in a POST's JSON
MAX_HEAD = 16384          # bytes of a request's line and headers (waitress answers 431 past it)
MAX_GAME = 2 ** 63 - 1    # SQLite's largest integer: a game number beyond it is no game
THREADS = 8               # workers answering requests (one more thread reads and writes the sockets)
TIMEOUT = 5               # s: a connection silent that long is dropped, and a request not whole that long after
                          # its first byte (checked every second: dropped after TIMEOUT to TIMEOUT + 2 s)
CONNECTIONS = 500         # open at once; more wait in the listen queue
BACKLOG = 1024            # the listen queue (Linux caps it at net.core.somaxconn, 4096)
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
# ASCII digits only ([0-9], never \d): a path with "²" or "٣" in it is no page
GAME = re.compile(r"/game/([0-9]{1,9})")
CHART = re.compile(r"/stats/([a-z]{1,16})\.png")
SHEET = re.compile(r"/game/([0-9]{1,9})/sheet/([0-9]{1,2})\.png")
COACH = re.compile(r"/game/([0-9]{1,9})/coach\.svg")
COACH_API = re.compile(r"/api/game/([0-9]{1,9})/coach")

_quiet = logging.getLogger("waitress")     # quiet: the terminal is `doodlebox log`'s
_quiet.addHandler(logging.NullHandler())
_quiet.propagate = False


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
        self._map: dict = {}
        self._workers = ThreadedTaskDispatcher()
        self._workers.set_thread_count(THREADS)
        try:
            self.httpd = _Server(self._wsgi, map=self._map, dispatcher=self._workers, host=ADDRESS, port=port,
                                 threads=THREADS, backlog=BACKLOG, connection_limit=CONNECTIONS,
                                 channel_timeout=TIMEOUT, cleanup_interval=1, asyncore_use_poll=True,
                                 max_request_header_size=MAX_HEAD, max_request_body_size=4 * MAX_BODY,
                                 ident="doodlebox", log_socket_errors=False, expose_tracebacks=False)
        except OSError as exc:
            self._close_all()
            if exc.errno == errno.EADDRINUSE:
                raise InputError(f"port {port} on {ADDRESS} is busy: another program listens on it "
                                 f"(choose another with {option})") from None
            raise InputError(f"cannot serve on {ADDRESS}:{port}: {exc.strerror or exc}") from None
        self.db = Path(db)
        self.port = int(self.httpd.effective_port)
        self.views = Views(self.db)
        self.live = live if live is not None else Live()
        self.hosts = {f"{ADDRESS}:{self.port}", f"localhost:{self.port}"}
        self.origins = {f"http://{h}" for h in self.hosts}
        self._thread: threading.Thread | None = None
        self._stopping = False

    @property
    def url(self) -> str:
        return f"http://{ADDRESS}:{self.port}/"

    @property
    def address(self) -> tuple[str, int]:
        """The address the socket listens on."""
        host, port = self.httpd.socket.getsockname()[:2]
        return str(host), int(port)

    def start(self) -> WebServer:
        self._thread = threading.Thread(target=self._serve, name="doodlebox-web", daemon=True)
        self._thread.start()
        return self

    def _serve(self) -> None:
        """The sockets' thread: waitress's loop, until stop()."""
        try:
            while not self._stopping and self._map:
                wasyncore.loop(timeout=1.0, use_poll=True, map=self._map, count=1)
        finally:
            self._close_all()

    def stop(self) -> None:
        self._stopping = True
        if self._thread is not None:
            self.httpd.pull_trigger()          # wakes the loop, which then closes every socket
            self._thread.join(timeout=10)
            self._thread = None
        else:
            self._close_all()
        self.views.close()

    def _close_all(self) -> None:
        self._workers.shutdown(cancel_pending=True, timeout=5)
        for dispatcher in list(self._map.values()):
            try:
                dispatcher.close()
            except OSError:
                pass

    def __enter__(self) -> WebServer:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    # -- WSGI: one request, in a worker ----------------------------------------------------------
    def _wsgi(self, environ: dict, start_response: Callable) -> Iterable[bytes]:
        method = environ.get("REQUEST_METHOD", "")
        path = urlsplit(environ.get("REQUEST_URI") or environ.get("PATH_INFO") or "/").path
        api = method == "POST" or path.startswith("/api/") or path.endswith(".png")
        extra: list[tuple[str, str]] = []
        try:
            host = (environ.get("HTTP_HOST") or "").strip().lower()
            if host not in self.hosts:
                raise WebError(403, f"refused: the Host header must be {ADDRESS}:{self.port} or "
                                    f"localhost:{self.port}")
            if method == "POST":
                status, (kind, body) = 200, _json(self.post(path, _body(environ, self.origins)))
            elif method in ("GET", "HEAD"):
                status, (kind, body) = 200, self.get(path)
            else:
                extra.append(("Allow", "GET, HEAD, POST"))
                raise WebError(405, f"{method[:20]} is not answered here: GET, HEAD or POST")
        except WebError as exc:
            status, (kind, body) = exc.status, self._problem(exc.status, str(exc), api)
        except (NotFound, NoGame) as exc:
            status, (kind, body) = 404, self._problem(404, str(exc), api)
        except NoConsole as exc:
            status, (kind, body) = 409, self._problem(409, str(exc), api)
        except StoreError as exc:
            status, (kind, body) = 503, self._problem(503, str(exc), api)
        except InputError as exc:
            status, (kind, body) = 400, self._problem(400, str(exc), api)
        except Exception as exc:   # a bug: the page says so, and the server goes on
            status, (kind, body) = 500, self._problem(500, f"a bug in doodlebox: {exc!r}", api)
        start_response(f"{status} {HTTPStatus(status).phrase}",
                       [("Content-Type", kind), ("Content-Length", str(len(body))), *HEADERS.items(), *extra])
        return [body]

    def _problem(self, status: int, text: str, api: bool) -> tuple[str, bytes]:
        if api:
            return _json({"error": text})
        return _html(pages.problem(str(self.db), status, text))

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
        m = COACH.fullmatch(path)
        if m:
            return "image/svg+xml", self.views.coach_svg(int(m.group(1)))
        m = COACH_API.fullmatch(path)
        if m:
            return _json(self.views.coach(int(m.group(1))))
        raise WebError(404, f"no page {path[:200]}")

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
            if not 1 <= gid <= MAX_GAME:       # beyond SQLite's integers: no game, never an OverflowError
                raise WebError(404, f"no game {gid}")
            return {"game": gid, "names": self.views.set_names(gid, names)}
        raise WebError(404, f"nothing to post to at {path}")

    def live_state(self) -> dict:
        out: dict = {"link": self.live.link_text(), "console": self.live.console(), "game": None, "problem": ""}
        try:
            out["game"] = self.views.playing()
        except DoodleboxError as exc:    # the database locked for a moment, ...: said, and polled again
            out["problem"] = str(exc)
        return out


class _ErrorTask(ErrorTask):
    """waitress's own answer to a request it cannot parse (400 for a Content-Length that is not
    digits, a bad request line, ...; 413, 431): text, with the page's headers too."""

    def execute(self) -> None:
        self.response_headers.extend(HEADERS.items())
        super().execute()


class _Channel(HTTPChannel):
    """waitress's connection, which notes when the request being read began (`began`, None
    between requests) so that _Server drops one not whole after TIMEOUT s."""

    error_task_class = _ErrorTask
    began: float | None = None

    def received(self, data: bytes) -> bool:
        out = super().received(data)
        if self.request is None:           # no request being read: each one whole went to a worker
            self.began = None
        elif self.began is None:
            self.began = time.time()
        return out


class _Server(TcpWSGIServer):
    """waitress's server on one socket, with _Channel's deadline (checked every cleanup_interval
    s, as waitress checks a silent connection against channel_timeout)."""

    channel_class = _Channel

    def maintenance(self, now: float) -> None:
        super().maintenance(now)
        cutoff = now - TIMEOUT
        for channel in list(self.active_channels.values()):
            if not channel.requests and channel.began is not None and channel.began < cutoff:
                channel.will_close = True


def _body(environ: dict, origins: set[str]) -> dict:
    """The POST's JSON object, from the page itself; WebError otherwise."""
    origin = environ.get("HTTP_ORIGIN")
    if origin is not None and origin.lower() not in origins:
        raise WebError(403, f"refused: a request from {origin[:80]} (only the page itself may post)")
    kind = (environ.get("CONTENT_TYPE") or "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise WebError(415, "post JSON (Content-Type: application/json)")
    length = (environ.get("CONTENT_LENGTH") or "").strip()
    if not length:
        raise WebError(411, "a POST needs its Content-Length")
    if not (length.isascii() and length.isdigit()):      # int() would take "²" or "١٢"
        raise WebError(400, f"Content-Length {length[:20]!r}: give the body's length in bytes, in the digits 0-9")
    if len(length) > 9 or int(length) > MAX_BODY:
        raise WebError(413, f"at most {MAX_BODY} bytes of JSON")
    raw = environ["wsgi.input"].read(int(length))
    try:
        text = raw.decode("utf-8")
        if _depth(text) > MAX_DEPTH:
            raise WebError(400, f"JSON nested deeper than {MAX_DEPTH} arrays or objects")
        data = json.loads(text, parse_constant=_no_constant)
    except (UnicodeDecodeError, ValueError) as exc:
        raise WebError(400, f"not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise WebError(400, "post a JSON object")
    return data


def _depth(text: str) -> int:
    """How deep arrays and objects nest in the JSON `text` (brackets inside strings not counted),
    found without parsing it: json.loads recurses once a level, and a thousand levels are a
    RecursionError."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def _no_constant(name: str):
    raise ValueError(f"{name} is not a number JSON has")


def _html(text: str) -> tuple[str, bytes]:
    return "text/html; charset=utf-8", text.encode("utf-8")


def _json(data) -> tuple[str, bytes]:
    return "application/json", json.dumps(data).encode("utf-8")
