"""The five dice editions declared once: their names, their players (the 6x6 editions have no
solo game: ruling R16) and their one variant, More control (the 5x5 editions; the 6x6 ones
always allow passing: ruling R24). The registry, the command line, the scripted table and the console's
lobby (firmware/doodle/games.py, generated) take them from here; each edition's sheet is its
layout (docs/layouts.md), which tests/rules/test_game_api.py checks against this."""
from __future__ import annotations

from doodlebox.rules.api import Choice, Edition, GameSpec, Option

MOST_PLAYERS = 5        # a white die per player and one more: the console's six white dice

CONTROL = Option(
    name="variant", key="control", flag="--control", label="More control",
    description="More control (the 5x5 editions): passing is always allowed, and costs a tree (ruling R8)",
    choices=(Choice("", "off", "the base game"), Choice("control", "on", "More control")),
    default="")


def _edition(edition: str, name: str, lobby: str, short: str, six_by_six: bool = False) -> Edition:
    if six_by_six:   # no solo game (R16), and passing always allowed (R24): no More control
        return Edition(edition, name, lobby, short, (2, MOST_PLAYERS))
    return Edition(edition, name, lobby, short, (1, MOST_PLAYERS), options=(CONTROL,))


EDITIONS = (
    _edition("city", "Doodle City", "Doodle City", "City"),
    _edition("suzhou", "Doodle China: Suzhou", "Suzhou", "Suzhou"),
    _edition("treasures", "Doodle Islands: Sea of Treasures", "Sea of Treasures", "Treasures"),
    _edition("shanghai", "Doodle China: Shanghai", "Shanghai", "Shanghai", six_by_six=True),
    _edition("monsters", "Doodle Islands: Sea of Monsters", "Sea of Monsters", "Monsters", six_by_six=True),
)

SPEC = GameSpec(name="the dice editions", package="dice", editions=EDITIONS)
