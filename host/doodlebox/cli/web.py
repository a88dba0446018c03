"""`doodlebox web`: the stored games, their sheets, the statistics, the game being played and the
league, as a page on 127.0.0.1 (host/doodlebox/web/, docs/web.md), of an SQLite file or a
PostgreSQL database. `--host 0.0.0.0` opens it to the network, read-only unless a token is given
(`--token` or DOODLEBOX_WEB_TOKEN). `doodlebox log --web PORT` serves the same page with its
console: the virtual console's LED dice and buttons, which can be clicked."""
from __future__ import annotations

import argparse
import ipaddress
import os
import sys
import threading
from pathlib import Path

from doodlebox.cli.command import Command
from doodlebox.cli.games import database, db_argument
from doodlebox.errors import InputError
from doodlebox.web.live import Live
from doodlebox.web.server import WebServer
from doodlebox.web.views import open_store, where

DEFAULT_PORT = 8765
DEFAULT_HOST = "127.0.0.1"
TOKEN_ENV = "DOODLEBOX_WEB_TOKEN"


def start_web(db, port: int, option: str = "--port", host: str = DEFAULT_HOST, token: str | None = None):
    """The page's server for `db` (a file or a postgresql:// URL), started on `host` (InputError,
    exit 2, for a port or an address it cannot have: it names the command's `option`)."""
    return WebServer(db, port, Live(), option, host=host, token=token).start()


def web(args: argparse.Namespace) -> int:
    db = database(args)
    token = args.token if args.token is not None else (os.environ.get(TOKEN_ENV, "").strip() or None)
    if isinstance(db, Path) and not db.exists():
        raise InputError(f"no database at {db} (run `doodlebox log` first, or give --db FILE)")

    # a file that is not a doodlebox database, a server that is down, a wrong password: one line now
    open_store(db, readonly=token is None and not _loopback(args.host)).close()
    server = start_web(db, args.port, host=args.host, token=token)
    if not server.loopback:
        how = ("writes need the token" if server.writes == "token" else
               f"read-only: no writes without --token or {TOKEN_ENV}")
        print(f"warning: the page is reachable from the network on {server.host}:{server.port} ({how})",
              file=sys.stderr, flush=True)
    print(f"web: {server.url}  (the games in {where(db)}; Ctrl-C stops)", flush=True)
    try:
        threading.Event().wait()
    finally:
        server.stop()
    return 0


def _loopback(host: str) -> bool:
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def port_argument(p: argparse.ArgumentParser) -> None:
    p.add_argument("--port", type=int, default=DEFAULT_PORT,
                   help=f"the port (default {DEFAULT_PORT}; 0: any free one)")


def _web_args(p: argparse.ArgumentParser) -> None:
    db_argument(p)
    port_argument(p)
    p.add_argument("--host", default=DEFAULT_HOST,
                   help=f"the address to listen on (default {DEFAULT_HOST}: this computer only; 0.0.0.0: every "
                        "interface, the page open to the network, read-only without a token)")
    p.add_argument("--token", default=None,
                   help=f"what a write (names, a press) must send (Authorization: Bearer TOKEN; the page asks for "
                        f"it once): 16 or more characters; default ${TOKEN_ENV}; none: read-only on the network")


COMMANDS = (
    Command("web", "a page on 127.0.0.1 (or the network: --host): the games, their sheets, the statistics, the "
            "game being played, the league", web, _web_args),
)
