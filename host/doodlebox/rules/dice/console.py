"""The dice editions' game as the console sends it (rules/dice/events.py), both ways: its events
read into a record (`ConsoleRecord`, docs/records.md "From the console's log": each turn with its
"player", "circle" only where the value circled is not the highest the drawing could circle),
and a game the engine played as the console's events (`events`; `claim`, what the console's
claim for a drawing says: the scripted table and tests/table/test_console_agrees.py compare it with the
console's). The buttons a person presses for an action are host/doodlebox/table/presses.py's."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from doodlebox.rules import datafiles
from doodlebox.rules.api import GameConfigError
from doodlebox.rules.common import FORMAT
from doodlebox.rules.console import ConsoleEvent, ConsoleRecord, players
from doodlebox.rules.dice import layout as layouts
from doodlebox.rules.dice import record as dice_record
from doodlebox.rules.dice.engine import CIRCLE, PASS, SCORING, Action, Game, State
from doodlebox.rules.dice.events import EVENTS, PIECES, PLAYERS, VARIANTS

# the `game` event's `var` -> the record's variant (solo is the players' number)
RECORD_VARIANT = {"": "", "control": "control", "solo": "", "solo+control": "control"}
assert tuple(RECORD_VARIANT) == VARIANTS
Refused = Callable[[State, dict], "dict | None"]     # a refuse the console sent before an event, or None


class DiceRecord(ConsoleRecord):
    """A dice edition's record from its events: start roads, rounds, turns (a claim or a tree)."""
    EVENTS = EVENTS

    def __init__(self, ev: ConsoleEvent, sheet: Any = None, sheet_name: str = ""):
        ed: str = ev.e["ed"]          # a dice edition's (history/console_record.py chose this record by it)
        self.players = ev.num("n", 1, PLAYERS)
        var = ev.e.get("var", "")
        if var not in RECORD_VARIANT:
            raise ev.bad(f"variant {var!r} is not one of {', '.join(repr(v) for v in RECORD_VARIANT)}")
        lay = layouts.load(ed) if sheet is None else _own(ev, ed, sheet, sheet_name)
        try:
            Game(lay, self.players, RECORD_VARIANT[var])
        except GameConfigError as exc:
            raise ev.bad(str(exc)) from None
        self.size = lay.size
        self.start: list[int] = []
        self.rounds: list[dict] = []
        self.circles: dict[str, int] = {}      # each claim's value by its turn's place
        self.data: dict[str, Any] = {"format": FORMAT, "edition": ed, "variant": RECORD_VARIANT[var],
                                     "players": players(self.players), "layout": ed if sheet is None else sheet,
                                     "start": self.start, "rounds": self.rounds}

    def take(self, ev: ConsoleEvent) -> None:
        kind, e, size, rounds = ev.kind, ev.e, self.size, self.rounds
        if kind == "start":
            col = ev.num("col", 1, size)
            if col != len(self.start) + 1:
                raise ev.bad(f"the start road of column {col}, but " + (
                    f"column {len(self.start) + 1} has none" if col > len(self.start) else f"column {col} has one"))
            if rounds:
                raise ev.bad("a start road after the first round")
            self.start.append(ev.num("d", 1, 6))
        elif kind == "roll":
            if len(self.start) < size:
                raise ev.bad(f"a round before every start road: column {len(self.start) + 1} of {size} has none")
            r = ev.num("r", 1, 10 ** 6)
            if r != len(rounds) + 1:
                raise ev.bad(f"round {r}, but the round before it was {len(rounds)}")
            column = ev.num("c", 1, 6)
            white = e.get("w")
            whites = 3 if self.players == 1 else self.players + 1
            if (not isinstance(white, list) or len(white) != whites
                    or not all(type(w) is int and 1 <= w <= 6 for w in white)):
                raise ev.bad(f"'w' is {white!r}, not {whites} white dice")
            rounds.append({"roll": {"column": column, "white": list(white)}, "turns": []})
        elif kind in ("claim", "tree"):
            if not rounds:
                raise ev.bad("no roll before it")
            r = ev.num("r", 1, 10 ** 6)
            if r != len(rounds):
                raise ev.bad(f"round {r}, but the last roll was round {len(rounds)}")
            p = ev.num("p", 0, self.players - 1)
            turns = rounds[-1]["turns"]
            place = f"rounds[{len(rounds) - 1}].turns[{len(turns)}]"
            if kind == "tree":
                turns.append({"player": p, "pass": True})
                return
            white = rounds[-1]["roll"]["white"]
            i = ev.num("i", 1, len(white))
            d = ev.num("d", 1, 6)
            if d != white[i - 1]:
                raise ev.bad(f"white die {i} is a {d}, but the roll made it a {white[i - 1]}")
            turn: dict[str, Any] = {"player": p, "die": i, "at": [ev.num("row", 1, size), ev.num("col", 1, size)]}
            if "via" in e:
                via = e["via"]
                if (not isinstance(via, list) or len(via) != 2
                        or not all(type(x) is int and 1 <= x <= size for x in via)):
                    raise ev.bad(f"'via' is {via!r}, not [row, column]")
                turn["park"] = list(via)
            if "pc" in e:
                if e["pc"] not in PIECES:
                    raise ev.bad(f"'pc' is {e['pc']!r}, not a piece ({', '.join(PIECES)})")
                if e.get("fl"):
                    raise ev.bad("a piece and a floor in one claim")
                turn["piece"] = e["pc"]
            elif e.get("fl"):
                turn["floor"] = True
            turn["circle"] = self.circles[place] = ev.num("v", 0, 99) if "v" in e else 0
            turns.append(turn)

    def so_far(self) -> dict:
        return self.data

    def record(self, source: str) -> dict:
        """Replay the record with every claim's value and keep "circle" only where it is not the
        highest value the drawing could circle (0 where nothing could be circled): docs/records.md."""
        data = self.data
        rec = dice_record.parse(data, source)
        offered: dict[str, list[int]] = {}
        dice_record.replay(rec, offered)
        for rn, rd in enumerate(data["rounds"]):
            for tn, turn in enumerate(rd["turns"]):
                place = f"rounds[{rn}].turns[{tn}]"
                if place not in self.circles:
                    continue
                could = offered.get(place, [])
                if turn["circle"] == (could[0] if could else 0):
                    del turn["circle"]
        return data

    def stream(self, label: str) -> dice_record.Stream:
        return dice_record.Stream(self.so_far(), label)


def _own(ev: ConsoleEvent, ed: str, sheet: Any, name: str) -> layouts.Layout:
    """The layout of the table's own sheet a game of edition `ed` was played on; ConsoleLogError
    (naming the sheet) when it is no layout of that edition."""
    said = f"the sheet {name!r} ({ev.e.get('sx')})"
    problems = datafiles.layout_problems(sheet)
    if problems:
        where, what = problems[0]
        raise ev.bad(f"{said} is not a sheet that can be played: {where}: {what}")
    lay = layouts.parse(sheet, said)
    if lay.edition != ed:
        raise ev.bad(f"{said} is a sheet of {lay.edition!r}, and the game is {ed!r}")
    return lay


# -- the engine's game as the console's events ------------------------------------------------------
def var(game: Game) -> str:
    """The `game` event's `var` for a game of the engine (a solo game says so)."""
    return next(v for v, rv in RECORD_VARIANT.items() if rv == game.variant and ("solo" in v) == (game.players == 1))


def claim(state: State, action: Action) -> dict[str, Any]:
    """What the console's `claim` for a drawing (`action`, in `state` before it) says, without
    the value circled."""
    out: dict[str, Any] = {"p": state.current_player(), "i": action.die, "d": state.white[action.die - 1],
                           "row": action.row, "col": action.col, "r": state.round}
    if action.via is not None:
        out["via"] = list(action.via)
    if action.kind == "draw":
        out["pc"] = action.piece
    elif action.kind == "floor":
        out["fl"] = 1
    return out


def events(state: State, g: int = 1, refused: Refused | None = None,
           sheet: tuple[str, str] | None = None) -> list[dict]:
    """The events the console sends for the game `state` has played (its history): `game`,
    `start` per column, `roll` per round, a `claim` (with the value circled) or `tree` per turn,
    one per complete turn (C5: a drawing whose value is not chosen yet sends nothing), `end` when
    the game is over. `refused(state, claim)`, asked before each claim with the engine's state
    before it, may give a `refuse` the console sent first (a die pressed that it refused).
    `sheet`: (name, hash) of the table's own sheet the game is played on (its layout), which the
    `game` event names (`sh`, `sx`)."""
    game = state.game
    shadow = game.new_state()
    out: list[dict] = [{"k": "game", "g": g, "ed": game.edition, "n": game.players, "var": var(game)}]
    if sheet is not None:
        out[0].update(sh=sheet[0], sx=sheet[1])
    history = state.history
    k = 0
    while k < len(history):
        who, a = history[k]
        if a.kind == "start":
            out.append({"k": "start", "g": g, "col": len(shadow.start_faces) + 1, "d": a.die})
        elif a.kind == "roll":
            out.append({"k": "roll", "g": g, "r": shadow.round + 1, "sp": shadow.start_player, "c": a.die,
                        "w": list(a.whites)})
        elif a.kind == "pass":
            forced = shadow.legal_actions() == [PASS]
            out.append({"k": "tree", "g": g, "r": shadow.round, "p": who, "why": "forced" if forced else "pass"})
        else:
            e = {"k": "claim", "g": g, **claim(shadow, a), "v": 0}
            refusal = refused(shadow, e) if refused is not None else None
            if refusal is not None:
                out.append(refusal)
            shadow.apply(a)
            if shadow.phase == CIRCLE:       # the value circled is the next action, in the same turn
                if k + 1 == len(history):
                    break                    # not chosen yet: the console sends nothing (C5)
                k += 1
                e["v"] = history[k][1].value
                shadow.apply(history[k][1])
            elif a.kind == "draw" and game.kind[(a.row - 1) * game.n + a.col - 1] in SCORING:
                e["v"] = shadow.sheets[who].scored[-1].value
            out.append(e)
            k += 1
            continue
        shadow.apply(a)
        k += 1
    if shadow.is_terminal():
        out.append({"k": "end", "g": g, "r": shadow.round, "why": shadow.ending[0], "p": shadow.scores()})
    return out
