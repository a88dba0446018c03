"""The people at a game's seats (schema version 4; store/people.py finds a person by name): a
game's names and the person of each seat (a resumed game's games share them), names given, every
person, one person merged into another. A part of the Store (store/database.py)."""
from __future__ import annotations

import time
from collections.abc import Sequence
from typing import TYPE_CHECKING

from doodlebox.errors import InputError
from doodlebox.store.errors import Damaged
from doodlebox.store.people import fold, person_of, placeholder
from doodlebox.store.rows import Rows

NAME_LENGTH = 24     # at most, in characters (the sheets and the panel have room for it)


class BadNames(InputError):
    """Names a game's seats cannot take (too many, empty, too long, twice)."""


class BadMerge(InputError):
    """Two people that cannot be merged: one is not there, they are one already, or they played
    in one game (two seats of it)."""


class Seats(Rows):
    if TYPE_CHECKING:       # the Store's (store/database.py)
        def find(self, which: int | str) -> int: ...
        def game_row(self, gid: int) -> dict: ...

    def names(self, gid: int, seats: int | None = None) -> list[str]:
        """The names of game `gid`'s seats, "P1".."Pn" where none is stored; a seat linked to a
        person has the person's name (after a merge, the name kept). The games a resumed game is
        made of share them. `seats`: how many (default: the game's players)."""
        return [name for name, _ in self.seats(gid, seats)]

    def seats(self, gid: int, seats: int | None = None) -> list[tuple[str, int | None]]:
        """(name, person) of each of game `gid`'s seats: names() and the person each seat is
        linked to (None for an unnamed seat, `P1`..`Pn`)."""
        if seats is None:
            seats = self.game_row(gid)["players"] or 0
        stored: dict[int, tuple[str, int | None]] = {}
        for game in [gid, *sorted(self._chain(gid) - {gid})]:
            # the seat's own name is read too: a row whose name is damaged is said so, person or not
            rows = self._read("SELECT players.seat, players.name, people.name, players.person FROM players "
                              "LEFT JOIN people ON people.id = players.person WHERE players.game=?", (game,),
                              f"players rows of game {game}", gid)
            if rows:
                stored = {seat: (own if name is None else name, person) for seat, own, name, person in rows}
                break
        for seat, (name, _) in stored.items():
            if not isinstance(name, str):
                raise Damaged(self.path, f"players row of game {gid}, seat {seat}: the name {name!r} is not text", gid)
        return [stored.get(seat, (f"P{seat + 1}", None)) for seat in range(seats)]

    def _chain(self, gid: int) -> set[int]:
        """The game `gid` and the games it resumes or that resume it (one game)."""
        seen = {gid}
        todo = [gid]
        while todo and len(seen) < 64:
            for a, b in self._read("SELECT continues, continued_by FROM games WHERE id=?", (todo.pop(),)):
                for other in (a, b):
                    if other is not None and other not in seen:
                        seen.add(other)
                        todo.append(other)
        return seen

    def set_names(self, gid: int, names: Sequence[str]) -> list[str]:
        """Name game `gid`'s seats in order (fewer names than seats: the rest keep "Pn"; no
        names: all of them do); the names as they now are. BadNames (exit 2) for more names
        than seats, an empty name or one longer than NAME_LENGTH, one not printable, or the
        same name twice; NoGame for a game that is not there."""
        gid = self.find(gid)
        seats = self.game_row(gid)["players"] or 0
        clean = [n.strip() if isinstance(n, str) else n for n in names]
        if len(clean) > seats:
            raise BadNames(f"game {gid} has {seats} player(s): {len(clean)} names given")
        for k, n in enumerate(clean):
            if not isinstance(n, str) or not n:
                raise BadNames(f"name {k + 1} is empty")
            if len(n) > NAME_LENGTH:
                raise BadNames(f"name {k + 1} ({n[:NAME_LENGTH]}...) is longer than {NAME_LENGTH} characters")
            if not n.isprintable():
                raise BadNames(f"name {k + 1} ({n!r}) has characters that cannot be printed")
        # a seat's name as `P1`..`Pn` in any width or case is no one's: kept as the console writes it
        clean = [f"P{fold(n)[1:]}" if placeholder(n) else n for n in clean]
        full = list(clean) + [f"P{seat + 1}" for seat in range(len(clean), seats)]
        keys = [fold(m) for m in full]         # the same person's name in any case, width or composition
        twice = sorted({n for n, key in zip(full, keys) if keys.count(key) > 1})
        if twice:
            raise BadNames(f"the name {twice[0]!r} is given to two seats of game {gid}")
        with self._tx("storing names"):
            people = self._people_of(clean, time.time())
            for seat, person in enumerate(people):
                if person is not None and people.index(person) != seat:
                    raise BadNames(f"{clean[people.index(person)]!r} and {clean[seat]!r} are one person "
                                   "(merged: see `doodlebox people`): give one of them")
            for game in self._chain(gid):
                self.db.execute("DELETE FROM players WHERE game=?", (game,))
                self.db.executemany("INSERT INTO players (game, seat, name, person) VALUES (?,?,?,?)",
                                    [(game, seat, n, p) for seat, (n, p) in enumerate(zip(clean, people))])
        return self.names(gid, seats)

    def _people_of(self, names: Sequence[str], now: float, unique: bool = False) -> list[int | None]:
        """The person of each name (made where there is none), in the transaction begun; None for
        `P1`..`Pn`, and with `unique` for a second seat of the same person (an imported record
        may name two seats alike)."""
        out: list[int | None] = []
        for n in names:
            person = person_of(self.db, n, now) if isinstance(n, str) else None
            out.append(None if unique and person in out else person)
        return out

    # -- people ------------------------------------------------------------------------------------
    def people(self) -> list[dict]:
        """Every person, by name: `id`, `name`, `created` (a time stamp), `games` (how many games
        a seat of theirs is in: a resumed game counted once)."""
        rows = self._read("SELECT people.id, people.name, people.created, COUNT(DISTINCT games.id) FROM people "
                          "LEFT JOIN players ON players.person = people.id "
                          "LEFT JOIN games ON games.id = players.game AND games.state != 'resumed' "
                          "GROUP BY people.id, people.name, people.created", (), "the people table")
        return sorted(({"id": i, "name": n, "created": c, "games": k} for i, n, c, k in rows),
                      key=lambda p: (fold(p["name"]), p["id"]))

    def person(self, name: str) -> dict | None:
        """The person a name is (ignoring case, or a name merged into another), if there is one:
        as people() lists them."""
        found = person_of(self.db, name, 0.0, create=False) if not placeholder(name) else None
        if found is None:
            return None
        rows = self._read("SELECT people.id, people.name, people.created, COUNT(DISTINCT games.id) FROM people "
                          "LEFT JOIN players ON players.person = people.id "
                          "LEFT JOIN games ON games.id = players.game AND games.state != 'resumed' "
                          "WHERE people.id=? GROUP BY people.id, people.name, people.created", (found,),
                          "the people table")
        return {"id": rows[0][0], "name": rows[0][1], "created": rows[0][2], "games": rows[0][3]} if rows else None

    def merge_people(self, source: int, into: int) -> int:
        """Person `source` becomes person `into`, in one transaction: every seat of theirs is
        `into`'s, their name an alias of `into`'s (the name typed again finds `into`), and
        `source` is no more. How many seats moved. BadMerge (exit 2, nothing changed) when
        either is not there, they are one, or they sat at one game together."""
        if source == into:
            raise BadMerge("a person cannot be merged into themself")
        with self._tx("merging people"):
            names = dict(self.db.execute("SELECT id, name FROM people WHERE id IN (?,?)", (source, into)).fetchall())
            for who in (source, into):
                if who not in names:
                    raise BadMerge(f"{self.path}: no person {who} (see `doodlebox people`)")
            both = self.db.execute("SELECT a.game FROM players AS a JOIN players AS b ON a.game = b.game "
                                   "WHERE a.person=? AND b.person=? ORDER BY a.game LIMIT 1",
                                   (source, into)).fetchall()
            if both:
                raise BadMerge(f"{names[source]!r} and {names[into]!r} both played game {both[0][0]}: "
                               "they are two people")
            moved = self.db.execute("SELECT COUNT(*) FROM players WHERE person=?", (source,)).fetchone()[0]
            self.db.execute("UPDATE players SET person=? WHERE person=?", (into, source))
            self.db.execute("UPDATE aliases SET person=? WHERE person=?", (into, source))
            folded = self.db.execute("SELECT folded FROM people WHERE id=?", (source,)).fetchone()[0]
            self.db.execute("DELETE FROM people WHERE id=?", (source,))
            self.db.execute("INSERT INTO aliases (folded, person) VALUES (?,?) "
                            "ON CONFLICT (folded) DO UPDATE SET person=excluded.person", (folded, into))
        return moved
