"""What a player (or chance) does in a dice edition: the Action the engine checks and applies,
as records, the console's claims and the history name it (docs/records.md)."""
from __future__ import annotations

from typing import NamedTuple


class Action(NamedTuple):
    """What a player does on their turn (or what chance does: `start`, `roll`).

    kind: "draw" (piece in a square), "house" (cross a house), "floor" (add a floor to a
    sky scraper), "pass" (take no die, cross a tree), "circle" (the value circled for the
    drawing just made, when more than one was free: ruling R10); chance: "start" (die =
    face), "roll" (die = column die, whites = white dice).
    `via` is the park (breaker) square the die pointed to, when the drawing went elsewhere.
    """
    kind: str
    die: int = 0
    row: int = 0
    col: int = 0
    piece: str = ""
    via: tuple[int, int] | None = None
    whites: tuple[int, ...] = ()
    value: int = 0

    def __str__(self) -> str:
        if self.kind == "pass":
            return "pass"
        if self.kind == "circle":
            return f"circle {self.value}"
        if self.kind == "start":
            return f"start road face {self.die}"
        if self.kind == "roll":
            return f"roll column {self.die}, white {' '.join(map(str, self.whites))}"
        where = f"die {self.die}" + (f" via park {list(self.via)}" if self.via else "") + f" at {[self.row, self.col]}"
        if self.kind == "draw":
            return f"{where} {self.piece}"
        return f"{where} ({self.kind})"


def draw(die: int, row: int, col: int, piece: str, via: tuple[int, int] | None = None) -> Action:
    return Action("draw", die, row, col, piece, via)


def circle(value: int) -> Action:
    return Action("circle", value=value)


PASS = Action("pass")

