"""`make faults`, the web lines of issue 18: the page's server holds up (host/doodlebox/web/server.py).

    web: 200 concurrent requests   200 connections opened at once, each a GET of one of the
                                   page's paths: every one answered 200, the latency's p50 and
                                   p99, the server's threads at most
    web: 60 slow clients           60 half-open connections (half stop in the request's headers,
                                   half in a POST's body) held while ordinary GETs go on: each
                                   ordinary one answered 200, each slow one dropped by the
                                   server (after how long), the server's threads at most
    web: 8 (50) clients asking     issue 32: that many clients (threads, each from an address of
        for analyses               its own, 127.0.0.10 and on, a connection a request) ask for the
                                   coach's analysis of several games each (/game/N/coach.svg and
                                   /api/game/N/coach, again after each Retry-After) while another
                                   thread times plain GETs of `/`: how the analysis requests were
                                   answered (200, 202 under way, 429 this client's bound, 503 the
                                   queue's), none dropped or errored, GET /'s latency, and whether
                                   every one was answered within 1 s (judged in the full run only)

The server is the shipped `doodlebox web --db DB --port 0` as its own process on 127.0.0.1 (no
other address is ever a target), over a temporary database holding one game (the analyses'
lines: the golden dice records, each GAME_COPIES times under other names); it is stopped at the
end. Every loop is bounded in count and in time. tests/web/test_web_limits.py runs short versions of
the first two as tests of what is answered and dropped, never of how fast; tests/house/test_faults.py
runs all four short.
"""
from __future__ import annotations

import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
ADDRESS = "127.0.0.1"
PATHS = ("/api/games", "/api/live", "/game/1", "/")
GOLDEN = ROOT / "tests" / "golden" / "suzhou-bonuses.json"
DICE_GOLDEN = ("city-hotel15", "city-solo", "monsters-bottles", "monsters-kraken", "shanghai-floors", "shanghai-ring",
               "suzhou-bonuses", "suzhou-control", "treasures-shared", "treasures-solo")   # the coach analyses these
GAME_COPIES = 2           # each of them, its players renamed: another record, so another analysis
GAMES_EACH = 4            # games a client asks for (more than the server's bound per client, analyses.PER_CLIENT)
ASKING_S = (30.0, 3.0)    # s the clients ask for (the full run, --short)
ASKS = 200                # requests a client makes at most
PAUSE_CAP = 2.0           # s: a client waits Retry-After, at most this long
ORDINARY_EVERY = 0.25     # s between the timed GETs of /
ORDINARY_LIMIT = 1.0      # s: "every ordinary request answered within" this


def server_timeout() -> float:
    from doodlebox.web.server import TIMEOUT

    return float(TIMEOUT)


class Web:
    """`doodlebox web --db DB --port 0` as its own process, over a new database in a folder of its
    own holding one imported game (`copies`: the golden dice records instead, each that many
    times, games 1 to len(DICE_GOLDEN) * copies); `with Web() as web:` waits for its address
    (web.port) and at the end stops it (Ctrl-C) and removes the folder."""

    def __init__(self, copies: int = 0) -> None:
        from doodlebox.history.games_view import import_records
        from doodlebox.store import Store

        self.dir = Path(tempfile.mkdtemp(prefix="doodlebox-web-"))
        self.db = self.dir / "games.sqlite3"
        paths = [GOLDEN]
        if copies:
            paths = []
            for k in range(copies):
                for name in DICE_GOLDEN:
                    data = json.loads((ROOT / "tests" / "golden" / f"{name}.json").read_text())
                    if k:
                        data["players"] = [f"{p} {k + 1}" for p in data["players"]]
                    paths.append(self.dir / f"{name}-{k + 1}.json")
                    paths[-1].write_text(json.dumps(data))
        self.games = len(paths)
        store = Store(self.db)
        try:
            import_records(store, paths, False)
        finally:
            store.close()
        self.proc: subprocess.Popen | None = None
        self.port = 0

    def __enter__(self) -> Web:
        env = dict(os.environ, PYTHONPATH=str(ROOT / "host"), PYTHONUNBUFFERED="1")
        self.proc = subprocess.Popen([sys.executable, "-m", "doodlebox.cli", "web", "--db", str(self.db),
                                      "--port", "0"], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, text=True, env=env)
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()       # the first line names the address (or says what went wrong)
        m = re.match(r"web: http://127\.0\.0\.1:(\d+)/", line)
        if not m:
            self.__exit__()
            raise RuntimeError(f"doodlebox web did not start: {line}")
        self.port = int(m.group(1))
        for path in PATHS:           # each page made once: the figures are of a server running, not starting
            request(self.port, path)
        return self

    def __exit__(self, *exc: object) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        shutil.rmtree(self.dir, ignore_errors=True)

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def threads(self) -> int:
        """The server process's threads now (0 once it is gone)."""
        try:
            status = Path(f"/proc/{self.pid}/status").read_text()
        except OSError:
            return 0
        m = re.search(r"^Threads:\s+(\d+)", status, re.M)
        return int(m.group(1)) if m else 0


class ThreadCount:
    """The most threads the server process had, sampled every 20 ms while in the `with`."""

    def __init__(self, web: Web):
        self.web, self.most = web, 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def _sample(self) -> None:
        while not self._stop.wait(0.02):
            self.most = max(self.most, self.web.threads())

    def __enter__(self) -> ThreadCount:
        self.most = self.web.threads()
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(timeout=5)


def exchange(port: int, data: bytes, timeout: float = 30.0, source: str | None = None) -> tuple[int, dict, bytes]:
    """`data` sent as it is on a connection of its own (from the address `source`, a loopback
    one; default: the system's choice): (status, headers, body) of the answer (status 0: what
    came back is no HTTP answer)."""
    with socket.create_connection((ADDRESS, port), timeout=timeout,
                                  source_address=(source, 0) if source else None) as s:
        s.sendall(data)
        got = b""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            chunk = s.recv(65536)
            if not chunk:
                break
            got += chunk
    head, _, body = got.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    m = re.match(r"HTTP/1\.[01] (\d{3}) ", lines[0])
    headers = dict(line.split(": ", 1) for line in lines[1:] if ": " in line)
    return (int(m.group(1)) if m else 0), headers, body


def request(port: int, path: str, timeout: float = 30.0) -> tuple[int, bytes]:
    """One GET on its own connection: (status, body); status 0 for no answer (the error as body)."""
    try:
        status, _, body = exchange(port, f"GET {path} HTTP/1.1\r\nHost: {ADDRESS}:{port}\r\nConnection: close\r\n\r\n"
                                   .encode(), timeout)
        return status, body
    except OSError as exc:
        return 0, repr(exc).encode()


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def concurrent(port: int, n: int, rng: random.Random, timeout: float = 30.0) -> dict[str, Any]:
    """`n` GETs, each on its own connection, all let go at once (a barrier): how many answered
    200, the others (errors, with the first few), the latencies in ms."""
    paths = [rng.choice(PATHS) for _ in range(n)]
    out: list[tuple[int, float, bytes]] = [(0, 0.0, b"not run")] * n
    gate = threading.Barrier(n, timeout=60)

    def one(k: int) -> None:
        try:
            gate.wait()
        except threading.BrokenBarrierError:
            return
        t0 = time.monotonic()
        status, body = request(port, paths[k], timeout)
        out[k] = (status, (time.monotonic() - t0) * 1000, body[:120] if status != 200 else b"")

    workers = [threading.Thread(target=one, args=(k,), daemon=True) for k in range(n)]
    for w in workers:
        w.start()
    for w in workers:
        w.join(timeout + 65)
    answered = [ms for status, ms, _ in out if status == 200]
    errors = [f"{status} {body.decode('utf-8', 'replace')}" for status, _, body in out if status != 200]
    return {"answered": len(answered), "errors": len(errors), "error_samples": errors[:3],
            "p50_ms": percentile(answered, 50), "p99_ms": percentile(answered, 99)}


def sources(n: int) -> list[str | None]:
    """`n` client addresses, 127.0.0.10 and on (all of 127.0.0.0/8 is this computer on Linux),
    so that the server counts `n` clients; None each where they cannot be had."""
    out: list[str | None] = []
    for k in range(n):
        address = f"127.0.0.{10 + k % 240}"
        try:
            with socket.socket() as s:
                s.bind((address, 0))
        except OSError:
            return [None] * n
        out.append(address)
    return out


def asking(port: int, n: int, games: int, rng: random.Random, seconds: float) -> dict[str, Any]:
    """`n` clients, each from an address of its own, asking for the coach's analyses of
    GAMES_EACH games each (each game not answered 200 yet once a round, /api/game/N/coach and
    /game/N/coach.svg in turn; the next round after the longest Retry-After, at most PAUSE_CAP s)
    for `seconds` s (and ASKS requests at most), while GETs of / are timed (one every
    ORDINARY_EVERY s): the analysis answers by status (0: dropped, no answer), the games
    analysed, /'s latencies."""
    addresses = sources(n)
    picks = [rng.sample(range(1, games + 1), min(GAMES_EACH, games)) for _ in range(n)]
    answers: list[list[int]] = [[] for _ in range(n)]
    analysed: set[int] = set()
    samples: list[str] = []
    deadline = time.monotonic() + seconds
    gate = threading.Barrier(n + 1, timeout=60)

    def client(k: int) -> None:
        left = list(picks[k])
        try:
            gate.wait()
        except threading.BrokenBarrierError:
            return
        for round_ in range(ASKS):
            pause = 0.0
            for gid in list(left):         # each game not answered yet, once a round
                if time.monotonic() >= deadline or len(answers[k]) >= ASKS:
                    return
                path = f"/game/{gid}/coach.svg" if round_ % 2 else f"/api/game/{gid}/coach"
                try:
                    status, headers, body = exchange(port, f"GET {path} HTTP/1.1\r\nHost: {ADDRESS}:{port}\r\n"
                                                           "Connection: close\r\n\r\n".encode(), 30, addresses[k])
                except OSError as exc:
                    status, headers, body = 0, {}, repr(exc).encode()
                answers[k].append(status)
                if status == 200:
                    left.remove(gid)
                    analysed.add(gid)
                    continue
                if status not in (202, 429, 503) and len(samples) < 3:
                    samples.append(f"{path}: {status} {body[:120].decode('utf-8', 'replace')}")
                wait = headers.get("Retry-After", "")
                pause = max(pause, min(float(wait), PAUSE_CAP) if wait.isdigit() else PAUSE_CAP)
            if not left:
                return
            time.sleep(max(0.0, min(pause, deadline - time.monotonic())))

    workers = [threading.Thread(target=client, args=(k,), daemon=True) for k in range(n)]
    for w in workers:
        w.start()
    lat: list[float] = []
    ordinary_failures: list[str] = []
    try:
        gate.wait()
    except threading.BrokenBarrierError:
        pass
    while time.monotonic() < deadline:
        t0 = time.monotonic()
        status, body = request(port, "/", timeout=30)
        if status == 200:
            lat.append((time.monotonic() - t0) * 1000)
        else:
            ordinary_failures.append(f"/: {status} {body[:120].decode('utf-8', 'replace')}")
        time.sleep(max(0.0, ORDINARY_EVERY - (time.monotonic() - t0)))
    for w in workers:
        w.join(PAUSE_CAP + 65)
    statuses = [s for a in answers for s in a]
    by = {code: statuses.count(code) for code in (200, 202, 429, 503)}
    errors = [s for s in statuses if s not in by]
    return {"asked": len(statuses), "by_status": by, "dropped": errors.count(0),
            "errors": len(errors) - errors.count(0), "analysed": len(analysed), "games": games,
            "ordinary": len(lat) + len(ordinary_failures), "answered": len(lat),
            "ordinary_errors": len(ordinary_failures), "error_samples": (samples + ordinary_failures)[:3],
            "p50_ms": percentile(lat, 50), "p99_ms": percentile(lat, 99), "max_ms": max(lat, default=float("nan")),
            "within": bool(lat) and max(lat) <= ORDINARY_LIMIT * 1000 and not ordinary_failures,
            "seconds": seconds}


def half_open(port: int, k: int) -> socket.socket:
    """A connection that stops half way: in its headers (k even) or in a POST's body (k odd)."""
    s = socket.create_connection((ADDRESS, port), timeout=10)
    if k % 2 == 0:
        s.sendall(f"GET /api/games HTTP/1.1\r\nHost: {ADDRESS}:{port}\r\nX-Slow: ".encode())
    else:
        body = json.dumps({"game": 1, "names": ["Ann", "Bo", "Cy"]}).encode()
        s.sendall(f"POST /api/names HTTP/1.1\r\nHost: {ADDRESS}:{port}\r\nContent-Type: application/json\r\n"
                  f"Content-Length: {len(body)}\r\n\r\n".encode() + body[:10])
    return s


def wait_dropped(socks: list[socket.socket], since: list[float], limit: float) -> list[float | None]:
    """For each socket, how long after `since` its server closed it (None: still open after
    `limit` s, or it answered something instead)."""
    import selectors

    out: list[float | None] = [None] * len(socks)
    sel = selectors.DefaultSelector()
    for k, s in enumerate(socks):
        s.setblocking(False)
        sel.register(s, selectors.EVENT_READ, k)
    deadline = time.monotonic() + limit
    left = len(socks)
    while left and time.monotonic() < deadline:
        for key, _ in sel.select(timeout=max(0.0, min(0.5, deadline - time.monotonic()))):
            k = key.data
            try:
                data = key.fileobj.recv(4096)     # type: ignore[union-attr]
            except OSError:                        # reset: dropped too
                data = b""
            sel.unregister(key.fileobj)
            left -= 1
            if not data:
                out[k] = time.monotonic() - since[k]
    sel.close()
    return out


def slow(port: int, n: int, rng: random.Random, ordinary: int = 20) -> dict[str, Any]:
    """`n` half-open connections opened, then `ordinary` GETs one after the other while they are
    held (each on its own connection); then how long after its last byte each slow one was
    dropped (waited for at most TIMEOUT + 15 s)."""
    timeout = server_timeout()
    socks: list[socket.socket] = []
    since: list[float] = []
    try:
        for k in range(n):
            socks.append(half_open(port, k))
            since.append(time.monotonic())
        lat: list[float] = []
        failures: list[str] = []
        for _ in range(ordinary):
            t0 = time.monotonic()
            status, body = request(port, rng.choice(PATHS), timeout=30)
            if status == 200:
                lat.append((time.monotonic() - t0) * 1000)
            else:
                failures.append(f"{status} {body[:120].decode('utf-8', 'replace')}")
        held = sum(1 for s in socks if _still_open(s))        # still held after the ordinary ones
        dropped = wait_dropped(socks, since, timeout + 15)
    finally:
        for s in socks:
            s.close()
    after = [d for d in dropped if d is not None]
    return {"ordinary": ordinary, "answered": len(lat), "ordinary_errors": len(failures),
            "error_samples": failures[:3], "p50_ms": percentile(lat, 50), "max_ms": max(lat, default=float("nan")),
            "held": held, "dropped": len(after), "dropped_after_s": (min(after, default=float("nan")),
                                                                      max(after, default=float("nan"))),
            "timeout_s": timeout}


def _still_open(s: socket.socket) -> bool:
    try:
        s.setblocking(False)
        try:
            return s.recv(1, socket.MSG_PEEK) != b""
        except BlockingIOError:
            return True
        except OSError:
            return False
    finally:
        s.setblocking(True)


# -- the faults -------------------------------------------------------------------------------------
def fault_concurrent(n: int, rng: random.Random) -> dict[str, Any]:
    with Web() as web, ThreadCount(web) as threads:
        r = concurrent(web.port, n, rng)
    return {"what": "web: concurrent requests", "tried": n, "web": "concurrent", **r, "threads": threads.most}


def fault_slow(n: int, rng: random.Random) -> dict[str, Any]:
    with Web() as web, ThreadCount(web) as threads:
        r = slow(web.port, n, rng)
    return {"what": "web: slow clients", "tried": n, "web": "slow", **r, "threads": threads.most}


def fault_analyses(n: int, rng: random.Random, full: int) -> dict[str, Any]:
    """`n` clients asking for analyses (asking()); `judged`: the full run (`n` == `full`), whose
    GET / must have been answered within ORDINARY_LIMIT s (--short never judges a time)."""
    judged = n >= full
    with Web(copies=GAME_COPIES) as web, ThreadCount(web) as threads:
        r = asking(web.port, n, web.games, rng, ASKING_S[0] if judged else ASKING_S[1])
    return {"what": "web: clients asking for analyses", "tried": n, "web": "analyses", **r, "judged": judged,
            "threads": threads.most}


def fault_analyses_8(n: int, rng: random.Random) -> dict[str, Any]:
    return fault_analyses(n, rng, 8)


def fault_analyses_50(n: int, rng: random.Random) -> dict[str, Any]:
    return fault_analyses(n, rng, 50)


def threads_allowed() -> int:
    """The threads the server may have at most: its workers, the sockets' thread, the main thread,
    the database's thread, and two more (the coach's process pool's manager and its queue's
    feeder, once an analysis was asked for)."""
    from doodlebox.web.server import THREADS

    return THREADS + 5


# (name, function, how many in `make faults`, how many in --short / make test)
FAULTS: list[tuple[str, Callable[..., dict], int, int]] = [
    ("web: 200 concurrent requests", fault_concurrent, 200, 50),
    ("web: 60 slow clients", fault_slow, 60, 10),
    ("web: 8 clients asking for analyses", fault_analyses_8, 8, 3),
    ("web: 50 clients asking for analyses", fault_analyses_50, 50, 10),
]


def line(head: str, r: dict[str, Any]) -> str:
    """`make faults`'s line for one of these."""
    if r["web"] == "concurrent":
        text = (f"{head}, answered {r['answered']}, errors {r['errors']}, latency p50 {r['p50_ms']:.0f} ms, "
                f"p99 {r['p99_ms']:.0f} ms")
    elif r["web"] == "analyses":
        by = ", ".join(f"{code} x{count}" for code, count in r["by_status"].items())
        within = "yes" if r["within"] else "NO"
        text = (f"{head}, analysis requests answered {r['asked'] - r['dropped']} of {r['asked']} ({by}; dropped "
                f"{r['dropped']}, errors {r['errors']}), games analysed {r['analysed']} of {r['games']} in "
                f"{r['seconds']:g} s; GET / meanwhile {r['answered']} of {r['ordinary']} answered (p50 "
                f"{r['p50_ms']:.0f} ms, p99 {r['p99_ms']:.0f} ms, max {r['max_ms']:.0f} ms); every ordinary request "
                f"answered within {ORDINARY_LIMIT:g} s: {within}" + ("" if r["judged"] else " (not judged: --short)"))
    else:
        low, high = r["dropped_after_s"]
        text = (f"{head}, held {r['held']}, dropped {r['dropped']} (after {low:.1f}-{high:.1f} s; timeout "
                f"{r['timeout_s']:g} s), ordinary requests meanwhile {r['answered']} of {r['ordinary']} answered "
                f"(p50 {r['p50_ms']:.0f} ms, max {r['max_ms']:.0f} ms)")
    notes = [f"server threads at most {r['threads']}"]
    if r["threads"] > threads_allowed():
        notes.append(f"MORE THAN {threads_allowed()}")
    notes += [f"error: {e}" for e in r.get("error_samples", [])]
    return f"{text} ({', '.join(notes)})"


def failed(r: dict[str, Any]) -> bool:
    if r["threads"] > threads_allowed():
        return True
    if r["web"] == "concurrent":
        return bool(r["errors"] or r["answered"] != r["tried"])
    if r["web"] == "analyses":
        return bool(r["dropped"] or r["errors"] or r["ordinary_errors"] or not r["asked"] or not r["answered"]
                    or (r["judged"] and not r["within"]))
    return bool(r["ordinary_errors"] or r["answered"] != r["ordinary"] or r["dropped"] != r["tried"])
