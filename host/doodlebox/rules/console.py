"""What each game's translation of the console's events shares (rules/<game>/console.py): the
event being read (`ConsoleEvent`: its fields taken as numbers and words, a refusal naming the
game and the event in one line), `ConsoleLogError`, and `ConsoleRecord`, what a game's record
built from its events offers history/console_record.py (docs/records.md, docs/deadly-doodles.md and
docs/doodle-puzzle.md, "From the console's log")."""
from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, ClassVar, Protocol

from doodlebox.errors import InputError
from doodlebox.rules.common import Replay
from doodlebox.rules.events import Events


class ConsoleLogError(InputError):
    """A game whose events cannot make a record: "game 3 (console c0ffee boot 2): event 17
    (claim): no roll before it"."""


class ConsoleEvent:
    """One stored event, and how to refuse it in one line naming the game and the event."""

    def __init__(self, where: str, seq: int, kind: str, e: dict):
        self.where, self.seq, self.kind, self.e = where, seq, kind, e

    def bad(self, what: str) -> ConsoleLogError:
        return ConsoleLogError(f"{self.where}: {what}")

    def num(self, name: str, low: int, high: int) -> int:
        v = self.e.get(name)
        if isinstance(v, bool) or not isinstance(v, int):
            raise self.bad(f"no {name!r}" if v is None else f"{name!r} is {v!r}, not a whole number")
        if not low <= v <= high:
            raise self.bad(f"{name!r} is {v}, not {low}..{high}")
        return v

    def word(self, name: str, words: tuple[str, ...]) -> str:
        v = self.e.get(name)
        if v not in words:
            raise self.bad(f"no {name!r}" if v is None
                           else f"{name!r} is {v!r}, not one of {', '.join(repr(w) for w in words)}")
        return v

    def ints(self, name: str, count: tuple[int, int], low: int, high: int) -> list[int]:
        v = self.e.get(name)
        if (not isinstance(v, list) or not count[0] <= len(v) <= count[1]
                or not all(type(x) is int and low <= x <= high for x in v)):
            size = f"{count[0]}" if count[0] == count[1] else f"{count[0]} to {count[1]}"
            raise self.bad(f"no {name!r}" if v is None else f"{name!r} is {v!r}, not {size} numbers {low}..{high}")
        return list(v)


def players(n: int) -> list[str]:
    """A record's players as the console knows them: "P1".."Pn"."""
    return [f"P{i + 1}" for i in range(n)]


class Stream(Protocol):
    """A game's record as it grows, replayed as it grows (rules/<game>/record.py's Stream)."""

    def update(self, data: dict) -> Replay: ...


class ConsoleRecord(ABC):
    """One game's record built from the console's events: begun with its `game` event, each of
    its own events (EVENTS.kinds) taken in order (`take`: ConsoleLogError when one cannot be part
    of the record); `so_far()` the record as its Stream replays it while the game is played,
    `record()` the record written when it is exported.

    `sheet`: the sheet of the table's own the game was played on (its `game` event's `sx`, found
    by history/console_record.py and of that hash: a dice edition's layout or a Deadly Doodles map
    side, as parsed JSON), None for the edition's default; the record then carries the whole
    sheet (a dice record's "layout", a Deadly Doodles record's "map"). `sheet_name` names it in
    what is said of it. Only a game whose EVENTS.sheets is true is given one."""
    EVENTS: ClassVar[Events]

    @abstractmethod
    def __init__(self, ev: ConsoleEvent, sheet: Any = None, sheet_name: str = ""): ...

    @abstractmethod
    def take(self, ev: ConsoleEvent) -> None: ...

    @abstractmethod
    def so_far(self) -> dict: ...

    def record(self, source: str) -> dict:
        return self.so_far()

    @abstractmethod
    def stream(self, label: str) -> Stream:
        """A Stream of this game's record, begun with the record so far."""
