"""Game records (docs/records.md): read one, replay it through the engine, report violations.

read() raises RecordError (one line: the file, the place, what is wrong) for anything that is
not a well-formed record; replay() never raises for a well-formed one: every illegal turn is
a Violation, and the rest of the game is still checked.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from doodlebox.rules.common import FORMAT, KnownFields, Reader, RecordError, Replay, Violation, load_json
from doodlebox.rules.dice import layout as layouts
from doodlebox.rules.dice.engine import CIRCLE, PASS, SCORING, Action, Game, IllegalAction, State, circle
from doodlebox.rules.dice.layout import PIECES, Layout, LayoutError
from doodlebox.rules.dice.sentences import sentence

# Every field each object of a dice record may have (docs/records.md, "Every field"); any other is
# refused. The layout object is a data file with its own checker (rules/datafiles.py).
FIELDS: KnownFields = {
    "": ("format", "edition", "variant", "players", "layout", "start", "rounds"),
    "rounds[]": ("roll", "turns"),
    "rounds[].roll": ("column", "white"),
    "rounds[].turns[]": ("player", "die", "at", "piece", "floor", "park", "pass", "circle"),
}
_TURN = frozenset(FIELDS["rounds[].turns[]"])


@dataclass(slots=True)
class Turn:
    round: int            # where in the file: rounds[round].turns[index], 0-based
    index: int
    action: Action
    player: int | None    # as written in the record, if it says
    circle: int | None = None   # the value circled, if the record says (ruling R10)

    @property
    def place(self) -> str:
        """Where in the file, e.g. rounds[2].turns[1]."""
        return f"rounds[{self.round}].turns[{self.index}]"


@dataclass
class Round:
    place: str
    column: int
    white: tuple[int, ...]
    turns: list[Turn]


@dataclass
class Record:
    source: str
    edition: str
    variant: str
    players: list[str]
    layout: Layout
    start: list[int]
    rounds: list[Round]

    def game(self) -> Game:
        return Game(self.layout, len(self.players), self.variant)


def read(path: str | Path) -> Record:
    return parse(load_json(path), str(path))


def parse(data: Any, source: str = "record") -> Record:
    reader = Reader(source)
    bad, whole, objects = reader.bad, reader.whole, reader.objects

    def face(v: Any, where: str) -> int:
        if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 6:
            raise bad(where, f"{v!r} is not a die face (1-6)")
        return v

    if not isinstance(data, dict):
        raise bad("record", "is not a JSON object")
    if data.get("format") != FORMAT:
        raise bad("format", f"{data.get('format')!r} is not {FORMAT!r}")
    reader.refuse_unknown(data, FIELDS[""])
    edition = data.get("edition")
    if not isinstance(edition, str):
        raise bad("edition", f"{edition!r} is not an edition name")
    variant = data.get("variant", "")
    if variant not in ("", "control"):
        raise bad("variant", f"{variant!r} is not '' or 'control'")
    players = data.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise bad("players", "is not a list of names")
    if not 1 <= len(players) <= 5:
        raise bad("players", f"{len(players)} players: the dice editions are for 1 to 5")
    if "layout" not in data and edition not in layouts.DEFAULT_FILES:
        raise bad("edition", f"{edition!r} is not an edition ({', '.join(layouts.DEFAULT_FILES)}); "
                             "for a sheet of your own, give it in \"layout\"")
    spec = data.get("layout", edition)
    try:
        if isinstance(spec, dict):
            from doodlebox.rules.datafiles import unknown_in_layout

            unknown = unknown_in_layout(spec)
            if unknown:
                raise LayoutError(f"{source}: layout", unknown + layouts.check(spec))
            lay = layouts.parse(spec, f"{source}: layout")
        elif isinstance(spec, str) and spec in layouts.DEFAULT_FILES:
            lay = layouts.load(spec)
        else:
            raise bad("layout", f"{spec!r} is not a default layout ({', '.join(layouts.DEFAULT_FILES)}) "
                                "or a layout object")
    except LayoutError as exc:
        raise RecordError(str(exc)) from None
    if lay.edition != edition:
        raise bad("layout", f"the layout is for {lay.edition!r}, the record for {edition!r}")
    try:
        Game(lay, len(players), variant)
    except ValueError as exc:
        raise bad("players" if "player" in str(exc) or "solo" in str(exc) else "variant", str(exc)) from None
    start = data.get("start")
    if not isinstance(start, list):
        raise bad("start", "is not a list of die faces, one per column")
    if len(start) > lay.size or (len(start) < lay.size and data.get("rounds")):
        raise bad("start", f"{len(start)} start rolls for {lay.size} columns"
                  + (" (a game still in setup has no rounds yet)" if len(start) < lay.size else ""))
    start = [face(v, f"start[{i}]") for i, v in enumerate(start)]
    whites = 3 if len(players) == 1 else len(players) + 1
    rounds = []
    size = lay.size
    last_player = len(players) - 1
    for ri, (w, rd) in enumerate(objects(data.get("rounds"), "rounds")):
        reader.refuse_unknown(rd, FIELDS["rounds[]"], w)
        roll = rd.get("roll")
        if not isinstance(roll, dict):
            raise bad(w + ".roll", "missing, or not {\"column\": die, \"white\": [dice]}")
        reader.refuse_unknown(roll, FIELDS["rounds[].roll"], w + ".roll")
        column = face(roll.get("column"), w + ".roll.column")
        white = roll.get("white")
        if not isinstance(white, list):
            raise bad(w + ".roll.white", "is not a list of dice")
        if len(white) != whites:
            raise bad(w + ".roll.white", f"{len(white)} white dice; {len(players)} player(s) roll {whites}")
        if all(type(v) is int and 1 <= v <= 6 for v in white):   # the common case, without the places
            white_t = tuple(white)
        else:
            white_t = tuple(face(v, f"{w}.roll.white[{i}]") for i, v in enumerate(white))
        turns = []
        listed = rd.get("turns", [])
        if type(listed) is not list:
            raise bad(w + ".turns", "is not a list")
        for ti, tn in enumerate(listed):   # the places in the file are written only for an error
            if type(tn) is not dict:
                raise bad(f"{w}.turns[{ti}]", "is not an object")
            if not _TURN.issuperset(tn):
                reader.refuse_unknown(tn, FIELDS["rounds[].turns[]"], f"{w}.turns[{ti}]")
            player = tn.get("player")
            if player is not None and (type(player) is not int or not 0 <= player <= last_player):
                player = whole(player, f"{w}.turns[{ti}].player", 0, last_player)
            circled = tn.get("circle")
            if circled is not None:
                circled = whole(circled, f"{w}.turns[{ti}].circle", 0, 99)
            if tn.get("pass") is True:
                if set(tn) - {"pass", "player", "circle"}:
                    raise bad(f"{w}.turns[{ti}]", "a pass takes no die and draws nothing")
                turns.append(Turn(ri, ti, PASS, player, circled))
                continue
            die = tn.get("die")
            if type(die) is not int or not 1 <= die <= 99:   # (the common case without a call)
                die = whole(die, f"{w}.turns[{ti}].die", 1, 99)
            at = tn.get("at")
            if not (type(at) is list and len(at) == 2 and type(at[0]) is int and type(at[1]) is int
                    and 1 <= at[0] <= size and 1 <= at[1] <= size):
                at = _square(at, f"{w}.turns[{ti}].at", size, bad)
            via = _square(tn["park"], f"{w}.turns[{ti}].park", size, bad) if "park" in tn else None
            if tn.get("floor") is True:
                if "piece" in tn:
                    raise bad(f"{w}.turns[{ti}]", "a floor is not a piece: give one or the other")
                kind, piece = "floor", ""
            elif "piece" in tn:
                kind, piece = "draw", tn["piece"]
                if piece not in PIECES:
                    raise bad(f"{w}.turns[{ti}].piece", f"{piece!r} is not a piece ({', '.join(PIECES)})")
            else:
                kind, piece = "house", ""
            turns.append(Turn(ri, ti, Action(kind, die, at[0], at[1], piece, via), player, circled))
        rounds.append(Round(w, column, white_t, turns))
    return Record(source, edition, variant, list(players), lay, start, rounds)


def _square(v: Any, where: str, size: int, bad) -> tuple[int, int]:
    if type(v) is list and len(v) == 2 and type(v[0]) is int and type(v[1]) is int \
            and 1 <= v[0] <= size and 1 <= v[1] <= size:   # the common case, quickly
        return v[0], v[1]
    if (not isinstance(v, list) or len(v) != 2
            or not all(isinstance(x, int) and not isinstance(x, bool) for x in v)):
        raise bad(where, f"{v!r} is not [row, column]")
    if not all(1 <= x <= size for x in v):
        raise bad(where, f"{v} is off the {size}x{size} sheet")
    return v[0], v[1]


def replay(rec: Record, offered: dict[str, list[int]] | None = None) -> Replay:
    """Play the record through the engine; every illegal turn becomes a Violation. `offered`,
    when given, gets for each turn that drew in a hotel, shop or sky scraper (by its place) the
    values it could circle, highest first ([] when none was free)."""
    game = rec.game()
    state = game.new_state()
    ed = game.edition
    violations: list[Violation] = []
    for face in rec.start:
        state.apply(Action("start", face))
    for rn, rd in enumerate(rec.rounds, start=1):
        if state.is_terminal():
            violations.append(Violation(rn, -1, 0, rd.place, "roll", "over",
                                        f"the game ended after round {state.round} ({', '.join(state.ending)}); "
                                        f"round {rn} should not have been played", sentence("over", ed)))
            break
        state.apply(Action("roll", rd.column, whites=rd.white))
        for tn, turn in enumerate(rd.turns, start=1):
            if state.phase != "turn":
                violations.append(Violation(rn, -1, tn, turn.place, _show(turn.action), "turn",
                                            f"every player has already acted in round {rn}", sentence("turn", ed)))
                break
            try:
                state.check(turn.action, turn.player)
            except IllegalAction as exc:
                violations.append(Violation(rn, state.current_player(), tn, turn.place, _show(turn.action), exc.rule,
                                            exc.reason, exc.sentence, exc.legal))
                _skip(state)
                continue
            p = state.current_player() if turn.circle is not None or offered is not None else -1
            state.apply_unchecked(turn.action)
            if state.phase == CIRCLE:
                if offered is not None:
                    offered[turn.place] = state.circle_choices()
                _circle(state, rn, tn, turn, violations)
            elif offered is not None or turn.circle is not None:
                _no_choice(state, rn, tn, turn, p, violations, offered)
        if state.phase == "turn":
            missing = rec.game().players - state.turn
            if rn < len(rec.rounds):
                violations.append(Violation(rn, state.current_player(), state.turn + 1, rd.place, "-", "turn",
                                            f"round {rn} ends with {missing} player(s) still to act",
                                            sentence("turn", ed), state.legal_text()))
                while state.phase == "turn":
                    _skip(state)
    finished = state.is_terminal()
    return Replay(rec, state, violations, finished)


def _circle(state: State, rn: int, tn: int, turn: Turn, violations: list[Violation]) -> None:
    """The value circled for the drawing just made, which reaches several (R10): the record's,
    else the highest. A value the drawing may not circle is a violation, and the highest is
    circled instead so that the rest of the game is still checked. The replay's history holds
    it as the engine would: a circle(value) after its drawing, so that the history played again
    on a new state is the same game."""
    choices = state.circle_choices()
    v = choices[0] if turn.circle is None else turn.circle
    if v not in choices:
        p = state.current_player()
        try:
            state.check(circle(v))
        except IllegalAction as exc:
            violations.append(Violation(rn, p, tn, turn.place, f"{turn.action}, circle {v}", exc.rule, exc.reason,
                                        exc.sentence, exc.legal))
        v = choices[0]
    state.apply_unchecked(circle(v))


def _no_choice(state: State, rn: int, tn: int, turn: Turn, p: int, violations: list[Violation],
               offered: dict[str, list[int]] | None = None) -> None:
    """A "circle" on a turn that had no value to choose: fine when it says what was circled (0
    for nothing), else a violation."""
    a = turn.action
    g = state.game
    scored = a.kind == "draw" and g.kind[(a.row - 1) * g.n + a.col - 1] in SCORING
    got = state.sheets[p].scored[-1].value if scored else 0
    if scored and offered is not None:
        offered[turn.place] = [got] if got else []
    if turn.circle is None or turn.circle == got:
        return
    lay = g.layout
    if not scored:
        why = f"this turn circles nothing (it scores no {lay.word('hotel')}, {lay.word('shop')} or " \
              f"{lay.word('skyscraper')})"
    elif got:
        why = f"the drawing could circle only {got}"
    else:
        why = "no value was free for the drawing: nothing is circled"
    violations.append(Violation(rn, p, tn, turn.place, f"{a}, circle {turn.circle}", "circle",
                                f"{why}; the record says {turn.circle}", sentence("circle", g.edition),
                                [f"circle {got}" if got else "no \"circle\" (or 0)"]))


def _skip(state: State) -> None:
    """The player to act loses the turn (their illegal action is not applied)."""
    state.turn += 1
    if state.turn == state.game.players:
        state._end_round()


def _show(a: Action) -> str:
    return str(a)


def from_state(state: State, players: list[str]) -> dict:
    """The record of a game played on the engine (its history), as a JSON object."""
    g = state.game
    start: list[int] = []
    rounds: list[dict] = []
    scored = [0] * g.players   # each player's drawings scored so far: their sheet's scored items in order
    for who, a in state.history:
        if a.kind == "start":
            start.append(a.die)
        elif a.kind == "roll":
            rounds.append({"roll": {"column": a.die, "white": list(a.whites)}, "turns": []})
        elif a.kind == "pass":
            rounds[-1]["turns"].append({"pass": True})
        elif a.kind == "circle":
            pass     # written with its drawing, below
        else:
            t: dict[str, Any] = {"die": a.die, "at": [a.row, a.col]}
            if a.via is not None:
                t["park"] = list(a.via)
            if a.kind == "draw":
                t["piece"] = a.piece
                if g.kind[(a.row - 1) * g.n + a.col - 1] in SCORING:
                    items = state.sheets[who].scored
                    if scored[who] < len(items):   # (not while its value is still being chosen)
                        item = items[scored[who]]
                        if item.value != item.top:
                            t["circle"] = item.value
                    scored[who] += 1
            elif a.kind == "floor":
                t["floor"] = True
            rounds[-1]["turns"].append(t)
    return {"format": FORMAT, "edition": g.edition, "variant": g.variant, "players": list(players),
            "layout": g.edition, "start": start, "rounds": rounds}
