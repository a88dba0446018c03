"""`doodlebox people | league | sync`: the players as people across games (two merged into one),
the league's standings per edition (host/doodlebox/history/league.py), and a venue's games pushed into the
league's database (host/doodlebox/store/sync.py) (docs/stored-games.md, "People", "A league", "Sync")."""
from __future__ import annotations

import argparse
import json
import sys
import time

from doodlebox.cli.command import Command
from doodlebox.cli.games import db_argument, location, open_store
from doodlebox.errors import InputError
from doodlebox.history import league as lg
from doodlebox.rules.games import EDITIONS
from doodlebox.store import Store
from doodlebox.store import sync as sy


def people(args: argparse.Namespace) -> int:
    """List the people with their games; --merge A B: A becomes B (asked on a terminal, else --yes)."""
    store = open_store(args, write=bool(args.merge))
    try:
        if args.merge:
            return _merge(store, args.merge[0], args.merge[1], yes=args.yes)
        found = store.people()
    finally:
        store.close()
    if not found:
        print("no people yet (name a game's seats: doodlebox names GAME NAME...)")
        return 0
    table: list[tuple[str, ...]] = [("#", "name", "games", "since")]
    table += [(str(p["id"]), p["name"], str(p["games"]), time.strftime("%Y-%m-%d", time.localtime(p["created"])))
              for p in found]
    _print_table(table, right=(0, 2))
    return 0


def _merge(store, source: str, into: str, yes: bool) -> int:
    a, b = (_person(store, name) for name in (source, into))
    if a["id"] == b["id"]:
        raise InputError(f"{source!r} and {into!r} are one person already ({b['name']})")
    question = (f"merge {a['name']!r} ({a['games']} game(s)) into {b['name']!r} ({b['games']} game(s)): "
                f"every game of {a['name']!r} becomes {b['name']!r}'s?")
    if not yes:
        if not sys.stdin.isatty():
            raise InputError(f"{question[:-1]}: this needs a yes; run it on a terminal to be asked, or add --yes")
        try:
            answer = input(f"{question} [y/N] ")
        except EOFError:
            answer = ""
        if answer.strip().lower() not in ("y", "yes"):
            print("not merged")
            return 1
    moved = store.merge_people(a["id"], b["id"])
    print(f"merged {a['name']!r} into {b['name']!r}: {moved} seat(s) moved; {b['name']!r} now has "
          f"{a['games'] + b['games']} game(s)")
    return 0


def _person(store, name: str) -> dict:
    """The person a name (or `#ID`) is; InputError (exit 2) when there is none."""
    if name.startswith("#") and name[1:].isascii() and name[1:].isdigit():
        found = next((p for p in store.people() if p["id"] == int(name[1:])), None)
    else:
        found = store.person(name)
    if found is None:
        raise InputError(f"{store.path}: no person {name!r} (see `doodlebox people`)")
    return found


def league(args: argparse.Namespace) -> int:
    """The standings, one section per edition (or --json: league.standings() as it is)."""
    if args.edition is not None and args.edition not in EDITIONS:
        raise InputError(f"--edition {args.edition!r}: no such edition (one of {', '.join(EDITIONS)})")
    store = open_store(args)
    try:
        rows = lg.standings(store, args.edition)
        left = lg.left_out(store) if not args.json else {}
    finally:
        store.close()
    if args.json:
        print(json.dumps(rows, indent=1, ensure_ascii=False))
        return 0
    if not rows:
        print("no league games" + (f" of {args.edition}" if args.edition else "") +
              " (a game counts when its rules ended it with a winner and every seat is named)")
    editions = sorted({r["edition"] for r in rows})
    for k, ed in enumerate(editions):
        mine = [r for r in rows if r["edition"] == ed]
        played = len({r["last_game"] for r in mine})
        print(("\n" if k else "") + f"{ed}: {len(mine)} player(s)" + (f", last game {max(r['last'] for r in mine)}"
                                                                        if played else ""))
        table: list[tuple[str, ...]] = [("#", "player", "rating", "mu", "sigma", "games", "wins", "last played")]
        table += [(str(r["rank"]), r["name"], f"{r['rating']:.2f}", f"{r['mu']:.2f}", f"{r['sigma']:.2f}",
                   str(r["games"]), str(r["wins"]), r["last"]) for r in mine]
        _print_table(table, right=(0, 2, 3, 4, 5, 6), indent="  ")
    if left:
        print("\nnot league games: " + ", ".join(f"{n} {why}" for why, n in left.items()))
    return 0


def sync(args: argparse.Namespace) -> int:
    """Push this PC's games into the league's database; exit 2 for another league's, and when
    something was left (a conflict, a damaged row: said, the rest synced)."""
    source = open_store(args, write=True)
    try:
        target = Store(args.to)
        try:
            def progress(line: str) -> None:
                print(line, flush=True)

            done = sy.sync(source, target, chunk=args.chunk, league_ok=args.other_league, progress=progress)
        finally:
            target.close()
    finally:
        source.close()
    print(done.text(source.path, target.path))
    if done.complete:
        return 0
    print(f"doodlebox: not everything was synced ({done.left} event(s) left: "
          + ", ".join(f"{n} {what}" for n, what in ((done.conflicts, "conflict(s)"), (done.damaged, "damaged row(s)"))
                      if n) + "): see the lines above", file=sys.stderr)
    return 2


def _print_table(table: list[tuple[str, ...]], right: tuple[int, ...] = (), indent: str = "") -> None:
    widths = [max(len(row[c]) for row in table) for c in range(len(table[0]))]
    for row in table:
        print(indent + "  ".join(cell.rjust(w) if c in right else cell.ljust(w)
                                 for c, (cell, w) in enumerate(zip(row, widths))).rstrip())


def _people_args(p: argparse.ArgumentParser) -> None:
    db_argument(p)
    p.add_argument("--merge", nargs=2, metavar=("NAME", "INTO"),
                   help="the person NAME becomes the person INTO: their games, their name (a name, or #ID)")
    p.add_argument("--yes", action="store_true", help="merge without asking")


def _league_args(p: argparse.ArgumentParser) -> None:
    db_argument(p)
    p.add_argument("--edition", help="only this edition's standings (city, suzhou, ...)")
    p.add_argument("--json", action="store_true", help="the standings as JSON (league.standings())")


def _sync_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--to", type=location, required=True, metavar="postgresql://...",
                   help="the league's database (a PostgreSQL URL, or an SQLite file)")
    db_argument(p)
    p.add_argument("--other-league", action="store_true",
                   help="sync into a database of another league than this file was synced to before")
    p.add_argument("--chunk", type=int, default=500, help=argparse.SUPPRESS)   # events per transaction


COMMANDS = (
    Command("people", "the players as people across games, with their games; --merge two into one",
            people, _people_args),
    Command("league", "the league's standings per edition: each person's rating (openskill), games, wins",
            league, _league_args),
    Command("sync", "push this PC's games into the league's database (again: only what is new)", sync, _sync_args),
)
