"""Deadly Doodles as the registry (rules/games.py) knows it: 1-4 players on map side A or B."""
from __future__ import annotations

from doodlebox.rules.api import GameConfigError, GameType
from doodlebox.rules.deadly import deck, engine, maps, record, render, report


def new_game(players: int, variant: str = "", map: str = "a") -> engine.Game:
    """Deadly Doodles has no variants; the solo game follows from one player."""
    if variant not in ("", "solo"):
        raise GameConfigError(f"{variant!r}: Deadly Doodles has no variants (solo is one player)")
    return engine.Game(maps.load(map), deck.load(), players)


GAME_TYPE = GameType(
    edition=engine.EDITION, name="Deadly Doodles", players=engine.PLAYERS, variants=(),
    new_game=new_game, parse=record.parse, replay=record.replay, to_record=record.from_state,
    as_json=report.as_json, sheets_text=report.sheets_text, table_text=report.table_text,
    render=render.render_sheet)
