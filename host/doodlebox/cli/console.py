"""`doodlebox log | sim | demo`: a console's games into the database, live; the virtual console
alone; a whole game played by a scripted table on the virtual console."""
from __future__ import annotations

import argparse
import os
import queue
import shlex
import shutil
import signal
import sys
import tempfile
import threading
import time
from pathlib import Path

from doodlebox import paths
from doodlebox.cli.command import Command
from doodlebox.cli.games import database, db_argument
from doodlebox.errors import DoodleboxError, InputError
from doodlebox.rules.api import Option
from doodlebox.rules.specs import EDITIONS, options_by_flag

_SAYING = threading.Lock()


def say(text: str) -> None:
    """One whole line on stdout, from any thread (print() writes the text and its newline apart:
    the link's notes and the printout's events would run into each other)."""
    with _SAYING:
        sys.stdout.write(text + "\n")
        sys.stdout.flush()


def start_virtual(mode: str, seed: int, flash: Path | None = None, keep_flash: bool = False,
                  selftest: bool = False, wav: Path | None = None, fast_clock: bool = False,
                  unique_id: bytes | None = None):
    """`unique_id`: the board's (default VirtualConsole's)."""
    from doodlebox.virtual.console import VirtualConsole

    if keep_flash and flash is None:
        raise InputError("--keep-flash needs --flash DIR (the folder make flash deployed to)")
    if unique_id is None:
        vc = VirtualConsole(mode=mode, seed=seed, flash_dir=flash, firmware=not keep_flash, wav=wav,
                            fast_clock=fast_clock)
    else:
        vc = VirtualConsole(mode=mode, seed=seed, flash_dir=flash, firmware=not keep_flash, wav=wav,
                            fast_clock=fast_clock, unique_id=unique_id)
    if selftest:
        vc.hardware.press_for("MENU", 5000)  # held at power-on
    return vc.start()


def wav_said(vc) -> None:
    """After the console stopped: what --wav wrote (or why it stopped writing)."""
    w = vc.wav
    if w is None:
        return
    print(f"wav: {w.path}: {w.seconds:.1f} s, {w.notes} note(s)" + (f"; {w.error}" if w.error else ""), flush=True)


STOP_SIGNALS = tuple(getattr(signal, n) for n in ("SIGTERM", "SIGHUP", "SIGQUIT") if hasattr(signal, n))


class Signalled(BaseException):
    """SIGTERM, SIGHUP or SIGQUIT (a service manager stopping `doodlebox log`, the terminal
    closed): raised in the main thread as Ctrl-C raises KeyboardInterrupt, so the logger ends
    the same way: the link stops reading, commits and acknowledges what it read, the summary
    line is printed, and the exit code is 128 + the signal's number."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


class _StopOnSignals:
    """The handlers of STOP_SIGNALS while `log` runs (main thread only): the first signal raises
    Signalled, a second one while stopping is ignored; the previous handlers put back after."""

    def __init__(self) -> None:
        self._before: dict[int, object] = {}
        self._got = False

    def _handler(self, signum: int, frame) -> None:
        if not self._got:
            self._got = True
            raise Signalled(signum)

    def __enter__(self) -> _StopOnSignals:
        if threading.current_thread() is threading.main_thread():
            for sig in STOP_SIGNALS:
                self._before[sig] = signal.signal(sig, self._handler)
        return self

    def __exit__(self, *exc: object) -> None:
        for sig, before in self._before.items():
            signal.signal(sig, before)   # type: ignore[arg-type]


def log(args: argparse.Namespace) -> int:
    """With --web PORT, the page (cli/web.py) too: its port taken before anything starts.
    SIGTERM, SIGHUP and SIGQUIT end it as Ctrl-C does (Signalled), with exit code 128 + n."""
    web = None
    try:
        with _StopOnSignals():
            if args.web is not None:
                from doodlebox.cli.web import start_web

                web = start_web(database(args), args.web, "--web")
            try:
                return _log(args, web)
            finally:
                if web is not None:
                    web.stop()
    except Signalled as sig:
        print(f"stopped by {signal.Signals(sig.signum).name}", file=sys.stderr, flush=True)
        return 128 + sig.signum


def _log(args: argparse.Namespace, web) -> int:
    from doodlebox.live import describe
    from doodlebox.livegame import Verdict, verdict_lines
    from doodlebox.ports import Follow, find_picos
    from doodlebox.runner import LinkThread

    vc = None
    port = args.port
    if port is None:
        found = find_picos()
        if len(found) > 1:
            raise InputError(f"several Picos attached ({', '.join(p.device for p in found)}): choose one with "
                             "--port")
        if found:
            port = found[0].device
            follow = Follow(port, serial=found[0].serial)
            print(f"console: Pico on {found[0].label()}")
        else:
            seed = args.seed if args.seed is not None else int(time.time())
            vc = start_virtual("cpython" if args.cpython else "vm", seed, paths.data_dir() / "virtual-flash",
                               wav=args.wav)
            port = vc.port
            follow = Follow(port, locate=lambda: vc.port if vc.running else None)
            print(f"console: no Pico attached; virtual console on {port} ({vc.mode})")
    else:
        follow = Follow(port)
        if follow.serial:
            print(f"console: {port} (USB serial {follow.serial}: followed to any port it comes back on)")
    if web is not None:
        web.live.vc = vc
        print(f"web: {web.url}" + ("  (the virtual console's dice and buttons too)" if vc is not None else ""),
              flush=True)
    if vc is None and args.wav is not None:
        print(f"note: --wav {args.wav} is ignored: the console on {port} is a board, heard through its own buzzer")
    db = database(args)
    print(f"store: {db} (its games: doodlebox games" + (f" --db {shlex.quote(str(db))}" if args.db else "") + ")")
    if hasattr(signal, "SIGXFSZ"):   # a file size limit (ulimit -f): a write error to report, not a kill
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    link = LinkThread(port, db, on_note=lambda t: say(f"  note: {t}"), handshake_timeout=args.wait,
                      on_verdict=lambda v: link.events.put(v), follow=follow).start()   # printed after its event
    if web is not None:
        web.live.link = link
    try:
        if not link.wait_ready(args.wait + 5) or link.error or link.link is None:
            raise DoodleboxError(link.error or "the console did not answer")
        c = link.link.console
        if c is not None:
            say(f"connected: console {c.uid}, firmware {c.fw}, boot {c.boot}")
        stop = threading.Event()
        printer = threading.Thread(target=_printer, args=(link, stop, describe, verdict_lines, Verdict),
                                   name="printer", daemon=True)
        printer.start()

        def running() -> bool:
            return link.error is None and link.alive and printer.is_alive()

        if vc is not None and sys.stdin.isatty():
            from doodlebox.virtual.panel import TerminalPanel

            TerminalPanel(vc, paths.data_dir()).run(keep_going=running)
        else:
            while running() and (vc is None or vc.running):
                time.sleep(0.1)
        stop.set()
        if link.error:
            raise DoodleboxError(link.error)
        if not link.alive:
            raise DoodleboxError("the link stopped without a reason (a bug in doodlebox)")
        if not printer.is_alive():
            raise DoodleboxError("the printout stopped (a bug in doodlebox); every acknowledged event is stored")
        return 0
    finally:
        link.stop()
        if vc is not None:
            vc.stop()
            wav_said(vc)
        if link.link is not None:
            n = link.link.counts
            refused = f", {n['refused']} of them an event stored as refused" if n["refused"] else ""
            say(f"stored {n['stored']} event(s); {n['duplicate']} duplicate(s) ignored; {n['bad']} bad frame(s)"
                + refused)


def _printer(link, stop: threading.Event, describe, verdict_lines, verdict_type) -> None:
    """Prints each event stored and each verdict, in order; a line it cannot make is a note."""
    while not stop.is_set():
        try:
            e = link.events.get(timeout=0.2)
        except queue.Empty:
            continue
        try:
            if isinstance(e, verdict_type):
                for line in verdict_lines(e):
                    say(f"  {line}")
            else:
                say(describe(e))
        except BrokenPipeError:
            raise
        except Exception as exc:
            say(f"  note: an event could not be printed ({exc!r}); it is stored")


def sim(args: argparse.Namespace) -> int:
    """Prints `pty: PATH`; with a terminal the keys press buttons, else stdin takes commands
    (virtual/commands.py)."""
    vc = start_virtual("cpython" if args.cpython else "vm", args.seed, args.flash, args.keep_flash, args.selftest,
                       args.wav)
    print(f"pty: {vc.port}", flush=True)
    try:
        if sys.stdin.isatty():
            from doodlebox.virtual.panel import TerminalPanel

            TerminalPanel(vc, Path(vc.flash)).run(keep_going=lambda: vc.running)
            return 0
        from doodlebox.virtual.commands import serve

        serve(vc, sys.stdin, lambda line: print(line, flush=True))
        return 0 if vc.error is None else 1
    finally:
        vc.stop()
        wav_said(vc)


DEMO_BOARD = b"\xd0\x0d\x1e\xb0\x00\x00\xde\x30"   # the demo's virtual console: a board of its own (log's: ...01)


def demo(args: argparse.Namespace) -> int:
    """A whole game on the virtual console by the bot, stored, exported and scored by the PC.

    Its games go to a database of their own (paths.demo_db(), or --db), never to the family's:
    a bot's games must not count in their games, statistics or page. The end says where, and
    the commands that show it. Each demo is the next boot of the same virtual console (its boot
    counter and id from the database: _demo_flash), so every demo's game is kept beside the
    ones before it."""
    from doodlebox.bot import play_on_console
    from doodlebox.console_record import to_record
    from doodlebox.live import describe
    from doodlebox.rules.games import find_game
    from doodlebox.store import Store

    game = find_game(args.edition)
    spec = game.spec
    chosen = {o.name: _option_value(args, o) for o in spec.options}
    low, high = spec.players_for(chosen)           # the spec's limits too (Behave's players, P9)
    if not low <= args.players <= high:
        limited = [o.choice(chosen[o.name]).label for o in spec.options
                   if any(lim.option == o.name and lim.choice == chosen[o.name] and lim.players for lim in spec.limits)]
        raise InputError(f"--players {args.players}: {game.name}{''.join(f' ({t})' for t in limited)} is for {low} "
                         f"to {high} players")
    options = {} if spec.dice else {o.key: chosen[o.name] for o in spec.options}
    db = Path(args.db) if args.db else paths.demo_db()
    with tempfile.TemporaryDirectory(prefix="doodlebox-demo-flash-") as flash:
        boot = _demo_flash(db, Path(flash))
        vc = start_virtual("cpython" if args.cpython else "vm", args.seed, Path(flash), fast_clock=args.fast_clock,
                           unique_id=DEMO_BOARD)
        print(f"virtual console ({vc.mode}) on {vc.port}, boot {boot}; its games go to {db}")
        try:
            table, _ = play_on_console(vc, db, args.edition, args.players, args.control, seed=args.seed,
                                       show=lambda e: say(describe(e)),
                                       on_note=lambda t: say(f"  note: {t}"),
                                       press_ms=args.press_ms, gap_s=args.gap_ms / 1000, options=options)
            png = vc.save_panel(db.with_suffix(".png"))
        finally:
            vc.stop()
    crashed = vc.error             # the firmware stopped (it would drop to its REPL on a Pico)
    store = Store(db)
    try:
        gid = getattr(table.final, "game", None)      # the end event as stored: live.Stored
        log = store.game_log(gid if gid is not None else "last")
    finally:
        store.close()
    assert log is not None
    record = to_record(log)
    rp = game.replay(game.parse(record, f"game {log.id}"))
    console = (table.final or {}).get("p")
    print(f"\ngame {log.id}: {len(log.events)} events stored in {db}")
    print(game.table_text(rp))
    print()
    print(agreement(console, rp.state.scores()))
    me = _me()
    where = shlex.quote(str(db))
    print(f"\nThe demo's games are kept in {db}, apart from the games logged at the table "
          f"({paths.default_db()}), so plain `doodlebox games` does not list them. To see them:")
    commands = [(f"{me} show {log.id} --db {where}", "this game, round by round"),
                (f"{me} games --db {where}", "every demo game"),
                (f"{me} web --db {where}", "the page, with the sheets as pictures")]
    wide = max(len(c) for c, _ in commands)
    for command, what in commands:
        print(f"  {command.ljust(wide)}   {what}")
    print(f"The e-paper panel's last picture: {png}")
    if rp.violations:
        print(f"{len(rp.violations)} violation(s): {me} export {log.id} --db {where} -o game.json; "
              f"{me} validate game.json")
    if crashed:
        print(f"the console's firmware stopped after the game: {crashed}")
    return 0 if rp.finished and not rp.violations and console == rp.state.scores() and not crashed else 1


def agreement(console: object, pc: list[int]) -> str:
    """The end of a demo: each player's total as the console counted it (its `end` event: what its
    panel shows with no PC) beside the PC's, and whether they agree."""
    if not isinstance(console, list):
        return ("The PC's totals: " + ", ".join(f"P{i + 1} {t}" for i, t in enumerate(pc))
                + "; the console sent no totals of its own to compare")
    rows = [(f"P{i + 1}", console[i] if i < len(console) else "-", pc[i] if i < len(pc) else "-")
            for i in range(max(len(console), len(pc)))]
    same = sum(c == p for _, c, p in rows)
    head = ("The console's own totals and the PC's agree" if same == len(rows)
            else f"The console's own totals and the PC's differ for {len(rows) - same} player(s)")
    out = [head + ":", f"  {'player':<8}{'console':>8}{'PC':>6}  agree"]
    out += [f"  {who:<8}{c!s:>8}{p!s:>6}  {'yes' if c == p else 'NO'}" for who, c, p in rows]
    return "\n".join(out)


def _demo_flash(db: Path, flash: Path) -> int:
    """The demo's console powered up again: its boot counter and id put on its new flash as the
    last demo into `db` left them, so this boot is the next one of the same console and its
    events are new to the store (a console seen with boot 1 again would have them taken for the
    first demo's, and dropped). The boot it will have."""
    from doodlebox.store import Store

    if not db.exists():
        return 1
    chip = DEMO_BOARD.hex()
    store = Store(db)
    try:
        row = store.db.execute(
            "SELECT uid, MAX(boot) FROM streams WHERE substr(uid, 1, ?) = ? GROUP BY uid "
            "ORDER BY MAX(boot) DESC LIMIT 1", (len(chip), chip)).fetchone()
    finally:
        store.close()
    if row is None or type(row[1]) is not int or row[1] < 1:
        return 1
    uid, boot = row
    (flash / "boot.txt").write_text(str(boot))
    (flash / "id.txt").write_text(uid[len(chip):])
    return boot + 1


def _me() -> str:
    """doodlebox as the user can run it again: `doodlebox` when that is the one on PATH, else the
    path it was run by (`.venv/bin/doodlebox` after `make demo`)."""
    argv0 = Path(sys.argv[0])
    if argv0.name != "doodlebox":
        return "doodlebox"
    found = shutil.which("doodlebox")
    if found and Path(found).resolve() == argv0.resolve():
        return "doodlebox"
    here = os.path.relpath(argv0)
    return shlex.quote(here if not here.startswith("..") else str(argv0.resolve()))


def _option_value(args: argparse.Namespace, o: Option) -> str:
    """An option's value as `demo`'s flag gives it (a switch: its one choice when set)."""
    value = getattr(args, o.flag[2:].replace("-", "_"))
    if o.switch:
        return o.choices[1].value if value else o.default
    return str(value)


def _option_arguments(p: argparse.ArgumentParser) -> None:
    """One flag per option of the games' specs (an option of several games once: --variant), its
    choices, default and help from them."""
    for flag, having in options_by_flag().items():
        o = having[0][1]
        games = having[0][0].name if len(having) == 1 else ", ".join(e.edition for e, _ in having)
        if o.switch:
            p.add_argument(flag, action="store_true", help=f"{games}: {o.description}")
            continue
        values = tuple(dict.fromkeys(v for _, x in having for v in x.values))
        default = o.default
        if any(x.default != default for _, x in having):
            raise ValueError(f"{flag}: the games that have it differ in its default")
        shown = default or f"'': {o.choice(default).name}"
        p.add_argument(flag, choices=values, default=default, help=f"{games}: {o.description} (default {shown})")


def _players_help() -> str:
    ranges: dict[tuple[int, int], list[str]] = {}
    for e in EDITIONS:
        ranges.setdefault(e.players, []).append(e.edition)
    return "; ".join(f"{low} to {high} in {', '.join(eds)}" for (low, high), eds in ranges.items()) + (
        "; " + "; ".join(f"{lim.players[0]} to {lim.players[1]} with {e.option(lim.option).flag} {lim.choice} "
                         f"({lim.ruling})" for e in EDITIONS for lim in e.limits if lim.players))


def _log_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--port", help="serial port of the console (default: find a Pico, else start the virtual console)")
    db_argument(p)
    p.add_argument("--cpython", action="store_true",
                   help="run the virtual console under CPython, not the MicroPython VM")
    p.add_argument("--seed", type=int, default=None, help="seed of the virtual console's dice")
    p.add_argument("--wait", type=float, default=10.0, metavar="SECONDS",
                   help="how long to wait for the console's hello (default 10)")
    _wav_argument(p, " (only with the virtual console)")
    p.add_argument("--web", type=int, metavar="PORT",
                   help="also serve the page on 127.0.0.1:PORT (doodlebox web; with the virtual console its dice and "
                        "buttons, which can be clicked; 0: any free port)")


def _sim_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--cpython", action="store_true", help="run the firmware under CPython (faster)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--flash", type=Path, help="flash folder (default: a temporary one)")
    p.add_argument("--keep-flash", action="store_true",
                   help="boot what is deployed in --flash (e.g. by make flash) instead of the current firmware")
    p.add_argument("--selftest", action="store_true", help="hold MENU at power-on: the console's self-test")
    _wav_argument(p)


def _wav_argument(p: argparse.ArgumentParser, only: str = "") -> None:
    p.add_argument("--wav", type=Path, metavar="FILE",
                   help="write the buzzer's sound to FILE as it plays, to listen to (mono 16-bit WAV)" + only)


def _demo_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--edition", default=EDITIONS[0].edition, choices=[e.edition for e in EDITIONS],
                   help=f"the game (default {EDITIONS[0].edition}): "
                        + ", ".join(f"{e.edition} ({e.name})" for e in EDITIONS)
                        + "; Doodle Puzzle's five drawing minutes run in real time, so more than five minutes")
    p.add_argument("--players", type=int, default=3, help=_players_help())
    _option_arguments(p)
    p.add_argument("--db", type=Path, help=f"SQLite file (default {paths.demo_db()}: the demo's games, kept apart "
                                           f"from the games logged at the table in {paths.default_db()})")
    p.add_argument("--cpython", action="store_true", help="the firmware under CPython, not the MicroPython VM")
    p.add_argument("--seed", type=int, default=7, help="the bot's choices and the console's dice")
    p.add_argument("--press-ms", type=float, default=80, help="how long the bot holds a button (default 80)")
    p.add_argument("--gap-ms", type=float, default=100, help="how long it waits before the next press (default 100)")
    p.add_argument("--fast-clock", action="store_true",
                   help="the console's time runs ahead while it waits alone (Doodle Puzzle's drawing minutes in "
                        "seconds); presses and the link stay in real time")


COMMANDS = (
    Command("log", "log games from a console (a Pico by USB id, else the virtual console)", log, _log_args),
    Command("sim", "run the virtual console on a pseudo-terminal", sim, _sim_args),
    Command("demo", "the bot plays a whole game on the virtual console, then the PC scores it",
            demo, _demo_args),
)
