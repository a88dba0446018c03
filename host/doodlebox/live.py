"""Prints a console's events as a person reads them at the table (docs/protocol.md, version 3).
Events reach it checked by the link's schema; an odd field still prints, never raises."""
from __future__ import annotations

WHY = {
    # refuse.why: the rule ids of the PC's engine (rules/dice/sentences.py)
    "taken": "die already taken", "six_tree": "no tree left for a white 6", "park_tree": "no tree left for a park",
    "park_barrel": "no barrel left for a breaker", "drawn": "nothing can be drawn there",
    "houses": "every house there is crossed", "third_time": "the sky scraper has all its floors",
    "must_take": "a die can still be used", "no_tree": "no tree left to pass",
    # tree.why
    "forced": "no die fits", "pass": "passes",
    # end.why
    "trees": "a player crossed out the last tree", "hotel": "the top hotel value is circled",
    "shop": "the top shop value is circled", "skyscraper": "the 18 of the sky scraper track is circled",
    "menu": "ended on the console",
}


def describe(event: dict) -> str:
    """One line for a person; an event with odd fields is printed as it is (never an exception:
    the printout of `doodlebox log` must not stop)."""
    try:
        return _describe(event)
    except Exception:
        return f"  {event!r}"[:200]


def _describe(event: dict) -> str:
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
        via = event.get("via")
        park = f" via the park at row {via[0]}, column {via[1]}" if isinstance(via, list) and len(via) == 2 else ""
        what = f" {event['pc']}" if "pc" in event else (" a floor" if event.get("fl") else " a house crossed")
        circled = f", circles {event['v']}" if event.get("v") else ""
        where = f"row {event.get('row')}, column {event.get('col')}"
        return f"  {p} takes die {event.get('i')} ({event.get('d')}){park} -> {where}:{what}{circled}"
    if k == "tree":
        return f"  {p} crosses out a tree: {WHY.get(str(event.get('why')), event.get('why'))}"
    if k == "refuse":
        return f"  {p} refused: {WHY.get(str(event.get('why')), event.get('why'))}"
    if k == "end":
        totals = event.get("p")
        shown = (": the console's scores " + ", ".join(f"P{i + 1} {t}" for i, t in enumerate(totals))
                 if isinstance(totals, list) else "")
        return f"game over after round {event.get('r')}: {WHY.get(str(event.get('why')), event.get('why'))}{shown}"
    if k == "resume":
        of = event["of"]
        return (f"game {event.get('g')}: game {of[1]} of boot {of[0]} resumed after a power cut, in round "
                f"{event.get('r')} (from its event {event.get('at')})")
    return f"  {event}"
