"""A game the console played, from its stored events (docs/protocol.md), as a doodlebox-record/1
(docs/records.md, "From the console's log"): what `doodlebox export` writes and live validation replays.
A game resumed after a power cut is one game: the earlier boot's events up to the resume's `at`,
then the later boot's after its `resume` (store.GameLog).

The events are taken as the console sent them; only what cannot make a record at all (a claim
before its roll, an event of another game, a missing start road, a field that is not there) is
refused, with an InputError naming the game and the event. Everything a player may have done
wrong is left to the rules engine: the record is written so that validation finds it.
"""
from __future__ import annotations

from typing import Any

from doodlebox.errors import InputError
from doodlebox.rules.api import GameConfigError
from doodlebox.rules.common import FORMAT
from doodlebox.rules.dice import layout as layouts
from doodlebox.rules.dice import record as dice_record
from doodlebox.rules.dice.engine import Game
from doodlebox.rules.dice.game import EDITIONS
from doodlebox.rules.dice.layout import PIECES
from doodlebox.store import GameLog

VARIANTS = {"": "", "control": "control", "solo": "", "solo+control": "control"}   # var -> record variant
KINDS = ("game", "start", "roll", "claim", "tree", "refuse", "end", "resume")


class ConsoleLogError(InputError):
    """A game whose events cannot make a record: "game 3 (console c0ffee boot 2): event 17
    (claim): no roll before it"."""


def to_record(log: GameLog) -> dict:
    """The record of one game the console played (players "P1".."Pn", each turn with its
    "player"; "circle" only where the value circled is not the highest the drawing could
    circle, as the engine finds it). ConsoleLogError when the events cannot make one."""
    data, circles = _convert(log)
    _drop_default_circles(log, data, circles)
    return data


def _convert(log: GameLog) -> tuple[dict, dict[str, int]]:
    """The record with every claim's value, and each claim's value by its turn's place."""
    if not log.events:
        raise ConsoleLogError(f"{log.label()}: no events stored")
    data: dict[str, Any] = {}
    rounds: list[dict] = []
    circles: dict[str, int] = {}
    start: list[int] = []
    size = players = 0
    ended = None
    origins = log.origins()
    part = origins[0] if origins else (log.boot, log.g)
    for n, (seq, e) in enumerate(log.events):
        kind = e.get("k") if isinstance(e, dict) else None
        boot, g = origins[n]
        where = f"{log.label()}: event {seq}" + (f" of boot {boot}" if boot != log.boot else "") + f" ({kind})"

        def bad(what: str, where: str = where) -> ConsoleLogError:
            return ConsoleLogError(f"{where}: {what}")

        def field(name: str, low: int, high: int, e: dict = e, bad=bad) -> int:
            v = e.get(name)
            if isinstance(v, bool) or not isinstance(v, int):
                raise bad(f"no {name!r}" if v is None else f"{name!r} is {v!r}, not a whole number")
            if not low <= v <= high:
                raise bad(f"{name!r} is {v}, not {low}..{high}")
            return v

        if kind not in KINDS:
            raise bad(f"not an event of a dice game (known: {', '.join(KINDS)})")
        if e.get("g") != g:
            raise bad(f"an event of game {e.get('g')} of the boot, not of game {g}")
        if (boot, g) != part:    # the game goes on in a later boot: it begins with its resume
            if kind != "resume" or e.get("of") != list(part):
                raise bad(f"game {g} of boot {boot} goes on with game {part[1]} of boot {part[0]} "
                          "without a resume event saying so")
            part = (boot, g)
            continue
        if kind == "resume":
            raise bad(f"it resumes game {_of(e)[1]} of boot {_of(e)[0]}, which is not stored" if n == 0
                      else "a resume in the middle of the game's own events")
        if n == 0:
            if kind != "game":
                raise bad("the game's first event is not its start (`game`): its start was not stored")
            ed = e.get("ed")
            if ed not in EDITIONS:
                raise bad(f"{ed!r} is not a dice edition ({', '.join(EDITIONS)})")
            players = field("n", 1, 5)
            var = e.get("var", "")
            if var not in VARIANTS:
                raise bad(f"variant {var!r} is not one of {', '.join(repr(v) for v in VARIANTS)}")
            lay = layouts.load(ed)
            try:
                Game(lay, players, VARIANTS[var])
            except GameConfigError as exc:
                raise bad(str(exc)) from None
            size = lay.size
            data.update({"format": FORMAT, "edition": ed, "variant": VARIANTS[var],
                         "players": [f"P{i + 1}" for i in range(players)], "layout": ed,
                         "start": start, "rounds": rounds})
            continue
        if kind == "game":
            raise bad("a second start of the same game")
        if ended is not None and kind != "refuse":
            raise bad(f"after the game's end (event {ended})")
        if kind == "start":
            col = field("col", 1, size)
            if col != len(start) + 1:
                raise bad(f"the start road of column {col}, but "
                          + (f"column {len(start) + 1} has none" if col > len(start) else f"column {col} has one"))
            if rounds:
                raise bad("a start road after the first round")
            start.append(field("d", 1, 6))
        elif kind == "roll":
            if len(start) < size:
                raise bad(f"a round before every start road: column {len(start) + 1} of {size} has none")
            r = field("r", 1, 10 ** 6)
            if r != len(rounds) + 1:
                raise bad(f"round {r}, but the round before it was {len(rounds)}")
            column = field("c", 1, 6)
            white = e.get("w")
            whites = 3 if players == 1 else players + 1
            if (not isinstance(white, list) or len(white) != whites
                    or not all(type(w) is int and 1 <= w <= 6 for w in white)):
                raise bad(f"'w' is {white!r}, not {whites} white dice")
            rounds.append({"roll": {"column": column, "white": list(white)}, "turns": []})
        elif kind in ("claim", "tree"):
            if not rounds:
                raise bad("no roll before it")
            r = field("r", 1, 10 ** 6)
            if r != len(rounds):
                raise bad(f"round {r}, but the last roll was round {len(rounds)}")
            p = field("p", 0, players - 1)
            turns = rounds[-1]["turns"]
            place = f"rounds[{len(rounds) - 1}].turns[{len(turns)}]"
            if kind == "tree":
                turns.append({"player": p, "pass": True})
                continue
            i = field("i", 1, len(rounds[-1]["roll"]["white"]))
            d = field("d", 1, 6)
            if d != rounds[-1]["roll"]["white"][i - 1]:
                raise bad(f"white die {i} is a {d}, but the roll made it a {rounds[-1]['roll']['white'][i - 1]}")
            turn: dict[str, Any] = {"player": p, "die": i, "at": [field("row", 1, size), field("col", 1, size)]}
            if "via" in e:
                via = e["via"]
                if (not isinstance(via, list) or len(via) != 2
                        or not all(type(x) is int and 1 <= x <= size for x in via)):
                    raise bad(f"'via' is {via!r}, not [row, column]")
                turn["park"] = list(via)
            if "pc" in e:
                if e["pc"] not in PIECES:
                    raise bad(f"'pc' is {e['pc']!r}, not a piece ({', '.join(PIECES)})")
                if e.get("fl"):
                    raise bad("a piece and a floor in one claim")
                turn["piece"] = e["pc"]
            elif e.get("fl"):
                turn["floor"] = True
            turn["circle"] = circles[place] = field("v", 0, 99) if "v" in e else 0
            turns.append(turn)
        elif kind == "end":
            ended = seq
    return data, circles


def _of(e: dict) -> tuple:
    of = e.get("of")
    return tuple(of) if isinstance(of, list) and len(of) == 2 else ("?", "?")


def _drop_default_circles(log: GameLog, data: dict, circles: dict[str, int]) -> None:
    """Replay the record with every claim's value and keep "circle" only where it is not the
    highest value the drawing could circle (0 where nothing could be circled): docs/records.md."""
    rec = dice_record.parse(data, log.label())
    offered: dict[str, list[int]] = {}
    dice_record.replay(rec, offered)
    for rn, rd in enumerate(data["rounds"]):
        for tn, turn in enumerate(rd["turns"]):
            place = f"rounds[{rn}].turns[{tn}]"
            if place not in circles:
                continue
            could = offered.get(place, [])
            if turn["circle"] == (could[0] if could else 0):
                del turn["circle"]
