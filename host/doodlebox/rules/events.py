"""The console's events as a game declares them (docs/protocol.md, "Events"): each game's
package says in its `events.py` which event kinds the console sends for it, their fields and
the ranges of their values, its refusals and endings (an `Events`), written in the checks of
this module; link/schema.py composes the link's whole schema from them. The checks are exact
(a bool is not an int), integers in range, short printable strings; each raises SchemaError
saying what is wrong and where."""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

INT32 = 2 ** 31 - 1


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


GAME = need(integer(1))          # every event's `g`: the game's number in its boot


def seat(players: int) -> tuple[Check, bool]:
    """A `p` (or `sp`) of a game of at most `players`: seats 0..players-1."""
    return need(integer(0, players - 1))


# The `game` event's sheet of the table's own (docs/protocol.md, `game`; docs/sheets.md): its name
# and its hash (doodlebox.sheets.library.sheet_hash), both or neither
SHEET_NAME_CHARACTERS = "abcdefghijklmnopqrstuvwxyz0123456789-_"
SHEET_HASH_DIGITS = 12


def sheet_hash(value: object, where: str) -> None:
    """A sheet's hash: exactly 12 lowercase hex digits."""
    if type(value) is not str:
        raise SchemaError(f"{where} is {show(value)}, not a string")
    if len(value) != SHEET_HASH_DIGITS or any(ch not in "0123456789abcdef" for ch in value):
        raise SchemaError(f"{where} is {show(value)}, not {SHEET_HASH_DIGITS} lowercase hex digits")


SHEET: Fields = {"sh": maybe(text(16, SHEET_NAME_CHARACTERS)), "sx": maybe(sheet_hash)}


@dataclass(frozen=True)
class Events:
    """What the console sends for one game's package (docs/protocol.md): `kinds`, its own event
    kinds with their fields (besides `game`, `refuse`, `end` and `resume`, which every game
    sends: link/schema.py); `across`, a kind's check of its fields together (a claim with a piece
    and a floor); `refusals`, the rule ids its `refuse.why` may say (its engine's); `endings`,
    its `end.why`; `name`, the game as an error names it ("a dice game"). `sheets`: its games are
    played on a sheet (a dice edition's layout, a Deadly Doodles map side), so its `game` event
    may name the table's own (`sh`, `sx`: SHEET); `own`, the `game` event's (field, word) that
    says so, with them only and they only with it (Deadly Doodles' `map` `own`)."""
    name: str
    kinds: Mapping[str, Fields]
    refusals: tuple[str, ...]
    endings: tuple[str, ...]
    across: Mapping[str, Check] = field(default_factory=dict)
    sheets: bool = False
    own: tuple[str, str] | None = None

    def check_sheet(self, e: dict, where: str) -> None:
        """The `game` event `e`'s sheet (its fields checked each already, SHEET): `sh` and `sx`
        both or neither, in a game played on a sheet only, and `own`'s word with them only."""
        named = [k for k in SHEET if k in e]
        if named and not self.sheets:
            raise SchemaError(f"{where} has {show(named[0])}: {self.name} is played on no sheet")
        if len(named) == 1:
            other = next(k for k in SHEET if k not in e)
            raise SchemaError(f"{where} has {show(named[0])} without {show(other)}: a sheet's name and hash go "
                              "together")
        if self.own is not None:
            key, word = self.own
            if (e.get(key) == word) != bool(named):
                raise SchemaError(f"{where}.{key} is {show(e.get(key))} with a sheet of the table's own (sh, sx)"
                                  if named else f"{where}.{key} is {show(word)} without the sheet's name and hash "
                                                "(sh, sx)")
