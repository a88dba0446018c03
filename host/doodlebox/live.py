"""Prints a console's events as a person reads them at the table."""
from __future__ import annotations

WHY = {
    "taken": "die already taken", "nosquare": "no square to draw in", "canplay": "a die could be used",
    "square": "cannot draw in that square", "notree": "no tree left for a white 6",
    "forced": "no die fits", "pass": "passes (More control)", "trees": "a player crossed out the last tree",
    "menu": "ended on the console",
}


def describe(event: dict) -> str:
    k = event.get("k")
    p = f"P{event.get('p', 0) + 1}" if isinstance(event.get("p"), int) else "?"
    if k == "game":
        players = f"{event.get('n')} player(s) {event.get('var') or ''}".rstrip()
        return f"game {event.get('g')}: {event.get('ed')} for {players}"
    if k == "start":
        return f"  start road, column {event.get('col')}: die {event.get('d')}"
    if k == "roll":
        return (f"round {event.get('r')}: P{event.get('sp', 0) + 1} rolls column {event.get('c')}, "
                f"white {' '.join(str(w) for w in event.get('w', []))}")
    if k == "claim":
        six = " (crosses a tree)" if event.get("d") == 6 else ""
        where = f"row {event.get('row')}, column {event.get('col')}"
        return f"  {p} takes die {event.get('i')} ({event.get('d')}) -> {where}{six}"
    if k == "tree":
        return f"  {p} crosses out a tree: {WHY.get(str(event.get('why')), event.get('why'))}"
    if k == "refuse":
        return f"  {p} refused: {WHY.get(str(event.get('why')), event.get('why'))}"
    if k == "end":
        return f"game over after round {event.get('r')}: {WHY.get(str(event.get('why')), event.get('why'))}"
    return f"  {event}"
