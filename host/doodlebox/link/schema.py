"""The strict schema of the link's messages (docs/protocol.md, version 5): every field of every
message type and event kind, exact types (a bool is not an int), integers in range, short
printable strings. `check(msg)` raises SchemaError saying what is wrong and where; the frame
decoder (frames.py) turns that into a refused frame.

Each game declares the events the console sends for it beside its rules (rules/<game>/events.py:
their kinds, fields and ranges, its refusals and endings, in rules/events.py's checks); this
module composes them with what every game sends (`game`, `refuse`, `end`, `resume`) and the
messages around them. tests/link/test_host_link.py checks the words against the rules engines'. The
games, their players and their options' words (the `game` event) are the games' specs
(doodlebox.rules.specs)."""
from __future__ import annotations

from doodlebox.rules.deadly import events as deadly
from doodlebox.rules.dice import events as dice
from doodlebox.rules.events import (
    GAME,
    INT32,
    SHEET,
    Check,
    Events,
    Fields,
    SchemaError,
    fields,
    flag,
    integer,
    list_of,
    maybe,
    need,
    one_of,
    row,
    show,
    text,
)
from doodlebox.rules.puzzle import events as puzzle
from doodlebox.rules.specs import EDITIONS as SPECS
from doodlebox.rules.specs import SPECS as GAME_SPECS

# (the checks are rules/events.py's; the tests and link/frames.py take them from here too)
__all__ = ["INT32", "Check", "Fields", "SchemaError", "check", "check_event", "fields", "flag", "integer", "list_of",
           "maybe", "need", "one_of", "row", "show", "text"]

SEATS = max(e.players[1] for e in SPECS)   # players 1..8: seats 0..7 (Doodle Puzzle)
DICE = tuple(e.edition for e in SPECS if e.dice)
EDITIONS = tuple(e.edition for e in SPECS)
BUTTONS = ("D0", "D1", "D2", "D3", "D4", "D5", "D6", "ROLL", "PASS", "MENU")
CHORDS = ("MENU+PASS",)         # PASS pressed while MENU is held (the hint; firmware 0.7.0)
HINT_MAX = 60                   # the characters of a hint's text (the panel shows 46 of them)
HELD_MAX = 64                   # boots in hello.held (a frame of 512 bytes holds fewer)

# What each game's package declares (rules/<game>/events.py), in the protocol's order: the dice
# editions' (version 2), Deadly Doodles', Doodle Puzzle's (version 4).
GAMES: tuple[Events, ...] = (dice.EVENTS, deadly.EVENTS, puzzle.EVENTS)
# The protocol's words by game, as the packages declare them (tests/link/test_host_link.py compares
# them with the rules engines' and the firmware's)
DICE_SEATS, SIZE, VARIANTS, PIECES = dice.PLAYERS, dice.SIZE, dice.VARIANTS, dice.PIECES
REFUSALS, TREES = dice.REFUSALS, dice.TREES
DEADLY_PLAYERS, DEADLY_ROUNDS, MAPS, RECORDING = deadly.PLAYERS, deadly.ROUNDS, deadly.MAPS, deadly.RECORDING
CARDS, ROOMS, SIDES, TALLY, DEADLY_REFUSALS = deadly.CARDS, deadly.ROOMS, deadly.SIDES, deadly.TALLY, deadly.REFUSALS
PUZZLE_PLAYERS, PUZZLE_ROUNDS, PUZZLE_VARIANTS = puzzle.PLAYERS, puzzle.ROUNDS, puzzle.VARIANTS
SUBJECTS, ROLES, GUESSES, PUZZLE_REFUSALS = puzzle.SUBJECTS, puzzle.ROLES, puzzle.GUESSES, puzzle.REFUSALS
NUMBERS, SUBJECT_CARDS, SLOTS = puzzle.NUMBERS, puzzle.SUBJECT_CARDS, puzzle.SLOTS
EVERY_REFUSAL = tuple(dict.fromkeys(w for game in GAMES for w in game.refusals))
ENDINGS = tuple(dict.fromkeys(w for game in GAMES for w in game.endings))
# a card game's options on its `game` event, by their keys (each is only that game's: GAME_KINDS), with the
# word that says the table's own sheet (Deadly Doodles' `map` "own": Events.own)
OWN = dict(game.own for game in GAMES if game.own is not None)
CARD_OPTIONS = {o.key: (*o.values, *((OWN[o.key],) if o.key in OWN else ()))
                for e in SPECS if not e.dice for o in e.options if o.name != "variant"}
# each edition's game (its package's declaration): the `game` event's sheet is checked by it (Events.check_sheet)
GAME_OF: dict[str, Events] = {e.edition: game for spec, game in zip(GAME_SPECS, GAMES) for e in spec.editions}


BOOT = need(integer(0))
ROUND0 = need(integer(0))        # 0: before the first roll (start roads), or no round played
ANY_SEAT = need(integer(0, SEATS - 1))
TOTALS = list_of(integer(-9999, 9999), 1, SEATS)

# The events every game sends
COMMON: dict[str, Fields] = {
    "game": {"g": GAME, "ed": need(one_of(*EDITIONS)), "n": need(integer(1, SEATS)), "var": need(text(16)),
             **{key: maybe(one_of(*values)) for key, values in CARD_OPTIONS.items()},
             "hint": maybe(integer(1, 1)),      # 1: the table turned hints on (firmware 0.7.0)
             "bots": maybe(list_of(integer(0, SEATS - 1), 1, SEATS)),    # the PC's seats (firmware 0.8.0)
             **SHEET},        # the table's own sheet: its name and hash, both or neither (protocol version 5)
    "refuse": {"g": GAME, "r": ROUND0, "p": ANY_SEAT, "i": need(integer(0, dice.SIZE)),
               "why": need(one_of(*EVERY_REFUSAL))},
    "end": {"g": GAME, "r": ROUND0, "why": need(one_of(*ENDINGS)), "p": need(TOTALS)},
    "resume": {"g": GAME, "of": need(row(integer(0), integer(1))), "at": need(integer(1)), "r": ROUND0},
}


def _compose(games: tuple[Events, ...]) -> dict[str, Fields]:
    """Every event kind: `game`, the first game's kinds, the other events every game sends, then
    each other game's (the order docs/protocol.md lists them in); a kind two games declare is an
    error."""
    out: dict[str, Fields] = {"game": COMMON["game"]}
    for n, game in enumerate(games):
        for kind, spec in game.kinds.items():
            if kind in out or kind in COMMON:
                raise ValueError(f"the event kind {kind!r} of {game.name} is declared twice")
            out[kind] = spec
        if n == 0:
            out.update((k, f) for k, f in COMMON.items() if k != "game")
    return out


EVENTS: dict[str, Fields] = _compose(GAMES)
ACROSS: dict[str, Check] = {kind: check for game in GAMES for kind, check in game.across.items()}

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
    bots = e.get("bots")
    if bots is not None:
        if ed not in DICE:
            raise SchemaError(f"{where}.bots: the PC plays seats in the dice editions only, not in {ed}")
        if bots != sorted(set(bots)) or bots[-1] >= e["n"]:
            raise SchemaError(f"{where}.bots is {show(bots)}: seats of the game's {e['n']}, each once, in order")
    GAME_OF[ed].check_sheet(e, where)


def check_event(e: object, where: str = "e") -> dict:
    """One event (ev.e), as docs/protocol.md lists its kind's fields."""
    if type(e) is not dict:
        raise SchemaError(f"{where} is {show(e)}, not an object")
    kind = e.get("k")
    spec = EVENTS.get(kind) if type(kind) is str else None
    if spec is None:
        raise SchemaError(f"{where}.k is {show(kind)}, not an event kind ({', '.join(EVENTS)})")
    fields(spec, e, f"{where}({kind})", also=("k",))
    if kind in ACROSS:
        ACROSS[kind](e, f"{where}({kind})")
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
# the table's sheets (docs/protocol.md, "The table's sheets")
SHEET_GAMES = (*DICE, "deadly")
SHEET_GAME = one_of(*SHEET_GAMES)
SHEET_NAME = text(16, "abcdefghijklmnopqrstuvwxyz0123456789-_")
_HEX12 = text(12, "0123456789abcdef")


def _sheet_hash(value: object, where: str) -> None:
    """A sheet's hash: exactly 12 lowercase hex digits."""
    _HEX12(value, where)
    if len(value) != 12:       # type: ignore[arg-type]
        raise SchemaError(f"{where} is {show(value)}, not 12 hex digits")


SHEET_HASH: Check = _sheet_hash


SHEETS_HELD = 6
SHEET_CHUNK = 320
SHEET_CHUNKS = 8            # 2,048 bytes in base64, 320 characters a chunk
BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/="


def _hash_or_default(value: object, where: str) -> None:
    if value != "":
        SHEET_HASH(value, where)
TEST: dict[str, Fields] = {
    "start": {"fw": need(text(32)), "uid": need(UID), "boot": BOOT, "pips": need(integer(0, 1000)),
              "level": need(integer(0, 255))},
    "pips": {"die": need(integer(0, 6))},
    "scale": {"hz": need(list_of(integer(1, 40000), 0, 32)), "ms": need(integer(0))},
    "panel": {"ok": need(flag), "ms": need(integer(0)), "kind": need(text(16)), "errors": need(integer(0)),
              "why": need(text(60))},
    "summary": {"ran": need(list_of(text(16), 0, 8)), "panel": need(flag), "errors": need(integer(0)),
                "why": need(text(60)), "refreshes": need(integer(0)),
                "buttons": need(list_of(one_of(*BUTTONS, *CHORDS), 0, 11))},
    "button": {"name": need(one_of(*BUTTONS, *CHORDS)), "n": need(integer(0)), "die": maybe(integer(0, 6))},
    "exit": {"buttons": need(list_of(one_of(*BUTTONS, *CHORDS), 0, 11))},
}

MESSAGES: dict[str, Fields] = {
    # console -> host
    "hello": {"fw": need(text(32)), "uid": need(UID), "boot": BOOT, "first": need(integer(1)),
              "next": need(integer(1)), "held": need(_held)},
    "ev": {"boot": BOOT, "s": need(integer(1)), "e": need(_event)},
    "err": {"why": need(text(200))},
    "test": {"step": need(one_of(*TEST))},
    "hint?": {"g": GAME, "s": need(integer(0))},
    "bot?": {"g": GAME, "s": need(integer(0)), "p": ANY_SEAT},
    "sheets": {"held": need(list_of(row(SHEET_GAME, SHEET_NAME, SHEET_HASH), 0, SHEETS_HELD)),
               "use": need(list_of(row(SHEET_GAME, integer(0, SHEETS_HELD - 1)), 0, len(SHEET_GAMES))),
               "at": need(integer(0))},                                     # the table's sheets (version 5)
    "got": {"x": need(SHEET_HASH), "i": need(integer(0, SHEET_CHUNKS))},
    # host -> console
    "hi": {},
    "ack": {"boot": BOOT, "s": need(integer(0))},
    "nak": {"boot": BOOT, "s": need(integer(1))},
    "score": {"g": GAME, "r": ROUND0, "p": need(TOTALS), "bad": need(integer(0)), "why": need(text(60)),
              "id": maybe(integer(1))},
    "hint": {"g": GAME, "text": need(text(HINT_MAX))},
    "bot": {"g": GAME, "p": ANY_SEAT, "m": maybe(list_of(integer(0, 99), 0, 5)), "text": need(text(HINT_MAX))},
    "sheet": {"x": need(SHEET_HASH), "n": need(SHEET_NAME), "ed": need(SHEET_GAME),
              "i": need(integer(0, SHEET_CHUNKS - 1)), "of": need(integer(1, SHEET_CHUNKS)),
              "crc": need(text(8, "0123456789abcdef")), "d": need(text(SHEET_CHUNK, BASE64))},
    "use": {"ed": need(SHEET_GAME), "x": need(_hash_or_default), "at": need(integer(1))},
    "drop": {"x": need(SHEET_HASH)},
}
# what only version 5 sends (docs/protocol.md, "Versions"): refused in a frame of version 4
V5_MESSAGES = ("sheets", "got", "sheet", "use", "drop")


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
