"""A club of many tables (issue 22): `doodlebox log` follows every console at once, each by its
uid, each with a link of its own into the one database, each console's lines named.

- ports.Watch, with a fake serial.tools.list_ports: each Pico found once by its USB serial
  number, whatever port it comes back on.
- club.Club with that fake list and consoles on ptys (tests/support/fakeconsole.py): a Pico plugged
  in while it logs is followed too; one pulled mid-game and plugged in on another port goes on.
- `doodlebox log --port A --port B --port C` as its own process, three consoles sending whole
  games, one pulled and plugged in again mid-game: each console's events are stored under its
  uid, none lost, none twice, none changed (compared with what each console made).
- `doodlebox log --virtual 3`: three virtual consoles, the firmware itself in three MicroPython VMs
  (the firmware under CPython is one console per process), each its own pty and uid; one
  re-plugged mid-game (a power cut) goes on with `resume`, nothing missing.
- `doodlebox demo --consoles 3`: three games by the bot at once into one database."""
from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from cli_run import ENV
from fakeconsole import FakeConsole
from logger_rig import Stream
from usb_ports import Listed, pico
from waiting import until

from doodlebox.link.ports import UsbPort, Watch
from doodlebox.logger.club import Club

SERIALS = ("E6614C311B2C0AAA", "E66138935F4D0BBB", "E6614864D3770CCC")


# -- the port watch ------------------------------------------------------------------------------
def test_each_pico_is_found_once_by_its_serial_number_on_any_port():
    a, b = pico("/dev/ttyACM0", SERIALS[0]), pico("/dev/ttyACM1", SERIALS[1])
    listed = Listed(a, UsbPort("/dev/ttyUSB0", 0x0403, 0x6001, "FT1"), UsbPort("/dev/ttyS0", None, None, None))
    watch = Watch(listed, max_age=0)
    assert watch.look() == [a] and watch.look() == []
    listed.ports.append(b)                                    # plugged in while logging
    assert watch.look() == [b] and watch.look() == []
    listed.ports.remove(a)                                    # pulled ...
    assert watch.look() == []
    listed.ports.append(pico("/dev/ttyACM2", SERIALS[0]))     # ... and back on another port: its link follows it
    assert watch.look() == []


def test_a_pico_found_at_the_start_is_not_new_and_one_whose_link_ended_is_new_after_a_replug():
    a, b = pico("/dev/ttyACM0", SERIALS[0]), pico("/dev/ttyACM1", SERIALS[1])
    listed = Listed(a, b)
    watch = Watch(listed, max_age=0)
    watch.take(a)                                             # followed from the start
    assert watch.look() == [b]
    watch.forget(b)                                           # its link ended (its port busy, say)
    assert watch.look() == [] and watch.look() == []          # not tried again while it stays
    listed.ports.remove(b)
    assert watch.look() == []
    listed.ports.append(b)                                    # plugged in again: new
    assert watch.look() == [b]


def test_a_pico_without_a_serial_number_is_known_by_its_device():
    listed = Listed(pico("/dev/ttyACM0", None))
    watch = Watch(listed, max_age=0)
    assert [p.device for p in watch.look()] == ["/dev/ttyACM0"]
    listed.ports = [pico("/dev/ttyACM1", None)]
    assert [p.device for p in watch.look()] == ["/dev/ttyACM1"]


def test_the_ports_are_listed_once_for_many_links_and_a_list_that_fails_is_nothing():
    listed = Listed(pico("/dev/ttyACM0", SERIALS[0]))
    watch = Watch(listed, max_age=60)
    for _ in range(20):                                       # twenty links looking where their console is
        assert [p.device for p in watch.ports()] == ["/dev/ttyACM0"]
    assert listed.calls == 1
    watch.look()                                              # the watch's own look lists them again
    assert listed.calls == 2

    def broken() -> list[UsbPort]:
        raise OSError("no /sys")

    assert Watch(broken).look() == [] and Watch(broken).ports() == []


# -- the club, in this process: a fake port list, consoles on ptys -----------------------------------
def _step(streams: list[Stream], seconds: float) -> None:
    for s in streams:
        s.run(seconds / len(streams))


@pytest.mark.slow
def test_a_pico_plugged_in_while_logging_is_followed_and_one_replugged_goes_on(tmp_path):
    db = tmp_path / "club.sqlite3"
    a, b = FakeConsole(uid="e6614c311b2c0aaa77"), FakeConsole(uid="e66138935f4d0bbb42")
    listed = Listed(pico(a.path, SERIALS[0]))
    watch = Watch(listed, max_age=0)
    lines: list[str] = []
    club = Club(db, lines.append, lambda e: [f"event {e.get('k')}"], handshake_timeout=10, watch=watch)
    sa, sb = Stream(a, random.Random(1)), Stream(b, random.Random(2))
    try:
        for p in watch.look():                                 # as `doodlebox log` starts: the Picos attached
            club.add_pico(p)
        assert a.run_until(lambda: club.consoles[0].link.wait_ready(0), 15)
        club.wait_ready(0)
        assert lines[0] == "connected: console e6614c311b2c0aaa77, firmware 0.3.0, boot 1"   # one console: no name
        sa.run(0.3)
        listed.ports.append(pico(b.path, SERIALS[1]))          # another table's console plugged in

        def running(done, seconds: float = 20, making: bool = True) -> bool:
            """The consoles stepped (making games' events) and the club polled until `done()`."""
            end = time.monotonic() + seconds
            while not done():
                if time.monotonic() > end:
                    return False
                club.poll()
                if making:
                    _step([sa, sb], 0.05)
                else:
                    a.step(0.003)
                    b.step(0.003)
            return True

        assert running(lambda: "[0bbb] connected: console e66138935f4d0bbb42, firmware 0.3.0, boot 1" in lines), lines
        assert any(t.startswith("several consoles: each line begins with its console's name ([0aaa]") for t in lines)
        running(lambda: False, 0.5)
        old = a.path
        a.pull()                                               # mid-game
        listed.ports = [pico(b.path, SERIALS[1])]
        running(lambda: any(t.startswith("[0aaa]   note: the console went away") for t in lines))
        sb.run(0.3)
        a.plug()
        assert a.path != old
        listed.ports = [pico(b.path, SERIALS[1]), pico(a.path, SERIALS[0])]
        assert running(lambda: f"[0aaa]   note: console e6614c311b2c0aaa77 back on {a.path}" in lines), lines
        running(lambda: False, 0.5)
        assert running(lambda: a.all_acked() and b.all_acked(), 30, making=False)
        assert len(club.consoles) == 2 and club.running()      # plugged again: the same link, no new one
    finally:
        club.stop()
        a.pull()
        b.pull()
    assert not any("another console" in t for t in lines)      # each followed, none only told of
    assert any(t.startswith("[0bbb] stored ") for t in lines) and any(t.startswith("[0aaa] stored ") for t in lines)
    assert any(t.startswith("[0bbb] event ") for t in lines)
    for c in (a, b):
        got = c.check(db)
        assert (got["lost"], got["duplicated"], got["wrong"]) == (0, 0, 0) and got["made"] > 50, got


# -- `doodlebox log --port ... --port ...` as its own process -------------------------------------------
class Log:
    """`doodlebox log ARGS` as its own process; its output lines in `lines`."""

    def __init__(self, *args: str, env: dict | None = None):
        self.proc = subprocess.Popen([sys.executable, "-m", "doodlebox.cli", "log", *args], stdin=subprocess.DEVNULL,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                     env=dict(env or ENV, PYTHONUNBUFFERED="1"))
        self.lines: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.append(line.rstrip("\n"))

    def has(self, start: str) -> bool:
        return any(t.startswith(start) for t in self.lines)

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(30)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
            time.sleep(0.2)      # the last lines read


def _games(db: Path) -> dict[str, set[tuple[int, int]]]:
    con = sqlite3.connect(db)
    try:
        out: dict[str, set[tuple[int, int]]] = {}
        for uid, boot, g in con.execute("SELECT uid, boot, g FROM games"):
            out.setdefault(uid, set()).add((boot, g))
        return out
    finally:
        con.close()


@pytest.mark.slow
def test_three_consoles_logged_at_once_by_the_command_each_game_under_its_uid_nothing_lost(tmp_path):
    db = tmp_path / "club.sqlite3"
    uids = ("c0a500000001", "c0a500000002", "c0a500000003")
    consoles = [FakeConsole(tmp_path / f"table{k + 1}", uid=uid) for k, uid in enumerate(uids)]
    streams = [Stream(c, random.Random(k), rate=200) for k, c in enumerate(consoles)]
    log = Log(*[a for c in consoles for a in ("--port", c.path)], "--db", str(db), "--wait", "20")
    try:
        def run(done, seconds: float = 30) -> bool:
            end = time.monotonic() + seconds
            while not done():
                if time.monotonic() > end or log.proc.poll() is not None:
                    return False
                _step(streams, 0.05)
            return True

        connected = [f"[table{k + 1}] connected: console {u}" for k, u in enumerate(uids)]
        assert run(lambda: all(log.has(t) for t in connected)), log.lines
        run(lambda: False, 2)
        second = consoles[1]
        second.pull()                                          # mid-game: the cable out
        assert run(lambda: log.has("[table2]   note: the console went away")), log.lines
        run(lambda: False, 1)
        second.plug()                                          # and in again
        assert run(lambda: log.has(f"[table2]   note: console {uids[1]} back on")), log.lines
        run(lambda: False, 2)
        assert all(c.run_until(c.all_acked, 30) for c in consoles)
    finally:
        code = log.stop()
        for c in consoles:
            c.pull()
    assert code == 128 + signal.SIGTERM, log.lines
    out = "\n".join(log.lines)
    for k in range(3):
        assert f"[table{k + 1}] stored " in out
    assert "Traceback" not in out and "another console" not in out, out
    games = _games(db)
    assert set(games) == set(uids)
    for c in consoles:
        got = c.check(db)
        assert (got["lost"], got["duplicated"], got["wrong"]) == (0, 0, 0) and got["made"] > 200, (c.uid, got)
        made = {(boot, e["g"]) for boot, events in c.made.items() for e in events if e.get("k") == "game"}
        assert games[c.uid] == made and len(made) >= 2, (c.uid, games[c.uid], made)


# -- three virtual consoles: the firmware itself ----------------------------------------------------------
def _rows(db: Path) -> list[tuple[str, int, int, str]]:
    if not db.exists():
        return []
    con = sqlite3.connect(db, timeout=10)
    try:
        return con.execute("SELECT uid, boot, seq, kind FROM events ORDER BY uid, boot, seq").fetchall()
    finally:
        con.close()


@pytest.mark.slow
def test_three_virtual_consoles_logged_at_once_one_replugged_mid_game(tmp_path, monkeypatch, capsys):
    """The real `doodlebox log --virtual 3` (three MicroPython VMs), here in a thread of this process so that the
    test can press the virtual consoles' buttons and pull one's cable."""
    from doodlebox.cli import console as cli_console
    from doodlebox.cli import parser
    from doodlebox.logger import run as logger_run

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    started = []
    real = logger_run.start_virtual

    def start_virtual(*a, **k):
        started.append(real(*a, **k))
        return started[-1]

    lines: list[str] = []
    monkeypatch.setattr(logger_run, "start_virtual", start_virtual)
    monkeypatch.setattr(cli_console, "say", lines.append)
    db = tmp_path / "club.sqlite3"
    args = parser().parse_args(["log", "--virtual", "3", "--seed", "5", "--db", str(db), "--wait", "30"])
    result: dict = {}

    def run() -> None:
        try:
            result["code"] = args.run(args)
        except BaseException as exc:
            result["error"] = exc

    logger = threading.Thread(target=run, daemon=True)
    logger.start()
    try:
        assert until(lambda: sum(t.split(" ", 1)[1].startswith("connected: console ") for t in lines) == 3, 60), \
            (lines, result)
        uids = {t.split()[0]: t.split()[3].rstrip(",") for t in lines if " connected: console " in t}
        assert sorted(uids) == ["[0001]", "[0002]", "[0003]"] and len(set(uids.values())) == 3
        for name, uid in uids.items():
            assert uid.startswith(f"d00d1eb00000{name[1:5]}")   # each its own board and uid
        by_uid = [uids[f"[000{k + 1}]"] for k in range(3)]

        def kinds(uid: str, boot: int | None = None) -> list[str]:
            return [k for u, b, _, k in _rows(db) if u == uid and (boot is None or b == boot)]

        for vc in started:
            vc.press("ROLL")                                   # the lobby's game begins: `game`
        assert until(lambda: all(kinds(u) == ["game"] for u in by_uid), 30), _rows(db)
        for vc in started:
            vc.press("ROLL")                                   # its start roads rolled: `start`
        assert until(lambda: all(kinds(u) == ["game", "start"] for u in by_uid), 30), _rows(db)
        second = started[1]
        old = second.port
        assert second.replug() != old                          # mid-game: the cable out and in (a power cut)
        assert until(lambda: kinds(by_uid[1], 2)[:1] == ["resume"], 60), (_rows(db), lines)
        assert f"[0002]   note: console {by_uid[1]} back on {second.port}" in lines
        second.press("ROLL")
        started[2].press("ROLL")
        assert until(lambda: len(kinds(by_uid[1], 2)) >= 2 and len(kinds(by_uid[2])) >= 3, 30), _rows(db)
    finally:
        for vc in started:
            vc.stop()                                          # every console switched off: log ends
        logger.join(30)
    assert not logger.is_alive() and result.get("code") == 0, (result, lines)
    assert all(vc.error is None for vc in started), [vc.error for vc in started]
    rows = _rows(db)
    assert {u for u, _, _, _ in rows} == set(by_uid)
    for uid in by_uid:                                         # each boot's events once, in order, none missing
        for boot in {b for u, b, _, _ in rows if u == uid}:
            seqs = [s for u, b, s, _ in rows if u == uid and b == boot]
            assert seqs == list(range(1, len(seqs) + 1)), (uid, boot, seqs)
    con = sqlite3.connect(db)
    try:
        assert con.execute("SELECT COUNT(*) FROM gaps").fetchone()[0] == 0
        games = con.execute("SELECT uid, COUNT(*) FROM games GROUP BY uid").fetchall()
    finally:
        con.close()
    assert sorted(u for u, _ in games) == sorted(by_uid)
    assert not any("stopped:" in t and "virtual console stopped" not in t for t in lines), lines
    assert sum(t.split(" ", 1)[1].startswith("stored ") for t in lines if t.startswith("[")) == 3, lines


# -- the demo on three consoles at once -----------------------------------------------------------------
@pytest.mark.slow
def test_demo_games_from_three_consoles_at_once_land_in_one_database(tmp_path):
    db = tmp_path / "demo.sqlite3"
    env = dict(ENV, XDG_DATA_HOME=str(tmp_path / "data"))
    r = subprocess.run([sys.executable, "-m", "doodlebox.cli", "demo", "--consoles", "3", "--players", "1",
                        "--db", str(db), "--press-ms", "60", "--gap-ms", "50"],
                       capture_output=True, text=True, env=env, timeout=600, stdin=subprocess.DEVNULL)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    con = sqlite3.connect(db)
    try:
        games = con.execute("SELECT uid, state FROM games").fetchall()
    finally:
        con.close()
    assert len(games) == 3 and len({u for u, _ in games}) == 3, games
    assert all(state == "ended" for _, state in games), games
    assert r.stdout.count("The console's own totals and the PC's agree") == 3, r.stdout[-3000:]
    assert os.path.exists(db.with_suffix(".png"))
