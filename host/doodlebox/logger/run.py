"""`doodlebox log`'s work (the command line parses and prints: cli/console.py): every console at
once in a Club (logger/club.py): the --port ones; else every Pico attached and each one plugged
in while it logs; virtual consoles too (without `virtual`: one, when there is no other console).
Each is followed by a link of its own into the one database; while there is one, its lines are
as they always were, from two on each begins with its console's name. Every line goes to `say`.
With a terminal and one virtual console, its panel is shown and its keys press its buttons
(virtual/panel.py)."""
from __future__ import annotations

import shlex
import signal
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from doodlebox import paths
from doodlebox.errors import DoodleboxError, InputError
from doodlebox.link.describe import describe
from doodlebox.link.ports import Follow, Watch, find_picos
from doodlebox.logger.club import Club
from doodlebox.logger.verdicts import Verdict, verdict_lines
from doodlebox.store import Store, StoreError
from doodlebox.store.postgres import is_url, shown
from doodlebox.virtual.console import start_virtual, wav_said
from doodlebox.virtual.panel import TerminalPanel

ONE_CPYTHON = ("the firmware under CPython is one console per process (its modules are the process's own); "
               "leave --cpython out for several: each in a MicroPython VM of its own")
VIRTUAL_BOARD = b"\xd0\x0d\x1e\xb0\x00\x00\x00"   # + its number (1, 2, ...): log's virtual consoles' boards
VIRTUAL_MAX = 32


@dataclass
class Options:
    """What `doodlebox log` was asked: the database (`db`; `db_given`: named on the command line),
    the ports, how many virtual consoles (None: one when there is no other), CPython or the VM,
    the dice's seed (None: the time), how long to wait for a hello, the buzzer's WAV file."""

    db: Path | str
    db_given: bool = False
    ports: tuple[str, ...] = ()
    virtual: int | None = None
    cpython: bool = False
    seed: int | None = None
    wait: float = 10.0
    wav: Path | None = None


def follow(opts: Options, say: Callable[[str], None], web: Any = None) -> None:
    """Log until every console is done (or Ctrl-C, or a signal raised in the main thread).
    `web`: the page (web/server.WebServer) started by the command, given the virtual console and
    the first link. InputError for options that cannot be; DoodleboxError (one line) when a link
    ends in a failure."""
    def show(item) -> list[str]:
        if isinstance(item, Verdict):
            return [f"  {line}" for line in verdict_lines(item)]
        return [describe(item)]

    def switched_off(vc: Any) -> None:       # a virtual console stopped: what --wav wrote
        line = wav_said(vc)
        if line:
            say(line)

    if opts.virtual is not None and not 0 <= opts.virtual <= VIRTUAL_MAX:
        raise InputError(f"--virtual {opts.virtual}: from 0 to {VIRTUAL_MAX} virtual consoles")
    if opts.cpython and (opts.virtual or 0) > 1:
        raise InputError(f"--virtual {opts.virtual} --cpython: {ONE_CPYTHON}")
    ports = list(opts.ports)
    watch = None if ports else Watch()
    club = Club(opts.db, say, show, handshake_timeout=opts.wait, watch=watch)
    wanted: list = []     # what to follow: ("port", path, Follow), ("pico", UsbPort) or ("vc", vc, name)
    try:
        for port in ports:
            found_at = Follow(port)
            wanted.append(("port", port, found_at))
            if found_at.serial:
                say(f"console: {port} (USB serial {found_at.serial}: followed to any port it comes back on)")
        found = find_picos(watch.ports) if watch is not None else []
        for p in found:
            wanted.append(("pico", p))
            say(f"console: Pico on {p.label()}")
        n = opts.virtual if opts.virtual is not None else 0 if ports or found else 1
        seed = opts.seed if opts.seed is not None else int(time.time())
        for k in range(n):
            board = VIRTUAL_BOARD + bytes([k + 1])
            flash = paths.data_dir() / ("virtual-flash" if k == 0 else f"virtual-flash-{k + 1}")
            vc = start_virtual("cpython" if opts.cpython else "vm", seed + k, flash, wav=opts.wav if k == 0 else None,
                               unique_id=None if k == 0 else board)
            wanted.append(("vc", vc, board.hex()[-4:]))
            if opts.virtual is None:
                say(f"console: no Pico attached; virtual console on {vc.port} ({vc.mode})")
            else:
                say(f"console: virtual console {k + 1} on {vc.port} ({vc.mode}, board {board.hex()})")
        if not wanted:
            say("console: no Pico attached yet: each one plugged in is followed (Ctrl-C to stop)")
        vcs = [w[1] for w in wanted if w[0] == "vc"]
        if web is not None:
            web.live.vc = vcs[0] if vcs else None
            say(f"web: {web.url}" + ("  (the virtual console's dice and buttons too)" if vcs else ""))
        if not vcs and opts.wav is not None and wanted:
            where = wanted[0][1] if wanted[0][0] == "port" else wanted[0][1].device
            say(f"note: --wav {opts.wav} is ignored: the console on {where} is a board, heard through its own buzzer")
        elif len(vcs) > 1 and opts.wav is not None:
            say(f"note: --wav {opts.wav}: the first virtual console's sound")
        named = shown(str(opts.db)) if is_url(opts.db) else str(opts.db)    # a server's URL without its password
        say(f"store: {named} (its games: doodlebox games" + (f" --db {shlex.quote(named)}" if opts.db_given else "")
            + ")")
        if hasattr(signal, "SIGXFSZ") and threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)   # a file size limit (ulimit -f): a write error, not a kill
        if len(wanted) > 1:
            prepare(opts.db)
        club.many = len(wanted) > 1           # every line named from the first
        names = [Path(w[1]).name for w in wanted if w[0] == "port"]
        for w in wanted:
            if w[0] == "pico":
                club.add_pico(w[1])
            elif w[0] == "vc":
                vc = w[1]
                club.add(vc.port, Follow(vc.port, locate=_locator(vc)), w[2], vc=vc)
            else:
                name = Path(w[1]).name
                club.add(w[1], w[2], name if names.count(name) == 1 else w[1])
        if web is not None and club.consoles:
            web.live.link = club.consoles[0].link
        club.wait_ready(opts.wait + 5)

        def running() -> bool:
            club.poll()
            return club.running()

        if len(club.consoles) == 1 and vcs and sys.stdin.isatty():
            TerminalPanel(vcs[0], paths.data_dir()).run(keep_going=running)
        else:
            while running():
                time.sleep(0.1)
        error = club.end_error()
        if error:
            raise DoodleboxError(error)
    finally:
        club.stop(switched_off=switched_off)
        for w in wanted:
            if w[0] == "vc" and all(c.vc is not w[1] for c in club.consoles):   # started, never followed
                w[1].stop()


def _locator(vc):
    """Where the virtual console `vc` is now: its pty while it runs (ports.Follow's `locate`)."""
    return lambda: vc.port if vc.running else None


def prepare(db: Path | str) -> None:
    """The database created (or upgraded) once before several links open it at the same moment:
    the store's upgrade of a new file, run by several connections at once, applied its
    statements twice ("duplicate column name"). What goes wrong here the links say."""
    try:
        Store(db).close()
    except StoreError:
        pass
