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
    """The database to read: opened for writing if it may be (a version 1 file is upgraded),
    else read-only."""
    from doodlebox.store import Store, StoreError

    db = database(args)
    if not db.exists():
        raise InputError(f"no database at {db} (run `doodlebox log` first)")
    try:
        return Store(db)
    except StoreError as exc:
        if exc.cause != "readonly":
            raise
        return Store(db, readonly=True)


def state_text(g: dict) -> str:
    """A game's state as `doodlebox games` shows it: playing, ended (its reason), resumed by the
    game that goes on with it, abandoned; a game that goes on with another says which."""
    state = g["state"]
    if state == "ended":
        text = f"ended ({g['end_reason']})"
    elif state == "resumed":
        text = f"resumed by #{g['continued_by']}" if g["continued_by"] else "resumed"
    else:
        text = state
    if g["continues"]:
        text += f", resumes #{g['continues']}"
    elif g["of_boot"] is not None:
        text += f", resumes boot {g['of_boot']} game {g['of_g']} (not stored)"
    return text


def games(args: argparse.Namespace) -> int:
    store = _open(args)
    try:
        rows = store.games()
    finally:
        store.close()
    if not rows:
        print("no games stored")
        return 0
    print(f"{'#':>3}  {'console':16}  {'boot':>4}  {'game':>4}  {'edition':8} {'players':>7}  {'variant':8} "
          f"{'rounds':>6}  {'started':16}  state")
    for g in rows:
        started = time.strftime("%Y-%m-%d %H:%M", time.localtime(g["started"])) if g["started"] else "?"
        print(f"{g['id']:>3}  {g['uid']:16}  {g['boot']:>4}  {g['g']:>4}  {g['edition'] or '?':8} "
              f"{g['players'] or 0:>7}  {g['variant'] or '-':8} {g['rounds']:>6}  {started:16}  {state_text(g)}")
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
