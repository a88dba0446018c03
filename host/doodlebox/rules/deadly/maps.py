"""The dungeon map of Deadly Doodles as data: load, check (every problem with its place) and the
DungeonMap the engine uses. The format is docs/deadly-doodles.md.

Rooms are named as printed, column letter then row number ("C4"); columns run left to right
from A, rows top to bottom from 1. Inside the engine a room is an index, (row-1)*columns +
column-1. A side is N (towards row 1), E, S or W, one bit each.
"""
from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from doodlebox import paths
from doodlebox.rules.common import ProblemsError

FORMAT = "doodlebox-deadly-map/1"
DEFAULT_FILES = {"a": "deadly-map-a.json", "b": "deadly-map-b.json"}
SIDES = "NESW"
N, E, S, W = 1, 2, 4, 8
BIT = {"N": N, "E": E, "S": S, "W": W}
OPPOSITE = {N: S, E: W, S: N, W: E}
STEP = {N: (-1, 0), E: (0, 1), S: (1, 0), W: (0, -1)}   # (rows, columns)
PAIRS = "ABCDEF"          # the six Weapon/Monster pairs
ENTRYWAYS, LOOT = 6, 4    # "six entryways", "four bags of Loot"
FIELDS = ("format", "name", "reconstructed", "columns", "rows", "entryways", "walls", "loot", "dragon",
          "weapons", "monsters")
_ROOM = re.compile(r"([A-Za-z])([1-9][0-9]?)")


class MapError(ProblemsError):
    """A map that cannot be used; `problems` lists every (place, what) found."""


def sides_text(mask: int) -> str:
    """The sides of a mask in N E S W order, e.g. 0b0011 -> "NE"."""
    return "".join(s for s in SIDES if mask & BIT[s])


def sides_mask(text: str) -> int:
    m = 0
    for s in text:
        m |= BIT[s]
    return m


@dataclass(frozen=True)
class DungeonMap:
    name: str
    reconstructed: str
    columns: int
    rows: int
    passages: tuple[int, ...]        # per room: the sides with a passageway (no wall, or an entryway)
    entries: tuple[int, ...]         # per room: the sides with an entryway arrow
    walls: tuple[int, ...]           # per room: the sides that are walls (the outer wall included)
    neighbours: tuple[tuple[int, ...], ...]  # per room: the room across each side bit (index by bit), -1
    contents: tuple[str, ...]        # per room: "", "loot", "dragon", "weapon" or "monster"
    letters: tuple[str, ...]         # per room: the pair letter of a weapon or monster, else ""
    loot: tuple[int, ...]
    dragon: int
    weapons: dict[str, int]          # letter -> room
    monsters: dict[str, int]
    spec: Any = None                 # what a record says to get this map: "a", "b" or the object
    by_name: dict[str, int] = field(default_factory=dict, compare=False, repr=False)  # "C4" -> index

    def __post_init__(self) -> None:
        self.by_name.update((self.room_name(i), i) for i in range(self.size))

    @property
    def size(self) -> int:
        return self.columns * self.rows

    def room_name(self, i: int) -> str:
        r, c = divmod(i, self.columns)
        return f"{chr(65 + c)}{r + 1}"

    def room(self, name: str) -> int:
        """The index of a room named as printed ("C4"); KeyError when the map has no such room."""
        i = self.by_name.get(name) if isinstance(name, str) else None
        if i is None:
            i = room_index(name, self.columns, self.rows)
            if i is None:
                raise KeyError(name)
        return i

    def find(self, name: Any) -> int | None:
        """The index of a room named as printed (any case), or None."""
        try:
            return self.room(name.upper() if isinstance(name, str) else name)
        except KeyError:
            return None

    def entryway_count(self) -> int:
        return sum(bin(m).count("1") for m in self.entries)

    def describe(self, i: int) -> str:
        """What is printed in room i, as words ("Loot", "Weapon C", "an empty room")."""
        kind = self.contents[i]
        if kind == "loot":
            return "Loot"
        if kind == "dragon":
            return "the Dragon"
        if kind:
            return f"{kind.capitalize()} {self.letters[i]}"
        return "an empty room"


def room_index(name: Any, columns: int, rows: int) -> int | None:
    if not isinstance(name, str):
        return None
    m = _ROOM.fullmatch(name.strip())
    if not m:
        return None
    c, r = ord(m.group(1).upper()) - 65, int(m.group(2)) - 1
    if not (0 <= c < columns and 0 <= r < rows):
        return None
    return r * columns + c


def default_path(side: str) -> Path:
    return paths.layouts() / DEFAULT_FILES[side]


def load(spec: Any, source: str | None = None) -> DungeonMap:
    """A map from a side's name ("a", "b"), a file, or a parsed object; MapError if unusable."""
    if isinstance(spec, dict):
        return parse(spec, source or "map")
    key = str(spec).lower()
    if key in DEFAULT_FILES and source is None:
        return _default(key)
    path = default_path(key) if key in DEFAULT_FILES else Path(str(spec))
    try:
        data = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError) as exc:
        raise MapError(str(path), [("file", f"cannot be read ({getattr(exc, 'strerror', None) or exc})")]) from None
    except json.JSONDecodeError as exc:
        raise MapError(str(path), [("file", f"not JSON (line {exc.lineno}, column {exc.colno}): {exc.msg}")]) from None
    m = parse(data, source or str(path))
    return replace(m, spec=key, by_name={}) if key in DEFAULT_FILES else m


@functools.cache
def _default(side: str) -> DungeonMap:
    return load(side, str(default_path(side)))


def check(data: Any) -> list[tuple[str, str]]:
    """Every problem in a parsed map file, as (place, what); [] when it is usable."""
    return _Parser(data).run()[1]


def parse(data: Any, source: str = "map") -> DungeonMap:
    m, problems = _Parser(data).run()
    if problems:
        raise MapError(source, problems)
    assert m is not None
    return m


class _Parser:
    def __init__(self, data: Any):
        self.d = data
        self.problems: list[tuple[str, str]] = []
        self.cols = self.rows = 6
        self.taken: dict[int, str] = {}   # room -> the place that put something in it

    def bad(self, where: str, what: str) -> None:
        self.problems.append((where, what))

    def run(self) -> tuple[DungeonMap | None, list[tuple[str, str]]]:
        d = self.d
        if not isinstance(d, dict):
            self.bad("map", "is not a JSON object")
            return None, self.problems
        if d.get("format") != FORMAT:
            self.bad("format", f"{d.get('format')!r} is not {FORMAT!r}")
        for k in d:
            if k not in FIELDS:
                self.bad(k, f"unknown field (known: {', '.join(FIELDS)})")
        name = d.get("name", "a map of your own")
        if not isinstance(name, str):
            self.bad("name", f"{name!r} is not text")
            name = "a map of your own"
        rec = d.get("reconstructed", "")
        if not isinstance(rec, str):
            self.bad("reconstructed", f"{rec!r} is not text")
            rec = ""
        self.cols = self._size("columns", 26)
        self.rows = self._size("rows", 99)
        n = self.cols * self.rows
        entries = self._entryways(d.get("entryways"))
        walls = self._walls(d.get("walls"))
        loot = self._loot(d.get("loot"))
        dragon = self._room(d.get("dragon"), "dragon", "the Dragon")
        weapons = self._pairs(d.get("weapons"), "weapons", "Weapon")
        monsters = self._pairs(d.get("monsters"), "monsters", "Monster")
        if self.problems:
            return None, self.problems
        assert dragon is not None
        neighbours = []
        passages = []
        wall_sides = []
        for i in range(n):
            r, c = divmod(i, self.cols)
            nb = [-1] * 9
            open_ = 0
            for bit, (dr, dc) in STEP.items():
                rr, cc = r + dr, c + dc
                if 0 <= rr < self.rows and 0 <= cc < self.cols:
                    nb[bit] = rr * self.cols + cc
                    if (i, bit) not in walls:
                        open_ |= bit
            open_ |= entries[i]
            neighbours.append(tuple(nb))
            passages.append(open_)
            wall_sides.append(15 & ~open_)
        contents = [""] * n
        letters = [""] * n
        for i in loot:
            contents[i] = "loot"
        contents[dragon] = "dragon"
        for kind, pairs in (("weapon", weapons), ("monster", monsters)):
            for letter, i in pairs.items():
                contents[i], letters[i] = kind, letter
        return DungeonMap(name=name, reconstructed=rec, columns=self.cols, rows=self.rows,
                          passages=tuple(passages), entries=tuple(entries), walls=tuple(wall_sides),
                          neighbours=tuple(neighbours), contents=tuple(contents), letters=tuple(letters),
                          loot=tuple(loot), dragon=dragon, weapons=weapons, monsters=monsters,
                          spec=d), self.problems

    def _size(self, key: str, most: int) -> int:
        v = self.d.get(key)
        if isinstance(v, bool) or not isinstance(v, int):
            self.bad(key, "missing" if v is None else f"{v!r} is not a whole number")
            return 6
        if not 2 <= v <= most:
            self.bad(key, f"{v} is not between 2 and {most}")
            return max(2, min(v, most))
        return v

    def _room(self, v: Any, where: str, what: str = "") -> int | None:
        i = room_index(v, self.cols, self.rows)
        if i is None:
            last = f"{chr(64 + self.cols)}{self.rows}"
            self.bad(where, "missing" if v is None else
                     f"{v!r} is not a room of this {self.cols}x{self.rows} map (A1 to {last})")
            return None
        if what:
            if i in self.taken:
                self.bad(where, f"{v} already holds {self.taken[i]}: one thing per room")
            else:
                self.taken[i] = what
        return i

    def _entryways(self, v: Any) -> list[int]:
        entries = [0] * (self.cols * self.rows)
        if not isinstance(v, list):
            self.bad("entryways", "missing" if v is None else "is not a list of {\"room\": ..., \"side\": ...}")
            return entries
        for k, e in enumerate(v):
            where = f"entryways[{k}]"
            if not isinstance(e, dict) or set(e) != {"room", "side"}:
                self.bad(where, f"{e!r} is not {{\"room\": \"C1\", \"side\": \"N\"}}")
                continue
            i = self._room(e["room"], where + ".room")
            side = e["side"]
            if not isinstance(side, str) or side not in BIT:
                self.bad(where + ".side", f"{side!r} is not a side (N, E, S or W)")
                continue
            if i is None:
                continue
            r, c = divmod(i, self.cols)
            dr, dc = STEP[BIT[side]]
            if 0 <= r + dr < self.rows and 0 <= c + dc < self.cols:
                self.bad(where, f"the {side} side of {e['room']} is inside the dungeon: "
                                "an entryway is on the outside edge")
            elif entries[i] & BIT[side]:
                self.bad(where, f"the {side} side of {e['room']} is already an entryway")
            else:
                entries[i] |= BIT[side]
        if len(v) != ENTRYWAYS:
            self.bad("entryways", f"{len(v)} entryways; the dungeon has {ENTRYWAYS}")
        return entries

    def _walls(self, v: Any) -> set[tuple[int, int]]:
        """(room, side) for both rooms of every wall between two rooms."""
        out: set[tuple[int, int]] = set()
        if not isinstance(v, list):
            self.bad("walls", "missing" if v is None else "is not a list of [room, room] pairs")
            return out
        for k, w in enumerate(v):
            where = f"walls[{k}]"
            if not isinstance(w, list) or len(w) != 2:
                self.bad(where, f"{w!r} is not a pair of neighbouring rooms, e.g. [\"B2\", \"B3\"]")
                continue
            a, b = self._room(w[0], where + "[0]"), self._room(w[1], where + "[1]")
            if a is None or b is None:
                continue
            side = next((bit for bit, (dr, dc) in STEP.items()
                         if divmod(a, self.cols)[0] + dr == divmod(b, self.cols)[0]
                         and divmod(a, self.cols)[1] + dc == divmod(b, self.cols)[1]), None)
            if side is None:
                self.bad(where, f"{w[0]} and {w[1]} are not neighbouring rooms")
            elif (a, side) in out:
                self.bad(where, f"the wall between {w[0]} and {w[1]} is listed twice")
            else:
                out.add((a, side))
                out.add((b, OPPOSITE[side]))
        return out

    def _loot(self, v: Any) -> list[int]:
        if not isinstance(v, list):
            self.bad("loot", "missing" if v is None else "is not a list of rooms")
            return []
        out = [i for k, x in enumerate(v) if (i := self._room(x, f"loot[{k}]", "Loot")) is not None]
        if len(v) != LOOT:
            self.bad("loot", f"{len(v)} Loot rooms; the dungeon has {LOOT}")
        return out

    def _pairs(self, v: Any, where: str, word: str) -> dict[str, int]:
        if not isinstance(v, dict):
            self.bad(where, "missing" if v is None else f"is not an object of letter -> room ({PAIRS[0]}-{PAIRS[-1]})")
            return {}
        out = {}
        for letter, x in v.items():
            if letter not in PAIRS:
                self.bad(f"{where}.{letter}", f"{letter!r} is not a pair letter ({', '.join(PAIRS)})")
                continue
            i = self._room(x, f"{where}.{letter}", f"{word} {letter}")
            if i is not None:
                out[letter] = i
        missing = [p for p in PAIRS if p not in v]
        if missing:
            self.bad(where, f"no {word} {', '.join(missing)}: the dungeon has one for each of {', '.join(PAIRS)}")
        return out
