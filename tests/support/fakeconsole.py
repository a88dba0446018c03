"""A console in CPython for the host's tests, faults and benchmark: on the master end of a
pseudo-terminal (virtual/pty_port.PtyPort), or of one reopened behind a fixed path (a symlink,
as a Pico's /dev/ttyACM0 comes back after a pulled cable). It keeps every event until the host
acknowledges it, across boots, as docs/protocol.md says: go-back-N with WINDOW frames in flight,
oldest boot first, all of them again after RESEND_S without an ack, again from `s` on a nak; a
`hello` with `held` in answer to `hi`. The frames are the firmware's own (doodle/link.py).

`check(db)` compares what the host stored with what was made: events lost, stored twice (or
shifted), stored wrong; `db` an SQLite file or a PostgreSQL URL. `ack_waits` times each event from
its frame's first sending to the ack that covered it (tests/tools/bench_club.py)."""
from __future__ import annotations

import os
import random
import select
import sqlite3
import sys
import time
from collections import deque
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))
import house  # noqa: E402

house.on_path()

import fw_events  # noqa: E402

from doodle import link as fw_link  # noqa: E402
from doodlebox.link import frames  # noqa: E402
from doodlebox.virtual.pty_port import PtyPort  # noqa: E402

WINDOW = 8
RESEND_S = 1.0


class FakeConsole:
    def __init__(self, path: Path | None = None, uid: str = "fa1ce0", boot: int = 1, window: int = WINDOW,
                 resend_s: float = RESEND_S):
        """`path`: a symlink kept pointing at the pty (so `pull()` and `plug()` can replace it);
        without one the pty's own path (`self.path`)."""
        self.link_path = path
        self.uid, self.boot, self.window, self.resend_s = uid, boot, window, resend_s
        self.made: dict[int, list[dict]] = {boot: []}      # boot -> its events, s = index + 1
        self._frames: dict[tuple[int, int], bytes] = {}
        self._queue: dict[int, deque[int]] = {}            # boot -> its s not acknowledged, in order
        self._sent = 0                                     # how many of them (oldest boot first) are in flight
        self._sent_at = 0.0
        self._out = bytearray()                            # bytes the pty did not take yet
        self._lines = frames.LineSplitter()
        self.acks: list[tuple[int, int, float]] = []       # (boot, s, when) of every ack
        self.got: list[dict] = []                          # every other frame from the host
        self.resends = 0
        self.got_hi = False                                # a hi came (set again by the caller)
        self.first_sent: dict[tuple[int, int], float] = {}  # (boot, s) -> perf_counter() of its first frame out
        self.ack_waits: list[float] = []                   # s from each event's first frame out to its ack
        self.noise: tuple[random.Random, float] | None = None   # (rng, p): each frame spoilt on the wire with p
        self.spoilt = 0
        self.pty: PtyPort | None = None
        self.plug()

    # -- the cable -----------------------------------------------------------------------------
    @property
    def path(self) -> str:
        assert self.pty is not None
        return str(self.link_path) if self.link_path else self.pty.path

    def plug(self) -> None:
        self.pty = PtyPort()
        if self.link_path is not None:
            tmp = self.link_path.with_name(self.link_path.name + ".new")
            if tmp.is_symlink():
                tmp.unlink()
            os.symlink(self.pty.path, tmp)
            os.replace(tmp, self.link_path)

    def pull(self) -> None:
        """The cable out: the host's port goes away, and whatever was on the wire with it."""
        if self.link_path is not None and self.link_path.is_symlink():
            self.link_path.unlink()
        if self.pty is not None:
            self.pty.close()
        self.pty = None
        self._out.clear()
        self._lines = frames.LineSplitter()
        self._sent = 0

    # -- events --------------------------------------------------------------------------------
    def add(self, event: dict) -> tuple[int, int]:
        events = self.made[self.boot]
        events.append(event)
        s = len(events)
        self._frames[(self.boot, s)] = fw_events.frame(self.boot, s, dict(event))
        self._queue.setdefault(self.boot, deque()).append(s)
        return self.boot, s

    def reboot(self) -> int:
        """A new boot: what is not acknowledged is kept and sent first."""
        self.boot += 1
        self.made[self.boot] = []
        self._sent = 0
        return self.boot

    def held(self) -> int:
        return sum(len(q) for q in self._queue.values())

    def _order(self):
        """(boot, s) of every event not acknowledged, in the order they are sent."""
        for b in sorted(self._queue):
            for s in self._queue[b]:
                yield b, s

    def hello(self) -> bytes:
        held = [[b, q[0], q[-1] + 1] for b, q in sorted(self._queue.items()) if q and b != self.boot]
        nxt = len(self.made[self.boot]) + 1
        mine = self._queue.get(self.boot)
        first = mine[0] if mine else nxt
        return fw_link.encode({"t": "hello", "fw": "0.3.0", "uid": self.uid, "boot": self.boot, "first": first,
                               "next": nxt, "held": held + [[self.boot, first, nxt]]})

    # -- the loop ------------------------------------------------------------------------------
    def step(self, wait: float = 0.0) -> None:
        """Read what the host sent (waiting up to `wait` s for it), answer, send what is due."""
        pty = self.pty
        if pty is None:
            if wait:
                time.sleep(wait)
            return
        if wait and not self._out:
            select.select([pty.fileno()], [], [], wait)
        data = pty.read(65536)
        if data:
            for line in self._lines.feed(data):
                if isinstance(line, bytes):
                    self._heard(frames.decode(line))
        self._pump()

    def _heard(self, msg: dict) -> None:
        t = msg["t"]
        if t == "hi":
            self.got_hi = True
            self._out += self.hello()
            self._sent = 0
        elif t == "ack":
            b, top = msg["boot"], msg["s"]
            when = time.perf_counter()
            self.acks.append((b, top, when))
            q = self._queue.get(b)
            removed = 0
            while q and q[0] <= top:
                sent = self.first_sent.pop((b, q.popleft()), None)
                if sent is not None:
                    self.ack_waits.append(when - sent)
                removed += 1
            if removed:
                before = sum(len(v) for k, v in self._queue.items() if k < b)
                self._sent -= min(removed, max(0, self._sent - before))
                self._sent_at = time.monotonic()
        elif t == "nak":
            for i, key in enumerate(self._order()):
                if key >= (msg["boot"], msg["s"]):
                    self._sent = min(self._sent, i)
                    break
        else:
            self.got.append(msg)

    def _pump(self) -> None:
        now = time.monotonic()
        if self._sent and now - self._sent_at >= self.resend_s:
            self._sent = 0
            self.resends += 1
        limit = min(self.window, self.held())
        if self._sent < limit:
            if self._sent == 0:
                self._sent_at = now
            for i, key in enumerate(self._order()):
                if i >= limit:
                    break
                if i >= self._sent:
                    self._out += self._wire(self._frames[key])
                    self.first_sent.setdefault(key, time.perf_counter())
            self._sent = limit
        if self._out and self.pty is not None:
            n = _write_some(self.pty, bytes(self._out))
            del self._out[:n]

    def _wire(self, frame: bytes) -> bytes:
        """The frame as the cable carries it: now and then (self.noise) a byte changed, the frame
        lost, cut short (and run into the next) or sent twice."""
        if self.noise is None or self.noise[0].random() >= self.noise[1]:
            return frame
        rng = self.noise[0]
        self.spoilt += 1
        how = rng.randrange(4)
        if how == 0:
            i = rng.randrange(len(frame) - 1)
            return frame[:i] + bytes([rng.randrange(32, 127)]) + frame[i + 1:]
        if how == 1:
            return b""
        if how == 2:
            return frame[:rng.randrange(1, len(frame) - 1)]
        return frame + frame

    def run_until(self, done, timeout: float, wait: float = 0.002) -> bool:
        end = time.monotonic() + timeout
        while not done():
            if time.monotonic() > end:
                return False
            self.step(wait)
        return True

    def all_acked(self) -> bool:
        return not self.held()

    # -- what the host stored ------------------------------------------------------------------
    def rows(self, db: Path | str) -> dict[int, dict[int, dict]]:
        """boot -> s -> event: what the database at `db` holds of this console (nothing when
        there is no file there); `db` may be a PostgreSQL URL (postgresql://...)."""
        import json

        rows: dict[int, dict[int, dict]] = {}
        if isinstance(db, str) and db.split("://", 1)[0] in ("postgresql", "postgres"):
            import psycopg

            with psycopg.connect(db, autocommit=True, connect_timeout=10) as pg:
                for boot, seq, body in pg.execute("SELECT boot, seq, body FROM events WHERE uid=%s", (self.uid,)):
                    rows.setdefault(boot, {})[seq] = json.loads(body)
            return rows
        db = Path(db)
        if db.exists():
            con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10)
            try:
                for boot, seq, body in con.execute("SELECT boot, seq, body FROM events WHERE uid=?", (self.uid,)):
                    rows.setdefault(boot, {})[seq] = json.loads(body)
            finally:
                con.close()
        return rows

    def acked_not_stored(self, db: Path | str, since: int = 0) -> int:
        """Events this console saw acknowledged (and so let go) that the database at `db` does
        not hold: of the acks from `self.acks[since]` on, each boot's events above the highest
        acknowledged before them (those went with a file deleted or replaced at `since`)."""
        rows = self.rows(db)
        base: dict[int, int] = {}
        for b, s, _ in self.acks[:since]:
            base[b] = max(base.get(b, 0), s)
        top: dict[int, int] = {}
        for b, s, _ in self.acks[since:]:
            top[b] = max(top.get(b, 0), s)
        return sum(1 for b, t in top.items() for s in range(base.get(b, 0) + 1, t + 1) if s not in rows.get(b, {}))

    def check(self, db: Path | str) -> dict[str, int]:
        """{"made", "stored", "lost", "duplicated", "wrong"} against the host's database."""
        rows = self.rows(db)
        out = {"made": 0, "stored": 0, "lost": 0, "duplicated": 0, "wrong": 0}
        for boot, events in self.made.items():
            stored = rows.get(boot, {})
            out["made"] += len(events)
            out["stored"] += len(stored)
            for s, e in enumerate(events, start=1):
                if s not in stored:
                    out["lost"] += 1
                elif stored[s] != e:
                    out["duplicated" if s > 1 and stored[s] == events[s - 2] else "wrong"] += 1
            out["duplicated"] += sum(1 for s in stored if s > len(events))
        out["duplicated"] += sum(len(v) for b, v in rows.items() if b not in self.made)
        return out


def _write_some(pty: PtyPort, data: bytes) -> int:
    """As much of `data` as the pty takes now (never waits)."""
    try:
        return os.write(pty.fileno(), data)
    except BlockingIOError:
        return 0
    except OSError:
        return 0


def game_events(n_games: int, seed: int = 1, players: int = 3, edition: str = "city") -> list[list[dict]]:
    """Whole games of a dice edition as the console sends them (tests/support/console_events.py), numbered
    1..n_games (each game its own `g`)."""
    from console_events import console_events
    from randomplay import random_game

    from doodlebox.rules.games import find_game

    game = find_game(edition)
    rng = random.Random(seed)
    return [console_events(random_game(game, rng.randrange(1 << 30), players), g=g + 1)
            for g in range(n_games)]
