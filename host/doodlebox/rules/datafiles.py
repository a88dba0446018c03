"""Which data file a JSON object is, by its "format" (a dice sheet layout, a Deadly Doodles map
side or deck), and every problem in it with its place: what `doodlebox layout check` reports."""
from __future__ import annotations

from typing import Any

from doodlebox.rules.deadly import deck, maps
from doodlebox.rules.dice import layout

KINDS = {"doodlebox-deadly-map/1": "Deadly Doodles map", "doodlebox-deadly-deck/1": "Deadly Doodles deck"}


def check(data: Any) -> tuple[str, list[tuple[str, str]]]:
    """(what the file is, [(place, problem), ...]): [] when it can be used."""
    fmt = data.get("format") if isinstance(data, dict) else None
    if fmt == "doodlebox-deadly-map/1":
        return KINDS[fmt], maps.check(data)
    if fmt == "doodlebox-deadly-deck/1":
        return KINDS[fmt], deck.check(data)
    problems = layout.check(data)
    if problems:
        return "sheet layout", problems
    lay = layout.parse(data, "layout")
    return f"{lay.ruleset} layout for {lay.name}", []
