"""What the store hands out and what it says it did: one game's events (GameLog), an event
appended (Stored), a hello taken (Hello, with its Gaps)."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class GameLog:
    """One stored game and its events in the order the console numbered them: (seq, event).

    A game that resumes another (docs/protocol.md, `resume`) is one game: `events` are the
    earlier game's up to the resume's `at`, then this one's from its `resume`; `parts` says
    where each part came from: (boot, g, how many events), oldest first.

    `sheets`: the sheets of the table's own its `game` events name (`sx`) that the store holds,
    hash -> the sheet's data (parsed JSON; schema version 6): the store fills it where it makes a
    GameLog, and history/console_record.py makes the record on that sheet."""

    id: int
    uid: str
    boot: int
    g: int
    events: list[tuple[int, dict]]
    parts: tuple[tuple[int, int, int], ...] = ()
    state: str = "playing"
    sheets: Mapping[str, Any] = field(default_factory=dict)

    def label(self) -> str:
        """How a person finds it again: "game 3 (console c0ffee boot 2)" (`doodlebox games`)."""
        resumed = "".join(f", resumed from boot {b} game {g}" for b, g, _ in self.parts[:-1])
        return f"game {self.id} (console {self.uid} boot {self.boot}{resumed})"

    def upto(self, boot: int, seq: int) -> GameLog:
        """The game as it stood after event `seq` of `boot` (the events after it left out)."""
        keep = [k for k, ((b, _), (s, _)) in enumerate(zip(self.origins(), self.events))
                if b < boot or (b == boot and s <= seq)]
        if len(keep) == len(self.events):
            return self
        events = [self.events[k] for k in keep]
        parts = []
        left = len(events)
        for b, g, n in self.parts:
            parts.append((b, g, min(n, left)))
            left -= min(n, left)
        return GameLog(self.id, self.uid, self.boot, self.g, events, tuple(p for p in parts if p[2]), self.state,
                       self.sheets)

    def origins(self) -> list[tuple[int, int]]:
        """(boot, g) of each event."""
        if not self.parts:
            return [(self.boot, self.g)] * len(self.events)
        return [(b, g) for b, g, n in self.parts for _ in range(n)]


@dataclass(frozen=True)
class Stored:
    """What append() did to an event (store/placing.py): 'stored'; 'duplicate' (the same event is
    there); 'conflict' (another event is at its place: kept apart); 'held' (after a conflict of its
    boot in the same call: not stored); 'gap' (above the frontier: the link asks for it again).
    `ack` is the highest number the console may be acknowledged for."""

    status: str
    ack: int


@dataclass(frozen=True)
class Gap:
    """Events of a boot the console no longer holds and this store never got."""

    boot: int
    first: int
    last: int


@dataclass
class Hello:
    """What a hello told the store: gaps recorded, and boots the console numbers below what the
    store holds (its journal lost them, or another console has its id)."""

    gaps: list[Gap] = field(default_factory=list)
    behind: list[tuple[int, int, int]] = field(default_factory=list)   # (boot, console's next, store's next)

