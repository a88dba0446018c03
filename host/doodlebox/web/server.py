"""`doodlebox web`: the page, served by waitress (a WSGI server from PyPI) in a thread.

By default it listens on 127.0.0.1 only and answers only requests whose Host header names it
(127.0.0.1:PORT or localhost:PORT): anything else is 403, so a web site that rebinds its own
name to 127.0.0.1 cannot read the page. Served to the network (`host` 0.0.0.0, or an address
that is not a loopback one: a club's league page), it answers a Host header that is an IP
address, localhost or one of this computer's own names, with its port, and nothing else.

It answers GET, and POST on the writes: a click on a virtual console's button (/api/press),
the players' names of a game (/api/names), a sheet saved into the library (/api/sheets/save) and
the sheet the table plays a game on (/api/sheets/use), each a small JSON object sent by the page itself
(Content-Type application/json, and an Origin, when the browser sends one, that is the page's
own); and POST /api/token, which only says whether a token is the page's. Who may write
(`writes`): "open" on 127.0.0.1 without a token (the person at this computer, as before);
"token" when the server has one (`--token` or DOODLEBOX_WEB_TOKEN): each write sends it as
`Authorization: Bearer TOKEN`, compared in constant time (hmac.compare_digest); "closed" on
the network without one: the page is read-only and every write is 403. Input is parsed as JSON
and checked, never evaluated; every stored string is escaped into the HTML (pages.py).

It holds up (docs/web.md, "Limits"): one thread reads every connection and hands a request to
one of THREADS workers only once its head and body have all arrived, so a slow client costs a
socket, never a worker; a connection silent for TIMEOUT s, or a request not whole TIMEOUT s
after its first byte, is dropped; at most CONNECTIONS are open, BACKLOG more wait to be
accepted. A bad request is a 4xx with its reason: a Content-Length other than ASCII digits, a
JSON body nested deeper than MAX_DEPTH, a game number out of SQLite's range, a path other
than the ASCII ones below.

The coach's analysis of a game (10-25 s of CPU) is made in a process of its own, within bounds
(web/analyses.py): a request for one is answered at once (after at most half a second) with the
analysis, or 202 "under way", 429 (this client's analyses queued) or 503 (the queue full), each
with Retry-After. A new one is started as a write is allowed (`may_analyse`): for the page's token
when it has one, for anyone on 127.0.0.1 without one, never on the network without one; one
already made is served to anyone.

| path | what |
|---|---|
| `/` | the live game, the virtual console's dice and buttons, the games, the statistics |
| `/league` | the league's standings per edition (web/league.py; "no league data yet" without them) |
| `/player/N` | person N: their rating chart and games, per edition |
| `/game/N` | game N: names, table, rounds, violations, sheets |
| `/game/N/sheet/S.png` | seat S's sheet (1-based) |
| `/game/N/round/R/sheet/S.png` | seat S's sheet as it stood after round R (the game's replay) |
| `/game/N/coach.svg` | a dice game's moves valued per turn on the coach's measure, each player (web/coach.py) |
| `/api/game/N/coach` | JSON: its analysis (`doodlebox analyse --json`'s fields, with `losses`); 202 while under way |
| `/stats/NAME.png` | one chart of `doodlebox stats` (dice, scores, wins, solo) |
| `/live/panel.png` | the virtual console's e-paper panel |
| `/api/live` | JSON: the link, the virtual console, the game playing |
| `/api/games` | JSON: the games |
| `POST /api/press` | `{"button": "ROLL"}`: press it on the virtual console |
| `POST /api/names` | `{"game": N, "names": [...]}`: name the game's seats |
| `POST /api/token` | `{}` with its `Authorization: Bearer TOKEN`: 200 if the token is the page's, else 403 |
| `/sheets` | the sheet editor (web/sheets.py, static/sheets.js) |
| `/api/sheets` | JSON: the library's sheets, and what the editor offers |
| `/api/sheets/NAME` | JSON: that sheet's data |
| `POST /api/sheets/check` | `{"data": sheet}`: its problems (as `layout check` finds them), hash, picture's path |
| `/api/sheets/preview/HASH.png` | the picture of a sheet checked without problems |
| `POST /api/sheets/save` | `{"name", "data", "replace", "start"}`: into the library (a write; 409: name taken) |
| `POST /api/sheets/use` | `{"name"}`: the sheet the table plays its game on (library.use; a write) |
"""
from __future__ import annotations

import errno
import hmac
import ipaddress
import json
import logging
import re
import socket
import threading
import time
from collections.abc import Callable, Iterable
from http import HTTPStatus
from importlib import resources
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from waitress import wasyncore  # type: ignore[import-untyped]
from waitress.channel import HTTPChannel  # type: ignore[import-untyped]
from waitress.server import TcpWSGIServer  # type: ignore[import-untyped]
from waitress.task import ErrorTask, ThreadedTaskDispatcher  # type: ignore[import-untyped]

from doodlebox.errors import DoodleboxError, InputError
from doodlebox.history.stats import TITLES
from doodlebox.store import NoGame, StoreError
from doodlebox.web import coach, league, pages, sheets
from doodlebox.web.analyses import NotReady
from doodlebox.web.live import Live, NoConsole
from doodlebox.web.views import NotFound, Views, chosen, where

ADDRESS = "127.0.0.1"     # the default: the page for this computer only (docs/web.md, "A page open to a network")
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
          "die.svg": "image/svg+xml", "sheets.js": "text/javascript; charset=utf-8"}
# ASCII digits only ([0-9], never \d): a path with "²" or "٣" in it is no page
GAME = re.compile(r"/game/([0-9]{1,9})")
CHART = re.compile(r"/stats/([a-z]{1,16})\.png")
SHEET = re.compile(r"/game/([0-9]{1,9})/sheet/([0-9]{1,2})\.png")
ROUND_SHEET = re.compile(r"/game/([0-9]{1,9})/round/([0-9]{1,4})/sheet/([0-9]{1,2})\.png")   # the replay's
COACH = re.compile(r"/game/([0-9]{1,9})/coach\.svg")
COACH_API = re.compile(r"/api/game/([0-9]{1,9})/coach")
PLAYER = re.compile(r"/player/([0-9]{1,18})")
SHEET_DATA = re.compile(r"/api/sheets/([a-z0-9_-]{1,16})")          # a sheet of the library (web/sheets.py)
SHEET_PREVIEW = re.compile(r"/api/sheets/preview/([0-9a-f]{12})\.png")   # a sheet checked, drawn
WRITES = ("/api/press", "/api/names", "/api/sheets/save",    # the POSTs that change something: a token's, or
          "/api/sheets/use")                                   # none on the network
TOKEN = re.compile(r"[\x21-\x7e]{16,256}")   # printable ASCII, no space: it travels in a header

_quiet = logging.getLogger("waitress")     # quiet: the terminal is `doodlebox log`'s
_quiet.addHandler(logging.NullHandler())
_quiet.propagate = False


class WebError(DoodleboxError):
    """An answer other than 200: its status and one line."""
    def __init__(self, status: int, text: str):
        super().__init__(text)
        self.status = status


class WebServer:
    """The page for the database `db` (a file or a postgresql:// URL) on `host`:`port` (0: a free
    port; `url` says which). `live`: the virtual console and link of a `doodlebox log` process,
    if any. `token`: what a write must send (None: writes open on 127.0.0.1, none on the
    network). A port or an address that cannot be had is an InputError (one line, exit 2)
    naming the command's `option`."""
    def __init__(self, db: str | Path, port: int = 8765, live: Live | None = None, option: str = "--port",
                 host: str = ADDRESS, token: str | None = None):
        if not 0 <= port <= 65535:
            raise InputError(f"{option} {port}: a port is 1 to 65535 (0: any free one)")
        if token is not None and not TOKEN.fullmatch(token):
            raise InputError("the token: 16 to 256 printable ASCII characters, no space (make one with "
                             "`python3 -c 'import secrets; print(secrets.token_urlsafe())'`)")
        self._map: dict = {}
        self._workers = ThreadedTaskDispatcher()
        self._workers.set_thread_count(THREADS)
        try:
            self.httpd = _Server(self._wsgi, map=self._map, dispatcher=self._workers, host=host, port=port,
                                 threads=THREADS, backlog=BACKLOG, connection_limit=CONNECTIONS,
                                 channel_timeout=TIMEOUT, cleanup_interval=1, asyncore_use_poll=True,
                                 max_request_header_size=MAX_HEAD, max_request_body_size=4 * MAX_BODY,
                                 ident="doodlebox", log_socket_errors=False, expose_tracebacks=False)
        except ValueError:            # waitress: a name that does not resolve, an address that is none
            self._close_all()
            raise InputError(f"--host {host[:80]}: not an address of this computer (127.0.0.1, 0.0.0.0 for "
                             "every interface, or one of its own addresses)") from None
        except OSError as exc:
            self._close_all()
            if exc.errno == errno.EADDRINUSE:
                raise InputError(f"port {port} on {host} is busy: another program listens on it "
                                 f"(choose another with {option})") from None
            raise InputError(f"cannot serve on {host}:{port}: {exc.strerror or exc}") from None
        self.db = db if isinstance(db, str) and "://" in db else Path(db)
        self.where = where(self.db)          # the database as the page names it: a URL without its password
        self.port = int(self.httpd.effective_port)
        self.host = str(self.httpd.effective_host)
        bound = ipaddress.ip_address(self.host.split("%")[0])
        self.loopback = bound.is_loopback
        self.everywhere = bound.is_unspecified                 # 0.0.0.0 or ::
        self.token = token
        self.writes = "token" if token is not None else "open" if self.loopback else "closed"
        self.views = Views(self.db, readonly=self.writes == "closed")
        self.live = live if live is not None else Live()
        own = f"[{self.host}]" if ":" in self.host else self.host
        self.hosts = {f"{own}:{self.port}", f"localhost:{self.port}"}
        self.names: set[str] = set()        # on the network: this computer's names a Host header may give
        if not self.loopback:
            me = socket.gethostname().lower()
            self.names = {"localhost", me, f"{me}.local", socket.getfqdn().lower()}
            if not _is_ip(host):
                self.names.add(host.lower())
        self.origins = {f"http://{h}" for h in self.hosts}
        self._thread: threading.Thread | None = None
        self._stopping = False

    @property
    def url(self) -> str:
        """The page's address as this computer opens it (127.0.0.1 when it listens everywhere)."""
        if self.everywhere:
            return f"http://{'[::1]' if ':' in self.host else ADDRESS}:{self.port}/"
        return f"http://{f'[{self.host}]' if ':' in self.host else self.host}:{self.port}/"

    def host_ok(self, host: str) -> bool:
        """The Host header (lowercased) names this server: its own address or localhost with its
        port; on the network also any IP address or one of this computer's names."""
        if host in self.hosts:
            return True
        if self.loopback:
            return False
        name, colon, port = host.rpartition(":")
        if not colon or port != str(self.port):
            return False
        return _is_ip(name.removeprefix("[").removesuffix("]")) or name in self.names

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
        svg = bool(COACH.fullmatch(path))         # its answers are SVG, a picture in the page's <img>
        extra: list[tuple[str, str]] = []
        try:
            host = (environ.get("HTTP_HOST") or "").strip().lower()
            if not self.host_ok(host):
                if self.loopback:
                    raise WebError(403, f"refused: the Host header must be {sorted(self.hosts)[0]} or "
                                        f"localhost:{self.port}")
                raise WebError(403, "refused: the Host header must name this computer (an IP address, localhost "
                                    f"or its name) and port {self.port}")
            if method == "POST":
                self.may_write(path, environ)
                status, (kind, body) = 200, _json(self.post(path, _body(environ, self.origins | {f"http://{host}"})))
            elif method in ("GET", "HEAD"):
                status, (kind, body) = 200, self.get(path, environ)
            else:
                extra.append(("Allow", "GET, HEAD, POST"))
                raise WebError(405, f"{method[:20]} is not answered here: GET, HEAD or POST")
        except WebError as exc:
            status, (kind, body) = exc.status, self._problem(exc.status, str(exc), api, svg)
        except NotReady as exc:           # the coach's analysis: under way, or not queued now (web/analyses.py)
            if exc.retry_after:
                extra.append(("Retry-After", str(exc.retry_after)))
            if exc.status == 202 and not svg:
                status, (kind, body) = 202, _json({"analysed": False, "under_way": True, "why": str(exc)})
            else:
                status, (kind, body) = exc.status, self._problem(exc.status, str(exc), api, svg)
        except (NotFound, NoGame) as exc:
            status, (kind, body) = 404, self._problem(404, str(exc), api, svg)
        except NoConsole as exc:
            status, (kind, body) = 409, self._problem(409, str(exc), api, svg)
        except StoreError as exc:
            status, (kind, body) = 503, self._problem(503, str(exc), api, svg)
        except InputError as exc:
            status, (kind, body) = 400, self._problem(400, str(exc), api, svg)
        except Exception as exc:   # a bug: the page says so, and the server goes on
            status, (kind, body) = 500, self._problem(500, f"a bug in doodlebox: {exc!r}", api, svg)
        start_response(f"{status} {HTTPStatus(status).phrase}",
                       [("Content-Type", kind), ("Content-Length", str(len(body))), *HEADERS.items(), *extra])
        return [body]

    def _problem(self, status: int, text: str, api: bool, svg: bool = False) -> tuple[str, bytes]:
        if svg:
            return "image/svg+xml", coach.chart_svg({"why": text}).encode()
        if api:
            return _json({"error": text})
        return _html(pages.problem(self.where, status, text, self.writes))

    def may_write(self, path: str, environ: dict) -> None:
        """WebError 403 unless a POST to `path` may be answered: a write (WRITES) on a page whose
        writes are "open", or with the page's token; /api/token with the page's token."""
        if path not in WRITES and path != "/api/token":
            return                    # no such path: post() says 404
        if path in WRITES and self.writes == "open":
            return
        if self.token is None and self.writes == "open":
            raise WebError(403, "this page has no token: its writes need none")
        if self.token is None:
            raise WebError(403, "this page is read-only: it is served to the network without a token (start "
                                "`doodlebox web` with --token TOKEN, or DOODLEBOX_WEB_TOKEN, to allow writes)")
        given = self._bearer(environ)
        if given is None:
            raise WebError(403, "this page is read-only without its token: give it (Authorization: Bearer TOKEN; "
                                "the page asks for it once)")
        if not given:
            raise WebError(403, "refused: that is not this page's token")

    def _bearer(self, environ: dict) -> bool | None:
        """Whether the request's `Authorization: Bearer TOKEN` is the page's token (compared in
        constant time); None when it sends none (or another kind). The page has a token."""
        assert self.token is not None
        kind, _, given = (environ.get("HTTP_AUTHORIZATION") or "").strip().partition(" ")
        if kind.lower() != "bearer" or not given.strip():
            return None
        return hmac.compare_digest(given.strip().encode("utf-8", "replace"), self.token.encode())

    def may_analyse(self, environ: dict) -> str | None:
        """Why this request may not start a new analysis by the coach (None: it may), as writes
        go: on a page whose writes are "open", any request; with a token, one that sends it; on
        the network without one, none (an analysis already made is served all the same)."""
        if self.writes == "open":
            return None
        if self.token is None:
            return ("the coach starts no analysis on a page served to the network without a token (start "
                    "`doodlebox web` with --token TOKEN, or DOODLEBOX_WEB_TOKEN, and give it on the page)")
        given = self._bearer(environ)
        if given is None:
            return ("the coach starts an analysis only for this page's token: give it (Authorization: Bearer "
                    "TOKEN; the page asks for it once)")
        return None if given else "refused: that is not this page's token"

    # -- the answers ------------------------------------------------------------------------
    def get(self, path: str, environ: dict | None = None) -> tuple[str, bytes]:
        """(content type, body) of a GET (its WSGI `environ`: the client's address and token, which
        the coach's paths need); WebError or NotReady for anything else than 200."""
        db, writes = self.where, self.writes
        if path == "/":
            games = self.views.games()
            edition, player = _chosen(environ)
            mine = chosen(games, edition, player)
            ids = frozenset(g["id"] for g in mine) if edition or player else None
            live = self.live_state()
            return _html(pages.index(db, mine, live["console"], self.views.stats_text(ids), TITLES, writes,
                                     live=live["game"], link=live["link"] or live["problem"], all_games=games,
                                     chosen={"edition": edition, "player": player}))
        if path == "/league":
            return _html(league.page(db, self.views.standings(), writes))
        if path == "/api/league":
            return _json({"standings": self.views.standings()})
        m = PLAYER.fullmatch(path)
        if m:
            return _html(league.player_page(db, self.views.player(int(m.group(1))), writes))
        if path == "/api/live":
            return _json(self.live_state())
        if path == "/api/games":
            return _json({"games": self.views.games()})
        if path == "/sheets":
            return _html(sheets.page(db, writes, MAX_BODY))
        if path == "/api/sheets":
            return _json(sheets.listing())
        m = SHEET_PREVIEW.fullmatch(path)
        if m:
            return "image/png", sheets.preview(m.group(1))
        m = SHEET_DATA.fullmatch(path)
        if m:
            return _json(sheets.data_of(m.group(1)))
        if path == "/live/panel.png":
            png = self.live.panel_png()
            if png is None:
                raise WebError(404, "no virtual console here")
            return "image/png", png
        m = CHART.fullmatch(path)
        if m:
            edition, player = _chosen(environ)
            ids = frozenset(g["id"] for g in chosen(self.views.games(), edition, player)) if edition or player else None
            return "image/png", self.views.chart_png(m.group(1), ids)
        if path.startswith("/static/") and path[8:] in STATIC:
            return STATIC[path[8:]], (resources.files("doodlebox.web") / "static" / path[8:]).read_bytes()
        m = GAME.fullmatch(path)
        if m:
            return _html(pages.game(db, self.views.game(int(m.group(1))), writes))
        m = SHEET.fullmatch(path)
        if m:
            return "image/png", self.views.sheet_png(int(m.group(1)), int(m.group(2)) - 1)
        m = ROUND_SHEET.fullmatch(path)
        if m:
            return "image/png", self.views.sheet_png(int(m.group(1)), int(m.group(3)) - 1, int(m.group(2)))
        m = COACH.fullmatch(path) or COACH_API.fullmatch(path)
        if m:
            env = environ or {}
            client, refused = str(env.get("REMOTE_ADDR") or ""), self.may_analyse(env)
            if path.endswith(".svg"):
                return "image/svg+xml", self.views.coach_svg(int(m.group(1)), client, refused)
            return _json(self.views.coach(int(m.group(1)), client, refused))
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
        if path == "/api/token":
            return {"token": "accepted"}        # may_write checked it
        if path == "/api/sheets/check":
            return sheets.check(data)
        if path == "/api/sheets/save":
            try:
                return sheets.save(data)
            except sheets.Taken as exc:         # the page asks before replacing it
                raise WebError(409, str(exc)) from None
        if path == "/api/sheets/use":
            return sheets.use(data)
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


def _is_ip(text: str) -> bool:
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True


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


def _chosen(environ: dict | None) -> tuple[str, str]:
    """The page's filter of the games and statistics from its query (`?edition=city&player=Ann`):
    (edition, player), each "" when not given (a value that is no edition or name chooses none)."""
    query = parse_qs(str((environ or {}).get("QUERY_STRING") or ""), max_num_fields=8)
    edition = (query.get("edition") or [""])[0][:40]
    player = (query.get("player") or [""])[0][:40]
    return edition, player


def _html(text: str) -> tuple[str, bytes]:
    return "text/html; charset=utf-8", text.encode("utf-8")


def _json(data) -> tuple[str, bytes]:
    return "application/json", json.dumps(data).encode("utf-8")
