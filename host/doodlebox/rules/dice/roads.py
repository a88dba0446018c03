"""Road pieces and roads: which squares one road joins (docs/layouts.md, Pieces)."""
from __future__ import annotations

import functools
from collections.abc import Sequence

N, E, S, W = 1, 2, 4, 8
SIDES = {"NS": N | S, "EW": E | W, "NE": N | E, "ES": E | S, "SW": S | W, "NW": N | W}
NAMES = {v: k for k, v in SIDES.items()}


@functools.cache
def neighbours(size: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """For each square index, ((side, other index), ...) for the squares next to it (made
    once per size: every game of an edition shares it)."""
    out = []
    for i in range(size * size):
        r, c = divmod(i, size)
        nb = []
        if r > 0:
            nb.append((N, i - size))
        if c < size - 1:
            nb.append((E, i + 1))
        if r < size - 1:
            nb.append((S, i + size))
        if c > 0:
            nb.append((W, i - 1))
        out.append(tuple(nb))
    return tuple(out)


OPPOSITE = {N: S, S: N, E: W, W: E}


def road(pieces: list[int], nbs: Sequence[tuple[tuple[int, int], ...]], start: int) -> list[int]:
    """The squares on the road through square `start` (itself included; [] if it has no piece).

    A road is open or a loop; its length is the number of squares (ruling R12)."""
    if not pieces[start]:
        return []
    seen = {start}
    stack = [start]
    while stack:
        i = stack.pop()
        p = pieces[i]
        for side, j in nbs[i]:
            if p & side and j not in seen and pieces[j] & OPPOSITE[side]:
                seen.add(j)
                stack.append(j)
    return sorted(seen)


def roads(pieces: list[int], nbs: Sequence[tuple[tuple[int, int], ...]]) -> list[list[int]]:
    """Every road on a sheet."""
    done: set[int] = set()
    out = []
    for i, p in enumerate(pieces):
        if p and i not in done:
            r = road(pieces, nbs, i)
            done.update(r)
            out.append(r)
    return out
