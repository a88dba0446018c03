"""Doodle Puzzle as the registry (rules/games.py) knows it: spec.py's players, variants and
subject cards; no sheets."""
from __future__ import annotations

from doodlebox.rules.api import GameType
from doodlebox.rules.puzzle import engine, record, report
from doodlebox.rules.puzzle.spec import PUZZLE, SUBJECTS


def new_game(players: int, variant: str = "", subjects: str = SUBJECTS.default) -> engine.Game:
    return engine.Game(players, variant, subjects)


GAME_TYPE = GameType(
    spec=PUZZLE, make=new_game, parse=record.parse, replay=record.replay, to_record=record.from_state,
    as_json=report.as_json, sheets_text=report.sheets_text, table_text=report.table_text,
    render=None)
