"""A console's stream of events (one boot of one console) as the store keeps it: which numbers are
stored, which are recorded as gaps, and the frontier (docs/stored-games.md, "Sync"). Pure
arithmetic on numbers and ranges; store/database.py reads and writes the rows.

An event's place is its identity (console, boot, number). For one stream:
- S, the numbers stored (the `events` rows);
- G, the numbers recorded as gaps: not arrived, and no longer held by the console (the `gaps`
  rows, as inclusive ranges);
- F, the frontier: the lowest number in neither. Every number below it is stored or a gap, so
  F - 1 is what the console may be acknowledged for.

S and G never share a number. S only grows. A number put into S leaves G (a gap filled); a gap
recorded takes only numbers not in S. F is then moved past what S and G hold. Each of these is
a union of sets, so any order of the same puts and gaps ends in the same S, G and F."""
from __future__ import annotations

from collections.abc import Iterable

Range = tuple[int, int]       # first, last (inclusive)


def ranges_of(numbers: Iterable[int]) -> list[Range]:
    """Numbers as the fewest ranges, in order."""
    out: list[Range] = []
    for n in sorted(set(numbers)):
        if out and n == out[-1][1] + 1:
            out[-1] = (out[-1][0], n)
        else:
            out.append((n, n))
    return out


def merged(ranges: Iterable[Range]) -> list[Range]:
    """The same numbers as the fewest ranges, in order."""
    out: list[Range] = []
    for a, b in sorted(ranges):
        if out and a <= out[-1][1] + 1:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return out


def subtract(ranges: Iterable[Range], taken: Iterable[Range]) -> list[Range]:
    """The numbers of `ranges` that are in none of `taken`, as ranges in order."""
    cuts = merged(taken)
    out: list[Range] = []
    for a, b in merged(ranges):
        for x, y in cuts:
            if y < a or x > b:
                continue
            if x > a:
                out.append((a, x - 1))
            a = y + 1
            if a > b:
                break
        if a <= b:
            out.append((a, b))
    return out


def without(ranges: Iterable[Range], numbers: Iterable[int]) -> list[Range]:
    """`ranges` with `numbers` taken out (a range cut in two where a number falls inside it)."""
    return subtract(ranges, ranges_of(numbers))


def outside(first: int, last: int, stored: Iterable[int]) -> list[Range]:
    """The numbers first..last that are not in `stored`, as ranges (a gap recorded over numbers
    some of which are stored records only the others)."""
    return without([(first, last)] if first <= last else [], stored)


def covers(ranges: Iterable[Range], n: int) -> bool:
    return any(a <= n <= b for a, b in ranges)


def frontier(start: int, stored_from: Iterable[int], ranges: Iterable[Range]) -> int:
    """The lowest number from `start` on that is neither stored (`stored_from`: the stored
    numbers at or above `start`) nor in a gap."""
    held = set(stored_from)
    spans = sorted(ranges)
    f = start
    while True:
        if f in held:
            f += 1
            continue
        span = next(((a, b) for a, b in spans if a <= f <= b), None)
        if span is None:
            return f
        f = span[1] + 1
