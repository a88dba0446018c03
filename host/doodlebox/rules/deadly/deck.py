"""The 36 cards of Deadly Doodles as data (docs/deadly-doodles.md): load, check (every problem
with its place), and the seeded deal: four cards a round, two more for every Draw 2 (also for a
Draw 2 among the extra cards), seven rounds, the Traps removed for a solo game.

Cards have ids 1..36, numbered in the order the deck file lists its kinds. A path segment's
kind has the sides it opens on as printed; the player may rotate it (ruling D6).
"""
from __future__ import annotations

import functools
import json
import random
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from doodlebox import paths
from doodlebox.rules.common import ProblemsError
from doodlebox.rules.deadly.maps import BIT, sides_mask, sides_text

FORMAT = "doodlebox-deadly-deck/1"
DEFAULT_FILE = "deadly-deck.json"
TRAP, DRAW2 = "trap", "draw 2"
CARDS, TRAPS, DRAW2S = 36, 2, 2   # "36 cards", "remove the two Trap cards", "both Draw 2 cards"
ROUNDS, REVEAL, EXTRA = 7, 4, 2   # seven rounds; reveal four; a Draw 2 reveals two more


class DeckError(ProblemsError):
    """A deck that cannot be used; `problems` lists every (place, what) found."""


def kind_key(name: str) -> str:
    """A kind's name as the deck writes it: lower case, single spaces ("Dead-End" -> "dead end")."""
    return " ".join(name.lower().replace("-", " ").replace("_", " ").split())


def rotations(mask: int) -> tuple[int, ...]:
    """The distinct sides a segment can open on when turned a quarter at a time."""
    out: list[int] = []
    for _ in range(4):
        if mask not in out:
            out.append(mask)
        mask = ((mask << 1) | (mask >> 3)) & 15
    return tuple(out)


@dataclass(frozen=True)
class Deck:
    name: str
    reconstructed: str
    kinds: tuple[str, ...]            # in file order
    kind_of: tuple[str, ...]          # by card id; kind_of[0] is ""
    shapes: dict[str, int]            # segment kind -> the sides it opens on, as printed
    turns: dict[str, tuple[int, ...]]  # segment kind -> every orientation
    counts: dict[str, int]
    spec: Any = None                  # what a record says for this deck: None (the default) or the object

    @property
    def ids(self) -> range:
        return range(1, len(self.kind_of))

    def cards(self, solo: bool) -> list[int]:
        """Every card id in the deck; without the Traps for a solo game."""
        return [c for c in self.ids if not (solo and self.kind_of[c] == TRAP)]

    def is_segment(self, card: int) -> bool:
        return self.kind_of[card] in self.shapes

    def label(self, card: int) -> str:
        """"card 12 (corner)"."""
        return f"card {card} ({self.kind_of[card]})"

    def first(self, kind: str, among) -> int | None:
        """The first card id of `kind` in `among` (ids), or None."""
        return next((c for c in among if self.kind_of[c] == kind), None)

    def shape_text(self, kind: str) -> str:
        """How a kind opens, for messages: "opens on 2 opposite sides (N S or E W)"."""
        turns = self.turns[kind]
        n = bin(turns[0]).count("1")
        if n == 2:
            how = "2 opposite sides" if turns[0] in (5, 10) else "2 sides next to each other"
        else:
            how = f"{n} side{'s' if n != 1 else ''}"
        return f"a {kind} opens on {how} ({' or '.join(' '.join(sides_text(m)) for m in turns)})"


def load(spec: Any = None, source: str | None = None) -> Deck:
    """The deck: the default one (spec None or "default"), a file, or a parsed object."""
    if isinstance(spec, dict):
        return replace(parse(spec, source or "deck"), spec=spec)
    if spec in (None, "default") and source is None:
        return _default()
    path = paths.layouts() / DEFAULT_FILE if spec in (None, "default") else Path(str(spec))
    try:
        data = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError) as exc:
        raise DeckError(str(path), [("file", f"cannot be read ({getattr(exc, 'strerror', None) or exc})")]) from None
    except json.JSONDecodeError as exc:
        raise DeckError(str(path), [("file", f"not JSON (line {exc.lineno}, column {exc.colno}): {exc.msg}")]) from None
    return parse(data, source or str(path))


@functools.cache
def _default() -> Deck:
    return load(None, str(paths.layouts() / DEFAULT_FILE))


def check(data: Any) -> list[tuple[str, str]]:
    """Every problem in a parsed deck file, as (place, what); [] when it is usable."""
    return _parse(data)[1]


def parse(data: Any, source: str = "deck") -> Deck:
    deck, problems = _parse(data)
    if problems:
        raise DeckError(source, problems)
    assert deck is not None
    return deck


def _parse(d: Any) -> tuple[Deck | None, list[tuple[str, str]]]:
    problems: list[tuple[str, str]] = []
    bad = lambda where, what: problems.append((where, what))  # noqa: E731
    if not isinstance(d, dict):
        return None, [("deck", "is not a JSON object")]
    if d.get("format") != FORMAT:
        bad("format", f"{d.get('format')!r} is not {FORMAT!r}")
    known = ("format", "name", "reconstructed", "cards")
    for k in d:
        if k not in known:
            bad(k, f"unknown field (known: {', '.join(known)})")
    name = d.get("name", "a deck of your own")
    rec = d.get("reconstructed", "")
    for key, v in (("name", name), ("reconstructed", rec)):
        if not isinstance(v, str):
            bad(key, f"{v!r} is not text")
    entries = d.get("cards")
    if not isinstance(entries, list):
        bad("cards", "missing" if entries is None else "is not a list of {\"kind\", \"count\", \"ends\"}")
        return None, problems
    kinds: list[str] = []
    kind_of = [""]
    shapes: dict[str, int] = {}
    counts: dict[str, int] = {}
    for k, e in enumerate(entries):
        where = f"cards[{k}]"
        if not isinstance(e, dict):
            bad(where, "is not an object")
            continue
        for f in e:
            if f not in ("kind", "count", "ends"):
                bad(f"{where}.{f}", "unknown field (known: kind, count, ends)")
        kind = e.get("kind")
        if not isinstance(kind, str) or not kind_key(kind):
            bad(where + ".kind", "missing" if kind is None else f"{kind!r} is not a name")
            continue
        kind = kind_key(kind)
        if kind in counts:
            bad(where + ".kind", f"{kind!r} is listed twice")
            continue
        count = e.get("count")
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            bad(where + ".count", f"{str(count)[:24]!r} is not a number of cards (1 or more)")
            continue
        if count > CARDS:          # refused before a card is made: a deck of 10**9 would be built
            bad(where + ".count", f"{str(count)[:24]} cards of one kind; the whole deck has {CARDS}")
            continue
        ends = e.get("ends")
        if kind in (TRAP, DRAW2):
            if ends is not None:
                bad(where + ".ends", f"a {kind} card is not a path segment: it has no ends")
        elif (not isinstance(ends, list) or not 1 <= len(ends) <= 4 or not all(x in BIT for x in ends)
              or len(set(ends)) != len(ends)):
            bad(where + ".ends", f"{ends!r} is not a list of 1 to 4 different sides (N, E, S, W)")
        else:
            shape = sides_mask("".join(ends))
            same = next((o for o, m in shapes.items() if shape in rotations(m)), None)
            if same:
                bad(where + ".ends", f"a {kind} is a {same} turned: one kind per shape")
            shapes[kind] = shape
        kinds.append(kind)
        counts[kind] = count
        kind_of.extend([kind] * count)
    total = len(kind_of) - 1
    if total != CARDS:
        bad("cards", f"{total} cards; the game has {CARDS}")
    for kind, want in ((TRAP, TRAPS), (DRAW2, DRAW2S)):
        if counts.get(kind, 0) != want:
            bad("cards", f"{counts.get(kind, 0)} {kind} cards; the game has {want}")
    if not shapes:
        bad("cards", "no path segments")
    if problems:
        return None, problems
    return Deck(name=name, reconstructed=rec, kinds=tuple(kinds), kind_of=tuple(kind_of), shapes=shapes,
                turns={k: rotations(m) for k, m in shapes.items()}, counts=counts), []


def reveal_round(deck: Deck, cards: list[int], start: int) -> list[int]:
    """The cards revealed in one round from cards[start:]: four, and two more for every Draw 2
    among them (a Draw 2 among the extra cards reveals two more again)."""
    need = REVEAL
    out: list[int] = []
    while len(out) < need and start + len(out) < len(cards):
        c = cards[start + len(out)]
        out.append(c)
        if deck.kind_of[c] == DRAW2:
            need += EXTRA
    return out


def deal(deck: Deck, seed: int, players: int, rounds: int = ROUNDS) -> list[list[int]]:
    """A seeded shuffle and the cards revealed in each round, Draw 2s included, in order."""
    cards = deck.cards(solo=players == 1)
    random.Random(seed).shuffle(cards)
    out: list[list[int]] = []
    pos = 0
    for _ in range(rounds):
        rd = reveal_round(deck, cards, pos)
        pos += len(rd)
        out.append(rd)
    return out
