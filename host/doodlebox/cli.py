"""The doodlebox command: log games from a console, list them, run the virtual console."""
from __future__ import annotations

import argparse
import sys
import threading
import time
from pathlib import Path

from doodlebox import __version__, paths


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="doodlebox", description="Log, list and simulate doodlebox games.")
    parser.add_argument("--version", action="version", version=f"doodlebox {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("log", help="log games from a console (a Pico by USB id, else the virtual console)")
    p.add_argument("--port", help="serial port of the console (default: find a Pico, else start the virtual console)")
    p.add_argument("--db", type=Path, help=f"SQLite file (default {paths.default_db()})")
    p.add_argument("--cpython", action="store_true", help="run the virtual console under CPython, not the MicroPython VM")
    p.add_argument("--seed", type=int, default=None, help="seed of the virtual console's dice")
    p.add_argument("--wait", type=float, default=10.0, metavar="SECONDS",
                   help="how long to wait for the console's hello (default 10)")
    p.set_defaults(func=cmd_log)

    p = sub.add_parser("games", help="list the stored games")
    p.add_argument("--db", type=Path)
    p.set_defaults(func=cmd_games)

    p = sub.add_parser("sim", help="run the virtual console on a pseudo-terminal")
    p.add_argument("--cpython", action="store_true", help="run the firmware under CPython (faster)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--flash", type=Path, help="flash folder (default: a temporary one)")
    p.add_argument("--keep-flash", action="store_true",
                   help="boot what is deployed in --flash (e.g. by make flash) instead of the current firmware")
    p.add_argument("--selftest", action="store_true", help="hold MENU at power-on: the console's self-test")
    p.set_defaults(func=cmd_sim)

    p = sub.add_parser("demo", help="play a 3-player Doodle City game through the whole stack")
    p.add_argument("--db", type=Path, help="SQLite file (default: a new file under the data folder)")
    p.add_argument("--cpython", action="store_true")
    p.add_argument("--players", type=int, default=3)
    p.add_argument("--seed", type=int, default=7)
    p.set_defaults(func=cmd_demo)

    p = sub.add_parser("flash", help="compile the firmware with mpy-cross and copy it to a Pico with mpremote")
    p.add_argument("--port", required=True, help="serial port of the Pico (see `mpremote devs`)")
    p.add_argument("--build", type=Path, default=paths.root() / "build" / "flash", help="where to compile to")
    p.add_argument("--dry-run", action="store_true", help="compile and print the mpremote command only")
    p.set_defaults(func=cmd_flash)

    p = sub.add_parser("validate", help="replay a game record and check every action against the rules")
    p.add_argument("record", type=Path)
    p.add_argument("--json", action="store_true", help="the report as JSON")
    p.set_defaults(func=cmd_validate)

    p = sub.add_parser("score", help="the final table of a game record")
    p.add_argument("record", type=Path)
    p.set_defaults(func=cmd_score)

    p = sub.add_parser("render", help="draw a player's sheet from a game record as a PNG")
    p.add_argument("record", type=Path)
    p.add_argument("--player", type=int, default=1, help="1-based, in the record's order (default 1)")
    p.add_argument("-o", "--output", type=Path, required=True)
    p.set_defaults(func=cmd_render)

    p = sub.add_parser("layout", help="sheet layouts")
    lsub = p.add_subparsers(dest="layout_command", required=True)
    q = lsub.add_parser("check", help="every problem in a sheet layout, a Deadly Doodles map or deck, with its place")
    q.add_argument("file", type=Path)
    q.set_defaults(func=cmd_layout_check)

    from doodlebox.hardware.cli import add_commands as add_hardware_commands

    add_hardware_commands(sub)

    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except KeyboardInterrupt:
        print("stopped", file=sys.stderr)
        return 130
    except CliError as exc:
        print(f"doodlebox: {exc}", file=sys.stderr)
        return 1
    except UnreadableInput as exc:
        print(f"doodlebox: {exc}", file=sys.stderr)
        return 2


class CliError(RuntimeError):
    pass


class UnreadableInput(RuntimeError):
    """A file that cannot be read as what it should be: exit code 2."""


def _replay(path: Path):
    """(replay, game modules) for a record of any game (doodlebox.rules.games)."""
    from doodlebox.rules.games import replay_file
    from doodlebox.rules.dice.record import RecordError

    try:
        return replay_file(path)
    except RecordError as exc:
        raise UnreadableInput(str(exc)) from None


def cmd_validate(args) -> int:
    import json

    from doodlebox.rules.dice.report import violations_text

    rp, game = _replay(args.record)
    report = game.report
    if args.json:
        print(json.dumps(report.as_json(rp), indent=2))
    elif rp.violations:
        print(f"{args.record}: {len(rp.violations)} violation(s)")
        print(violations_text(rp))
    else:
        print(f"{args.record}: valid" + ("" if rp.finished else " so far (the game is not finished)"))
        print(report.sheets_text(rp))
    return 1 if rp.violations else 0


def cmd_score(args) -> int:
    rp, game = _replay(args.record)
    print(game.report.table_text(rp))
    if rp.violations:
        print(f"note: {len(rp.violations)} violation(s); illegal turns were skipped (doodlebox validate {args.record})")
    return 0


def cmd_render(args) -> int:
    rp, game = _replay(args.record)
    if game.render is None:
        raise CliError(f"{args.record}: this game has no sheets to draw")
    n = len(rp.record.players)
    if not 1 <= args.player <= n:
        raise CliError(f"--player {args.player}: the record has players 1 to {n}")
    game.render.render_sheet(rp.state, args.player - 1, args.output, title=rp.record.players[args.player - 1])
    print(f"{args.output}: {rp.record.players[args.player - 1]}'s sheet after round {rp.state.round}")
    return 0


def cmd_layout_check(args) -> int:
    """A dice sheet, or a Deadly Doodles map side or deck, recognised by its "format"."""
    from doodlebox.rules.dice import layout
    from doodlebox.rules.dice.record import RecordError, load_json

    try:
        data = load_json(args.file)
    except RecordError as exc:
        raise UnreadableInput(str(exc)) from None
    fmt = data.get("format") if isinstance(data, dict) else None
    if fmt in ("doodlebox-deadly-map/1", "doodlebox-deadly-deck/1"):  # Deadly Doodles: a map side or the deck
        from doodlebox.rules.deadly import deck, maps
        what = "map" if fmt.endswith("map/1") else "deck"
        problems = (maps.check if what == "map" else deck.check)(data)
        for where, text in problems:
            print(f"{args.file}: {where}: {text}")
        if not problems:
            print(f"{args.file}: a usable Deadly Doodles {what}")
        return 2 if problems else 0
    problems = layout.check(data)
    for where, what in problems:
        print(f"{args.file}: {where}: {what}")
    if problems:
        return 2
    lay = layout.parse(data, str(args.file))
    print(f"{args.file}: a usable {lay.ruleset} layout for {lay.name}")
    return 0


def _db(args) -> Path:
    return args.db or paths.default_db()


def _start_virtual(mode: str, seed: int, flash: Path | None = None, keep_flash: bool = False,
                   selftest: bool = False):
    from doodlebox.virtual.console import VirtualConsole

    if keep_flash and flash is None:
        raise CliError("--keep-flash needs --flash DIR (the folder make flash deployed to)")
    vc = VirtualConsole(mode=mode, seed=seed, flash_dir=flash, firmware=not keep_flash)
    if selftest:
        vc.hardware.press_for("MENU", 5000)  # held at power-on
    return vc.start()


def cmd_log(args) -> int:
    from doodlebox.live import describe
    from doodlebox.ports import find_pico
    from doodlebox.runner import LinkThread

    vc = None
    port = args.port
    if port is None:
        found = find_pico()
        if len(found) > 1:
            raise CliError(f"several Picos attached ({', '.join(found)}): choose one with --port")
        if found:
            port = found[0]
            print(f"console: Pico on {port}")
        else:
            vc = _start_virtual("cpython" if args.cpython else "vm", args.seed if args.seed is not None else int(time.time()),
                                paths.data_dir() / "virtual-flash")
            port = vc.port
            print(f"console: no Pico attached; virtual console on {port} ({vc.mode})")
    db = _db(args)
    print(f"store: {db}")
    link = LinkThread(port, db, on_note=lambda t: print(f"  note: {t}"), handshake_timeout=args.wait).start()
    try:
        if not link.wait_ready(args.wait + 5) or link.error:
            raise CliError(link.error or "the console did not answer")
        c = link.link.console
        print(f"connected: console {c.uid}, firmware {c.fw}, boot {c.boot}")
        stop = threading.Event()

        def printer():
            while not stop.is_set():
                try:
                    e = link.events.get(timeout=0.2)
                except Exception:
                    continue
                print(describe(e), flush=True)
        threading.Thread(target=printer, daemon=True).start()
        if vc is not None and sys.stdin.isatty():
            from doodlebox.virtual.panel import TerminalPanel

            TerminalPanel(vc, paths.data_dir()).run(keep_going=lambda: link.error is None)
        else:
            while link.error is None and (vc is None or vc.running):
                time.sleep(0.2)
        stop.set()
        if link.error:
            raise CliError(link.error)
        return 0
    finally:
        link.stop()
        if vc is not None:
            vc.stop()
        if link.link is not None:
            n = link.link.counts
            print(f"stored {n['stored']} event(s); {n['duplicate']} duplicate(s) ignored; {n['bad']} bad frame(s)")


def cmd_games(args) -> int:
    from doodlebox.store import Store, StoreError

    db = _db(args)
    if not db.exists():
        raise CliError(f"no database at {db} (run `doodlebox log` first)")
    try:
        store = Store(db)
    except StoreError as exc:
        raise CliError(str(exc)) from None
    games = store.games()
    if not games:
        print("no games stored")
        return 0
    print(f"{'#':>3}  {'console':16}  {'boot':>4}  {'game':>4}  {'edition':8} {'players':>7}  {'variant':8} {'rounds':>6}  {'ended':8}  started")
    for g in games:
        started = time.strftime("%Y-%m-%d %H:%M", time.localtime(g["started"])) if g["started"] else "?"
        print(f"{g['id']:>3}  {g['uid']:16}  {g['boot']:>4}  {g['g']:>4}  {g['edition'] or '?':8} {g['players'] or 0:>7}  "
              f"{g['variant'] or '-':8} {g['rounds']:>6}  {g['end_reason'] or 'playing':8}  {started}")
    return 0


def cmd_sim(args) -> int:
    """Prints `pty: PATH`; with a terminal the keys press buttons, else stdin takes commands:
    `press NAME [MS]`, `png PATH`, `status`, `quit`."""
    vc = _start_virtual("cpython" if args.cpython else "vm", args.seed, args.flash, args.keep_flash, args.selftest)
    print(f"pty: {vc.port}", flush=True)
    try:
        if sys.stdin.isatty():
            from doodlebox.virtual.panel import TerminalPanel

            TerminalPanel(vc, Path(vc.flash)).run(keep_going=lambda: vc.running)
            return 0
        for line in sys.stdin:
            words = line.split()
            if not words:
                continue
            if words[0] == "press" and len(words) >= 2:
                vc.press(words[1], float(words[2]) if len(words) > 2 else 80)
            elif words[0] == "png" and len(words) == 2:
                print(f"png: {vc.save_panel(words[1])}", flush=True)
            elif words[0] == "status":
                from doodlebox.virtual.panel import dice_text

                print(f"status: {'running' if vc.running else 'stopped: ' + str(vc.error)} dice {dice_text(vc)}", flush=True)
            elif words[0] == "quit":
                break
            else:
                print(f"error: unknown command {line.strip()!r}", flush=True)
        return 0 if vc.error is None else 1
    finally:
        vc.stop()


def cmd_flash(args) -> int:
    from doodlebox.firmware_build import BuildError
    from doodlebox.flash import FlashError, flash

    try:
        done = flash(args.port, args.build, dry_run=args.dry_run)
    except (BuildError, FlashError) as exc:
        raise CliError(str(exc)) from None
    if isinstance(done, str):
        print(done)
        return 0
    print(f"{args.port}: {done.device}")
    print(f"copied {len(done.copied)} file(s), {len(done.unchanged)} up to date, "
          f"{len(done.removed)} stale removed{': ' + ', '.join(done.removed) if done.removed else ''}")
    print("the board has been reset and runs the new firmware")
    return 0


def cmd_demo(args) -> int:
    from doodlebox.bot import BotError, play_on_console
    from doodlebox.live import describe
    from doodlebox.store import Store

    db = args.db or paths.data_dir() / f"demo-{time.strftime('%Y%m%d-%H%M%S')}.sqlite3"
    vc = _start_virtual("cpython" if args.cpython else "vm", args.seed)
    print(f"virtual console ({vc.mode}) on {vc.port}; store {db}")
    try:
        play_on_console(vc, db, players=args.players, seed=args.seed,
                        show=lambda e: print(describe(e), flush=True), on_note=lambda t: print(f"  note: {t}"))
        png = vc.save_panel(Path(db).with_suffix(".png"))
    except BotError as exc:
        raise CliError(f"demo failed: {exc}") from None
    finally:
        vc.stop()
    store = Store(db)
    events = store.events()
    games = store.games()
    print(f"\nstored {len(events)} events in {db}; e-paper picture {png}")
    for g in games:
        print(f"game {g['g']} of console {g['uid']} boot {g['boot']}: {g['edition']}, {g['players']} players, "
              f"{g['rounds']} rounds, ended: {g['end_reason']}")
    complete = any(g["end_reason"] == "trees" for g in games)
    return 0 if complete else 1


if __name__ == "__main__":
    sys.exit(main())
