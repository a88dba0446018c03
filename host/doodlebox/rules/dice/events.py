"""What the console sends for a game of a dice edition (docs/protocol.md, "Events"): its start
roads, each round's roll, each turn as a claim or a tree; the rule ids of its refusals and the
endings; its `game` event may name the table's own sheet (`sh`, `sx`: the layout played).
link/schema.py composes the link's schema from this; rules/dice/console.py reads the events into
a record."""
from __future__ import annotations

from doodlebox.rules.dice.layout import PIECES
from doodlebox.rules.dice.spec import MOST_PLAYERS
from doodlebox.rules.events import GAME, Events, SchemaError, integer, list_of, maybe, need, one_of, row, seat

PLAYERS = MOST_PLAYERS          # seats 0..4
SIZE = 6                        # rows, columns and dice: 1..6
VARIANTS = ("", "control", "solo", "solo+control")       # the `game` event's `var`
REFUSALS = ("taken", "six_tree", "park_tree", "park_barrel", "drawn", "houses", "third_time", "must_take",
            "no_tree")          # rules/dice/sentences.py's ids
ENDINGS = ("trees", "hotel", "shop", "skyscraper", "menu")
TREES = ("forced", "pass")

ROUND = need(integer(1))
SEAT = seat(PLAYERS)
DIE = integer(1, SIZE)
SQUARE = integer(1, SIZE)


def _claim(e: object, where: str) -> None:
    assert isinstance(e, dict)
    if "pc" in e and "fl" in e:
        raise SchemaError(f"{where} has both a piece and a floor")


EVENTS = Events(
    name="a dice game",
    kinds={
        "start": {"g": GAME, "col": need(SQUARE), "d": need(DIE)},
        "roll": {"g": GAME, "r": ROUND, "sp": SEAT, "c": need(DIE), "w": need(list_of(DIE, 1, SIZE))},
        "claim": {"g": GAME, "r": ROUND, "p": SEAT, "i": need(integer(1, SIZE)), "d": need(DIE),
                  "row": need(SQUARE), "col": need(SQUARE), "pc": maybe(one_of(*PIECES)), "fl": maybe(integer(1, 1)),
                  "via": maybe(row(SQUARE, SQUARE)), "v": need(integer(0, 99))},
        "tree": {"g": GAME, "r": ROUND, "p": SEAT, "why": need(one_of(*TREES))},
    },
    refusals=REFUSALS, endings=ENDINGS, across={"claim": _claim},
    sheets=True)         # the `game` event may name the table's own sheet (sh, sx): the layout played
