"""What the records and engines of every game share: the errors that list problems with their
places, a violation and a replay, a score tally, a history that clones share, reading a
record's JSON and the checks a record reader makes, and violations for a person."""
from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from doodlebox.errors import InputError

FORMAT = "doodlebox-record/1"   # every game's records (docs/records.md)


class ProblemsError(InputError, ValueError):
    """A data file (sheet, map, deck) that cannot be used; `problems` lists every
    (place, what) found, the message names the first."""

    def __init__(self, source: str, problems: list[tuple[str, str]]):
        self.source = source
        self.problems = problems
        first = problems[0]
        more = f" (and {len(problems) - 1} more: doodlebox layout check)" if len(problems) > 1 else ""
        super().__init__(f"{source}: {first[0]}: {first[1]}{more}")


class RecordError(InputError, ValueError):
    """A record that cannot be read: one line, "source: place: what"."""


@dataclass
class Violation:
    round: int
    player: int           # -1 for the whole game (e.g. rounds after the end)
    turn: int             # 1-based within the round, 0 for the round itself
    place: str
    action: str
    rule: str
    reason: str
    sentence: str
    legal: list[str] = field(default_factory=list)

    def as_dict(self) -> dict:
        return dict(self.__dict__)


@dataclass
class Replay:
    """A record played through its game's engine (doodlebox.rules.games)."""
    record: Any
    state: Any
    violations: list[Violation]
    finished: bool


@dataclass
class Tally:
    """A player's score sheet: the scored items in sheet order, and their total."""
    player: int
    items: list[tuple[str, int]] = field(default_factory=list)  # (what, points)
    total: int = 0

    def add(self, what: str, points: int) -> None:
        self.items.append((what, points))
        self.total += points


class History:
    """The actions of a game in order, as a linked list: a clone shares it and appending is O(1)."""

    __slots__ = ("_last",)

    def __init__(self) -> None:
        self._last: tuple | None = None

    def add(self, who: int, action: Any) -> History:
        h = History()
        h._last = (self._last, (who, action))
        return h

    def items(self) -> list[tuple[int, Any]]:
        out = []
        node = self._last
        while node is not None:
            node, item = node
            out.append(item)
        out.reverse()
        return out


class Reader:
    """The checks every record reader makes; each failure is a RecordError with the place."""

    def __init__(self, source: str):
        self.source = source

    def bad(self, where: str, what: str) -> RecordError:
        return RecordError(f"{self.source}: {where}: {what}")

    def whole(self, v: Any, where: str, low: int | None = None, high: int | None = None) -> int:
        if isinstance(v, bool) or not isinstance(v, int):
            raise self.bad(where, f"{v!r} is not a whole number")
        if low is not None and high is not None and not low <= v <= high:
            raise self.bad(where, f"{v} is not between {low} and {high}")
        return v

    def objects(self, v: Any, where: str) -> Iterator[tuple[str, dict]]:
        """(place, object) for each item of a list that must hold objects."""
        if not isinstance(v, list):
            raise self.bad(where, "is not a list")
        for i, item in enumerate(v):
            if not isinstance(item, dict):
                raise self.bad(f"{where}[{i}]", "is not an object")
            yield f"{where}[{i}]", item


def load_json(path: str | Path) -> Any:
    """The JSON in a record file; RecordError (one line) when it cannot be read."""
    path = Path(path)
    try:
        text = path.read_text()
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordError(f"{path}: cannot be read ({getattr(exc, 'strerror', None) or exc})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        short = exc.pos >= len(text.rstrip()) or exc.msg.startswith("Unterminated string")
        raise RecordError(f"{path}: not JSON (line {exc.lineno}, column {exc.colno}): {exc.msg}"
                          + (" (the file looks cut short)" if short else "")) from None
    return data


def violations_text(rp: Replay) -> str:
    """Every violation of a replay of any game (doodlebox.rules.games), for a person."""
    out = []
    for v in rp.violations:
        out.append(f"round {v.round}, {_who(rp, v.player)}, turn {v.turn} ({v.place}): {v.action}")
        out.append(f"  refused: {v.reason}  [rule {v.rule}]")
        if v.sentence:
            out.append(f"  rulebook: \"{v.sentence}\"")
        if v.legal:
            shown = v.legal[:6]
            more = f" (and {len(v.legal) - 6} more)" if len(v.legal) > 6 else ""
            out.append("  legal instead: " + "; ".join(shown) + more)
    return "\n".join(out)


def _who(rp: Replay, p: int) -> str:
    return f"P{p + 1} {rp.record.players[p]}" if p >= 0 else "the game"
