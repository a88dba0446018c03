"""Deadly Doodles as the registry (rules/games.py) knows it: spec.py's players and options (the
map side, the drawings in full or as tallies)."""
from __future__ import annotations

from doodlebox.rules.api import GameType
from doodlebox.rules.deadly import deck, engine, maps, record, render, report
from doodlebox.rules.deadly.spec import DEADLY, DRAWINGS, MAP


def new_game(players: int, variant: str = "", map: str = MAP.default, drawings: str = DRAWINGS.default) -> engine.Game:
    """Deadly Doodles has no variants; the solo game follows from one player."""
    return engine.Game(maps.load(map), deck.load(), players, tallies=drawings == "tally")


GAME_TYPE = GameType(
    spec=DEADLY, make=new_game, parse=record.parse, replay=record.replay, to_record=record.from_state,
    as_json=report.as_json, sheets_text=report.sheets_text, table_text=report.table_text,
    render=render.render_sheet)
