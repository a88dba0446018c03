"""The five dice editions as the registry (rules/games.py) knows them: one engine, one record
format, one report and one sheet picture, five layouts; each edition as spec.py declares it."""
from __future__ import annotations

from doodlebox.rules.api import GameType
from doodlebox.rules.dice import engine, layout, record, render, report
from doodlebox.rules.dice.spec import SPEC

EDITIONS = tuple(e.edition for e in SPEC.editions)


def _maker(edition: str):
    def new_game(players: int, variant: str = "") -> engine.Game:
        return engine.Game(layout.load(edition), players, variant)
    return new_game


GAME_TYPES = tuple(
    GameType(spec=e, make=_maker(e.edition), parse=record.parse, replay=record.replay, to_record=record.from_state,
             as_json=report.as_json, sheets_text=report.sheets_text, table_text=report.table_text,
             render=render.render_sheet)
    for e in SPEC.editions)
