"""What the console sends for a game of Deadly Doodles (docs/protocol.md, "Deadly Doodles"): each
round's cards, each player's Traps and (full capture) path segments and the end of their round,
their counts (tallies); the rule ids of its refusals and its endings; its `game` event's `map`
`own` with `sh` and `sx`, a map side of the table's own. link/schema.py composes
the link's schema from this; rules/deadly/console.py reads the events into a record."""
from __future__ import annotations

from doodlebox.rules.deadly.spec import DEADLY, DRAWINGS, MAP
from doodlebox.rules.events import GAME, Events, SchemaError, integer, list_of, need, one_of, row, seat, show, text

PLAYERS = DEADLY.players[1]
ROUNDS = 7
MAPS = MAP.values
OWN = "own"                     # the `game` event's `map` for a map side of the table's own (with sh, sx)
RECORDING = DRAWINGS.values
CARDS = 36                      # the default deck's ids 1..36
SIZE = 6                        # the map's rows and columns
ROOMS = tuple(f"{c}{r}" for c in "ABCDEF" for r in range(1, SIZE + 1))
SIDES = "NESW"
TALLY = 8                       # the scoring section's counts
REFUSALS = ("trap_room", "own_trap", "wall", "entry", "one_per_room", "card", "draw2", "unused", "trap_must")
ENDINGS = ("rounds", "menu")

ROUND = need(integer(1, ROUNDS))
SEAT = seat(PLAYERS)
ROOM = need(one_of(*ROOMS))


def _cards(value: object, where: str) -> None:
    """A round's cards: 4 to 8 card ids, each once."""
    list_of(integer(1, CARDS), 4, 8)(value, where)
    assert isinstance(value, list)
    for i, c in enumerate(value):
        if c in value[:i]:
            raise SchemaError(f"{where}[{i}] is card {c} a second time")


def _ends(value: object, where: str) -> None:
    """The open sides of a segment, in the order N, E, S, W, each once ("NE", "ESW")."""
    text(4, SIDES)(value, where)
    assert isinstance(value, str)
    if "".join(s for s in SIDES if s in value) != value:
        raise SchemaError(f"{where} is {show(value)}, not sides in the order N, E, S, W, each once")


EVENTS = Events(
    name="Deadly Doodles",
    kinds={
        "reveal": {"g": GAME, "r": ROUND, "cards": need(_cards)},
        "trap": {"g": GAME, "r": ROUND, "p": SEAT, "room": ROOM},
        "draw": {"g": GAME, "r": ROUND, "p": SEAT, "card": need(integer(1, CARDS)), "room": ROOM,
                 "ends": need(_ends)},
        "done": {"g": GAME, "r": ROUND, "p": SEAT},
        "tally": {"g": GAME, "p": SEAT,
                  "t": need(row(*(integer(0, 1) if i == 1 else integer(0, 99) for i in range(TALLY))))},
    },
    refusals=REFUSALS, endings=ENDINGS,
    sheets=True, own=("map", OWN))      # a map side of the table's own: `map` "own", with sh and sx
