"""The players at the table: each action of the PC's rules engine (dice editions) as the button
presses a person makes on the console (docs/console.md). What the console must then send is the
dice editions' translation (rules/dice/console.py, `claim`). `doodlebox demo`'s bot and
tests/table/test_console_agrees.py use it."""
from __future__ import annotations

from doodlebox.rules.dice.engine import Action, State


def usable_squares(state: State, die: int) -> list[tuple[int, int]]:
    """The squares white die `die` lets the current player draw in, as the console offers them."""
    return sorted({(a.row, a.col) for a in state.legal_actions() if a.kind != "pass" and a.die == die})


def presses(state: State, action: Action) -> list[str]:
    """The buttons for `action` in `state` (the state before it), in order."""
    kind = action.kind
    if kind in ("start", "roll"):
        return ["ROLL"]
    if kind == "pass":
        return ["PASS"]
    if kind == "circle":
        values = [a.value for a in state.legal_actions()]   # highest first, as the panel shows them
        return ["PASS"] * values.index(action.value) + ["ROLL"]
    out = [f"D{action.die}"]
    usable = usable_squares(state, action.die)
    if len(usable) > 1:
        rows = {r for r, _ in usable}
        if len(rows) == 1:
            out.append(f"D{action.col}")
        else:
            out.append(f"D{action.row}")
            if sum(1 for r, _ in usable if r == action.row) > 1:
                out.append(f"D{action.col}")
    if kind == "floor":
        out.append("D0")
    elif kind == "draw":
        out.append(f"D{face(state, action.piece)}")
    return out


def face(state: State, piece: str) -> int:
    """The die face the sheet's legend prints for a piece."""
    legend = state.game.layout.legend
    return next(f for f, p in legend.items() if p == piece)
