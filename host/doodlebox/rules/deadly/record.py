"""Deadly Doodles game records (docs/deadly-doodles.md): read one, replay it through the engine,
report every violation; write one from a game played on the engine.

parse() raises doodlebox.rules.dice.record.RecordError (one line: the file, the place, what is
wrong) for anything that is not a well-formed record, and for a deal no deck could give (the
cards are the console's or the seed's, not a player's: ruling D12). replay() never raises for
a parsed record: every illegal action is a Violation and is skipped, and the rest of the game
is still checked.

A record may carry "tallies" (ruling D14): its drawings are then the Traps only, and each
player's score is their counts, checked as far as the map, the cards and the Traps allow. The
last round may name the players still drawing in it ("unfinished": a game in progress).
Stream replays a record that grows as its game is played (live validation), with the same code.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from doodlebox.rules.common import FORMAT, KnownFields, Reader, RecordError, Replay, StreamError, Violation, load_json
from doodlebox.rules.deadly import deck as decks
from doodlebox.rules.deadly import maps
from doodlebox.rules.deadly.deck import DRAW2, ROUNDS, TRAP, Deck, kind_key
from doodlebox.rules.deadly.engine import DONE, Action, Game, IllegalAction, Place, Reveal, State, Trap, refused
from doodlebox.rules.deadly.maps import BIT, DungeonMap
from doodlebox.rules.deadly.sentences import sentence
from doodlebox.rules.deadly.spec import DEADLY
from doodlebox.rules.deadly.tallies import FIELDS as TALLY_FIELDS
from doodlebox.rules.deadly.tallies import Counts, problems
from doodlebox.rules.ending import read_ended

EDITION = "deadly"
# Every field each object of a Deadly Doodles record may have (docs/records.md, "Every field");
# any other is refused. The map and deck objects are data files with their own checkers.
FIELDS: KnownFields = {
    "": ("format", "edition", "map", "deck", "seed", "players", "rounds", "tallies", "ended"),
    "rounds[]": ("revealed", "drawings", "unfinished"),
    "rounds[].drawings[][]": ("card", "room", "ends", "trap"),
    "tallies[]": TALLY_FIELDS,
}


@dataclass
class Act:
    """One drawing as written: `card` is an id, or a kind's name ("corner") that means this
    round's first card of that kind the player has not drawn yet."""
    place: str
    kind: str          # "place" or "trap"
    card: int | str
    room: str
    ends: str = ""

    def text(self) -> str:
        card = f"card {self.card}" if isinstance(self.card, int) else self.card
        if self.kind == "trap":
            return f"{card}: trap at {self.room}" if isinstance(self.card, int) else f"Trap at {self.room}"
        return f"{card} at {self.room} opening {' '.join(self.ends)}"


@dataclass
class Round:
    place: str
    revealed: list[int]
    drawings: list[list[Act]]
    unfinished: tuple[int, ...] = ()     # players whose round is not over (the last round of a game in progress)


@dataclass
class Record:
    source: str
    players: list[str]
    map: DungeonMap
    deck: Deck
    seed: int | None
    rounds: list[Round]
    edition: str = EDITION
    tallies: list[Counts | None] | None = None    # with tallies: each player's counts (None: not given yet)
    ended_early: bool = False     # "ended": "early" (ruling G1: rules/ending.py)

    def game(self) -> Game:
        return Game(self.map, self.deck, len(self.players), tallies=self.tallies is not None)



def read(path) -> Record:
    return parse(load_json(path), str(path))


def parse(data: Any, source: str = "record") -> Record:
    reader = Reader(source)
    bad = reader.bad

    data = reader.head(data, FIELDS[""], EDITION)
    players = data.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise bad("players", "is not a list of names")
    if not DEADLY.players[0] <= len(players) <= DEADLY.players[1]:
        raise bad("players", f"{len(players)} players: {DEADLY.players_text()}")
    spec = data.get("map", "a")
    try:
        if isinstance(spec, dict):
            dmap = maps.parse(spec, f"{source}: map")
        elif isinstance(spec, str) and spec.lower() in maps.DEFAULT_FILES:
            dmap = maps.load(spec.lower())
        else:
            raise bad("map", f"{spec!r} is not a side of the map board ({', '.join(maps.DEFAULT_FILES)}) "
                             "or a map object")
        deck = decks.load(data.get("deck"), f"{source}: deck") if isinstance(data.get("deck"), dict) else None
        if deck is None and data.get("deck", "default") != "default":
            raise bad("deck", f"{data.get('deck')!r} is not \"default\" or a deck object")
        deck = deck or decks.load()
    except (maps.MapError, decks.DeckError) as exc:
        raise RecordError(str(exc)) from None
    seed = data.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise bad("seed", f"{seed!r} is not a whole number")
    rounds_data = data.get("rounds")
    if not isinstance(rounds_data, list):
        raise bad("rounds", "missing" if rounds_data is None else "is not a list of rounds")
    solo = len(players) == 1
    tallies = _tallies(data["tallies"], len(players), reader) if "tallies" in data else None
    dealt = decks.deal(deck, seed, len(players), len(rounds_data)) if seed is not None else None
    left = deck.cards(solo)            # face down, in deck order (for cards named by their kind)
    seen: dict[int, str] = {}          # card -> where it was revealed
    rounds = []
    for r, rd in enumerate(rounds_data):
        w = f"rounds[{r}]"
        revealed = _round_revealed(rd, r, w, deck, solo, left, seen, dealt, seed, reader)
        drawings = rd.get("drawings")
        if not isinstance(drawings, list) or len(drawings) != len(players):
            raise bad(w + ".drawings", f"is not a list of {len(players)} lists of drawings, one per player")
        acts = [[_act(a, f"{w}.drawings[{p}][{t}]", dmap, deck, reader)
                 for t, a in enumerate(_list(d, f"{w}.drawings[{p}]", bad))]
                for p, d in enumerate(drawings)]
        if tallies is not None:
            for a in (a for pa in acts for a in pa):
                _trap_only(a, reader)
        unfinished = _unfinished(rd, w, len(players), r == len(rounds_data) - 1, reader)
        rounds.append(Round(w, revealed, acts, unfinished))
    return Record(source, list(players), dmap, deck, seed, rounds, tallies=tallies,
                  ended_early=read_ended(data, bad))


def _round_revealed(rd: Any, r: int, w: str, deck: Deck, solo: bool, left: list[int], seen: dict[int, str],
                    dealt: list[list[int]] | None, seed: int | None, reader: Reader) -> list[int]:
    """Round `r`'s cards (at `w`), the deck's cards left and seen so far taken from."""
    bad = reader.bad
    if not isinstance(rd, dict):
        raise bad(w, "is not an object")
    reader.refuse_unknown(rd, FIELDS["rounds[]"], w)
    if "revealed" in rd:
        revealed = _revealed(rd["revealed"], w + ".revealed", deck, solo, left, seen, bad)
        if dealt is not None and revealed != dealt[r]:
            raise bad(w + ".revealed", f"{revealed} is not what seed {seed} deals in round {r + 1} ({dealt[r]})")
        return revealed
    if dealt is not None:
        return _revealed(dealt[r], w + ".revealed", deck, solo, left, seen, bad)
    raise bad(w + ".revealed", "missing (or give the deal's \"seed\")")


def _trap_only(act: Act, reader: Reader) -> None:
    """A record with tallies has only Traps among its drawings (ruling D14)."""
    if act.kind != "trap":
        raise reader.bad(act.place, "a path segment in a record with \"tallies\": its drawings are the "
                                    "Traps only, the segments were drawn on paper (ruling D14)")


def _tallies(v: Any, players: int, reader: Reader) -> list[Counts | None]:
    """Each player's counts, in player order: an object with the eight counts, or null (not
    given yet)."""
    bad = reader.bad
    if not isinstance(v, list) or len(v) != players:
        raise bad("tallies", f"is not a list of {players} tallies, one per player (an object, or null)")
    out: list[Counts | None] = []
    for p, t in enumerate(v):
        w = f"tallies[{p}]"
        if t is None:
            out.append(None)
            continue
        if not isinstance(t, dict):
            raise bad(w, f"is not an object with the counts {', '.join(TALLY_FIELDS)} (or null)")
        reader.refuse_unknown(t, FIELDS["tallies[]"], w)
        values = []
        for k in TALLY_FIELDS:
            if k not in t:
                raise bad(f"{w}.{k}", "missing")
            n = reader.whole(t[k], f"{w}.{k}")
            if n < 0:
                raise bad(f"{w}.{k}", f"{n} is not a count (0 or more)")
            values.append(n)
        out.append(Counts.of(values))
    return out


def _unfinished(rd: dict, where: str, players: int, last: bool, reader: Reader) -> tuple[int, ...]:
    if "unfinished" not in rd:
        return ()
    w = where + ".unfinished"
    v = rd["unfinished"]
    if not last:
        raise reader.bad(w, "only the last round of a game in progress may have players still drawing")
    if not isinstance(v, list):
        raise reader.bad(w, "is not a list of players (0-based)")
    for i, p in enumerate(v):
        reader.whole(p, f"{w}[{i}]", 0, players - 1)
        if p in v[:i]:
            raise reader.bad(f"{w}[{i}]", f"player {p} twice")
    return tuple(v)


def _list(v: Any, where: str, bad) -> list:
    if not isinstance(v, list):
        raise bad(where, "is not a list of drawings")
    return v


def _revealed(v: Any, where: str, deck: Deck, solo: bool, left: list[int], seen: dict[int, str], bad) -> list[int]:
    """The cards of one round as ids; RecordError for a deal no deck could give."""
    if not isinstance(v, list):
        raise bad(where, "is not a list of cards (ids or kinds)")
    out: list[int] = []
    need = decks.REVEAL
    for k, x in enumerate(v):
        w = f"{where}[{k}]"
        if k >= need:
            raise bad(w, f"one card too many: the round's {need} cards are all revealed "
                         f"(four, and two more per Draw 2)")
        if isinstance(x, str):
            kind = kind_key(x)
            if kind not in deck.counts:
                raise bad(w, f"{x!r} is not a kind of card ({', '.join(deck.kinds)})")
            if solo and kind == TRAP:
                raise bad(w, "a Trap in a solo game: the two Trap cards are removed for solitaire")
            c = deck.first(kind, left)
            if c is None:
                raise bad(w, f"one {kind} too many: the deck has {deck.counts[kind]}")
        elif isinstance(x, int) and not isinstance(x, bool):
            c = x
            if c not in deck.ids:
                raise bad(w, f"there is no card {c} (the deck has 1 to {len(deck.ids)})")
            if c in seen:
                raise bad(w, f"{deck.label(c)} was already revealed at {seen[c]}")
            if solo and deck.kind_of[c] == TRAP:
                raise bad(w, f"{deck.label(c)} in a solo game: the two Trap cards are removed for solitaire")
        else:
            raise bad(w, f"{x!r} is not a card id or a kind of card")
        left.remove(c)
        seen[c] = w
        out.append(c)
        if deck.kind_of[c] == DRAW2:
            need += decks.EXTRA
    if len(out) != need:
        d2 = need // 2 - 2
        raise bad(where, f"{len(out)} cards; with {d2} Draw 2 card{'s' if d2 != 1 else ''} the round reveals {need}")
    return out


def _act(a: Any, where: str, dmap: DungeonMap, deck: Deck, reader: Reader) -> Act:
    bad = reader.bad
    if not isinstance(a, dict):
        raise bad(where, "is not an object ({\"card\", \"room\", \"ends\"} or {\"card\", \"trap\"})")
    reader.refuse_unknown(a, FIELDS["rounds[].drawings[][]"], where)
    card = a.get("card")
    if isinstance(card, str):
        if kind_key(card) not in deck.counts:
            raise bad(where + ".card", f"{card!r} is not a kind of card ({', '.join(deck.kinds)})")
        card = kind_key(card)
    elif isinstance(card, bool) or not isinstance(card, int):
        raise bad(where + ".card", "missing" if card is None else f"{card!r} is not a card id or a kind of card")
    elif card not in deck.ids:
        raise bad(where + ".card", f"there is no card {card} (the deck has 1 to {len(deck.ids)})")

    def room(v: Any, w: str) -> str:
        i = dmap.find(v)
        if i is None:
            raise bad(w, "missing" if v is None else
                      f"{v!r} is not a room of this map (A1 to {dmap.room_name(dmap.size - 1)})")
        return dmap.room_name(i)

    if "trap" in a:
        if "room" in a or "ends" in a:
            raise bad(where, "a Trap is an X in a room: give \"trap\": room, without \"room\" and \"ends\"")
        return Act(where, "trap", card, room(a["trap"], where + ".trap"))
    ends = a.get("ends")
    if (not isinstance(ends, list) or not ends or not all(isinstance(s, str) and s in BIT for s in ends)
            or len(set(ends)) != len(ends)):
        raise bad(where + ".ends", "missing" if ends is None else
                  f"{ends!r} is not a list of the sides the segment opens on (N, E, S, W, each once)")
    ends_text = maps.sides_text(maps.sides_mask("".join(ends)))
    return Act(where, "place", card, room(a.get("room"), where + ".room"), ends_text)


def _action(state: State, p: int, act: Act) -> Action:
    """The engine's action for a drawing; a card named by its kind becomes this round's first
    card of that kind the player has not drawn (IllegalAction when there is none)."""
    card = act.card
    if isinstance(card, str):
        deck = state.game.deck
        c = deck.first(card, state.open_cards(p))
        if c is None:
            raise refused(f"no {card} is left to draw among round {state.round}'s cards "
                          f"({', '.join(deck.label(x) for x in state.revealed)})", "card",
                          legal=state.legal_text(p))
        card = c
    return Trap(card, act.room) if act.kind == "trap" else Place(card, act.room, act.ends)


def replay(rec: Record) -> Replay:
    """Play the record through the engine; every illegal action becomes a Violation."""
    state = rec.game().new_state()
    violations: list[Violation] = []
    for rn, rd in enumerate(rec.rounds, start=1):
        if not _begin(state, rd, rn, violations):
            break
        for step in _steps(rd):
            _step(state, rd, rn, step, violations)
    _tally(state, rec.tallies, violations)
    return Replay(rec, state, violations, state.is_terminal())


def _begin(state: State, rd: Round, rn: int, violations: list[Violation]) -> bool:
    """Round `rn`'s cards revealed; False, and a violation, when the game was already over."""
    if state.is_terminal():
        violations.append(Violation(rn, -1, 0, rd.place, "round", "rounds",
                                    f"the game ended after round {ROUNDS}; round {rn} should not have been played",
                                    sentence("rounds")))
        return False
    for c in rd.revealed:
        state.apply(Reveal(c))     # parse() let through only deals a deck can give
    return True


def _steps(rd: Round) -> list[tuple[int, int]]:
    """A round's drawings in the order they are played: (player, index) for each player's
    drawings in order, then (player, -1), the end of their round, unless they are still drawing."""
    out: list[tuple[int, int]] = []
    for p, acts in enumerate(rd.drawings):
        out.extend((p, t) for t in range(len(acts)))
        if p not in rd.unfinished:
            out.append((p, -1))
    return out


def _step(state: State, rd: Round, rn: int, step: tuple[int, int], violations: list[Violation]) -> None:
    """One of _steps(rd) played; an illegal one is a violation (a drawing skipped; a round that
    may not end yet ended all the same)."""
    p, t = step
    if t >= 0:
        act = rd.drawings[p][t]
        try:
            a = _action(state, p, act)
            state.apply(a, p)
        except IllegalAction as exc:
            violations.append(Violation(rn, p, t + 1, act.place, act.text(), exc.rule, exc.reason,
                                        exc.sentence, exc.legal))
        return
    try:
        state.apply(DONE, p)
    except IllegalAction as exc:
        violations.append(Violation(rn, p, len(rd.drawings[p]) + 1, f"{rd.place}.drawings[{p}]", "end of round",
                                    exc.rule, exc.reason, exc.sentence, exc.legal))
        state.force_done(p)


def _tally(state: State, tallies: list[Counts | None] | None, violations: list[Violation]) -> None:
    """Each player's counts, checked against the drawings (a violation per count impossible)
    and scored as given, also when a count is impossible (ruling D14)."""
    for p, counts in enumerate(tallies or []):
        if counts is None:
            continue
        for name, reason, legal in problems(state, p, counts):
            violations.append(Violation(state.round, p, 0, f"tallies[{p}]" + (f".{name}" if name else ""),
                                        f"the counts ({counts.text()})", "tally", reason, sentence("tally"),
                                        [legal]))
        state.set_counts(p, counts)


class Stream:
    """A record that grows as its game is played (live validation: logger/verdicts.py makes the
    console's events a record as they come), replayed as it grows. update(data) parses only
    what was added since the last update (rounds, drawings at the end of a player's list, a
    player's round ended, the counts) and plays it on the state kept: the drawings and ends of
    rounds that follow those played, in replay()'s order, one at a time; a round whose order
    changed (a player before the last one played added to) again from its start. The code is
    replay(parse(data))'s (_round_revealed, _act, _begin, _steps, _step, _tally), so the two
    cannot disagree. A record changed in any other way is a StreamError: replay it whole, and
    start a new Stream if it is to grow again."""

    def __init__(self, data: dict, source: str = "record"):
        if data.get("seed") is not None:
            raise StreamError(f"{source}: a record with a seed deals its rounds: replay it whole")
        self.source = source
        self.reader = Reader(source)
        self.rec = rec = parse(dict(data, rounds=[]), source)
        self.left = rec.deck.cards(len(rec.players) == 1)      # face down (parse()'s, round by round)
        self.seen: dict[int, str] = {}
        self.state = rec.game().new_state()
        self.violations: list[Violation] = []
        self.base, self.base_violations = self.state, self.violations   # at the last round's start
        self.steps: list[tuple[int, int]] = []                            # of it, played
        self.over = False

    def update(self, data: dict) -> Replay:
        """The replay of the record `data` now is: the last one's and what was added since. The
        Replay shares this stream's state and violations (unless counts are scored: a copy):
        read them, do not change them."""
        rec, reader = self.rec, self.reader
        rounds = data.get("rounds")
        if not isinstance(rounds, list) or len(rounds) < len(rec.rounds):
            raise StreamError(f"{self.source}: the record did not grow (its rounds)")
        if (data.get("tallies") is None) != (rec.tallies is None) or data.get("seed") is not None:
            raise StreamError(f"{self.source}: the record is not the one begun")
        taken = len(rec.rounds)
        if taken:
            self._grow(taken - 1, rounds[taken - 1], taken == len(rounds))
        for r in range(taken, len(rounds)):
            w = f"rounds[{r}]"
            revealed = _round_revealed(rounds[r], r, w, rec.deck, len(rec.players) == 1, self.left, self.seen,
                                       None, None, reader)
            rd = Round(w, revealed, [[] for _ in rec.players])
            rec.rounds.append(rd)
            if not self.over:
                if _begin(self.state, rd, r + 1, self.violations):
                    self.base, self.base_violations, self.steps = self.state.clone(), list(self.violations), []
                else:
                    self.over = True
            self._grow(r, rounds[r], r == len(rounds) - 1)
        state, violations = self.state, self.violations
        if rec.tallies is not None:
            rec.tallies = _tallies(data["tallies"], len(rec.players), reader)
            if any(c is not None for c in rec.tallies):
                state, violations = state.clone(), list(violations)
                _tally(state, rec.tallies, violations)
        return Replay(rec, state, violations, state.is_terminal())

    def _grow(self, r: int, data: Any, last: bool) -> None:
        """Round `r` as `data` now has it: its new drawings read, who is still drawing, and what
        follows what was played of it played (or the round again from its start)."""
        rec, reader, rd = self.rec, self.reader, self.rec.rounds[r]
        drawings = data.get("drawings")
        if not isinstance(drawings, list) or len(drawings) != len(rec.players):
            raise reader.bad(rd.place + ".drawings", f"is not a list of {len(rec.players)} lists of drawings, "
                                                     "one per player")
        for p, d in enumerate(drawings):
            listed, have = _list(d, f"{rd.place}.drawings[{p}]", reader.bad), rd.drawings[p]
            if len(listed) < len(have):
                raise StreamError(f"{self.source}: {rd.place}.drawings[{p}]: drawings taken back")
            for t in range(len(have), len(listed)):
                act = _act(listed[t], f"{rd.place}.drawings[{p}][{t}]", rec.map, rec.deck, reader)
                if rec.tallies is not None:
                    _trap_only(act, reader)
                have.append(act)
        rd.unfinished = _unfinished(data, rd.place, len(rec.players), last, reader)
        if self.over:
            return
        steps = _steps(rd)
        todo = steps[len(self.steps):]
        if steps[:len(self.steps)] != self.steps:
            self.state, self.violations, todo = self.base.clone(), list(self.base_violations), steps
        for step in todo:
            _step(self.state, rd, r + 1, step, self.violations)
        self.steps = steps


def from_state(state: State, players: list[str] | None = None) -> dict:
    """The record of a game played on the engine (its history), as a JSON object."""
    g = state.game
    n = g.players
    rounds: list[dict] = []
    new_round = True
    for who, a in state.history:
        if a.kind == "reveal":
            if new_round:
                rounds.append({"revealed": [], "drawings": [[] for _ in range(n)]})
                new_round = False
            rounds[-1]["revealed"].append(a.card)
            continue
        new_round = True
        if a.kind == "place":
            rounds[-1]["drawings"][who].append({"card": a.card, "room": a.room, "ends": list(a.ends)})
        elif a.kind == "trap":
            rounds[-1]["drawings"][who].append({"card": a.card, "trap": a.room})
    if rounds and state.phase == "draw" and not all(state.done):
        rounds[-1]["unfinished"] = [p for p, d in enumerate(state.done) if not d]
    out: dict[str, Any] = {"format": FORMAT, "edition": EDITION, "map": g.map.spec or "a",
                           "players": list(players or [f"P{p + 1}" for p in range(n)]), "rounds": rounds}
    if g.tallies:
        out["tallies"] = [c.as_dict() if c is not None else None for c in state.counts]
    if g.deck.spec is not None:
        out["deck"] = g.deck.spec
    return out
