"""`doodlebox log | sim | demo`: a console's games into the database, live; the virtual console
alone; a whole game played by a scripted table on the virtual console."""
from __future__ import annotations

import argparse
import os
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
from doodlebox.store.postgres import is_url, shown

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


ONE_CPYTHON = ("the firmware under CPython is one console per process (its modules are the process's own); "
               "leave --cpython out for several: each in a MicroPython VM of its own")
VIRTUAL_BOARD = b"\xd0\x0d\x1e\xb0\x00\x00\x00"   # + its number (1, 2, ...): log's virtual consoles' boards
VIRTUAL_MAX = 32


def _log(args: argparse.Namespace, web) -> int:
    """Every console at once (runner.Club): the --port ones; else every Pico attached and each one
    plugged in while it logs; --virtual N virtual consoles too (without it: one, when there is
    no other console). Each is followed by a link of its own into the one database; while there
    is one, its lines are as they always were, from two on each begins with its console's name."""
    from doodlebox.live import describe
    from doodlebox.livegame import Verdict, verdict_lines
    from doodlebox.ports import Follow, Watch, find_picos
    from doodlebox.runner import Club

    def show(item) -> list[str]:
        if isinstance(item, Verdict):
            return [f"  {line}" for line in verdict_lines(item)]
        return [describe(item)]

    if args.virtual is not None and not 0 <= args.virtual <= VIRTUAL_MAX:
        raise InputError(f"--virtual {args.virtual}: from 0 to {VIRTUAL_MAX} virtual consoles")
    if args.cpython and (args.virtual or 0) > 1:
        raise InputError(f"--virtual {args.virtual} --cpython: {ONE_CPYTHON}")
    ports: list[str] = args.port or []
    watch = None if ports else Watch()
    club = Club(database(args), say, show, handshake_timeout=args.wait, watch=watch)
    wanted: list = []     # what to follow: ("port", path, Follow), ("pico", UsbPort) or ("vc", vc, name)
    try:
        for port in ports:
            follow = Follow(port)
            wanted.append(("port", port, follow))
            if follow.serial:
                print(f"console: {port} (USB serial {follow.serial}: followed to any port it comes back on)")
        found = find_picos(watch.ports) if watch is not None else []
        for p in found:
            wanted.append(("pico", p))
            print(f"console: Pico on {p.label()}")
        n = args.virtual if args.virtual is not None else 0 if ports or found else 1
        seed = args.seed if args.seed is not None else int(time.time())
        for k in range(n):
            board = VIRTUAL_BOARD + bytes([k + 1])
            flash = paths.data_dir() / ("virtual-flash" if k == 0 else f"virtual-flash-{k + 1}")
            vc = start_virtual("cpython" if args.cpython else "vm", seed + k, flash, wav=args.wav if k == 0 else None,
                               unique_id=None if k == 0 else board)
            wanted.append(("vc", vc, board.hex()[-4:]))
            if args.virtual is None:
                print(f"console: no Pico attached; virtual console on {vc.port} ({vc.mode})")
            else:
                print(f"console: virtual console {k + 1} on {vc.port} ({vc.mode}, board {board.hex()})")
        if not wanted:
            print("console: no Pico attached yet: each one plugged in is followed (Ctrl-C to stop)")
        vcs = [w[1] for w in wanted if w[0] == "vc"]
        if web is not None:
            web.live.vc = vcs[0] if vcs else None
            print(f"web: {web.url}" + ("  (the virtual console's dice and buttons too)" if vcs else ""), flush=True)
        if not vcs and args.wav is not None and wanted:
            where = wanted[0][1] if wanted[0][0] == "port" else wanted[0][1].device
            print(f"note: --wav {args.wav} is ignored: the console on {where} is a board, heard through its own "
                  "buzzer")
        elif len(vcs) > 1 and args.wav is not None:
            print(f"note: --wav {args.wav}: the first virtual console's sound")
        db = database(args)
        named = shown(str(db)) if is_url(db) else str(db)    # a server's URL without its password
        print(f"store: {named} (its games: doodlebox games" + (f" --db {shlex.quote(named)}" if args.db else "") + ")")
        if hasattr(signal, "SIGXFSZ") and threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)   # a file size limit (ulimit -f): a write error, not a kill
        if len(wanted) > 1:
            _prepare(db)
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
        club.wait_ready(args.wait + 5)

        def running() -> bool:
            club.poll()
            return club.running()

        if len(club.consoles) == 1 and vcs and sys.stdin.isatty():
            from doodlebox.virtual.panel import TerminalPanel

            TerminalPanel(vcs[0], paths.data_dir()).run(keep_going=running)
        else:
            while running():
                time.sleep(0.1)
        error = club.end_error()
        if error:
            raise DoodleboxError(error)
        return 0
    finally:
        club.stop(switched_off=wav_said)
        for w in wanted:
            if w[0] == "vc" and all(c.vc is not w[1] for c in club.consoles):   # started, never followed
                w[1].stop()


def _locator(vc):
    """Where the virtual console `vc` is now: its pty while it runs (ports.Follow's `locate`)."""
    return lambda: vc.port if vc.running else None


def _prepare(db: Path | str) -> None:
    """The database created (or upgraded) once before several links open it at the same moment:
    the store's upgrade of a new file, run by several connections at once, applied its
    statements twice ("duplicate column name"). What goes wrong here the links say."""
    from doodlebox.store import Store, StoreError

    try:
        Store(db).close()
    except StoreError:
        pass


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
DEMO_MAX = 8     # --consoles: the next boards (...de31, ...)


def demo(args: argparse.Namespace) -> int:
    """A whole game on the virtual console by the bot, stored, exported and scored by the PC.

    Its games go to a database of their own (paths.demo_db(), or --db), never to the family's:
    a bot's games must not count in their games, statistics or page. The end says where, and
    the commands that show it. Each demo is the next boot of the same virtual console (its boot
    counter and id from the database: _demo_flash), so every demo's game is kept beside the
    ones before it. With --consoles N, N virtual consoles (boards DEMO_BOARD and the next ones,
    dice seeded --seed, --seed + 1, ...) each play a game at the same time, each logged by a
    link of its own into the one database, each line named by its console's number."""
    from doodlebox.bot import play_on_console
    from doodlebox.live import describe
    from doodlebox.rules.games import find_game

    game = find_game(args.edition)
    spec = game.spec
    chosen = {o.name: _option_value(args, o) for o in spec.options}
    low, high = spec.players_for(chosen)           # the spec's limits too (Behave's players, P9)
    if not low <= args.players <= high:
        limited = [o.choice(chosen[o.name]).label for o in spec.options
                   if any(lim.option == o.name and lim.choice == chosen[o.name] and lim.players for lim in spec.limits)]
        raise InputError(f"--players {args.players}: {game.name}{''.join(f' ({t})' for t in limited)} is for {low} "
                         f"to {high} players")
    n = args.consoles
    if not 1 <= n <= DEMO_MAX:
        raise InputError(f"--consoles {n}: from 1 to {DEMO_MAX} virtual consoles")
    if args.cpython and n > 1:
        raise InputError(f"--consoles {n} --cpython: {ONE_CPYTHON}")
    options = {} if spec.dice else {o.key: chosen[o.name] for o in spec.options}
    db: Path | str = (args.db if is_url(args.db) else Path(args.db)) if args.db else paths.demo_db()
    named = shown(db) if isinstance(db, str) else str(db)      # a server's URL without its password
    pictures = db if isinstance(db, Path) else paths.demo_db()  # the panels' PNGs: beside the file
    pictures.parent.mkdir(parents=True, exist_ok=True)
    if n > 1:
        _prepare(db)
    played: list = [None] * n       # each console's (table, png, the firmware's error)
    failed: list[BaseException] = []

    def play(k: int) -> None:
        name = f"[{k + 1}] " if n > 1 else ""
        board = DEMO_BOARD[:-1] + bytes([DEMO_BOARD[-1] + k])
        with tempfile.TemporaryDirectory(prefix="doodlebox-demo-flash-") as flash:
            boot = _demo_flash(db, Path(flash), board)
            vc = start_virtual("cpython" if args.cpython else "vm", args.seed + k, Path(flash),
                               fast_clock=args.fast_clock, unique_id=board)
            say(f"{name}virtual console ({vc.mode}) on {vc.port}, boot {boot}; its games go to {named}")
            try:
                table, _ = play_on_console(vc, db, args.edition, args.players, args.control, seed=args.seed + k,
                                           show=lambda e: say(name + describe(e)),
                                           on_note=lambda t: say(f"{name}  note: {t}"),
                                           press_ms=args.press_ms, gap_s=args.gap_ms / 1000, options=options)
                png = vc.save_panel(pictures.with_suffix(".png") if k == 0
                                    else pictures.with_name(f"{pictures.stem}-{k + 1}.png"))
            finally:
                vc.stop()
        played[k] = (table, png, vc.error)   # vc.error: the firmware stopped (a Pico would drop to its REPL)

    if n == 1:
        play(0)
    else:
        def guarded(k: int) -> None:
            try:
                play(k)
            except BaseException as exc:
                failed.append(exc)

        tables = [threading.Thread(target=guarded, args=(k,), name=f"demo-{k + 1}", daemon=True) for k in range(n)]
        for t in tables:
            t.start()
        for t in tables:
            t.join()
        if failed:
            raise failed[0]
    ok, ids, violations = True, list[int](), list[int]()
    for k, (table, _, crashed) in enumerate(played):
        gid, good, wrong = _demo_result(game, db, named, table, crashed, f"console {k + 1}: " if n > 1 else "")
        ok, ids, violations = ok and good, ids + [gid], violations + [wrong]
    me = _me()
    where = shlex.quote(named)
    print(f"\nThe demo's games are kept in {named}, apart from the games logged at the table "
          f"({paths.default_db()}), so plain `doodlebox games` does not list them. To see them:")
    commands = [(f"{me} show {gid} --db {where}", "this game, round by round" if n == 1 else f"console {k + 1}'s game")
                for k, gid in enumerate(ids)]
    commands += [(f"{me} games --db {where}", "every demo game"),
                 (f"{me} web --db {where}", "the page, with the sheets as pictures")]
    wide = max(len(c) for c, _ in commands)
    for command, what in commands:
        print(f"  {command.ljust(wide)}   {what}")
    if n == 1:
        print(f"The e-paper panel's last picture: {played[0][1]}")
    else:
        print("The e-paper panels' last pictures: " + ", ".join(str(p) for _, p, _ in played))
    for gid, wrong, (_, _, crashed) in zip(ids, violations, played):
        if wrong:
            print(f"{wrong} violation(s): {me} export {gid} --db {where} -o game.json; {me} validate game.json")
        if crashed:
            print(f"the console's firmware stopped after the game: {crashed}")
    return 0 if ok else 1


def _demo_result(game, db: Path | str, named: str, table, crashed: str | None, who: str) -> tuple[int, bool, int]:
    """A demo's game as stored, replayed and scored by the PC, printed: its number, whether it
    finished with no violation, the console's totals equal to the PC's and the firmware alive,
    and its violations."""
    from doodlebox.console_record import to_record
    from doodlebox.store import Store

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
    print(f"\n{who}game {log.id}: {len(log.events)} events stored in {named}")
    print(game.table_text(rp))
    print()
    print(agreement(console, rp.state.scores()))
    good = bool(rp.finished and not rp.violations and console == rp.state.scores() and not crashed)
    return log.id, good, len(rp.violations)


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


def _demo_flash(db: Path | str, flash: Path, board: bytes = DEMO_BOARD) -> int:
    """The demo's console powered up again: its boot counter and id put on its new flash as the
    last demo into `db` left them, so this boot is the next one of the same console and its
    events are new to the store (a console seen with boot 1 again would have them taken for the
    first demo's, and dropped). The boot it will have."""
    from doodlebox.store import Store

    if isinstance(db, Path) and not db.exists():
        return 1
    chip = board.hex()
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
    p.add_argument("--port", action="append",
                   help="serial port of a console, again for each console (default: every Pico attached and each one "
                        "plugged in while it logs, else the virtual console)")
    p.add_argument("--virtual", type=int, metavar="N",
                   help="start N virtual consoles, each on its own pseudo-terminal with its own uid, logged beside "
                        "the Picos (0: none, wait for a Pico to be plugged in; default: one when there is no other "
                        "console)")
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
    p.add_argument("--db", help=f"SQLite file or postgresql:// URL (default {paths.demo_db()}: the demo's games, "
                                f"kept apart from the games logged at the table in {paths.default_db()})")
    p.add_argument("--cpython", action="store_true", help="the firmware under CPython, not the MicroPython VM")
    p.add_argument("--seed", type=int, default=7, help="the bot's choices and the console's dice")
    p.add_argument("--consoles", type=int, default=1, metavar="N",
                   help=f"N virtual consoles each play a game at the same time, into the one database (1 to "
                        f"{DEMO_MAX}; default 1)")
    p.add_argument("--press-ms", type=float, default=80, help="how long the bot holds a button (default 80)")
    p.add_argument("--gap-ms", type=float, default=100, help="how long it waits before the next press (default 100)")
    p.add_argument("--fast-clock", action="store_true",
                   help="the console's time runs ahead while it waits alone (Doodle Puzzle's drawing minutes in "
                        "seconds); presses and the link stay in real time")


COMMANDS = (
    Command("log", "log games from every console at once (the Picos by USB id, else the virtual console)", log,
            _log_args),
    Command("sim", "run the virtual console on a pseudo-terminal", sim, _sim_args),
    Command("demo", "the bot plays a whole game on the virtual console, then the PC scores it",
            demo, _demo_args),
)
