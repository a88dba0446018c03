"""How a game ended and who won it: the one answer that `validate`, `score`, `show`, `games`,
`stats`, the CSV and the web page all give (ruling G1, docs/rulings.md).

A replayed record (rules/games.py) is one of three:
- finished: its rules ended it (trees, tracks, rounds...). The winners are the rules' winners
  (a solo dice game's player is marked in its table; the stored games' views show a solo
  game's rank instead: history/game_records.py); a solo game has its rank and achievements.
- ended early: the table stopped it before its rules did (MENU on the console; a record that
  says "ended": "early"). It is a finished record, scored as it stands, with no winner, no
  rank and no achievement.
- not finished: neither (a game still being played, or a record cut short).
A record that says "ended": "early" whose rules had already ended it is finished.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

FINISHED = "finished"
EARLY = "ended early"
NOT_FINISHED = "not finished"
STATUSES = (FINISHED, EARLY, NOT_FINISHED)

FIELD = "ended"          # the record's field (docs/records.md) ...
FIELD_EARLY = "early"    # ... and its one value
EARLY_REASONS = ("menu",)  # the console's `end.why` for a game the table stopped (docs/protocol.md)


@dataclass(frozen=True)
class Ending:
    """`status`: FINISHED, EARLY or NOT_FINISHED; `winners`: the winners' seats (0-based) as the
    rules give them, only in a finished game (none in a co-operative game)."""

    status: str
    winners: tuple[int, ...] = ()

    @property
    def finished(self) -> bool:
        """Ended by its rules: winners, ranks and achievements count."""
        return self.status == FINISHED

    @property
    def early(self) -> bool:
        return self.status == EARLY

    @property
    def over(self) -> bool:
        """A finished record: ended by its rules or early."""
        return self.status != NOT_FINISHED

    def heading(self) -> str:
        """What a table's heading adds: "", " (ended early: no winner)", " (not finished)"."""
        return {FINISHED: "", EARLY: " (ended early: no winner)"}.get(self.status, " (not finished)")


def ending(rp: Any) -> Ending:
    """How the replay `rp` (rules/common.Replay of any game) ended, and who won."""
    if rp.finished:
        return Ending(FINISHED, tuple(rp.state.result().winners))
    if getattr(rp.record, "ended_early", False):
        return Ending(EARLY)
    return Ending(NOT_FINISHED)


def read_ended(data: dict, bad: Any) -> bool:
    """The record's "ended" field: True for "early", False when absent; `bad(place, what)` makes
    the RecordError for any other value."""
    if FIELD not in data:
        return False
    if data[FIELD] != FIELD_EARLY:
        raise bad(FIELD, f"{data[FIELD]!r} is not {FIELD_EARLY!r} (the one way a record says how it ended: "
                         "the table stopped the game before its rules ended it)")
    return True


def seat(players: list[str], p: int) -> str:
    """A seat as a person reads it: "P2 Ann", or "P2" when that is its name already."""
    if not 0 <= p < len(players):
        return "the game"
    own = f"P{p + 1}"
    return own if players[p] == own else f"{own} {players[p]}"
