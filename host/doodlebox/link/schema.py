"""The strict schema of the link's messages (docs/protocol.md, version 4): every field of every
message type and event kind, exact types (a bool is not an int), integers in range, short
printable strings. `check(msg)` raises SchemaError saying what is wrong and where; the frame
decoder (frames.py) turns that into a refused frame.

The sets of words (pieces, rule ids, endings, rooms, roles) are the protocol's;
tests/test_host_link.py checks them against the rules engines'. The games, their players and
their options' words (the `game` event) are the games' specs (doodlebox.rules.specs)."""
from __future__ import annotations

from collections.abc import Callable

from doodlebox.rules.deadly.spec import DEADLY, DRAWINGS, MAP
from doodlebox.rules.dice.spec import MOST_PLAYERS
from doodlebox.rules.puzzle.spec import PUZZLE
from doodlebox.rules.puzzle.spec import SUBJECTS as SUBJECT_SETS
from doodlebox.rules.puzzle.spec import VARIANT as PUZZLE_VARIANT
from doodlebox.rules.specs import EDITIONS as SPECS

INT32 = 2 ** 31 - 1
SEATS = max(e.players[1] for e in SPECS)   # players 1..8: seats 0..7 (Doodle Puzzle)
DICE_SEATS = MOST_PLAYERS       # the dice editions: 1..5 players
SIZE = 6                        # rows, columns and dice: 1..6
DICE = tuple(e.edition for e in SPECS if e.dice)
EDITIONS = tuple(e.edition for e in SPECS)
VARIANTS = ("", "control", "solo", "solo+control")
PIECES = ("NS", "EW", "NE", "ES", "SW", "NW")
REFUSALS = ("taken", "six_tree", "park_tree", "park_barrel", "drawn", "houses", "third_time", "must_take",
            "no_tree")
ENDINGS = ("trees", "hotel", "shop", "skyscraper", "menu", "rounds")
TREES = ("forced", "pass")
BUTTONS = ("D0", "D1", "D2", "D3", "D4", "D5", "D6", "ROLL", "PASS", "MENU")
HELD_MAX = 64                   # boots in hello.held (a frame of 512 bytes holds fewer)

# Deadly Doodles (docs/protocol.md, "### Deadly Doodles")
DEADLY_PLAYERS = DEADLY.players[1]
DEADLY_ROUNDS = 7
MAPS = MAP.values
RECORDING = DRAWINGS.values
CARDS = 36                      # the default deck's ids 1..36
ROOMS = tuple(f"{c}{r}" for c in "ABCDEF" for r in range(1, SIZE + 1))
SIDES = "NESW"
TALLY = 8                       # the scoring section's counts
DEADLY_REFUSALS = ("trap_room", "own_trap", "wall", "entry", "one_per_room", "card", "draw2", "unused", "trap_must")
# Doodle Puzzle (docs/protocol.md, "### Doodle Puzzle")
PUZZLE_PLAYERS = PUZZLE.players
PUZZLE_ROUNDS = 5
PUZZLE_VARIANTS = PUZZLE_VARIANT.values
SUBJECTS = SUBJECT_SETS.values
ROLES = "SDBG"                  # star Drawy, Drawy, Baddy, Guessy
GUESSES = ("right", "wrong")
NUMBERS, SUBJECT_CARDS, SLOTS = 12, 16, 6
PUZZLE_REFUSALS = ("slot_twice",)
EVERY_REFUSAL = REFUSALS + DEADLY_REFUSALS + PUZZLE_REFUSALS


class SchemaError(ValueError):
    """A message that is not one docs/protocol.md describes: "ev.e.row is 7, not 1..6"."""


Check = Callable[[object, str], None]


def show(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 24 else text[:21] + "..."


def integer(low: int, high: int = INT32) -> Check:
    def check(value: object, where: str) -> None:
        if type(value) is not int:
            raise SchemaError(f"{where} is {show(value)}, not a whole number")
        if not low <= value <= high:
            raise SchemaError(f"{where} is {show(value)}, not {low}..{high}")
    return check


def flag(value: object, where: str) -> None:
    if type(value) is not bool:
        raise SchemaError(f"{where} is {show(value)}, not true or false")


def text(limit: int, allowed: str | None = None) -> Check:
    """A str of printable ASCII, at most `limit` characters (of `allowed` only, if given)."""
    def check(value: object, where: str) -> None:
        if type(value) is not str:
            raise SchemaError(f"{where} is {show(value)}, not a string")
        if len(value) > limit:
            raise SchemaError(f"{where} is {len(value)} characters long, more than {limit}")
        if allowed is None:
            if not all(" " <= ch <= "~" for ch in value):
                raise SchemaError(f"{where} is {show(value)}, not printable ASCII")
        elif not value or any(ch not in allowed for ch in value):
            raise SchemaError(f"{where} is {show(value)}, not 1 to {limit} of {allowed!r}")
    return check


def one_of(*words: str) -> Check:
    def check(value: object, where: str) -> None:
        if type(value) is not str or value not in words:
            raise SchemaError(f"{where} is {show(value)}, not one of {', '.join(repr(w) for w in words)}")
    return check


def list_of(item: Check, low: int, high: int) -> Check:
    def check(value: object, where: str) -> None:
        if type(value) is not list:
            raise SchemaError(f"{where} is {show(value)}, not a list")
        if not low <= len(value) <= high:
            raise SchemaError(f"{where} has {len(value)} items, not {low}..{high}")
        for i, v in enumerate(value):
            item(v, f"{where}[{i}]")
    return check


def row(*items: Check) -> Check:
    """A list of exactly len(items) values, each with its own check."""
    def check(value: object, where: str) -> None:
        if type(value) is not list or len(value) != len(items):
            raise SchemaError(f"{where} is {show(value)}, not a list of {len(items)}")
        for i, (item, v) in enumerate(zip(items, value)):
            item(v, f"{where}[{i}]")
    return check


Fields = dict[str, tuple[Check, bool]]     # name -> (check, required)


def fields(spec: Fields, value: object, where: str, also: tuple[str, ...] = ()) -> dict:
    """`value` is a dict with every required field of `spec`, no field that is not in it (or in
    `also`, checked elsewhere), each field as its check wants."""
    if type(value) is not dict:
        raise SchemaError(f"{where} is {show(value)}, not an object")
    for name, (check, required) in spec.items():
        if name in value:
            check(value[name], f"{where}.{name}")
        elif required:
            raise SchemaError(f"{where} has no {name!r}")
    for name in value:
        if name not in spec and name not in also:
            raise SchemaError(f"{where} has a field {show(name)} that docs/protocol.md does not list")
    return value


def need(check: Check) -> tuple[Check, bool]:
    return check, True


def maybe(check: Check) -> tuple[Check, bool]:
    return check, False


BOOT = need(integer(0))
GAME = need(integer(1))
ROUND = need(integer(1))
ROUND0 = need(integer(0))        # 0: before the first roll (start roads), or no round played
SEAT = need(integer(0, DICE_SEATS - 1))
ANY_SEAT = need(integer(0, SEATS - 1))
DIE = integer(1, SIZE)
SQUARE = integer(1, SIZE)
TOTALS = list_of(integer(-9999, 9999), 1, SEATS)
DEADLY_ROUND = need(integer(1, DEADLY_ROUNDS))
DEADLY_SEAT = need(integer(0, DEADLY_PLAYERS - 1))
ROOM = need(one_of(*ROOMS))
PUZZLE_ROUND = need(integer(1, PUZZLE_ROUNDS))
MS = need(integer(0))
BOARD0 = need(integer(0, SLOTS))     # a board 1..6, or 0: none


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


def _roles(value: object, where: str) -> None:
    """One role letter per seat (S star Drawy, D Drawy, B Baddy, G Guessy), 3 to 8 seats."""
    text(SEATS, ROLES)(value, where)
    assert isinstance(value, str)
    if len(value) < PUZZLE_PLAYERS[0]:
        raise SchemaError(f"{where} is {show(value)}: {len(value)} seats, not {PUZZLE_PLAYERS[0]}..{SEATS}")


EVENTS: dict[str, Fields] = {
    "game": {"g": GAME, "ed": need(one_of(*EDITIONS)), "n": need(integer(1, SEATS)), "var": need(text(16)),
             "map": maybe(one_of(*MAPS)), "rec": maybe(one_of(*RECORDING)), "subj": maybe(one_of(*SUBJECTS))},
    "start": {"g": GAME, "col": need(SQUARE), "d": need(DIE)},
    "roll": {"g": GAME, "r": ROUND, "sp": SEAT, "c": need(DIE), "w": need(list_of(DIE, 1, SIZE))},
    "claim": {"g": GAME, "r": ROUND, "p": SEAT, "i": need(integer(1, SIZE)), "d": need(DIE), "row": need(SQUARE),
              "col": need(SQUARE), "pc": maybe(one_of(*PIECES)), "fl": maybe(integer(1, 1)),
              "via": maybe(row(SQUARE, SQUARE)), "v": need(integer(0, 99))},
    "tree": {"g": GAME, "r": ROUND, "p": SEAT, "why": need(one_of(*TREES))},
    "refuse": {"g": GAME, "r": ROUND0, "p": ANY_SEAT, "i": need(integer(0, SIZE)),
               "why": need(one_of(*EVERY_REFUSAL))},
    "end": {"g": GAME, "r": ROUND0, "why": need(one_of(*ENDINGS)), "p": need(TOTALS)},
    "resume": {"g": GAME, "of": need(row(integer(0), integer(1))), "at": need(integer(1)), "r": ROUND0},
    # Deadly Doodles
    "reveal": {"g": GAME, "r": DEADLY_ROUND, "cards": need(_cards)},
    "trap": {"g": GAME, "r": DEADLY_ROUND, "p": DEADLY_SEAT, "room": ROOM},
    "draw": {"g": GAME, "r": DEADLY_ROUND, "p": DEADLY_SEAT, "card": need(integer(1, CARDS)), "room": ROOM,
             "ends": need(_ends)},
    "done": {"g": GAME, "r": DEADLY_ROUND, "p": DEADLY_SEAT},
    "tally": {"g": GAME, "p": DEADLY_SEAT,
              "t": need(row(*(integer(0, 1) if i == 1 else integer(0, 99) for i in range(TALLY))))},
    # Doodle Puzzle
    "roles": {"g": GAME, "r": PUZZLE_ROUND, "roles": need(_roles)},
    "subject": {"g": GAME, "r": PUZZLE_ROUND, "num": need(integer(1, NUMBERS)),
                "card": need(integer(1, SUBJECT_CARDS))},
    "timer": {"g": GAME, "r": PUZZLE_ROUND, "start": MS, "end": MS, "paused": MS},
    "place": {"g": GAME, "r": PUZZLE_ROUND, "p": ANY_SEAT, "slot": need(integer(1, SLOTS))},
    "mischief": {"g": GAME, "r": PUZZLE_ROUND, "erase": BOARD0, "draw": BOARD0},
    "guess": {"g": GAME, "r": PUZZLE_ROUND, "res": need(one_of(*GUESSES))},
    "challenge": {"g": GAME, "r": PUZZLE_ROUND, "board": BOARD0},
}

# The `game` event by its edition: players, variant words, the fields only that game has (and must have).
# A card game's are its spec's: its players, its variants (none: ""), its other options by their keys.
GAME_KINDS: dict[str, tuple[tuple[int, int], tuple[str, ...], tuple[str, ...]]] = {
    **{ed: ((1, DICE_SEATS), VARIANTS, ()) for ed in DICE},
    **{e.edition: (e.players, ("", *e.variants), tuple(o.key for o in e.options if o.name != "variant"))
       for e in SPECS if not e.dice},
}
CONDITIONAL = tuple(dict.fromkeys(k for _, _, own in GAME_KINDS.values() for k in own))


def _game(e: dict, where: str) -> None:
    """The `game` event's fields that depend on its edition (docs/protocol.md, `game`)."""
    ed = e["ed"]
    (low, high), variants, own = GAME_KINDS[ed]
    integer(low, high)(e["n"], f"{where}.n")
    one_of(*variants)(e["var"], f"{where}.var")
    for name in CONDITIONAL:
        if name in own and name not in e:
            raise SchemaError(f"{where} has no {name!r} (a {ed} game has it)")
        if name not in own and name in e:
            raise SchemaError(f"{where} has a field {name!r}, which a {ed} game does not have")


def check_event(e: object, where: str = "e") -> dict:
    """One event (ev.e), as docs/protocol.md lists its kind's fields."""
    if type(e) is not dict:
        raise SchemaError(f"{where} is {show(e)}, not an object")
    kind = e.get("k")
    spec = EVENTS.get(kind) if type(kind) is str else None
    if spec is None:
        raise SchemaError(f"{where}.k is {show(kind)}, not an event kind ({', '.join(EVENTS)})")
    fields(spec, e, f"{where}({kind})", also=("k",))
    if kind == "claim" and "pc" in e and "fl" in e:
        raise SchemaError(f"{where}(claim) has both a piece and a floor")
    if kind == "game":
        _game(e, f"{where}(game)")
    return e


def _event(value: object, where: str) -> None:
    check_event(value, where)


def _held(value: object, where: str) -> None:
    list_of(row(integer(0), integer(1), integer(1)), 0, HELD_MAX)(value, where)
    assert isinstance(value, list)
    last = -1
    for i, (boot, first, nxt) in enumerate(value):
        if boot <= last:
            raise SchemaError(f"{where}[{i}] is boot {boot} after boot {last}: not oldest first")
        if first > nxt:
            raise SchemaError(f"{where}[{i}] holds from {first} to before {nxt}")
        last = boot


UID = text(32, "0123456789abcdef")
TEST: dict[str, Fields] = {
    "start": {"fw": need(text(32)), "uid": need(UID), "boot": BOOT, "pips": need(integer(0, 1000)),
              "level": need(integer(0, 255))},
    "pips": {"die": need(integer(0, 6))},
    "scale": {"hz": need(list_of(integer(1, 40000), 0, 32)), "ms": need(integer(0))},
    "panel": {"ok": need(flag), "ms": need(integer(0)), "kind": need(text(16)), "errors": need(integer(0)),
              "why": need(text(60))},
    "summary": {"ran": need(list_of(text(16), 0, 8)), "panel": need(flag), "errors": need(integer(0)),
                "why": need(text(60)), "refreshes": need(integer(0)),
                "buttons": need(list_of(one_of(*BUTTONS), 0, 10))},
    "button": {"name": need(one_of(*BUTTONS)), "n": need(integer(0)), "die": maybe(integer(0, 6))},
    "exit": {"buttons": need(list_of(one_of(*BUTTONS), 0, 10))},
}

MESSAGES: dict[str, Fields] = {
    # console -> host
    "hello": {"fw": need(text(32)), "uid": need(UID), "boot": BOOT, "first": need(integer(1)),
              "next": need(integer(1)), "held": need(_held)},
    "ev": {"boot": BOOT, "s": need(integer(1)), "e": need(_event)},
    "err": {"why": need(text(200))},
    "test": {"step": need(one_of(*TEST))},
    # host -> console
    "hi": {},
    "ack": {"boot": BOOT, "s": need(integer(0))},
    "nak": {"boot": BOOT, "s": need(integer(1))},
    "score": {"g": GAME, "r": ROUND0, "p": need(TOTALS), "bad": need(integer(0)), "why": need(text(60))},
}


def check(msg: dict) -> dict:
    """A decoded body (its "v" already checked) against the schema of its type; returns it."""
    kind = msg.get("t")
    spec = MESSAGES.get(kind) if type(kind) is str else None
    if spec is None:
        raise SchemaError(f"t is {show(kind)}, not a message type ({', '.join(MESSAGES)})")
    if kind == "test":
        step = msg.get("step")
        one_of(*TEST)(step, "test.step")
        assert isinstance(step, str)
        fields(TEST[step], msg, f"test({step})", also=("t", "v", "step"))
        return msg
    fields(spec, msg, str(kind), also=("t", "v"))
    if kind == "hello":
        if msg["first"] > msg["next"]:
            raise SchemaError(f"hello.first is {msg['first']}, after next ({msg['next']})")
        held = msg["held"]
        if held and held[-1][0] > msg["boot"]:
            raise SchemaError(f"hello.held lists boot {held[-1][0]}, after this boot ({msg['boot']})")
        if held and held[-1][0] == msg["boot"] and held[-1][1:] != [msg["first"], msg["next"]]:
            raise SchemaError(f"hello.held says {held[-1][1:]} for this boot, not first and next "
                              f"({msg['first']}, {msg['next']})")
    return msg
