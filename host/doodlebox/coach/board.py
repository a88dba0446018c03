"""What the coach reads off a dice sheet, made once per edition: the squares by kind, the groups
(taxis, buses, ships) and their points, and a drawing's worth *before* it is drawn (the road it
would join, the houses, the parks, the group points it would add). Read-only: the engine's
sheets are never changed here."""
from __future__ import annotations

import itertools
from dataclasses import dataclass

from doodlebox.rules.dice import roads
from doodlebox.rules.dice.engine import Game, Sheet

OPPOSITE = roads.OPPOSITE
SIDES = roads.SIDES
SCORING = ("hotel", "shop", "skyscraper")


@dataclass(frozen=True)
class Board:
    """One edition's grid as the coach sees it."""
    n: int
    kind: tuple[str, ...]
    nbs: tuple[tuple[tuple[int, int], ...], ...]
    group: tuple[int, ...]            # the group each square belongs to (-1: none)
    points: tuple[int, ...]           # its points when connected to another of its group
    road_squares: int                 # squares that take a road (not house squares)
    scoring: dict[str, tuple[int, ...]]   # track -> its squares
    shops: int                        # shop squares on the sheet

    def road_through(self, pieces: list[int], i: int, bits: int) -> tuple[list[int], int]:
        """(the squares of the road square i would be on with the piece `bits`, sides joined):
        the engine's own road (rules/dice/roads.py), with the piece put in for the moment."""
        joined = sum(1 for side, j in self.nbs[i] if bits & side and pieces[j] & OPPOSITE[side])
        if not bits:
            return [i], 0
        was = pieces[i]
        pieces[i] = bits
        try:
            return roads.road(pieces, self.nbs, i), joined
        finally:
            pieces[i] = was

    def worth(self, sheet: Sheet, i: int, road: list[int]) -> int:
        """What a drawing in scoring square i on `road` is worth (engine._score_drawing's rule)."""
        kind = self.kind[i]
        if kind == "hotel":
            return len(road)
        if kind == "shop":
            return sum(sheet.crossed[j] for j in road if self.kind[j] == "house")
        return sheet.floors[i] * sum(1 for j in road if self.kind[j] == "park")

    def group_gain(self, pieces: list[int], i: int, road: list[int]) -> int:
        """The group points (taxis...) a drawing at i joining `road` adds: members of one group on
        the road that were not yet connected to another of their group."""
        group = self.group
        counts: dict[int, int] = {}
        for j in road:
            gj = group[j]
            if gj >= 0 and (pieces[j] or j == i):
                counts[gj] = counts.get(gj, 0) + 1
        if not counts or max(counts.values()) < 2:
            return 0
        gain = 0
        for j in road:
            gj = group[j]
            if gj < 0 or counts.get(gj, 0) < 2 or not (pieces[j] or j == i):
                continue
            if j == i or not self._connected(pieces, j):
                gain += self.points[j]
        return gain

    def _connected(self, pieces: list[int], j: int) -> bool:
        own = roads.road(pieces, self.nbs, j)
        return any(k != j and self.group[k] == self.group[j] and pieces[k] for k in own)


_BOARDS: dict[int, tuple[Game, Board]] = {}


def board(game: Game) -> Board:
    """The Board of a game's layout (made once per layout)."""
    key = id(game.layout)
    hit = _BOARDS.get(key)
    if hit is not None and hit[0].layout is game.layout:
        return hit[1]
    lay = game.layout
    kinds = tuple(game.kind)
    group = [-1] * len(kinds)
    points = [0] * len(kinds)
    for gi, grp in enumerate(lay.groups):
        for i, k in enumerate(kinds):
            if k in grp.kinds:
                group[i] = gi
                points[i] = grp.points[k]
    b = Board(game.n, kinds, game.nbs, tuple(group), tuple(points),
              sum(1 for k in kinds if k != "house"),
              {t: tuple(i for i, k in enumerate(kinds) if k == t) for t in lay.tracks},
              sum(1 for k in kinds if k == "shop"))
    _BOARDS[key] = (game, b)
    return b


# -- templates: the sheet's roads as one long road ---------------------------------------------
MISMATCHES = 7      # how many drawn squares off a template are still counted (levels 0..6)


class Templates:
    """Every Hamiltonian path of an n x n grid (one road through all squares; 4,324 for 5x5) as
    the pieces it needs, and per (square, piece) the set of paths that piece agrees with, as the
    bits of a Python int. A sheet's *level* is the fewest drawn squares off any path (0: one road
    through every square may still be drawn); a piece that raises it breaks the sheet's best
    long roads. Made once per grid size (about 0.5 s for 5x5)."""

    def __init__(self, n: int):
        nbs = roads.neighbours(n)
        full = n * n
        found: set[tuple[int, ...]] = set()
        order: list[int] = []
        seen = [False] * full

        def walk(i: int, depth: int) -> None:
            if depth == full:
                t = tuple(order)
                found.add(t if t[0] < t[-1] else t[::-1])
                return
            for _, j in nbs[i]:
                if not seen[j]:
                    seen[j] = True
                    order.append(j)
                    walk(j, depth + 1)
                    seen[j] = False
                    order.pop()

        for s in range(full):
            seen[s] = True
            order.append(s)
            walk(s, 1)
            seen[s] = False
            order.pop()
        side = {(i, j): s for i in range(full) for s, j in nbs[i]}
        needs = []
        for path in sorted(found):
            need = [0] * full
            for a, b in itertools.pairwise(path):
                need[a] |= side[(a, b)]
                need[b] |= side[(b, a)]
            needs.append(need)
        self.count = len(needs)
        self.all = (1 << self.count) - 1
        self.agree: list[dict[int, int]] = []
        for i in range(full):
            per = {}
            for bits in SIDES.values():
                m = 0
                for t, need in enumerate(needs):
                    if bits & need[i] == need[i]:     # an end of the path needs only one side
                        m |= 1 << t
                per[bits] = m
            self.agree.append(per)
        self._cache: dict[bytes, list[int]] = {}

    def levels(self, pieces: list[int]) -> list[int]:
        """[paths with exactly k drawn squares off them, for k = 0..MISMATCHES-1] (bitsets)."""
        key = bytes(pieces)
        out = self._cache.get(key)
        if out is None:
            out = [self.all] + [0] * (MISMATCHES - 1)
            every = self.all
            for i, bits in enumerate(pieces):
                if bits:
                    ok = self.agree[i][bits]
                    off = every ^ ok
                    for k in range(MISMATCHES - 1, 0, -1):
                        out[k] = (out[k] & ok) | (out[k - 1] & off)
                    out[0] &= ok
            if len(self._cache) > 4096:      # ~4 KB each
                self._cache.clear()
            self._cache[key] = out
        return out

    def after(self, levels: list[int], i: int, bits: int) -> tuple[int, int]:
        """(the level, the paths at that level) once `bits` is drawn in square i."""
        ok = self.agree[i][bits]
        off = self.all ^ ok
        prev = 0
        for k in range(MISMATCHES):
            x = (levels[k] & ok) | (prev & off)
            if x:
                return k, x.bit_count()
            prev = levels[k]
        return MISMATCHES, 1


_TEMPLATES: dict[int, Templates] = {}


def templates(n: int) -> Templates | None:
    """The Templates of an n x n grid, made on first use; None above 5x5 (6x6 has 229,348 paths:
    too many to make in a moment)."""
    if n > 5:
        return None
    t = _TEMPLATES.get(n)
    if t is None:
        t = _TEMPLATES[n] = Templates(n)
    return t
