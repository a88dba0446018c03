"""A game the console played, from its stored events (docs/protocol.md), as a doodlebox-record/1:
what `doodlebox export` writes and live validation replays. The dice editions' records are
docs/records.md ("From the console's log"), Deadly Doodles' docs/deadly-doodles.md and Doodle
Puzzle's docs/doodle-puzzle.md (each "From the console's log"). A game resumed after a power cut
is one game: the earlier boot's events up to the resume's `at`, then the later boot's after its
`resume` (store.GameLog).

The events are taken one at a time (ConsoleGame), the record growing as they come: to_record()
takes a whole log, live validation (livegame.py) each event as it is stored, handing the record
so far to its game's Stream (rules/*/record.py), which replays only what was added with the code
that replays a whole record.

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
from doodlebox.rules.deadly import deck as decks
from doodlebox.rules.deadly import record as deadly_record
from doodlebox.rules.deadly.deck import TRAP
from doodlebox.rules.deadly.tallies import FIELDS as TALLY_FIELDS
from doodlebox.rules.dice import layout as layouts
from doodlebox.rules.dice import record as dice_record
from doodlebox.rules.dice.engine import Game
from doodlebox.rules.dice.game import EDITIONS
from doodlebox.rules.dice.layout import PIECES
from doodlebox.rules.puzzle import record as puzzle_record
from doodlebox.store import GameLog

VARIANTS = {"": "", "control": "control", "solo": "", "solo+control": "control"}   # var -> record variant
COMMON = ("game", "refuse", "end", "resume")
KINDS = {"dice": COMMON + ("start", "roll", "claim", "tree"),
         "deadly": COMMON + ("reveal", "trap", "draw", "done", "tally"),
         "puzzle": COMMON + ("roles", "subject", "timer", "place", "mischief", "guess", "challenge")}
GAME_NAMES = {"dice": "a dice game", "deadly": "Deadly Doodles", "puzzle": "Doodle Puzzle"}
EVERY_KIND = tuple(dict.fromkeys(k for kinds in KINDS.values() for k in kinds))
# Deadly Doodles
DEADLY_PLAYERS, DEADLY_ROUNDS = 4, 7
MAPS = ("a", "b")
RECORDING = ("full", "tally")
ROOMS = frozenset(f"{c}{r}" for c in "ABCDEF" for r in range(1, 7))
SIDES = "NESW"
# Doodle Puzzle
ROLES = {"S": "star", "D": "drawy", "B": "baddy", "G": "guessy"}
PUZZLE_VARIANTS = ("", "behave", "showdown")
SUBJECTS = ("standard", "beginner")
STEPS = ("roles", "subject", "timer", "place", "mischief", "guess", "challenge")   # a round's events in order


class ConsoleLogError(InputError):
    """A game whose events cannot make a record: "game 3 (console c0ffee boot 2): event 17
    (claim): no roll before it"."""


class _Event:
    """One stored event, and how to refuse it in one line naming the game and the event."""

    def __init__(self, where: str, seq: int, kind: str, e: dict):
        self.where, self.seq, self.kind, self.e = where, seq, kind, e

    def bad(self, what: str) -> ConsoleLogError:
        return ConsoleLogError(f"{self.where}: {what}")

    def num(self, name: str, low: int, high: int) -> int:
        v = self.e.get(name)
        if isinstance(v, bool) or not isinstance(v, int):
            raise self.bad(f"no {name!r}" if v is None else f"{name!r} is {v!r}, not a whole number")
        if not low <= v <= high:
            raise self.bad(f"{name!r} is {v}, not {low}..{high}")
        return v

    def word(self, name: str, words: tuple[str, ...]) -> str:
        v = self.e.get(name)
        if v not in words:
            raise self.bad(f"no {name!r}" if v is None
                           else f"{name!r} is {v!r}, not one of {', '.join(repr(w) for w in words)}")
        return v

    def ints(self, name: str, count: tuple[int, int], low: int, high: int) -> list[int]:
        v = self.e.get(name)
        if (not isinstance(v, list) or not count[0] <= len(v) <= count[1]
                or not all(type(x) is int and low <= x <= high for x in v)):
            size = f"{count[0]}" if count[0] == count[1] else f"{count[0]} to {count[1]}"
            raise self.bad(f"no {name!r}" if v is None else f"{name!r} is {v!r}, not {size} numbers {low}..{high}")
        return list(v)


def to_record(log: GameLog) -> dict:
    """The record of one game the console played (players "P1".."Pn"): a dice edition's (each
    turn with its "player"; "circle" only where the value circled is not the highest the drawing
    could circle, as the engine finds it), Deadly Doodles' or Doodle Puzzle's. ConsoleLogError
    when the events cannot make one."""
    return game_of(log).record()


def game_of(log: GameLog) -> ConsoleGame:
    """A log's events taken by a ConsoleGame (ConsoleLogError as to_record())."""
    if not log.events:
        raise ConsoleLogError(f"{log.label()}: no events stored")
    origins = log.origins()
    game = ConsoleGame(log.label(), log.boot, origins[0] if origins else (log.boot, log.g))
    for n, (seq, e) in enumerate(log.events):
        game.take(seq, e, origins[n])
    return game


RecordStream = dice_record.Stream | deadly_record.Stream | puzzle_record.Stream   # a game family's Stream


class ConsoleGame:
    """One game the console played, taken event by event in the order the store holds them
    (`label`: GameLog.label(); `boot`: the boot it is now in; `first`: (boot, g) of its first
    part): each event checked as it comes (ConsoleLogError naming it), the record built as it
    goes. record() is the record, so_far() the record as a Stream replays it while the game is
    played."""

    def __init__(self, label: str, boot: int, first: tuple[int, int]):
        self.label, self.boot, self.part = label, boot, first
        self.game: _Dice | _Deadly | _Puzzle | None = None
        self.ended: int | None = None
        self.taken = 0

    def take(self, seq: int, e: dict, origin: tuple[int, int]) -> None:
        """Event `seq` of the boot and game `origin`; ConsoleLogError when it cannot be part of
        the record (nothing can be taken after that)."""
        n, self.taken = self.taken, self.taken + 1
        game = self.game
        kind = e.get("k") if isinstance(e, dict) else None
        boot, g = origin
        ev = _Event(f"{self.label}: event {seq}" + (f" of boot {boot}" if boot != self.boot else "") + f" ({kind})",
                    seq, str(kind), e if isinstance(e, dict) else {})
        if kind == "refused":      # the host stored what it could not take in its place (link/session.py)
            raise ev.bad(f"the host refused the console's frame ({e.get('why')}): {str(e.get('frame'))[:160]}")
        known = KINDS[game.KIND] if game is not None else EVERY_KIND
        if kind not in known:
            raise ev.bad(f"not an event of {GAME_NAMES[game.KIND] if game else 'any game'} "
                         f"(known: {', '.join(known)})")
        if e.get("g") != g:
            raise ev.bad(f"an event of game {e.get('g')} of the boot, not of game {g}")
        if (boot, g) != self.part:    # the game goes on in a later boot: it begins with its resume
            if kind != "resume" or e.get("of") != list(self.part):
                raise ev.bad(f"game {g} of boot {boot} goes on with game {self.part[1]} of boot {self.part[0]} "
                             "without a resume event saying so")
            self.part = (boot, g)
            return
        if kind == "resume":
            raise ev.bad(f"it resumes game {_of(e)[1]} of boot {_of(e)[0]}, which is not stored" if n == 0
                         else "a resume in the middle of the game's own events")
        if game is None:
            if kind != "game":
                raise ev.bad("the game's first event is not its start (`game`): its start was not stored")
            ed = e.get("ed")
            self.game = _Deadly(ev) if ed == "deadly" else _Puzzle(ev) if ed == "puzzle" else _Dice(ev)
            return
        if kind == "game":
            raise ev.bad("a second start of the same game")
        if self.ended is not None and kind != "refuse":
            raise ev.bad(f"after the game's end (event {self.ended})")
        if kind == "end":
            self.ended = seq
        elif kind != "refuse":       # a refused press changed nothing
            game.take(ev)

    def record(self) -> dict:
        """The record of the events taken."""
        assert self.game is not None
        return self.game.record(self.label)

    def so_far(self) -> dict:
        """The record of the events taken as its game's Stream replays it, made cheaply: the same
        replay as record()'s (a dice claim's value circled is kept even where it is the highest,
        which the replay circles anyway), and only ever grown by take() while the game is played."""
        assert self.game is not None
        return self.game.so_far()

    def stream(self) -> RecordStream:
        """A Stream of this game's record (rules/*/record.py), begun with the record so far."""
        assert self.game is not None
        family = {"dice": dice_record, "deadly": deadly_record, "puzzle": puzzle_record}[self.game.KIND]
        return family.Stream(self.so_far(), self.label)


def _of(e: dict) -> tuple:
    of = e.get("of")
    return tuple(of) if isinstance(of, list) and len(of) == 2 else ("?", "?")


def _players(n: int) -> list[str]:
    return [f"P{i + 1}" for i in range(n)]


# -- the dice editions ------------------------------------------------------------------------------
class _Dice:
    KIND = "dice"

    def __init__(self, ev: _Event):
        ed = ev.e.get("ed")
        if ed not in EDITIONS:
            raise ev.bad(f"{ed!r} is not a game ({', '.join((*EDITIONS, 'deadly', 'puzzle'))})")
        self.players = ev.num("n", 1, 5)
        var = ev.e.get("var", "")
        if var not in VARIANTS:
            raise ev.bad(f"variant {var!r} is not one of {', '.join(repr(v) for v in VARIANTS)}")
        lay = layouts.load(ed)
        try:
            Game(lay, self.players, VARIANTS[var])
        except GameConfigError as exc:
            raise ev.bad(str(exc)) from None
        self.size = lay.size
        self.start: list[int] = []
        self.rounds: list[dict] = []
        self.circles: dict[str, int] = {}      # each claim's value by its turn's place
        self.data: dict[str, Any] = {"format": FORMAT, "edition": ed, "variant": VARIANTS[var],
                                     "players": _players(self.players), "layout": ed, "start": self.start,
                                     "rounds": self.rounds}

    def take(self, ev: _Event) -> None:
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


# -- Deadly Doodles -------------------------------------------------------------------------------------
class _Deadly:
    """reveal: a round; trap, draw: a drawing of the player's, in order; done: the end of their
    round (a player without it in the last round is still drawing: "unfinished"); tally: their
    counts (docs/deadly-doodles.md, "From the console's log")."""
    KIND = "deadly"

    def __init__(self, ev: _Event):
        self.players = ev.num("n", 1, DEADLY_PLAYERS)
        var = ev.e.get("var", "")
        if var != "":
            raise ev.bad(f"variant {var!r}: Deadly Doodles has none (solo is one player)")
        self.tallies = ev.word("rec", RECORDING) == "tally"
        self.deck = decks.load()
        self.rounds: list[dict] = []
        self.done: list[bool] = []
        self.data: dict[str, Any] = {"format": FORMAT, "edition": "deadly", "map": ev.word("map", MAPS),
                                     "players": _players(self.players), "rounds": self.rounds}
        if self.tallies:
            self.data["tallies"] = [None] * self.players

    def take(self, ev: _Event) -> None:
        kind, rounds = ev.kind, self.rounds
        if kind == "reveal":
            r = ev.num("r", 1, DEADLY_ROUNDS)
            if r != len(rounds) + 1:
                raise ev.bad(f"round {r}, but the round before it was {len(rounds)}")
            rounds.append({"revealed": ev.ints("cards", (4, 8), 1, len(self.deck.ids)),
                           "drawings": [[] for _ in range(self.players)]})
            self.done = [False] * self.players
            return
        if kind == "tally":
            if not self.tallies:
                raise ev.bad("counts in a game recorded in full (its scores come from the drawings)")
            p = ev.num("p", 0, self.players - 1)
            self.data["tallies"][p] = dict(zip(TALLY_FIELDS, ev.ints("t", (8, 8), 0, 99)))   # the latest counts
            return
        if not rounds:
            raise ev.bad("no cards revealed before it")
        r = ev.num("r", 1, DEADLY_ROUNDS)
        if r != len(rounds):
            raise ev.bad(f"round {r}, but the cards revealed last were round {len(rounds)}'s")
        p = ev.num("p", 0, self.players - 1)
        if self.done[p]:
            raise ev.bad(f"P{p + 1} had ended round {r} before it")
        if kind == "done":
            self.done[p] = True
            return
        room = ev.e.get("room")
        if room not in ROOMS:
            raise ev.bad("no 'room'" if room is None else f"'room' is {room!r}, not a room A1..F6")
        drawn = rounds[-1]["drawings"][p]
        if kind == "trap":                 # which of the round's Traps is not said: the first not drawn
            drawn.append({"card": TRAP, "trap": room})
            return
        if self.tallies:
            raise ev.bad("a path segment entered in a game recorded with tallies (only Traps are entered)")
        card = ev.num("card", 1, len(self.deck.ids))
        ends = ev.e.get("ends")
        if not isinstance(ends, str) or not ends or "".join(s for s in SIDES if s in ends) != ends:
            raise ev.bad("no 'ends'" if ends is None else f"'ends' is {ends!r}, not sides in the order N, E, S, W")
        drawn.append({"card": card, "room": room, "ends": list(ends)})

    def so_far(self) -> dict:
        """The record; the last round names the players still drawing in it ("unfinished": a copy
        of the round says so, the round itself grows on)."""
        if self.rounds and not all(self.done):
            last = dict(self.rounds[-1], unfinished=[p for p, d in enumerate(self.done) if not d])
            return dict(self.data, rounds=[*self.rounds[:-1], last])
        return self.data

    def record(self, source: str) -> dict:
        return self.so_far()


# -- Doodle Puzzle -------------------------------------------------------------------------------------
class _Puzzle:
    """roles: a round; subject: its number and card (an earlier one of the round was set aside:
    "rejected"); timer: the minute ran; place, mischief, guess, challenge (docs/doodle-puzzle.md,
    "From the console's log")."""
    KIND = "puzzle"

    def __init__(self, ev: _Event):
        self.players = ev.num("n", 3, 8)
        self.rounds: list[dict] = []
        self.step = 0
        self.data = {"format": FORMAT, "edition": "puzzle", "variant": ev.word("var", PUZZLE_VARIANTS),
                     "subjects": ev.word("subj", SUBJECTS), "players": _players(self.players),
                     "rounds": self.rounds}

    def take(self, ev: _Event) -> None:
        kind, rounds = ev.kind, self.rounds
        r = ev.num("r", 1, 5)
        if kind == "roles":
            if r != len(rounds) + 1:
                raise ev.bad(f"round {r}, but the round before it was {len(rounds)}")
            roles = ev.e.get("roles")
            if not isinstance(roles, str) or len(roles) != self.players or any(c not in ROLES for c in roles):
                raise ev.bad("no 'roles'" if roles is None else
                             f"'roles' is {roles!r}, not one of the letters {''.join(ROLES)} for each of "
                             f"{self.players} seats")
            rounds.append({"roles": [ROLES[c] for c in roles]})
            self.step = 0
            return
        if not rounds:
            raise ev.bad("no roles dealt before it")
        if r != len(rounds):
            raise ev.bad(f"round {r}, but the roles dealt last were round {len(rounds)}'s")
        rd = rounds[-1]
        step = STEPS.index(kind)
        if step < self.step or (step == self.step and kind not in ("subject", "place")):
            raise ev.bad(f"after round {r}'s {STEPS[self.step]}")
        if kind != "subject" and "card" not in rd:
            raise ev.bad(f"round {r} has no subject before it")
        self.step = step
        if kind == "subject":
            if "card" in rd:            # the table set the last one aside (ruling P2)
                rd.setdefault("rejected", []).append({"number": rd.pop("number"), "card": rd.pop("card")})
            rd["number"] = ev.num("num", 1, 12)
            rd["card"] = ev.num("card", 1, 16)
        elif kind == "timer":
            start, end, paused = (ev.num(k, 0, 2 ** 31 - 1) for k in ("start", "end", "paused"))
            rd["timer"] = {"start_ms": start, "end_ms": end, **({"paused_ms": paused} if paused else {})}
            rd["placements"] = []       # the minute has run
        elif kind == "place":
            rd.setdefault("placements", []).append([ev.num("p", 0, self.players - 1), ev.num("slot", 1, 6)])
        elif kind == "mischief":
            acts = (("erase", ev.num("erase", 0, 6)), ("draw", ev.num("draw", 0, 6)))
            rd["baddy"] = {k: board for k, board in acts if board}
        elif kind == "guess":
            rd["guess"] = ev.word("res", ("right", "wrong"))
        else:
            board = ev.num("board", 0, 6)
            if board:
                rd["challenge"] = board

    def so_far(self) -> dict:
        return self.data

    def record(self, source: str) -> dict:
        return self.data
