"""Random legal play for tests and `make bench` (OpenSpiel's random_sim_test idea), one way for
every game of the registry: chance by its odds, a random legal action for a player who may
act. A little flavour per game keeps the games realistic: dice players draw rather than pass
and mostly circle the highest value they may, Puzzle's star Drawy sometimes sets a subject
aside and the timer's times come with the drawing minute, Baddy sometimes stops early; Deadly
Doodles players act in any order."""
from __future__ import annotations

import random

from doodlebox.rules.api import State
from doodlebox.rules.games import GameType
from doodlebox.rules.puzzle import engine as puzzle

NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal")


def players_to_act(state: State) -> list[int]:
    """The players who may act now (several where they act at the same time)."""
    return [p for p in range(state.game.players) if state.legal_actions(p)]


def random_action(state: State, rng: random.Random, player: int | None = None):
    """A random legal action of `player` (default: the current one), or chance's by its odds."""
    if state.is_chance_node():
        return state.sample_chance(rng)
    legal = state.legal_actions(player)
    edition = state.game.edition
    if edition == "puzzle":
        ph = state.phase
        if ph == puzzle.DRAWING:
            if rng.random() < 0.1:
                return puzzle.AGAIN
            if rng.random() < 0.5:
                start = rng.randrange(10 ** 7)
                return puzzle.drawing((start, start + puzzle.MINUTE_MS
                                       + rng.randint(-puzzle.TOLERANCE_MS, puzzle.TOLERANCE_MS)))
            return puzzle.DRAWING_RAN
        if ph == puzzle.MISCHIEF and rng.random() < 0.25:
            return puzzle.DONE
    elif edition != "deadly":  # the dice editions: draw rather than pass, circle the highest value, most of the time
        if legal[0].kind == "circle":
            return legal[0] if rng.random() < 0.8 else rng.choice(legal)
        draws = [a for a in legal if a.kind != "pass"]
        if draws and rng.random() < 0.9:
            return rng.choice(draws)
    return rng.choice(legal)


def choose(state: State, rng: random.Random, any_order: bool = True) -> tuple[int | None, object]:
    """(who, action) for a random legal move: chance's (who is None) or a player's; any_order:
    a random one of the players who may act now (else the current player)."""
    if state.is_chance_node():
        return None, state.sample_chance(rng)
    p = rng.choice(players_to_act(state)) if any_order else state.current_player()
    return p, random_action(state, rng, p)


def step(state: State, rng: random.Random, any_order: bool = False) -> tuple[int | None, object]:
    """Apply one random legal move (each checked); (who, action)."""
    who, a = choose(state, rng, any_order)
    state.apply(a, who)
    return who, a


def play_random(state: State, rng: random.Random, any_order: bool = False) -> State:
    """Play a state to the end with random legal actions (each one checked)."""
    while not state.is_terminal():
        step(state, rng, any_order)
    return state


def random_game(game: GameType, seed: int, players: int, variant: str = "", **options) -> State:
    rng = random.Random(seed)
    return play_random(game.new_game(players, variant, **options).new_state(), rng)


def random_record(game: GameType, seed: int, players: int, variant: str = "", **options) -> dict:
    """The record of a random legal game."""
    state = random_game(game, seed, players, variant, **options)
    return game.to_record(state, list(NAMES[:players]))
