"""`make faults`, the lines of issue 18: what the console saw acknowledged that is not in the
database at the path the user named at the end ("acknowledged but not stored: 0"), under

    database deleted     the file removed (rm) while the logger stores into it
    database replaced    another file moved over it (mv): a copy of it made then, or a new database
    -shm spoilt          the file's -shm cut to 0 bytes and made read-only (chattr +i does not work
                         in a container; a file cut short under a mapping is what raises SIGBUS in
                         a WAL database's reader or writer), or, where there is none, a read-only
                         empty file or a folder put in its place
    SIGTERM, SIGHUP      the signal at a random instant mid-stream, the logger started again
    new port             the console pulled and plugged in again on a new pty (a Pico re-plugged
                         comes back as /dev/ttyACM1): the logger runs without --port, and finds it
                         by its USB serial number in a fake serial.tools.list_ports that lists the
                         console's current pty (FAKE_PORTS); a second console plugged in meanwhile
                         is followed too (every console at once, issue 22), its event stored under
                         its own uid

The logger is the shipped `doodlebox log` (tests/tools/faults.py Logger), the console
tests/support/fakeconsole.py. Before the database is deleted or replaced, the console is given time to
hear the ack of everything it sent (the logger idle), so that an ack counted after the fault is
one the logger sent after it: one the logger sent in the instant between its check and the
fault is the user's loss, not the logger's, and is not counted. FakeConsole.acked_not_stored
counts; tests/house/test_faults.py shows it counting a planted loss and these lines failing with the
checks taken out (a WAL database, the store's file check turned off)."""
from __future__ import annotations

import json
import os
import random
import shutil
import signal
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fakeconsole import FakeConsole

SERIAL = "E6614C311B2C4A2F"         # the fake Pico's USB serial number
OTHER_SERIAL = "E66138935F4D2E2A"
EXIT_WAIT = 20.0                    # s: how long a logger may take to end by itself after a fault

# run in the logger before its command line: serial.tools.list_ports lists what PORTS_FILE says
FAKE_PORTS = """
import json as _json
import serial.tools.list_ports as _lp
from serial.tools.list_ports_common import ListPortInfo as _Info
def _comports(include_links=False):
    try:
        with open({path!r}) as f:
            listed = _json.load(f)
    except (OSError, ValueError):
        listed = []
    out = []
    for p in listed:
        i = _Info(p["device"], skip_link_detection=True)
        i.vid, i.pid, i.serial_number, i.description = p["vid"], p["pid"], p["serial"], "Board in FS mode"
        out.append(i)
    return out
_lp.comports = _comports
"""


def list_ports(path: Path, *consoles: tuple[FakeConsole, str]) -> None:
    """What the fake serial.tools.list_ports lists from now on: each (console, USB serial) on
    its pty as a Pico running MicroPython (written whole: the logger reads it at any moment)."""
    tmp = path.with_name(path.name + ".new")
    tmp.write_text(json.dumps([{"device": c.path, "vid": 0x2E8A, "pid": 0x0005, "serial": s}
                               for c, s in consoles if c.pty is not None]))
    os.replace(tmp, path)


class Bench:
    """A console, the shipped logger (with `pre`; without --port when `port` is False, finding
    the console through FAKE_PORTS) and a stream of games, in a folder of their own."""

    def __init__(self, name: str, rng: random.Random, pre: str = "", port: bool = True):
        from logger_rig import Logger, Stream, console_for, workdir

        self.dir = workdir(name)
        self.console = console_for(self.dir)
        self.db = self.dir / "games.sqlite3"
        self.ports = self.dir / "ports.json"
        if not port:
            list_ports(self.ports, (self.console, SERIAL))
            pre = FAKE_PORTS.format(path=str(self.ports)) + pre
        self.logger = Logger(self.console.path if port else "", self.db, self.dir / "log.txt", pre=pre)
        self.stream = Stream(self.console, rng)

    def start(self) -> None:
        self.logger.start()
        self.logger.wait_connected(self.console)

    def last_start(self) -> str:
        """The logger's output since it was started last."""
        return self.logger.text().rsplit(f"--- start {self.logger.starts}\n", 1)[-1]

    def until_exit(self, timeout: float = 30.0) -> int | None:
        """The stream goes on until the logger ends by itself; its exit code (None: still running)."""
        end = time.monotonic() + timeout
        while self.logger.running() and time.monotonic() < end:
            self.stream.run(0.05)
        proc = self.logger.proc
        if proc is None or proc.poll() is None:
            return None
        time.sleep(0.05)       # its last output copied
        return proc.returncode

    def quiet(self) -> None:
        """Everything the console sent acknowledged, the logger idle: an ack from now on is new."""
        self.console.run_until(self.console.all_acked, 20)

    def close(self) -> None:
        self.logger.stop()
        self.console.pull()
        shutil.rmtree(self.dir, ignore_errors=True)


def _one_line(bench: Bench, code: int | None, *words: str) -> bool:
    """The logger ended with code 1 and one line naming the file and the cause."""
    lines = [t for t in bench.last_start().splitlines() if t.startswith("doodlebox: ")]
    return (code == 1 and len(lines) == 1 and str(bench.db) in lines[0] and all(w in lines[0] for w in words)
            and "Traceback" not in bench.last_start())


def _file_gone(what: str, n: int, rng: random.Random, spoil: Callable[[Bench, int], None], words: tuple[str, ...],
               pre: str = "") -> dict:
    """`n` times: the stream runs, the logger idle a moment, `spoil(bench, k)` deletes or
    replaces the file; the stream goes on until the logger ends (one line, exit 1), and a new
    logger stores what the console kept into whatever file is at the path now. Counted per
    fault: what was acknowledged after it, against the file at the path once that logger ended."""
    bench = Bench("file", rng, pre=pre)
    acked = clear = after = 0
    codes: list[int | None] = []
    try:
        bench.start()
        console = bench.console
        for k in range(n):
            bench.stream.run(rng.uniform(0.1, 0.5))
            bench.quiet()
            mark, made = len(console.acks), sum(len(v) for v in console.made.values())
            spoil(bench, k)
            code = bench.until_exit(EXIT_WAIT)
            if code is None:                 # still acknowledging: what it acknowledged is counted
                bench.logger.stop()
            codes.append(code)
            clear += _one_line(bench, code, *words)
            after += sum(len(v) for v in console.made.values()) - made
            acked += console.acked_not_stored(bench.db, mark)
            bench.start()                    # the events the console kept, into the file at the path now
        mark = len(console.acks)
        finished = bench.stream.finish()
        bench.logger.stop()
        acked += console.acked_not_stored(bench.db, mark)
    finally:
        bench.close()
    return {"what": what, "tried": n, "acked_not_stored": acked, "events": after, "finished": finished,
            "ok": clear, "ok_is": "one clear line", "exits": codes}


def db_deleted(n: int, rng: random.Random, pre: str = "") -> dict:
    """The database file removed while the logger stores into it (as `rm games.sqlite3`)."""
    return _file_gone("database deleted", n, rng, lambda bench, k: bench.db.unlink(),
                      ("the database was deleted",), pre)


def _replace(bench: Bench, k: int) -> None:
    """Moved over it: a copy of it as it is now (every other time), else a new doodlebox database."""
    other = bench.dir / "other.sqlite3"
    if k % 2 == 0:
        src, dst = sqlite3.connect(f"file:{bench.db}?mode=ro", uri=True), sqlite3.connect(other)
        try:
            src.backup(dst)
        finally:
            src.close()
            dst.close()
    else:
        from doodlebox.store import Store

        Store(other).close()
    os.replace(other, bench.db)


def db_replaced(n: int, rng: random.Random, pre: str = "") -> dict:
    """Another file moved over the database while the logger stores into it (as `mv`)."""
    return _file_gone("database replaced", n, rng, _replace, ("the database was replaced by another file",), pre)


def shm_spoilt(n: int, rng: random.Random, pre: str = "") -> dict:
    """The database's -shm cut to 0 bytes and made read-only, or (where there is none) a
    read-only empty file or a folder put in its place, mid-stream: the logger goes on storing,
    is stopped with Ctrl-C (exit 130) and starts again with it there. Under a WAL database
    (pre: JOURNAL_MODE = "WAL") the logger dies by SIGBUS here (exit -7)."""
    bench = Bench("shm", rng, pre=pre)
    up = 0
    codes: list[int | None] = []
    try:
        bench.start()
        for k in range(n):
            bench.stream.run(rng.uniform(0.1, 0.5))
            shm = Path(f"{bench.db}-shm")
            if shm.is_dir():
                shm.rmdir()
            if shm.exists():
                os.chmod(shm, 0o644)
                os.truncate(shm, 0)
                os.chmod(shm, 0o444)
            elif k % 2:
                shm.mkdir()
            else:
                shm.touch(0o444)
            bench.stream.run(rng.uniform(0.3, 0.8))
            alive = bench.logger.running()
            code = bench.logger.stop()
            codes.append(code)
            up += alive and code == 130
            bench.stream.run(rng.uniform(0.0, 0.2))
            try:
                bench.start()
            except (TimeoutError, RuntimeError):
                codes.append(bench.logger.proc.returncode if bench.logger.proc else None)
                break
        finished = bench.stream.finish() if bench.logger.running() else False
        bench.logger.stop()
        acked = bench.console.acked_not_stored(bench.db)
        got = bench.console.check(bench.db)
    finally:
        bench.close()
    return {"what": "-shm spoilt", "tried": n, "acked_not_stored": acked, "lost": got["lost"],
            "duplicated": got["duplicated"], "wrong": got["wrong"], "events": got["made"], "finished": finished,
            "ok": up, "ok_is": "the logger stayed up and ended with Ctrl-C", "exits": codes}


def _signals(signame: str) -> Callable[[int, random.Random], dict]:
    def fault(n: int, rng: random.Random, pre: str = "") -> dict:
        """The signal at a random instant mid-stream: the logger stops reading, commits what it
        read, prints its summary and exits with 128 + the signal's number; started again."""
        signum = getattr(signal, signame)
        bench = Bench(signame.lower(), rng, pre=pre)
        ok = 0
        codes: list[int | None] = []
        try:
            bench.start()
            for _ in range(n):
                bench.stream.run(rng.uniform(0.05, 0.6))
                assert bench.logger.proc is not None
                bench.logger.proc.send_signal(signum)
                code = bench.until_exit(EXIT_WAIT)
                codes.append(code)
                text = bench.last_start()
                ok += (code == 128 + signum and "\nstored " in text and f"stopped by {signame}" in text
                       and "Traceback" not in text)
                bench.stream.run(rng.uniform(0.0, 0.3))        # the console goes on: its events are held
                if code is None:
                    bench.logger.stop()
                bench.start()
            finished = bench.stream.finish()
            bench.logger.stop()
            acked = bench.console.acked_not_stored(bench.db)
            got = bench.console.check(bench.db)
        finally:
            bench.close()
        return {"what": f"logger stopped by {signame}", "tried": n, "acked_not_stored": acked, "lost": got["lost"],
                "duplicated": got["duplicated"], "wrong": got["wrong"], "events": got["made"],
                "finished": finished, "ok": ok, "ok_is": f"exit {128 + signum} and the summary line", "exits": codes}
    fault.__name__ = f"signal_{signame.lower()}"
    return fault


def new_port(n: int, rng: random.Random, pre: str = "") -> dict:
    """The console pulled and plugged in again on a new pty `n` times; the logger (no --port)
    finds it by its USB serial number and says it is back on the new port. From the first pull
    on, a second console is listed too: followed as well (issue 22), its one event stored once
    under its own uid, nothing of the first console's taken for it."""
    bench = Bench("port", rng, pre=pre, port=False)
    console = bench.console
    second = FakeConsole(uid="5ec0d0")
    second.add({"k": "game", "g": 1, "ed": "city", "n": 2, "var": ""})
    back = 0
    paths: list[str] = []
    try:
        bench.start()
        for _ in range(n):
            bench.stream.run(rng.uniform(0.05, 0.6))
            console.pull()
            list_ports(bench.ports, (second, OTHER_SERIAL))     # the second console is plugged in
            bench.stream.run(rng.uniform(0.1, 1.0))          # events made while unplugged are held
            console.plug()
            paths.append(console.path)
            console.got_hi = False
            list_ports(bench.ports, (console, SERIAL), (second, OTHER_SERIAL))
            said = f"note: console {console.uid} back on {console.path}"

            def heard(said=said) -> bool:
                second.step()
                return console.got_hi and said in bench.last_start()
            if console.run_until(heard, 20):
                back += 1
        told = f"connected: console {second.uid}"

        def stored() -> bool:
            second.step()
            return told in bench.logger.text() and second.all_acked()
        console.run_until(stored, 20)
        finished = bench.stream.finish()
        alive = bench.logger.running()
        bench.logger.stop()
        text = bench.logger.text()
        acked = console.acked_not_stored(bench.db)
        got = console.check(bench.db)
        other = text.count(told)
        second_stored = sum(len(v) for v in second.rows(bench.db).values())
    finally:
        second.pull()
        bench.close()
    return {"what": "console back on a new port", "tried": n, "acked_not_stored": acked, "lost": got["lost"],
            "duplicated": got["duplicated"], "wrong": got["wrong"], "events": got["made"], "finished": finished,
            "ok": back if alive and other == 1 and "another console" not in text and second_stored == 1 else 0,
            "ok_is": "'back on' the new port said (and the second console followed too, its event stored once)",
            "ports": len(set(paths))}


# (name, function, how many in `make faults`, how many in --short / make test)
FAULTS: list[tuple[str, Callable[..., dict], int, int]] = [
    ("database deleted", db_deleted, 6, 2),
    ("database replaced", db_replaced, 6, 2),
    ("-shm spoilt", shm_spoilt, 6, 2),
    ("logger stopped by SIGTERM", _signals("SIGTERM"), 8, 2),
    ("logger stopped by SIGHUP", _signals("SIGHUP"), 8, 2),
    ("console back on a new port", new_port, 8, 2),
]


def line(head: str, r: dict[str, Any]) -> str:
    """`make faults`'s line for one of these."""
    text = f"{head}, acknowledged but not stored: {r['acked_not_stored']}"
    if "lost" in r:
        text += f", lost {r['lost']}, duplicated {r['duplicated']}"
    notes = [f"{r['events']:,} events" + (" made after the faults" if "lost" not in r else "")]
    if r.get("wrong"):
        notes.append(f"stored wrong {r['wrong']}")
    notes.append(f"{r['ok_is']} {r['ok']} of {r['tried']}")
    if r.get("finished") is False:
        notes.append("NOT ALL ACKNOWLEDGED")
    if r["ok"] != r["tried"] and r.get("exits"):
        notes.append(f"exit codes {r['exits']}")
    return f"{text} ({', '.join(notes)})"


def failed(r: dict[str, Any]) -> bool:
    return bool(r["acked_not_stored"] or r.get("lost") or r.get("duplicated") or r.get("wrong")
                or r.get("finished") is False or r["ok"] != r["tried"])
