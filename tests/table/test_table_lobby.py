"""The bot's way through the console's lobby (doodlebox.table.lobby.choose_lobby and lobby_of)
against the firmware's own lobby (firmware/doodle/lobby.py) under CPython: from many starting
choices to every choice the games' specs allow, the presses land exactly there and the screen
reads back the same."""
from __future__ import annotations

import itertools
import random

import pytest

from doodle.app import App
from doodle.flashlog import RamFlash
from doodlebox.rules.specs import EDITIONS
from doodlebox.table.lobby import TableError, choose_lobby, lobby_of


def wanted():
    """Every choice the specs allow: each game, its players, its options' choices (More control
    on the dice editions that offer it), none that a limit forbids."""
    for e in EDITIONS:
        options = [] if e.dice else list(e.options)
        for players in range(e.players[0], e.players[1] + 1):
            for values in itertools.product(*(o.values for o in options)):
                chosen = {o.name: v for o, v in zip(options, values)}
                if e.problems(players, chosen):
                    continue
                want = {"game": e.edition, "players": players, **{o.key: v for o, v in zip(options, values)}}
                if e.dice:
                    for control in ((False, True) if e.options else (False,)):
                        yield dict(want, control=control)
                else:
                    yield want


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
        with pytest.raises(TableError):
            choose_lobby(lambda name: None, {"game": "city", "players": 3, "control": False}, bad)
