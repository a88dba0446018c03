"""`make bench`'s "club" section (issue 22, "Load"): 20 consoles logged at once by ONE shipped
`doodlebox log --port P1 ... --port P20 --db DB` (its own process, as a club runs it), into SQLite
and into PostgreSQL (a throwaway cluster of tests/support/pgserver.py with fsync on, started and stopped
here).

The consoles are tests/support/fakeconsole.py's, not the virtual console: the firmware under CPython is
one console per process, and twenty MicroPython VMs would measure the VMs, not the logger. Each
fake console speaks the firmware's own frames (doodle/link.py) over a real pseudo-terminal of its
own, with a uid of its own, go-back-N with 8 frames in flight, resending after 1 s without an ack
(docs/protocol.md). Once the logger has said every console connected, each console is given whole
3-player City games (tests/support/console_events.py, the events a console sends, ~100 a game) and sends
them as fast as its window lets it: twenty tables whose events all arrive at once, the logger's
worst evening (a console's journal replayed after the PC was off looks the same). A second run
per backend paces them: each console makes one game's events at 10 a second, out of step.

Measured on this side of the cable, not in the logger:
- events/s: the events stored (counted in the database afterwards) over the wall time from the
  first frame out to the last ack in;
- ack p50/p99: each event, from its frame's first sending to the ack that covered it (a resend's
  wait included: FakeConsole.ack_waits);
- lost, duplicated (or stored shifted), wrong: each console's database rows against what it made
  (FakeConsole.check);
- acked before stored: events acknowledged that a query of the database made after their ack
  did not find; queried about every second while logging and once after the logger stopped.

    .venv/bin/python tests/tools/bench_club.py [--consoles 20] [--games 3] [--pace 10] [--backend sqlite|postgresql]

tests/house/test_bench_club.py runs run_club() on 3 consoles x 30 events (no timing asserted).
"""
from __future__ import annotations

import argparse
import os
import re
import select
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))
import house  # noqa: E402

house.on_path()

from fakeconsole import FakeConsole, game_events  # noqa: E402

CONSOLES = 20
GAMES = 3            # 3-player City games per console: ~300 events each
PLAYERS = 3
CHECK_EVERY_S = 1.0  # the database queried for acked-but-absent events this often while logging
PACE = 10.0          # events/s per console in the paced run (200/s from 20 consoles)
PACED_GAMES = 1
IGNORED = re.compile(r"\] stored \d+ event\(s\); (\d+) duplicate\(s\) ignored")


def is_url(where: Path | str) -> bool:
    return isinstance(where, str) and "://" in where


class ClubLog:
    """`doodlebox log --port P ... --db WHERE` as its own process; its output lines in `lines`."""

    def __init__(self, ports: list[str], where: Path | str, home: Path):
        env = dict(os.environ, PYTHONPATH=str(ROOT / "host"), PYTHONUNBUFFERED="1", PYTHONDONTWRITEBYTECODE="1",
                   XDG_DATA_HOME=str(home / "data"), XDG_CONFIG_HOME=str(home / "config"))
        env.pop("DOODLEBOX_DB", None)
        args = [a for p in ports for a in ("--port", p)]
        self.proc = subprocess.Popen([sys.executable, "-m", "doodlebox.cli", "log", *args, "--db", str(where),
                                      "--wait", "60"], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, text=True, env=env)
        self.lines: list[str] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.append(line.rstrip("\n"))

    def running(self) -> bool:
        return self.proc.poll() is None

    def stop(self) -> int:
        """Ctrl-C, as a person ends it; its exit code (130)."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
        try:
            return self.proc.wait(30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return self.proc.wait()
        finally:
            self._reader.join(5)


class Spot:
    """The acked-before-stored check: every event a console saw acknowledged must be in the
    database when it is queried after that ack."""

    def __init__(self, consoles: list[FakeConsole], where: Path | str):
        self.consoles, self.where = consoles, where
        self.missing: set[tuple[str, int, int]] = set()
        self.checks = 0
        self._pg = None

    def _query(self, sql: str, args: tuple = ()) -> list[tuple]:
        if is_url(self.where):
            import psycopg

            if self._pg is None:
                self._pg = psycopg.connect(str(self.where), autocommit=True, connect_timeout=10)
            return self._pg.execute(sql.replace("?", "%s"), args).fetchall()
        if not Path(self.where).exists():
            return []
        con = sqlite3.connect(f"file:{self.where}?mode=ro", uri=True, timeout=30)
        try:
            return con.execute(sql, args).fetchall()
        finally:
            con.close()

    def check(self) -> None:
        tops: dict[tuple[str, int], int] = {}
        for c in self.consoles:                   # what was acknowledged before the query
            for b, s, _ in c.acks:
                tops[(c.uid, b)] = max(tops.get((c.uid, b), 0), s)
        if not tops:
            return
        try:
            held = {(u, b): (n, top) for u, b, n, top in
                    self._query("SELECT uid, boot, count(*), max(seq) FROM events GROUP BY uid, boot")}
        except Exception:        # no table yet (nothing acknowledged either, then)
            held = {}
        self.checks += 1
        for (uid, b), top in tops.items():
            n, most = held.get((uid, b), (0, 0))
            if n == most and most >= top:         # 1..most all there (seq is unique and from 1)
                continue
            there = {s for (s,) in self._query("SELECT seq FROM events WHERE uid=? AND boot=? AND seq<=?",
                                               (uid, b, top))}
            self.missing |= {(uid, b, s) for s in range(1, top + 1) if s not in there}

    def close(self) -> None:
        if self._pg is not None:
            self._pg.close()


def durable_pg():
    """tests/support/pgserver.py's throwaway cluster, but with its commits flushed to disk (fsync on, as
    a club's server runs; the tests' cluster runs with fsync off)."""
    from pgserver import PgServer

    class Durable(PgServer):
        def launch(self) -> None:
            opts = f"-p {self.port} -k {self.root} -c listen_addresses={self.host} -c max_connections=60"
            self._run(self.bin / "pg_ctl", "-D", self.data, "-l", self.log, "-o", opts, "-w", "-t", "60", "start")

    return Durable()


def run_club(where: Path | str, folder: Path, consoles: int = CONSOLES, games: int = GAMES,
             players: int = PLAYERS, timeout: float = 90.0, seed: int = 1, rate: float | None = None,
             events: int | None = None) -> dict:
    """`consoles` fake consoles (each its own pty, its own uid, `games` whole games to send) and
    one `doodlebox log --port ... --db where`; every console's events acknowledged (or `timeout`
    s), the logger stopped with Ctrl-C, the database counted against what each console made.
    `rate`: each console makes its events at that many a second (the consoles out of step), not
    all at once. `events`: each console's first that many events only (a game cut short)."""
    tables = [FakeConsole(folder / f"table{k + 1:02d}", uid=f"c1ab0000{k + 1:08x}") for k in range(consoles)]
    log = ClubLog([c.path for c in tables], where, folder)
    spot = Spot(tables, where)
    connected = False
    t0 = t_end = time.perf_counter()
    done_at: list[float] = []
    code = None
    try:
        def drive(done, seconds: float, every: float = 0.0, feed=None) -> bool:
            """Step every console (each answers the logger and sends what is due) until `done()`;
            `feed()` first each time round."""
            end = time.monotonic() + seconds
            checked = time.monotonic()
            while not done():
                now = time.monotonic()
                if now > end or not log.running():
                    return False
                if feed is not None:
                    feed()
                fds = [c.pty.fileno() for c in tables if c.pty is not None]
                select.select(fds, [], [], 0.005)
                for c in tables:
                    c.step()
                if every and now - checked >= every:
                    spot.check()
                    checked = time.monotonic()
            return True

        said = {f"[{Path(c.path).name}] connected: console {c.uid}," for c in tables}
        connected = drive(lambda: len(said & {t.split(" firmware", 1)[0] for t in log.lines}) == len(said), 120)
        if connected:
            todo = [[dict(e, g=g) for g, game in enumerate(game_events(games, seed=seed * 1000 + k,
                                                                        players=players), start=1)
                     for e in game][:events] for k in range(consoles)]
            given = [0] * consoles
            left = set(range(consoles))
            t0 = time.perf_counter()

            def feed() -> None:
                """Each console's events made: all at once, or `rate` a second from its own start."""
                now = time.perf_counter() - t0
                for k, c in enumerate(tables):
                    due = len(todo[k]) if rate is None else min(len(todo[k]), int(now * rate + k / consoles))
                    while given[k] < due:
                        c.add(todo[k][given[k]])
                        given[k] += 1

            def all_done() -> bool:
                for k in list(left):
                    if given[k] == len(todo[k]) and tables[k].all_acked():
                        left.discard(k)
                        done_at.append(tables[k].acks[-1][2] - t0)
                return not left
            feed()
            drive(all_done, timeout, CHECK_EVERY_S, feed)
            t_end = max((c.acks[-1][2] for c in tables if c.acks), default=t0)
    finally:
        code = log.stop()
        for c in tables:
            c.pull()
    spot.check()                                  # after the logger stopped: everything acked is there
    by_uid = dict(spot._query("SELECT uid, count(*) FROM events GROUP BY uid")) if connected else {}
    spot.close()
    per = {c.uid: c.check(where) for c in tables}
    waits = sorted(w for c in tables for w in c.ack_waits)
    stored = sum(p["stored"] for p in per.values())
    took = max(t_end - t0, 1e-9)
    text = "\n".join(log.lines)
    return {
        "backend": "postgresql" if is_url(where) else "sqlite",
        "consoles": consoles, "connected": connected,
        "made": sum(p["made"] for p in per.values()), "stored": stored,
        "lost": sum(p["lost"] for p in per.values()), "duplicated": sum(p["duplicated"] for p in per.values()),
        "wrong": sum(p["wrong"] for p in per.values()),
        "acked_before_stored": len(spot.missing), "checks": spot.checks,
        "finished": connected and all(c.all_acked() for c in tables),
        "seconds": took, "events_per_s": stored / took,
        "ack_p50": waits[len(waits) // 2] if waits else float("nan"),
        "ack_p99": waits[min(len(waits) - 1, int(len(waits) * 0.99))] if waits else float("nan"),
        "ack_max": waits[-1] if waits else float("nan"),
        "done_first": min(done_at, default=float("nan")), "done_last": max(done_at, default=float("nan")),
        "resends": sum(c.resends for c in tables),
        "per_console": per, "by_uid": by_uid,
        "rate": rate, "exit": code, "notes": [t for t in log.lines if "note:" in t],
        "locked": sum("locked by another program" in t for t in log.lines),
        "ignored": sum(int(m.group(1)) for m in map(IGNORED.search, log.lines) if m),
        "traceback": "Traceback" in text, "log_tail": log.lines[-20:],
    }


def line(r: dict) -> str:
    """The bench's line for one run."""
    pace = f" at {r['rate']:g} events/s each" if r["rate"] else ""
    out = (f"club, {r['consoles']} consoles into {r['backend']}{pace}: {r['stored']:,} events in {r['seconds']:.1f} s: "
           f"{r['events_per_s']:,.0f} events/s, ack p50 {1e3 * r['ack_p50']:.0f} ms p99 {1e3 * r['ack_p99']:.0f} ms, "
           f"lost {r['lost']}, duplicated {r['duplicated']}, acked before stored {r['acked_before_stored']}")
    extra = []
    if r["wrong"]:
        extra.append(f"stored wrong {r['wrong']}")
    if not r["connected"]:
        extra.append("NOT ALL CONNECTED")
    elif not r["finished"]:
        extra.append("NOT ALL ACKNOWLEDGED")
    if r["traceback"] or r["exit"] != 130:
        extra.append(f"logger exit {r['exit']}" + (", a traceback" if r["traceback"] else ""))
    return out + (f" ({', '.join(extra)})" if extra else "")


def details(r: dict) -> str:
    pace = f" at {r['rate']:g}/s" if r["rate"] else ", all at once"
    return (f"  {r['backend']}{pace}: ack max {1e3 * r['ack_max']:.0f} ms; consoles done from {r['done_first']:.1f} "
            f"to {r['done_last']:.1f} s; {r['resends']} resends (1 s without an ack), {r['ignored']} frames seen "
            f"again ignored by the logger; {r['locked']} 'locked' notes; {r['checks']} checks of what was acked")


def bench(consoles: int = CONSOLES, games: int = GAMES, backends: tuple[str, ...] = ("postgresql", "sqlite"),
          pace: float = PACE, paced_games: int = PACED_GAMES, quiet: bool = False) -> list[dict]:
    """`make bench`'s club section: per backend a line for the consoles sending all at once and
    one for them paced (`pace` events/s each; 0: not run), then how it was measured."""
    if not quiet:
        text = (f"club: {consoles} consoles logged at once by one `doodlebox log` (its own process), "
                f"{games} 3-player games each at once, then {paced_games} at {pace:g} events/s each")
        print(f"\n{text}\n{'-' * len(text)}", flush=True)
    runs = [(None, games)] + ([(pace, paced_games)] if pace else [])
    out = []
    for backend in backends:
        server = durable_pg().start() if backend == "postgresql" else None
        try:
            for rate, n in runs:
                folder = Path(tempfile.mkdtemp(prefix=f"doodlebox-club-{backend}-"))
                try:
                    where = server.database() if server is not None else folder / "club.sqlite3"
                    r = run_club(where, folder, consoles, n, rate=rate)
                finally:
                    shutil.rmtree(folder, ignore_errors=True)
                out.append(r)
                if not quiet:
                    print(line(r), flush=True)
        finally:
            if server is not None:
                server.stop()
    if not quiet:
        for r in out:
            print(details(r))
        for text in NOTES:
            print(text)
    return out


NOTES = """\
The consoles are tests/support/fakeconsole.py's: the firmware's frames, each console on a real pty of its own with its
  own uid, go-back-N with 8 in flight, resent after 1 s without an ack; not the virtual console (the firmware
  under CPython is one console per process). They are given their games once the logger has said all of them
  connected. All at once: every console sends its games as fast as its window lets it (twenty tables at once,
  the logger's worst evening); paced: each makes its events at the rate given, out of step with the others.
events/s: the events stored over the time from the first frame out to the last ack in. ack: an event's first
  frame out to the ack that covers it, timed on the console's side. lost/duplicated: each console's rows in
  the database against what it made; acked before stored: acked events that a query of the database made
  after their ack did not find (every second while logging, and at the end).
SQLite: one file, synchronous=FULL, commit before ack, each console's link its own connection; the links take
  turns to write within the logger's process (store/transaction.py), the file's lock only against other
  programs. PostgreSQL: a throwaway cluster (tests/support/pgserver.py's, but with fsync on, as a club's server runs) on
  this machine over TCP, synchronous_commit=on, the same turns, and the writers' advisory lock between programs.
  Both on this machine's disk; the consoles, the logger and the server share its CPUs.""".splitlines()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="20 consoles logged at once into SQLite and PostgreSQL")
    ap.add_argument("--consoles", type=int, default=CONSOLES)
    ap.add_argument("--games", type=int, default=GAMES, help="3-player games per console sent at once (~100 events "
                    "each)")
    ap.add_argument("--pace", type=float, default=PACE, help="events/s per console of the paced run (0: none)")
    ap.add_argument("--paced-games", type=int, default=PACED_GAMES)
    ap.add_argument("--backend", action="append", choices=("postgresql", "sqlite"),
                    help="this backend only (repeatable; default both)")
    args = ap.parse_args(argv)
    results = bench(args.consoles, args.games, tuple(args.backend or ("postgresql", "sqlite")), args.pace,
                    args.paced_games)
    bad = [r for r in results if r["lost"] or r["duplicated"] or r["wrong"] or r["acked_before_stored"]
           or not r["finished"]]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
