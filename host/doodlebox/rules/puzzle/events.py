"""What the console sends for a game of Doodle Puzzle (docs/protocol.md, "Doodle Puzzle"): each
round's roles, the star's number and subject card, the drawing minute, the boards placed,
Baddy's Mischief, the guess and the Showdown's challenge; the rule ids of its refusals and its
endings. link/schema.py composes the link's schema from this; rules/puzzle/console.py reads the
events into a record."""
from __future__ import annotations

from doodlebox.rules.events import GAME, Events, SchemaError, integer, need, one_of, seat, show, text
from doodlebox.rules.puzzle.spec import PUZZLE, VARIANT
from doodlebox.rules.puzzle.spec import SUBJECTS as SUBJECT_SETS

PLAYERS = PUZZLE.players
ROUNDS = 5
VARIANTS = VARIANT.values
SUBJECTS = SUBJECT_SETS.values
ROLE_LETTERS = {"S": "star", "D": "drawy", "B": "baddy", "G": "guessy"}   # the `roles` event's: the engine's roles
ROLES = "".join(ROLE_LETTERS)   # star Drawy, Drawy, Baddy, Guessy
GUESSES = ("right", "wrong")
NUMBERS, SUBJECT_CARDS, SLOTS = 12, 16, 6
REFUSALS = ("slot_twice",)
ENDINGS = ("rounds", "menu")

ROUND = need(integer(1, ROUNDS))
SEAT = seat(PLAYERS[1])
MS = need(integer(0))
BOARD0 = need(integer(0, SLOTS))     # a board 1..6, or 0: none


def _roles(value: object, where: str) -> None:
    """One role letter per seat (S star Drawy, D Drawy, B Baddy, G Guessy), 3 to 8 seats."""
    text(PLAYERS[1], ROLES)(value, where)
    assert isinstance(value, str)
    if len(value) < PLAYERS[0]:
        raise SchemaError(f"{where} is {show(value)}: {len(value)} seats, not {PLAYERS[0]}..{PLAYERS[1]}")


EVENTS = Events(
    name="Doodle Puzzle",
    kinds={
        "roles": {"g": GAME, "r": ROUND, "roles": need(_roles)},
        "subject": {"g": GAME, "r": ROUND, "num": need(integer(1, NUMBERS)), "card": need(integer(1, SUBJECT_CARDS))},
        "timer": {"g": GAME, "r": ROUND, "start": MS, "end": MS, "paused": MS},
        "place": {"g": GAME, "r": ROUND, "p": SEAT, "slot": need(integer(1, SLOTS))},
        "mischief": {"g": GAME, "r": ROUND, "erase": BOARD0, "draw": BOARD0},
        "guess": {"g": GAME, "r": ROUND, "res": need(one_of(*GUESSES))},
        "challenge": {"g": GAME, "r": ROUND, "board": BOARD0},
    },
    refusals=REFUSALS, endings=ENDINGS)
