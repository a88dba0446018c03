"""Which data file a JSON object is, by its "format" (a dice sheet layout, a Deadly Doodles map
side or deck), and every problem in it with its place: what `doodlebox layout check` reports."""
from __future__ import annotations

from typing import Any

from doodlebox.rules.common import KnownFields, unknown_field
from doodlebox.rules.deadly import deck, maps
from doodlebox.rules.dice import layout

KINDS = {"doodlebox-deadly-map/1": "Deadly Doodles map", "doodlebox-deadly-deck/1": "Deadly Doodles deck"}

# The fields of a sheet layout's objects (docs/layouts.md), by place as in KnownFields. The layout
# reader (rules/dice/layout.py) checks the keys of `names`, `legend`, `squares[]`, `tracks` and
# `end` itself; in these objects it reads the fields it knows and would pass over any other.
LAYOUT_FIELDS: KnownFields = {
    "": ("format", "edition", "name", "reconstructed", "ruleset", "size", "names", "legend", "squares", "trees",
         "tree_points", "barrels", "tracks", "bonuses", "groups", "end", "park", "extra_floors", "solo"),
    "tracks.*": ("values", "shared"),
    "groups[]": ("kinds", "points"),
    "solo": ("ranks", "achievements"),
    "solo.achievements[]": ("id", "name", "needs"),
}


def unknown_in_layout(data: Any) -> list[tuple[str, str]]:
    """(place, problem) for every field of a sheet layout that no object of its may have: a
    group's `points` may name only the group's `kinds`."""
    out: list[tuple[str, str]] = []

    def look(obj: Any, known: tuple[str, ...], where: str) -> None:
        if isinstance(obj, dict):
            out.extend((f"{where}.{k}" if where else k, unknown_field(k, known, where)) for k in obj if k not in known)

    if not isinstance(data, dict):
        return out
    look(data, LAYOUT_FIELDS[""], "")
    tracks = data.get("tracks")
    if isinstance(tracks, dict):
        for name, t in tracks.items():
            look(t, LAYOUT_FIELDS["tracks.*"], f"tracks.{name}")
    groups = data.get("groups")
    for i, g in enumerate(groups if isinstance(groups, list) else []):
        look(g, LAYOUT_FIELDS["groups[]"], f"groups[{i}]")
        if isinstance(g, dict) and isinstance(g.get("kinds"), list):
            look(g.get("points"), tuple(k for k in g["kinds"] if isinstance(k, str)), f"groups[{i}].points")
    solo = data.get("solo")
    look(solo, LAYOUT_FIELDS["solo"], "solo")
    achievements = solo.get("achievements") if isinstance(solo, dict) else None
    for i, a in enumerate(achievements if isinstance(achievements, list) else []):
        look(a, LAYOUT_FIELDS["solo.achievements[]"], f"solo.achievements[{i}]")
    return out


def layout_problems(data: Any) -> list[tuple[str, str]]:
    """Every problem of a sheet layout: its unknown fields first (a misspelt field is often why
    another is missing), then what the layout reader finds."""
    return unknown_in_layout(data) + layout.check(data)


def check(data: Any) -> tuple[str, list[tuple[str, str]]]:
    """(what the file is, [(place, problem), ...]): [] when it can be used."""
    fmt = data.get("format") if isinstance(data, dict) else None
    if fmt == "doodlebox-deadly-map/1":
        return KINDS[fmt], maps.check(data)
    if fmt == "doodlebox-deadly-deck/1":
        return KINDS[fmt], deck.check(data)
    problems = layout_problems(data)
    if problems:
        return "sheet layout", problems
    lay = layout.parse(data, "layout")
    return f"{lay.ruleset} layout for {lay.name}", []
