"""The bot's way through the console's lobby (doodlebox.bot.choose_lobby and lobby_of) against
the firmware's own lobby (firmware/doodle/lobby.py) under CPython: from many starting choices to
every choice the lobby allows, the presses land exactly there and the screen reads back the same."""
from __future__ import annotations

import itertools
import random

import pytest

from doodle.app import App
from doodle.flashlog import RamFlash
from doodlebox.bot import BotError, choose_lobby, lobby_of


def wanted():
    for players in range(1, 6):
        for control in (False, True):
            for game in ("city", "suzhou", "treasures"):
                yield {"game": game, "players": players, "control": control}
        if players > 1:
            for game in ("shanghai", "monsters"):
                yield {"game": game, "players": players, "control": False}
    for players, side, rec in itertools.product(range(1, 5), "ab", ("full", "tally")):
        yield {"game": "deadly", "players": players, "map": side, "rec": rec}
    for players, var, subj in itertools.product(range(3, 9), ("", "behave", "showdown"), ("standard", "beginner")):
        if not (players == 8 and var == "behave"):
            yield {"game": "puzzle", "players": players, "var": var, "subj": subj}


WANTED = list(wanted())


@pytest.mark.parametrize("seed", range(6))
def test_the_bot_reaches_every_choice_of_the_lobby_from_anywhere(seed):
    rng = random.Random(seed)
    app = App(lambda n: 0, 1, "c0ffee", RamFlash())
    from doodle import lobby

    def press(name):
        assert lobby.button(app, name) is None, f"the lobby refused {name}"

    for want in rng.sample(WANTED, len(WANTED)):
        now = lobby_of(lobby.screen(app, ""))
        assert now is not None
        made = choose_lobby(press, now, want, read=lambda game: lobby_of(lobby.screen(app, "")))
        seen = lobby_of(lobby.screen(app, ""))
        assert seen == {k: made[k] for k in seen}
        assert {k: seen[k] for k in want} == want


def test_without_reading_the_bot_takes_another_games_options_for_a_fresh_consoles():
    app = App(lambda n: 0, 1, "c0ffee", RamFlash())
    from doodle import lobby

    def press(name):
        lobby.button(app, name)

    choose_lobby(press, {"game": "city", "players": 3, "control": False}, {"game": "deadly", "players": 2})
    assert lobby_of(lobby.screen(app, "")) == {"game": "deadly", "players": 2, "map": "a", "rec": "full"}


def test_the_bot_refuses_a_choice_the_lobby_does_not_offer():
    for bad in ({"game": "deadly", "players": 5}, {"game": "puzzle", "players": 2}, {"game": "chess", "players": 2},
                {"game": "puzzle", "players": 8, "var": "behave"}, {"game": "monsters", "players": 1}):
        with pytest.raises(BotError):
            choose_lobby(lambda name: None, {"game": "city", "players": 3, "control": False}, bad)
