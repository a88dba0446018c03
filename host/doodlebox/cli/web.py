"""`doodlebox web`: the stored games, their sheets, the statistics and the game being played, as a
page on 127.0.0.1 (host/doodlebox/web/, docs/web.md). `doodlebox log --web PORT` serves the same
page with its console: the virtual console's LED dice and buttons, which can be clicked."""
from __future__ import annotations

import argparse
import threading
from pathlib import Path

from doodlebox.cli.command import Command
from doodlebox.cli.games import database, db_argument
from doodlebox.errors import InputError

DEFAULT_PORT = 8765


def start_web(db, port: int, option: str = "--port"):
    """The page's server for `db`, started (InputError, exit 2, for a port it cannot have: it
    names the command's `option`, or for a PostgreSQL database: the page reads a file)."""
    if not isinstance(db, Path):
        raise _not_a_file(db)
    from doodlebox.web.live import Live
    from doodlebox.web.server import WebServer

    return WebServer(db, port, Live(), option).start()


def _not_a_file(db: object) -> InputError:
    from doodlebox.store.postgres import shown

    return InputError(f"{shown(str(db))}: the page reads an SQLite file, not a PostgreSQL database (not yet)")


def web(args: argparse.Namespace) -> int:
    db = database(args)
    if not isinstance(db, Path):
        raise _not_a_file(db)
    if not db.exists():
        raise InputError(f"no database at {db} (run `doodlebox log` first, or give --db FILE)")
    from doodlebox.web.views import open_store

    open_store(db).close()       # a file that is not a doodlebox database: one line now, not on the page
    server = start_web(db, args.port)
    print(f"web: {server.url}  (the games in {db}; Ctrl-C stops)", flush=True)
    try:
        threading.Event().wait()
    finally:
        server.stop()
    return 0


def port_argument(p: argparse.ArgumentParser) -> None:
    p.add_argument("--port", type=int, default=DEFAULT_PORT,
                   help=f"the port on 127.0.0.1 (default {DEFAULT_PORT}; 0: any free one)")


def _web_args(p: argparse.ArgumentParser) -> None:
    db_argument(p)
    port_argument(p)


COMMANDS = (
    Command("web", "a page on 127.0.0.1: the games, their sheets, the statistics, the game being played", web,
            _web_args),
)
