"""People: the players of a club across games (schema version 4). A person's name is unique
ignoring case (and runs of spaces): `fold()` is the key the `people` table keeps unique, the same
on both backends. A seat's name links it to a person; the console's `P1`..`Pn` (placeholder())
link to no one. A person merged into another keeps its folded name as an alias of the one kept,
so that the name typed again (on a venue's PC, say) still finds that person
(docs/stored-games.md, "People")."""
from __future__ import annotations

import re
import sqlite3
import time
import unicodedata
from typing import Any

_PLACEHOLDER = re.compile(r"p[0-9]+")     # of a folded name: `P1`, `p1`, full-width P1 alike


def fold(name: str) -> str:
    """The key of a name: NFKC, case folded, spaces at the ends dropped and runs of spaces made one."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


def placeholder(name: str) -> bool:
    """The name of a seat nobody named (`P1`..`Pn`, in any case or width): no person."""
    return bool(_PLACEHOLDER.fullmatch(fold(name)))


def person_of(db: Any, name: str, now: float, create: bool = True) -> int | None:
    """The person a name is (by its folded key, or an alias of a merged one); made when there is
    none and `create`. `db` is an sqlite3 connection or the PostgreSQL one (the Store's SQL)."""
    key = fold(name)
    if not key or placeholder(name):
        return None
    for sql in ("SELECT id FROM people WHERE folded=?", "SELECT person FROM aliases WHERE folded=?"):
        row = db.execute(sql, (key,)).fetchone()
        if row:
            return row[0]
    if not create:
        return None
    # the number one more than the highest, in the writers' turn (no sequence: PostgreSQL's loses 32 at a crash)
    db.execute("INSERT INTO people (id, name, folded, created) "
               "VALUES ((SELECT COALESCE(MAX(id), 0) + 1 FROM people),?,?,?) ON CONFLICT (folded) DO NOTHING",
               (" ".join(name.split()), key, now))
    return db.execute("SELECT id FROM people WHERE folded=?", (key,)).fetchone()[0]


def people_from_names(db: Any) -> None:
    """The upgrade to version 4's step: every stored seat name becomes a person, one per name
    (the same name after trimming, ignoring case, is one person: the people table keeps names
    unique that way; different spellings stay different people); `P1`..`Pn` and a second seat
    of one game with the same name link to no one. Oldest game first: its spelling names the person."""
    now = time.time()
    # a name read as bytes: a players row with text that is not UTF-8 (damage) links to no one, and
    # is said as damage when its game is read (Store.names), not here where it would stop the upgrade
    text = "CAST(players.name AS BLOB)" if isinstance(db, sqlite3.Connection) else "players.name"
    rows = db.execute(f"SELECT players.game, players.seat, {text} FROM players "
                      "LEFT JOIN games ON games.id = players.game "
                      "ORDER BY COALESCE(games.started, 0), players.game, players.seat").fetchall()
    taken: dict[int, set[int]] = {}
    for game, seat, name in rows:
        if isinstance(name, bytes):
            try:
                name = name.decode()
            except UnicodeDecodeError:
                continue
        if not isinstance(name, str):
            continue
        person = person_of(db, name, now)
        if person is None or person in taken.setdefault(game, set()):
            continue
        taken[game].add(person)
        db.execute("UPDATE players SET person=? WHERE game=? AND seat=?", (person, game, seat))
