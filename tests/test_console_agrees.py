"""The console's round flow (firmware/doodle/city.py, small enough for the Pico) and the host's
rules engine agree on every die: which ones a player may take, when a tree is forced, where a
6 lets them draw, and when the game ends. Random games with the same dice drive both."""
import random

import pytest

from doodle import city
from doodle.layouts import LAYOUTS
from doodlebox.rules.dice import engine, layout
from doodlebox.rules.dice.engine import PASS, Action


@pytest.mark.parametrize("edition", sorted(LAYOUTS))
@pytest.mark.parametrize("seed", range(8))
def test_console_and_engine_agree(edition, seed):
    rng = random.Random(seed)
    players = rng.randint(1, 5)
    variant = rng.choice(["", "control"])
    console = city.Game(LAYOUTS[edition], players, variant, 1, rng.randrange, lambda e: None)
    state = engine.Game(layout.load(edition), players, variant).new_state()
    for _ in range(5):
        face = rng.randint(1, 6)
        console.roll(face, ())
        state.apply(Action("start", face))
    while not state.is_terminal():
        column, whites = rng.randint(1, 6), [rng.randint(1, 6) for _ in range(state.game.whites)]
        console.roll(column, whites)
        state.apply(Action("roll", column, whites=tuple(whites)))
        while state.phase == "turn":
            p = state.current_player()
            assert console.current() == p
            legal = state.legal_actions()
            for i in range(1, state.game.whites + 1):
                engine_ok = any(a.die == i for a in legal)
                assert (console.fits(p, i) is None) == engine_ok, (i, whites, column)
            assert console.forced(p) == (legal == [PASS])
            draws = [a for a in legal if a.kind != "pass"]
            if not draws or (rng.random() < 0.1 and PASS in legal):
                assert console.pass_turn() is None
                state.apply(PASS)
                continue
            a = rng.choice(draws)
            assert console.take(a.die) is None
            if console.phase == city.CHOOSE:  # a 6: the console asks for the row, then the column
                squares = {(b.row, b.col) for b in draws if b.die == a.die}
                if console.choosing() == "row":
                    rows = {r for r in range(1, 6) if any((r, c) in squares for c in range(1, 6))}
                    assert set(console.sheets[p].free_in_col(column) if column != 6 else
                               [r for r in range(1, 6) if console.sheets[p].free_in_row(r)]) == rows
                    assert console.choose(a.row) is None
                if console.phase == city.CHOOSE:
                    cols = {c for (r, c) in squares if r == a.row}
                    assert set(console.sheets[p].free_in_row(a.row)) == cols
                    assert console.choose(a.col) is None
            state.apply(a)
        if "hotel" not in state.ending and "shop" not in state.ending:  # the console cannot see those (R7)
            assert (console.phase == city.OVER) == state.is_terminal()
