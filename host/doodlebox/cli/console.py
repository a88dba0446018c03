"""`doodlebox log | sim | demo`: a console's games into the database, live; the virtual console
alone; a whole game played by a scripted table on the virtual console."""
from __future__ import annotations

import argparse
import os
import shlex
import shutil
import signal
import sys
import threading
from pathlib import Path

from doodlebox import paths
from doodlebox.cli.command import Command
from doodlebox.cli.games import database, db_argument
from doodlebox.cli.web import start_web
from doodlebox.logger.run import Options, follow
from doodlebox.rules.api import Option
from doodlebox.rules.games import find_game
from doodlebox.rules.specs import EDITIONS, options_by_flag
from doodlebox.store.postgres import is_url
from doodlebox.table.demo import DEMO_MAX, play
from doodlebox.table.demo import Options as DemoOptions
from doodlebox.virtual.commands import serve
from doodlebox.virtual.console import start_virtual, wav_said
from doodlebox.virtual.panel import TerminalPanel

_SAYING = threading.Lock()


def say(text: str) -> None:
    """One whole line on stdout, from any thread (print() writes the text and its newline apart:
    the link's notes and the printout's events would run into each other)."""
    with _SAYING:
        sys.stdout.write(text + "\n")
        sys.stdout.flush()


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
                web = start_web(database(args), args.web, "--web")
            try:
                follow(Options(database(args), bool(args.db), tuple(args.port or ()), args.virtual, args.cpython,
                               args.seed, args.wait, args.wav), say, web)
                return 0
            finally:
                if web is not None:
                    web.stop()
    except Signalled as sig:
        print(f"stopped by {signal.Signals(sig.signum).name}", file=sys.stderr, flush=True)
        return 128 + sig.signum


def sim(args: argparse.Namespace) -> int:
    """Prints `pty: PATH`; with a terminal the keys press buttons, else stdin takes commands
    (virtual/commands.py)."""
    vc = start_virtual("cpython" if args.cpython else "vm", args.seed, args.flash, args.keep_flash, args.selftest,
                       args.wav)
    print(f"pty: {vc.port}", flush=True)
    try:
        if sys.stdin.isatty():
            TerminalPanel(vc, Path(vc.flash)).run(keep_going=lambda: vc.running)
            return 0
        serve(vc, sys.stdin, lambda line: print(line, flush=True))
        return 0 if vc.error is None else 1
    finally:
        vc.stop()
        line = wav_said(vc)
        if line:
            print(line, flush=True)


def demo(args: argparse.Namespace) -> int:
    """A whole game on the virtual console by the scripted table, stored, exported and scored by the
    PC (table/demo.py); then where its games are kept and the commands that show them."""
    spec = find_game(args.edition).spec
    chosen = {o.name: _option_value(args, o) for o in spec.options}
    db = (args.db if is_url(args.db) else Path(args.db)) if args.db else None
    played = play(DemoOptions(args.edition, args.players, chosen, args.control, db, args.cpython, args.seed,
                              args.consoles, args.press_ms, args.gap_ms, args.fast_clock), say)
    me = _me()
    named, ids = played.named, played.ids
    where = shlex.quote(named)
    print(f"\nThe demo's games are kept in {named}, apart from the games logged at the table "
          f"({paths.default_db()}), so plain `doodlebox games` does not list them. To see them:")
    commands = [(f"{me} show {gid} --db {where}", "this game, round by round" if len(ids) == 1
                 else f"console {k + 1}'s game") for k, gid in enumerate(ids)]
    commands += [(f"{me} games --db {where}", "every demo game"),
                 (f"{me} web --db {where}", "the page, with the sheets as pictures")]
    wide = max(len(c) for c, _ in commands)
    for command, what in commands:
        print(f"  {command.ljust(wide)}   {what}")
    if len(ids) == 1:
        print(f"The e-paper panel's last picture: {played.pictures[0]}")
    else:
        print("The e-paper panels' last pictures: " + ", ".join(str(p) for p in played.pictures))
    for gid, wrong, crashed in zip(ids, played.violations, played.crashed):
        if wrong:
            print(f"{wrong} violation(s): {me} export {gid} --db {where} -o game.json; {me} validate game.json")
        if crashed:
            print(f"the console's firmware stopped after the game: {crashed}")
    return 0 if played.ok else 1


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
    p.add_argument("--seed", type=int, default=7, help="the scripted table's choices and the console's dice")
    p.add_argument("--consoles", type=int, default=1, metavar="N",
                   help=f"N virtual consoles each play a game at the same time, into the one database (1 to "
                        f"{DEMO_MAX}; default 1)")
    p.add_argument("--press-ms", type=float, default=80, help="how long the table holds a button (default 80)")
    p.add_argument("--gap-ms", type=float, default=100, help="how long it waits before the next press (default 100)")
    p.add_argument("--fast-clock", action="store_true",
                   help="the console's time runs ahead while it waits alone (Doodle Puzzle's drawing minutes in "
                        "seconds); presses and the link stay in real time")


COMMANDS = (
    Command("log", "log games from every console at once (the Picos by USB id, else the virtual console)", log,
            _log_args),
    Command("sim", "run the virtual console on a pseudo-terminal", sim, _sim_args),
    Command("demo", "a scripted table plays a whole game on the virtual console, then the PC scores it",
            demo, _demo_args),
)
