"""One player's paper in a dice edition as the engine keeps it: the pieces drawn, houses crossed,
floors, trees and barrels, the values circled on the tracks and what each drawing scored
(Scored), and a drawing whose value is still being chosen (Pending, ruling R10)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple


@dataclass
class Scored:
    """One scored item on a sheet: what, where, the value circled (0: nothing was free)."""
    track: str
    at: tuple[int, int]
    worth: int            # what the drawing was worth (road length, houses, floors x parks)
    value: int            # the value circled; 0 when no value was available
    round: int
    bonus: int = 0        # first-player bonus circled with it
    houses: int = 0       # crossed houses on the road (shops)
    top: int = 0          # the highest value that could be circled (the default, R10)


class Pending(NamedTuple):
    """A drawing whose value is being chosen (phase CIRCLE): the player, the square, what it
    is worth, and the free values it reaches, lowest first."""
    player: int
    square: int
    worth: int
    houses: int
    free: tuple[int, ...]


@dataclass
class Sheet:
    """One player's paper."""
    pieces: list[int]                 # road piece per square (roads.SIDES bits), 0 if none
    crossed: list[int]                # houses crossed per square (pre-crossed included)
    floors: list[int]                 # floors per square (printed included)
    trees: int = 0                    # trees crossed out
    barrels: int = 0                  # barrels crossed out
    circled: dict[str, list[int]] = field(default_factory=dict)
    struck: dict[str, set[int]] = field(default_factory=dict)  # values crossed out for others' circles
    bonuses: list[int] = field(default_factory=list)
    struck_bonuses: set[int] = field(default_factory=set)
    scored: list[Scored] = field(default_factory=list)

    def copy(self) -> Sheet:
        return Sheet(self.pieces[:], self.crossed[:], self.floors[:], self.trees, self.barrels,
                     {k: v[:] for k, v in self.circled.items()}, {k: set(v) for k, v in self.struck.items()},
                     self.bonuses[:], set(self.struck_bonuses), self.scored[:])
