"""`doodlebox games | export`: the games in the database; one of them as a game record."""
from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from doodlebox import paths
from doodlebox.cli.command import Command
from doodlebox.errors import InputError


def db_argument(p: argparse.ArgumentParser) -> None:
    p.add_argument("--db", type=Path, help=f"SQLite file (default {paths.default_db()})")


def database(args: argparse.Namespace) -> Path:
    return args.db or paths.default_db()


def _open(args: argparse.Namespace):
    from doodlebox.store import Store

    db = database(args)
    if not db.exists():
        raise InputError(f"no database at {db} (run `doodlebox log` first)")
    return Store(db)


def games(args: argparse.Namespace) -> int:
    store = _open(args)
    rows = store.games()
    if not rows:
        print("no games stored")
        return 0
    print(f"{'#':>3}  {'console':16}  {'boot':>4}  {'game':>4}  {'edition':8} {'players':>7}  {'variant':8} "
          f"{'rounds':>6}  {'ended':8}  started")
    for g in rows:
        started = time.strftime("%Y-%m-%d %H:%M", time.localtime(g["started"])) if g["started"] else "?"
        print(f"{g['id']:>3}  {g['uid']:16}  {g['boot']:>4}  {g['g']:>4}  {g['edition'] or '?':8} "
              f"{g['players'] or 0:>7}  {g['variant'] or '-':8} {g['rounds']:>6}  {g['end_reason'] or 'playing':8}  "
              f"{started}")
    return 0


def export(args: argparse.Namespace) -> int:
    """Exit 0 written, 2 for a game that is not there or cannot be a record."""
    from doodlebox.console_record import to_record

    which = args.game
    if which != "last" and not which.isdigit():
        raise InputError(f"{which!r} is not a game: give its number from `doodlebox games`, or last")
    store = _open(args)
    try:
        log = store.game_log(which if which == "last" else int(which))
        if log is None:
            raise InputError(f"{database(args)}: " + ("no games stored" if which == "last" or not store.games()
                                                      else f"no game {which} (see `doodlebox games`)"))
        data = to_record(log)
    finally:
        store.close()
    text = json.dumps(data, indent=1) + "\n"
    try:
        args.output.write_text(text)
    except OSError as exc:
        raise InputError(f"{args.output}: cannot be written ({exc.strerror or exc})") from None
    rounds = len(data["rounds"])
    print(f"{args.output}: {log.label()}, {data['edition']} for {len(data['players'])} player(s), {rounds} round(s)")
    return 0


def _export_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", help="a game's number from `doodlebox games`, or last")
    db_argument(p)
    p.add_argument("-o", "--output", type=Path, required=True, help="the record (JSON) to write")


COMMANDS = (
    Command("games", "list the stored games", games, db_argument),
    Command("export", "write a stored game as a game record (doodlebox validate/score/render read it)", export,
            _export_args),
)
