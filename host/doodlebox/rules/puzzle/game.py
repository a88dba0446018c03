"""Doodle Puzzle as the registry (rules/games.py) knows it: 3-8 players, two variants, no sheets."""
from __future__ import annotations

from doodlebox.rules.api import GameType
from doodlebox.rules.puzzle import engine, record, report


def new_game(players: int, variant: str = "", subjects: str = "standard") -> engine.Game:
    return engine.Game(players, variant, subjects)


GAME_TYPE = GameType(
    edition=engine.EDITION, name="Doodle Puzzle", players=(3, 8), variants=engine.VARIANTS,
    new_game=new_game, parse=record.parse, replay=record.replay, to_record=record.from_state,
    as_json=report.as_json, sheets_text=report.sheets_text, table_text=report.table_text,
    render=None)
