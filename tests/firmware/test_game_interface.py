"""One interface for every game on the console (docs/console-deadly-puzzle.md, "A game module"):
doodle/app.py knows no game by name and has no branch by game family; each game module (the
dice editions' doodle/rounds.py, doodle/deadly.py, doodle/puzzle.py) offers the same members,
and its screens the same functions. Under CPython, as tests/firmware/test_console_core.py."""
from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

from doodle import rounds
from doodle.app import App
from doodle.dice import Dice
from doodle.flashlog import RamFlash

ROOT = Path(__file__).resolve().parents[2]
APP = ROOT / "firmware" / "doodle" / "app.py"
GAMES = ("city", "suzhou", "treasures", "shanghai", "monsters", "deadly", "puzzle")
MODULES = ("rounds", "deadly", "puzzle")
MEMBERS = ("button", "tick", "over", "end", "points", "replay")


def test_the_app_names_no_game_and_no_game_family():
    tree = ast.parse(APP.read_text())
    words = {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)}
    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    names |= {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
    games = set(GAMES) | {"rounds", "rounds_view", "rounds_final", "deadly_view", "puzzle_view"}
    first = [n for n in ast.walk(tree) if isinstance(n, ast.Assign) and isinstance(n.value, ast.Constant)
             and n.value.value in games]
    assert [ast.unparse(n) for n in first] == ["self.edition = 'city'"]   # the lobby's first choice
    words -= {"city"}
    assert not words & games, f"app.py names {sorted(words & games)}"
    assert not names & {"card", "CARD_GAMES", "edition_module"}, f"app.py branches on {sorted(names & {'card'})}"
    imported = {a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) for a in n.names}
    imported |= {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert not imported & (games | {f"doodle.{g}" for g in games}), imported


@pytest.mark.parametrize("name", MODULES)
def test_every_game_module_offers_the_interface(name):
    mod = importlib.import_module("doodle." + name)
    assert callable(mod.begin)
    for member in MEMBERS:
        assert callable(getattr(mod.Game, member, None)), f"doodle/{name}.py Game has no {member}()"
    view = importlib.import_module("doodle." + mod.Game.VIEW)
    final = importlib.import_module("doodle." + mod.Game.FINAL)
    assert callable(view.game) and callable(final.final)


class Table:
    """The App with a journal in RAM, in simulated time."""

    def __init__(self, edition: str, players: int):
        self.app = App(lambda n: 0, 1, "c0ffee", RamFlash())
        self.now = 0
        while self.app.edition != edition:
            self.press("D0")
        self.press(f"D{players}")
        self.press("ROLL")

    def press(self, name: str):
        self.now += 200
        why = self.app.button(name, self.now)
        if self.app.collect_wanted:
            self.app.collected()
        self.app.tick(self.now)
        return why


@pytest.mark.parametrize("edition,players", [("city", 2), ("monsters", 2), ("deadly", 2), ("puzzle", 3)])
def test_every_game_begins_and_is_shown_through_the_one_interface(edition, players):
    t = Table(edition, players)
    g = t.app.game
    assert g is not None and isinstance(g.tones, list) and isinstance(g.version, int)
    lines = t.app.screen()
    assert lines and all(isinstance(s, str) for s in lines)
    assert t.press("MENU") is None and t.app.confirm_end     # "End game?" asked, in every game
    assert t.press("ROLL") is None and g.over()               # ... and confirmed
    t.press("D1")
    assert t.app.screen()[0] == importlib.import_module("doodle." + g.FINAL).final(g, None)[0]


def test_a_full_journal_refuses_every_press_in_every_game_menu_included():
    """While the journal can keep nothing more, a press is refused before the game sees it:
    MENU too, in a dice edition as in the card games (ending a game writes its `end` event).
    Before the one interface, a dice edition's MENU asked "End game?" though the end event
    could not be kept."""
    for edition, players in (("city", 2), ("deadly", 2)):
        t = Table(edition, players)
        j = t.app.journal
        j._wlen = 1 << 30                   # RAM full of records the flash has not taken
        assert j.blocked()
        assert t.press("MENU") == "full" and not t.app.confirm_end
        assert t.press("ROLL") == "full"


def test_a_dice_round_rolls_the_consoles_dice_and_shows_the_dice_taken():
    dice = Dice(lambda n: 2)                     # every die shows 3
    events: list[dict] = []
    from doodle import ed_city

    g = rounds.Game(ed_city, 2, False, 1, events.append, dice)
    while g.rolls() and g.phase == rounds.SETUP:
        assert g.button("ROLL", 0) is None
    assert g.tones == ["roll"] * ed_city.SIZE and events[-1]["k"] == "start"
    assert g.button("ROLL", 10) is None and events[-1]["k"] == "roll"
    assert events[-1]["w"] == [3, 3, 3]
    del g.tones[:]
    while g.current() == 0 and g.turn == 0:      # P1 takes white die 1 and answers what is asked
        why = g.button("D1", 20)
        assert why is None, why
    assert g.taken[1] == 0 and dice.states[1] == 3   # the die taken, shown taken
    assert g.tones[-1] == "claim"
    assert g.button("MENU", 30) == "menu"
