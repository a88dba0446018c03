"""`doodlebox games`: the games in the database."""
from __future__ import annotations

import argparse
import time
from pathlib import Path

from doodlebox import paths
from doodlebox.cli.command import Command
from doodlebox.errors import InputError


def db_argument(p: argparse.ArgumentParser) -> None:
    p.add_argument("--db", type=Path, help=f"SQLite file (default {paths.default_db()})")


def database(args: argparse.Namespace) -> Path:
    return args.db or paths.default_db()


def games(args: argparse.Namespace) -> int:
    from doodlebox.store import Store

    db = database(args)
    if not db.exists():
        raise InputError(f"no database at {db} (run `doodlebox log` first)")
    store = Store(db)
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


COMMANDS = (Command("games", "list the stored games", games, db_argument),)
