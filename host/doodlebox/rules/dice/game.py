"""The five dice editions as the registry (rules/games.py) knows them: one engine, one record
format, one report and one sheet picture, five layouts."""
from __future__ import annotations

from doodlebox.rules.api import GameType
from doodlebox.rules.dice import engine, layout, record, render, report

# edition -> (name as printed, fewest players: the 6x6 editions have no solo game, ruling R16)
EDITIONS = {
    "city": ("Doodle City", 1),
    "suzhou": ("Doodle China: Suzhou", 1),
    "treasures": ("Doodle Islands: Sea of Treasures", 1),
    "shanghai": ("Doodle China: Shanghai", 2),
    "monsters": ("Doodle Islands: Sea of Monsters", 2),
}


def _maker(edition: str):
    def new_game(players: int, variant: str = "") -> engine.Game:
        return engine.Game(layout.load(edition), players, variant)
    return new_game


GAME_TYPES = tuple(
    GameType(edition=ed, name=name, players=(low, 5), variants=("control",) if low == 1 else (),
             new_game=_maker(ed), parse=record.parse, replay=record.replay, to_record=record.from_state,
             as_json=report.as_json, sheets_text=report.sheets_text, table_text=report.table_text,
             render=render.render_sheet)
    for ed, (name, low) in EDITIONS.items())
