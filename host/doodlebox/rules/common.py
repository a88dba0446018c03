"""What the records and engines of every game share: the errors that list problems with their
places, a violation and a replay, a score tally, a history that clones share, reading a
record's JSON and the checks a record reader makes, and violations for a person."""
from __future__ import annotations

import difflib
import json
import re
from collections.abc import Collection, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from doodlebox.errors import DoodleboxError, InputError
from doodlebox.rules.ending import seat

FORMAT = "doodlebox-record/1"   # every game's records (docs/records.md)


class ProblemsError(InputError, ValueError):
    """A data file (sheet, map, deck) that cannot be used; `problems` lists every
    (place, what) found, the message names the first."""
    def __init__(self, source: str, problems: list[tuple[str, str]]):
        self.source = source
        self.problems = problems
        first = problems[0]
        more = f" (and {len(problems) - 1} more: doodlebox layout check)" if len(problems) > 1 else ""
        super().__init__(f"{source}: {first[0]}: {first[1]}{more}")


class RecordError(InputError, ValueError):
    """A record that cannot be read: one line, "source: place: what"."""


class StreamError(DoodleboxError, ValueError):
    """A record given to a game's Stream (rules/*/record.py) that did not only grow since the
    last: it must be replayed whole."""


@dataclass
class Violation:
    round: int
    player: int           # -1 for the whole game (e.g. rounds after the end)
    turn: int             # 1-based within the round, 0 for the round itself
    place: str
    action: str
    rule: str
    reason: str
    sentence: str
    legal: list[str] = field(default_factory=list)

    def as_dict(self) -> dict:
        return dict(self.__dict__)


@dataclass
class Replay:
    """A record played through its game's engine (doodlebox.rules.games)."""
    record: Any
    state: Any
    violations: list[Violation]
    finished: bool


@dataclass
class Tally:
    """A player's score sheet: the scored items in sheet order, and their total."""
    player: int
    items: list[tuple[str, int]] = field(default_factory=list)  # (what, points)
    total: int = 0

    def add(self, what: str, points: int) -> None:
        self.items.append((what, points))
        self.total += points


class History:
    """The actions of a game in order, as a linked list: a clone shares it and appending is O(1)."""
    __slots__ = ("_last",)

    def __init__(self) -> None:
        self._last: tuple | None = None

    def add(self, who: int, action: Any) -> History:
        h = History()
        h._last = (self._last, (who, action))
        return h

    def items(self) -> list[tuple[int, Any]]:
        out = []
        node = self._last
        while node is not None:
            node, item = node
            out.append(item)
        out.reverse()
        return out


KnownFields = dict[str, tuple[str, ...]]
"""The fields each object of a record may have, by where such objects are: "" the top level,
"rounds[]" each round, "rounds[].turns[]" each turn of each round. Every game declares its own
once, next to its parser (rules/*/record.py: FIELDS); the parser refuses any other field
(Reader.refuse_unknown), and tests/rules/test_record_fields.py checks that docs/records.md lists
exactly these."""


def unknown_field(key: Any, known: Collection[str], where: str = "") -> str:
    """What is wrong with a field `key` of the object at `where` ("" the top level), which may
    have only the fields `known`: the key, the place, the nearest known name, all of them."""
    key = key if isinstance(key, str) else repr(key)
    shown = json.dumps(key if len(key) <= 40 else key[:40] + "...", ensure_ascii=False)
    near = difflib.get_close_matches(key, list(known), n=1) if len(key) <= 40 else []
    hint = f"did you mean \"{near[0]}\"? " if near else ""
    return (f"unknown field {shown} {'in ' + where if where else 'at the top level'} "
            f"({hint}known: {', '.join(known)})")


class Reader:
    """The checks every record reader makes; each failure is a RecordError with the place."""
    def __init__(self, source: str):
        self.source = source

    def bad(self, where: str, what: str) -> RecordError:
        return RecordError(f"{self.source}: {where}: {what}")

    def whole(self, v: Any, where: str, low: int | None = None, high: int | None = None) -> int:
        if isinstance(v, bool) or not isinstance(v, int):
            raise self.bad(where, f"{v!r} is not a whole number")
        if low is not None and high is not None and not low <= v <= high:
            raise self.bad(where, f"{v} is not between {low} and {high}")
        return v

    def refuse_unknown(self, obj: dict, known: Collection[str], where: str = "") -> None:
        """RecordError for the first field of `obj` (the object at `where`, "" the top level) that
        is not one of `known`: "source: where.key: unknown field "key" in where (...)"."""
        for k in obj:
            if k not in known:
                raise self.bad(f"{where}.{k}" if where else k, unknown_field(k, known, where))

    def head(self, data: Any, fields: Collection[str], edition: str | None = None) -> dict:
        """The record's top as every reader checks it first: a JSON object of this `FORMAT`, with
        no field but `fields` (checked before the edition: a misspelt "edition" is named as such),
        and, for a reader of one game, `edition` its edition."""
        if not isinstance(data, dict):
            raise self.bad("record", "is not a JSON object")
        if data.get("format") != FORMAT:
            raise self.bad("format", f"{data.get('format')!r} is not {FORMAT!r}")
        self.refuse_unknown(data, fields)
        if edition is not None and data.get("edition") != edition:
            raise self.bad("edition", f"{data.get('edition')!r} is not {edition!r}")
        return data

    def objects(self, v: Any, where: str) -> Iterator[tuple[str, dict]]:
        """(place, object) for each item of a list that must hold objects."""
        if not isinstance(v, list):
            raise self.bad(where, "is not a list")
        for i, item in enumerate(v):
            if not isinstance(item, dict):
                raise self.bad(f"{where}[{i}]", "is not an object")
            yield f"{where}[{i}]", item


MAX_BYTES = 4 << 20     # a record or data file larger than this is not one (the longest games are ~100 KB)
MAX_DEPTH = 32          # nor is one nested deeper (records nest 6 levels)
MAX_DIGITS = 40         # nor is a number longer than this


def load_json(path: str | Path) -> Any:
    """The JSON in a record file; RecordError (one line) when it cannot be read. The size, the
    depth and every number's length are checked before anything is made of them."""
    path = Path(path)
    try:
        with open(path, "rb") as f:
            raw = f.read(MAX_BYTES + 1)
        text = raw.decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordError(f"{path}: cannot be read ({getattr(exc, 'strerror', None) or exc})") from None
    if len(raw) > MAX_BYTES:
        raise RecordError(f"{path}: larger than {MAX_BYTES >> 20} MB: not a record or data file of doodlebox")
    depth = json_depth(text)
    if depth > MAX_DEPTH:
        raise RecordError(f"{path}: nested more than {MAX_DEPTH} levels deep: not a record or data file of doodlebox")

    def number(kind):
        def check(digits: str):
            if len(digits) > MAX_DIGITS:
                raise RecordError(f"{path}: a number of {len(digits):,} characters: not a record or data file "
                                  "of doodlebox")
            return kind(digits)
        return check

    try:
        data = json.loads(text, parse_int=number(int), parse_float=number(float))
    except json.JSONDecodeError as exc:
        short = exc.pos >= len(text.rstrip()) or exc.msg.startswith("Unterminated string")
        raise RecordError(f"{path}: not JSON (line {exc.lineno}, column {exc.colno}): {exc.msg}"
                          + (" (the file looks cut short)" if short else "")) from None
    except RecursionError:     # json_depth counts brackets; this is only a second net
        raise RecordError(f"{path}: nested too deep: not a record or data file of doodlebox") from None
    return data


_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"')
_BRACKETS = re.compile(r"[\[\]{}]")


def json_depth(text: str, most: int = MAX_DEPTH) -> int:
    """How deep the brackets of JSON `text` nest (outside strings), counted up to most + 1."""
    depth = deepest = 0
    for b in _BRACKETS.findall(_STRINGS.sub("", text)):
        if b in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > most:
                    break
        else:
            depth -= 1
    return deepest


def violations_text(rp: Replay) -> str:
    """Every violation of a replay of any game (doodlebox.rules.games), for a person."""
    out = []
    for v in rp.violations:
        out.append(f"round {v.round}, {_who(rp, v.player)}, turn {v.turn} ({v.place}): {v.action}")
        out.append(f"  refused: {v.reason}  [rule {v.rule}]")
        if v.sentence:
            out.append(f"  rulebook: \"{v.sentence}\"")
        if v.legal:
            shown = v.legal[:6]
            more = f" (and {len(v.legal) - 6} more)" if len(v.legal) > 6 else ""
            out.append("  legal instead: " + "; ".join(shown) + more)
    return "\n".join(out)


def _who(rp: Replay, p: int) -> str:
    return seat(rp.record.players, p)
