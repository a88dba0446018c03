"""`doodlebox games | show | export | import | names`: the games in the database (console games
and records imported from paper), one of them looked at or written as a record or a scores
table, and the names of its players (docs/stored-games.md)."""
from __future__ import annotations

import argparse
import csv
import io
import json
import os
from pathlib import Path

from doodlebox import paths
from doodlebox.cli.command import Command
from doodlebox.errors import InputError
from doodlebox.history import game_records
from doodlebox.history.games_view import CSV_COLUMNS, import_records, score_rows, summary
from doodlebox.store import Store, StoreError
from doodlebox.store.errors import Damaged
from doodlebox.store.postgres import is_url


def db_argument(p: argparse.ArgumentParser) -> None:
    p.add_argument("--db", type=location, help=f"SQLite file, or a PostgreSQL database: postgresql://USER:PASSWORD@"
                   f"HOST:PORT/DB (default: $DOODLEBOX_DB, else {paths.default_db()})")


def location(text: str) -> Path | str:
    """Where a database is: a postgresql:// (or postgres://) URL as given, anything else a file."""
    return text if is_url(text) else Path(text)


def database(args: argparse.Namespace) -> Path | str:
    """--db, else $DOODLEBOX_DB (a file or a URL), else the user's doodlebox.sqlite3."""
    if args.db:
        return args.db
    env = os.environ.get("DOODLEBOX_DB", "").strip()
    return location(env) if env else paths.default_db()


def open_store(args: argparse.Namespace, write: bool = False, create: bool = False):
    """The database: opened for writing if it may be (an older schema is upgraded), else
    read-only (`write`: a command that changes it gets the read-only error instead);
    `create` makes a new one where there is none."""
    db = database(args)
    if isinstance(db, Path) and not db.exists() and not create:
        raise InputError(f"no database at {db} (run `doodlebox log` first)")
    try:
        return Store(db)
    except StoreError as exc:
        if exc.cause != "readonly" or write:
            raise
        return Store(db, readonly=True)


def _write(path: Path, text: str) -> None:
    if not path.parent.is_dir():
        raise InputError(f"{path}: cannot be written: there is no folder {path.parent}")
    try:
        path.write_text(text)
    except OSError as exc:
        raise InputError(f"{path}: cannot be written ({exc.strerror or exc})") from None


def _cell(text: str, width: int = 28) -> str:
    return text if len(text) <= width else text[:width - 3] + "..."


def games(args: argparse.Namespace) -> int:
    """Exit 0 listed, 2 when a game has a row that cannot be read: it is listed as "damaged:
    ROW: WHAT", the others as they are, then one line names the file and each such row."""
    store = open_store(args)
    try:
        rows = game_records.games(store)
        sources: dict[int, tuple[str, int] | None] = {}
        for g in rows:
            if g["state"] == "imported" and not g["damaged"]:
                try:
                    sources[g["id"]] = store.imported_source(g["id"])
                except Damaged as exc:
                    g["damaged"] = exc.row
    finally:
        store.close()
    if not rows:
        print("no games stored")
        return 0
    table = [("#", "date", "edition", "players", "scores", "winner", "status", "from")]
    for g in rows:
        scores = " ".join(str(t) for t in g["totals"]) if g["totals"] is not None else "-"
        winner = winner_text(g)
        src = sources.get(g["id"])
        source = ((Path(src[0]).name if src else "?") if g["state"] == "imported"
                  else "?" if g["uid"] is None else f"{g['uid']} boot {g['boot']}")
        status = f"damaged: {g['damaged']}" if g["damaged"] else g["status_text"]
        table.append((str(g["id"]), g["date"] or "?", g["edition"] or "?", _cell(", ".join(g["names"]) or "-"),
                      scores, _cell(winner), status, source))
    widths = [max(len(row[c]) for row in table) for c in range(len(table[0]))]
    for row in table:
        print("  ".join(cell.rjust(w) if c == 0 else cell.ljust(w) for c, (cell, w) in enumerate(zip(row, widths)))
              .rstrip())
    damaged(store.path, rows)
    return 0


def winner_text(g: dict) -> str:
    """The winner column (a game_records.games() row): the winners' names once the rules ended the
    game, a solo game's rank, else "-" (a game ended early has no winner: ruling G1)."""
    if not g["finished"]:
        return "-"
    if g["players"] == 1:
        return g["rank"] or "(solo)"
    return ", ".join(g["winners"]) or "-"


def damaged(path: Path | str, rows: list[dict]) -> None:
    """InputError (exit 2), one line naming the file and each damaged game's row, when a listed
    game has one (Store.games(): `damaged`)."""
    bad = [f"game {g['id']}: damaged: {g['damaged']}" for g in rows if g["damaged"]]
    if bad:
        raise InputError(f"{path}: " + "; ".join(bad))


def show(args: argparse.Namespace) -> int:
    """The table, the round-by-round summary and the violations of one game."""
    store = open_store(args)
    try:
        s = summary(store, args.game)
    finally:
        store.close()
    print(f"{s['label']}: {s['game']}, {len(s['players'])} player(s) ({', '.join(s['players'])}), "
          f"{s['date'] or 'no date'}, {s['status_text']}")
    if s["record"] is None:
        print(f"no record of it: {s['error']}")
        return 0
    print()
    print(s["table"])
    if s["achievements"]:
        print("  achievements: " + ", ".join(s["achievements"]))
    print("\nround by round:")
    for line in s["rounds"] or ["(no round played)"]:
        print(f"  {line}")
    print()
    if s["violations"]:
        print(f"{len(s['violations'])} violation(s):")
        print(s["violations_text"])
    else:
        print("no violations")
    return 0


def export(args: argparse.Namespace) -> int:
    """Exit 0 written, 2 for a game that is not there or cannot be a record."""
    store = open_store(args)
    try:
        if args.csv:
            ids = [g["id"] for g in store.games()] if args.game == "all" else [store.find(args.game)]
            rows = score_rows(store, ids)
        else:
            gid = store.find(args.game)
            data = game_records.record(store, gid)
            log = store.game_log(gid)
            label = log.label() if log is not None and log.events else f"game {gid} (imported)"
    finally:
        store.close()
    if args.csv:
        buf = io.StringIO()
        w = csv.DictWriter(buf, fieldnames=CSV_COLUMNS, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
        _write(args.output, buf.getvalue())
        print(f"{args.output}: {len(rows)} row(s) of {len(ids)} game(s): {', '.join(CSV_COLUMNS)}")
        return 0
    _write(args.output, json.dumps(data, indent=1, ensure_ascii=False) + "\n")
    print(f"{args.output}: {label}, {data['edition']} for {len(data['players'])} player(s) "
          f"({', '.join(data['players'])}), {len(data['rounds'])} round(s)")
    return 0


def import_(args: argparse.Namespace) -> int:
    """Exit 0 imported (or imported before), 2 when a file cannot be read or, without
    --with-violations, a record breaks the rules: then nothing is imported."""
    if not args.records:
        raise InputError("give the record files to import")
    store = open_store(args, write=True, create=True)
    try:
        stored, skipped = import_records(store, args.records, args.with_violations, args.date)
    finally:
        store.close()
    for c, gid in stored:
        extra = f", with {len(c.violations)} violation(s) (doodlebox show {gid})" if c.violations else ""
        print(f"{c.path}: imported as game {gid} ({c.data['edition']}, {', '.join(c.data['players'])}){extra}")
    for c in skipped:
        where = f"as game {c.already}" if c.already is not None else "(the same record twice on the command line)"
        print(f"{c.path}: imported before {where}: not imported again")
    return 0


def names(args: argparse.Namespace) -> int:
    """Show or set the names of a game's seats; exit 2 for names it cannot take."""
    store = open_store(args, write=bool(args.names or args.clear))
    try:
        gid = store.find(args.game)
        if args.clear and args.names:
            raise InputError("--clear takes no names")
        now = store.set_names(gid, [] if args.clear else args.names) if args.names or args.clear else store.names(gid)
    finally:
        store.close()
    print(f"game {gid}: " + ", ".join(f"{k + 1} {n}" for k, n in enumerate(now)))
    return 0


def _game_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", help="a game's number from `doodlebox games`, or last")


def _show_args(p: argparse.ArgumentParser) -> None:
    _game_arg(p)
    db_argument(p)


def _export_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", help="a game's number from `doodlebox games`, or last (with --csv also all)")
    db_argument(p)
    p.add_argument("-o", "--output", type=Path, required=True, help="the record (JSON), or with --csv the table")
    p.add_argument("--csv", action="store_true",
                   help="a scores table instead: game, edition, date, player, seat, total, winner, status")


def _import_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("records", type=Path, nargs="*", metavar="RECORD", help="record files (docs/records.md)")
    db_argument(p)
    p.add_argument("--with-violations", action="store_true",
                   help="import a record that breaks the rules too, with its violations (default: refuse it)")
    p.add_argument("--date", help="when the games were played: YYYY-MM-DD [HH:MM] (default now)")


def _names_args(p: argparse.ArgumentParser) -> None:
    _game_arg(p)
    p.add_argument("names", nargs="*", default=[], metavar="NAME",
                   help="the seats' names in order, from the first start player (none: show them)")
    db_argument(p)
    p.add_argument("--clear", action="store_true", help="back to P1..Pn")


COMMANDS = (
    Command("games", "list the stored games: edition, players, scores, winner, status", games, db_argument),
    Command("show", "one stored game: its table, round by round, its violations", show, _show_args),
    Command("export", "write a stored game as a game record (doodlebox validate/score/render read it), "
            "or with --csv a scores table", export, _export_args),
    Command("import", "store game records played on paper, validated", import_, _import_args),
    Command("names", "show or set the names of a stored game's players", names, _names_args),
)
