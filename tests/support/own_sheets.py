"""Sheets of a table's own and the console's games played on them (docs/sheets.md; the `game`
event's `sh` and `sx`, docs/protocol.md): a Doodle City sheet whose squares are printed the other
way round (every square's kind, houses and start square mirrored left to right) with a hotel
track of its own, and a side A of Deadly Doodles' map with its Dragon moved; the events of a game
the engine played on each, as the console sends them (rules/*/console.py's `events`, with the
sheet named)."""
from __future__ import annotations

import copy
import json
import random
from pathlib import Path

from randomplay import play_random

from doodlebox.rules.deadly import console as deadly_console
from doodlebox.rules.deadly import deck as decks
from doodlebox.rules.deadly import engine as deadly_engine
from doodlebox.rules.deadly import maps
from doodlebox.rules.deadly.events import OWN
from doodlebox.rules.dice import console as dice_console
from doodlebox.rules.dice import engine as dice_engine
from doodlebox.rules.dice import layout as layouts
from doodlebox.store import sheet_hash

LAYOUTS = Path(__file__).resolve().parents[2] / "host" / "doodlebox" / "layouts"
CITY_NAME, MAP_NAME = "ourcity", "our-side-a"


def own_city() -> dict:
    """Doodle City's default sheet with every square mirrored left to right (its kinds, houses and
    start squares elsewhere) and another hotel track."""
    data = json.loads((LAYOUTS / layouts.DEFAULT_FILES["city"]).read_text())
    data["name"] = "Our city"
    data["reconstructed"] = ""
    for sq in data["squares"]:
        sq["at"] = [sq["at"][0], data["size"] + 1 - sq["at"][1]]
    data["squares"].sort(key=lambda sq: tuple(sq["at"]))
    data["tracks"]["hotel"]["values"] = [2, 3, 5, 6, 7, 8, 9, 10, 12, 15]
    assert layouts.check(data) == []
    return data


def own_map() -> dict:
    """Side A of Deadly Doodles' map with its Dragon in C1 (an empty room there) instead of D3."""
    data = json.loads((LAYOUTS / maps.DEFAULT_FILES["a"]).read_text())
    data["name"] = "Our side A"
    data["dragon"] = "C1"
    assert maps.check(data) == []
    return data


def dice_events(sheet: dict, seed: int, players: int = 3, g: int = 1, named: bool = True) -> list[dict]:
    """The console's events of a random game of the engine played on the dice `sheet`; the `game`
    event names it (`sh`, `sx`), or with `named` False does not (the same game as if it were the
    default's)."""
    state = play_random(dice_engine.Game(layouts.parse(sheet, "sheet"), players).new_state(), random.Random(seed))
    return dice_console.events(state, g, sheet=(CITY_NAME, sheet_hash(sheet)) if named else None)


def deadly_events(sheet: dict, seed: int, players: int = 2, g: int = 1, named: bool = True) -> list[dict]:
    """The console's events of a random game of Deadly Doodles played on the map side `sheet`; the
    `game` event names it (`map` "own", `sh`, `sx`), or with `named` False says side A."""
    game = deadly_engine.Game(maps.parse(sheet, "sheet"), decks.load(), players)
    state = play_random(game.new_state(), random.Random(seed), any_order=True)
    out = deadly_console.events(state, g, sheet=(MAP_NAME, sheet_hash(sheet)) if named else None)
    if not named:
        out[0]["map"] = "a"
    return out


def unnamed(events: list[dict]) -> list[dict]:
    """The same events, the `game` event naming no sheet (a Deadly Doodles game: side A)."""
    out = copy.deepcopy(events)
    first = out[0]
    first.pop("sh", None)
    first.pop("sx", None)
    if first.get("map") == OWN:
        first["map"] = "a"
    return out
