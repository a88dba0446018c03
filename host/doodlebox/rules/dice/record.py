"""Game records (docs/records.md): read one, replay it through the engine, report violations.

read() raises RecordError (one line: the file, the place, what is wrong) for anything that is
not a well-formed record; replay() never raises for a well-formed one: every illegal turn is
a Violation, and the rest of the game is still checked. Stream replays a record that grows as
its game is played (live validation), with the same code.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from doodlebox.rules.common import FORMAT, KnownFields, Reader, RecordError, Replay, StreamError, Violation, load_json
from doodlebox.rules.datafiles import unknown_in_layout
from doodlebox.rules.dice import layout as layouts
from doodlebox.rules.dice.engine import CIRCLE, PASS, SCORING, Action, Game, IllegalAction, State, circle
from doodlebox.rules.dice.layout import PIECES, Layout, LayoutError
from doodlebox.rules.dice.sentences import sentence
from doodlebox.rules.dice.spec import CONTROL, MOST_PLAYERS
from doodlebox.rules.ending import read_ended

# Every field each object of a dice record may have (docs/records.md, "Every field"); any other is
# refused. The layout object is a data file with its own checker (rules/datafiles.py).
FIELDS: KnownFields = {
    "": ("format", "edition", "variant", "players", "layout", "start", "rounds", "ended", "hints", "bots"),
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
    ended_early: bool = False     # "ended": "early" (ruling G1: rules/ending.py)

    def game(self) -> Game:
        return Game(self.layout, len(self.players), self.variant)


def read(path: str | Path) -> Record:
    return parse(load_json(path), str(path))


def parse(data: Any, source: str = "record") -> Record:
    reader = Reader(source)
    bad, objects = reader.bad, reader.objects

    data = reader.head(data, FIELDS[""])
    edition = data.get("edition")
    if not isinstance(edition, str):
        raise bad("edition", f"{edition!r} is not an edition name")
    variant = data.get("variant", "")
    if variant not in CONTROL.values:
        raise bad("variant", f"{variant!r} is not a variant ({CONTROL.known()})")
    players = data.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise bad("players", "is not a list of names")
    if not 1 <= len(players) <= MOST_PLAYERS:
        raise bad("players", f"{len(players)} players: the dice editions are for 1 to {MOST_PLAYERS}")
    if "layout" not in data and edition not in layouts.DEFAULT_FILES:
        raise bad("edition", f"{edition!r} is not an edition ({', '.join(layouts.DEFAULT_FILES)}); "
                             "for a sheet of your own, give it in \"layout\"")
    spec = data.get("layout", edition)
    try:
        if isinstance(spec, dict):
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
    if data.get("hints", True) is not True:      # the console's hints were on (docs/console.md, "Hints")
        raise bad("hints", f"{data['hints']!r} is not true (the one value: hints were on at the table)")
    bots = data.get("bots", [])        # the players the PC played at the console (docs/console.md)
    if (not isinstance(bots, list) or any(type(b) is not int or not 0 <= b < len(players) for b in bots)
            or bots != sorted(set(bots))):
        raise bad("bots", f"{bots!r} is not a list of the players the PC played (0-based, each once, in order)")
    start = data.get("start")
    if not isinstance(start, list):
        raise bad("start", "is not a list of die faces, one per column")
    if len(start) > lay.size or (len(start) < lay.size and data.get("rounds")):
        raise bad("start", f"{len(start)} start rolls for {lay.size} columns"
                  + (" (a game still in setup has no rounds yet)" if len(start) < lay.size else ""))
    start = [_face(reader, v, f"start[{i}]") for i, v in enumerate(start)]
    read = _Rounds(reader, lay.size, len(players))
    rounds = [read.round(ri, w, rd) for ri, (w, rd) in enumerate(objects(data.get("rounds"), "rounds"))]
    return Record(source, edition, variant, list(players), lay, start, rounds, read_ended(data, bad))


def _face(reader: Reader, v: Any, where: str) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 6:
        raise reader.bad(where, f"{v!r} is not a die face (1-6)")
    return v


class _Rounds:
    """Reads a record's rounds and their turns (parse(); Stream, one turn at a time)."""
    def __init__(self, reader: Reader, size: int, players: int):
        self.reader, self.size, self.players = reader, size, players
        self.whites = 3 if players == 1 else players + 1
        self.last_player = players - 1

    def round(self, ri: int, w: str, rd: dict) -> Round:
        """Round `ri` (at `w`, "rounds[2]") with its turns."""
        reader, bad = self.reader, self.reader.bad
        reader.refuse_unknown(rd, FIELDS["rounds[]"], w)
        roll = rd.get("roll")
        if not isinstance(roll, dict):
            raise bad(w + ".roll", "missing, or not {\"column\": die, \"white\": [dice]}")
        reader.refuse_unknown(roll, FIELDS["rounds[].roll"], w + ".roll")
        column = _face(reader, roll.get("column"), w + ".roll.column")
        white = roll.get("white")
        if not isinstance(white, list):
            raise bad(w + ".roll.white", "is not a list of dice")
        if len(white) != self.whites:
            raise bad(w + ".roll.white", f"{len(white)} white dice; {self.players} player(s) roll {self.whites}")
        if all(type(v) is int and 1 <= v <= 6 for v in white):   # the common case, without the places
            white_t = tuple(white)
        else:
            white_t = tuple(_face(reader, v, f"{w}.roll.white[{i}]") for i, v in enumerate(white))
        listed = rd.get("turns", [])
        if type(listed) is not list:
            raise bad(w + ".turns", "is not a list")
        return Round(w, column, white_t, [self.turn(ri, ti, w, tn) for ti, tn in enumerate(listed)])

    def turn(self, ri: int, ti: int, w: str, tn: Any) -> Turn:
        """Turn `ti` of round `ri` (at `w`); the places in the file are written only for an error."""
        reader, bad, whole, size = self.reader, self.reader.bad, self.reader.whole, self.size
        if type(tn) is not dict:
            raise bad(f"{w}.turns[{ti}]", "is not an object")
        if not _TURN.issuperset(tn):
            reader.refuse_unknown(tn, FIELDS["rounds[].turns[]"], f"{w}.turns[{ti}]")
        player = tn.get("player")
        if player is not None and (type(player) is not int or not 0 <= player <= self.last_player):
            player = whole(player, f"{w}.turns[{ti}].player", 0, self.last_player)
        circled = tn.get("circle")
        if circled is not None:
            circled = whole(circled, f"{w}.turns[{ti}].circle", 0, 99)
        if tn.get("pass") is True:
            if set(tn) - {"pass", "player", "circle"}:
                raise bad(f"{w}.turns[{ti}]", "a pass takes no die and draws nothing")
            return Turn(ri, ti, PASS, player, circled)
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
        return Turn(ri, ti, Action(kind, die, at[0], at[1], piece, via), player, circled)


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
    play = _Play(rec.game().new_state(), offered)
    for face in rec.start:
        play.state.apply(Action("start", face))
    for rd in rec.rounds:
        if not play.round(rd):
            break
        for turn in rd.turns:
            play.turn(turn)
    return Replay(rec, play.state, play.violations, play.state.is_terminal())


class _Play:
    """A record's rounds played through the engine in order, one round or turn at a time
    (replay(); Stream as the record grows): a round begun closes the one before it."""
    def __init__(self, state: State, offered: dict[str, list[int]] | None = None):
        self.state = state
        self.offered = offered
        self.violations: list[Violation] = []
        self.rn = 0                       # the round being played (1-based), 0 before the first
        self.rd: Round | None = None
        self.tn = 0                       # its turns taken so far
        self.full = False                 # every player has acted: its later turns are not played
        self.over = False                 # a round after the game's end: nothing after it is played

    def round(self, rd: Round) -> bool:
        """Begin round `rd` (the round before it is over: a player still to act in it is a
        violation, and loses the turn); False, and a violation, when the game was already over."""
        state, ed = self.state, self.state.game.edition
        if self.rd is not None and state.phase == "turn":
            missing = state.game.players - state.turn
            self.violations.append(Violation(self.rn, state.current_player(), state.turn + 1, self.rd.place, "-",
                                             "turn", f"round {self.rn} ends with {missing} player(s) still to act",
                                             sentence("turn", ed), state.legal_text()))
            while state.phase == "turn":
                _skip(state)
        self.rn, self.rd, self.tn, self.full = self.rn + 1, rd, 0, False
        if state.is_terminal():
            self.violations.append(Violation(self.rn, -1, 0, rd.place, "roll", "over",
                                             f"the game ended after round {state.round} ({', '.join(state.ending)}); "
                                             f"round {self.rn} should not have been played", sentence("over", ed)))
            self.over = True
            return False
        state.apply(Action("roll", rd.column, whites=rd.white))
        return True

    def turn(self, turn: Turn) -> None:
        """The next turn of the round being played."""
        if self.over or self.full:
            return
        state, rn, violations, offered = self.state, self.rn, self.violations, self.offered
        self.tn += 1
        tn = self.tn
        if state.phase != "turn":
            violations.append(Violation(rn, -1, tn, turn.place, _show(turn.action), "turn",
                                        f"every player has already acted in round {rn}",
                                        sentence("turn", state.game.edition)))
            self.full = True
            return
        try:
            state.check(turn.action, turn.player)
        except IllegalAction as exc:
            violations.append(Violation(rn, state.current_player(), tn, turn.place, _show(turn.action), exc.rule,
                                        exc.reason, exc.sentence, exc.legal))
            _skip(state)
            return
        p = state.current_player() if turn.circle is not None or offered is not None else -1
        state.apply_unchecked(turn.action)
        if state.phase == CIRCLE:
            if offered is not None:
                offered[turn.place] = state.circle_choices()
            _circle(state, rn, tn, turn, violations)
        elif offered is not None or turn.circle is not None:
            _no_choice(state, rn, tn, turn, p, violations, offered)


class Stream:
    """A record that grows as its game is played (live validation: logger/verdicts.py makes the
    console's events a record as they come), replayed as it grows. update(data) takes only what
    was added since the last update, start faces, rounds and turns at the end of the last round,
    and plays it on the state kept, with the code replay(parse(data)) runs (_Rounds, _Play), so
    the two cannot disagree. A record changed in any other way is a StreamError: replay it
    whole, and start a new Stream if it is to grow again."""
    def __init__(self, data: dict, source: str = "record"):
        self.source = source
        self._start(data)

    def _start(self, data: dict) -> None:
        """The record's setup: the game and its start faces, replayed whole (no round yet)."""
        self.rec = parse(dict(data, rounds=[]), self.source)
        self.read = _Rounds(Reader(self.source), self.rec.layout.size, len(self.rec.players))
        self.play = _Play(replay(self.rec).state)

    def update(self, data: dict) -> Replay:
        """The replay of the record `data` now is: the last one's and what was added since. The
        Replay shares this stream's state and violations: read them, do not change them."""
        rec, play = self.rec, self.play
        start, rounds = data.get("start"), data.get("rounds")
        if not isinstance(start, list) or not isinstance(rounds, list) or len(rounds) < len(rec.rounds):
            raise StreamError(f"{self.source}: the record did not grow (its start or rounds)")
        if not rec.rounds and start != rec.start:
            self._start(data)                          # still in setup: cheap
            rec, play = self.rec, self.play
        elif start != rec.start:
            raise StreamError(f"{self.source}: the start faces changed after the first round")
        taken = len(rec.rounds)
        if len(rounds) > taken and len(rec.start) != rec.layout.size:
            raise StreamError(f"{self.source}: a round before every start face")
        if taken:                                       # the last round taken, with any turns added to it
            rd, listed = rec.rounds[-1], rounds[taken - 1].get("turns", [])
            if type(listed) is not list or len(listed) < len(rd.turns):
                raise StreamError(f"{self.source}: {rd.place}: turns taken back")
            for ti in range(len(rd.turns), len(listed)):
                turn = self.read.turn(taken - 1, ti, rd.place, listed[ti])
                rd.turns.append(turn)
                play.turn(turn)
        for ri in range(taken, len(rounds)):
            w = f"rounds[{ri}]"
            if not isinstance(rounds[ri], dict):
                raise self.read.reader.bad(w, "is not an object")
            rd = self.read.round(ri, w, rounds[ri])
            rec.rounds.append(rd)
            if not play.over and play.round(rd):
                for turn in rd.turns:
                    play.turn(turn)
        return Replay(rec, play.state, play.violations, play.state.is_terminal())


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
