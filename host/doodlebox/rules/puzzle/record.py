"""Doodle Puzzle records (docs/doodle-puzzle.md): read one, replay it through the engine,
report every violation; write one from a state.

parse() raises doodlebox.rules.common.RecordError (one line: the source, the place, what is
wrong) for anything that is not a well-formed record: not an object, wrong types, unknown
fields, roles, variants or subject sets, a player who is not in the game. replay() never
raises for a well-formed record: a rule broken is a Violation, and the rest of the game is
still checked (ruling P11 says how each kind of broken step is carried on).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from doodlebox.rules.common import FORMAT, KnownFields, Reader, Replay, StreamError, Violation, load_json
from doodlebox.rules.ending import read_ended
from doodlebox.rules.puzzle import engine as E
from doodlebox.rules.puzzle import roles as R
from doodlebox.rules.puzzle.engine import Action, Game, IllegalAction, State
from doodlebox.rules.puzzle.sentences import sentence
from doodlebox.rules.puzzle.spec import PUZZLE, VARIANT

# Every field each object of a Doodle Puzzle record may have (docs/records.md, "Every field"); any
# other is refused. "rounds[].baddy" is Baddy's Mischief written as an object (a list has none).
FIELDS: KnownFields = {
    "": ("format", "edition", "variant", "subjects", "players", "rounds", "ended"),
    "rounds[]": ("roles", "rejected", "number", "card", "timer", "placements", "baddy", "guess", "challenge"),
    "rounds[].rejected[]": ("number", "card"),
    "rounds[].timer": ("start_ms", "end_ms", "paused_ms"),
    "rounds[].baddy": ("erase", "draw"),
}
TIMER_KEYS = FIELDS["rounds[].timer"]



@dataclass
class Round:
    place: str                                     # where in the file, e.g. rounds[2]
    roles: tuple[str, ...]
    rejected: list[tuple[int, int, str]]           # subjects set aside: (number, card, place)
    number: int | None
    card: int | None
    timer: tuple[int, ...] | None                  # (start_ms, end_ms), or (start_ms, end_ms, paused_ms)
    placements: list[tuple[int, int, str]] | None  # (player, slot, place); None: not in the record
    baddy: list[tuple[str, int, str]] | None       # ("erase" | "draw", board, place) in order; None: absent
    guess: bool | None                             # True right, False wrong, None: not yet
    challenge: int | None


@dataclass
class Record:
    source: str
    edition: str
    variant: str                  # as normalised (spec.VARIANT): "", "behave", "showdown", "behave+showdown"
    subjects: str
    players: list[str]
    rounds: list[Round]
    ended_early: bool = False     # "ended": "early" (ruling G1: rules/ending.py)

    def game(self) -> Game:
        return Game(len(self.players), self.variant, self.subjects, strict=False)



def read(path) -> Record:
    return parse(load_json(path), str(path))


# -- reading -----------------------------------------------------------------------------------
def parse(data: Any, source: str = "record") -> Record:
    reader = Reader(source)
    bad = reader.bad

    data = reader.head(data, FIELDS[""], E.EDITION)
    variant = data.get("variant", "")
    if not (isinstance(variant, str) or (isinstance(variant, list) and all(isinstance(v, str) for v in variant))):
        raise bad("variant", f"{variant!r} is not a variant name ({VARIANT.known()})")
    try:
        variant = "+".join(E.parse_variant(variant))
    except ValueError as exc:
        raise bad("variant", str(exc)) from None
    subjects = data.get("subjects")
    if subjects not in E.SUBJECT_SETS:
        raise bad("subjects", f"{subjects!r} is not a subject set: 'beginner' (6 cards) or 'standard' (16 cards)")
    players = data.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise bad("players", "is not a list of names")
    n = len(players)
    if not PUZZLE.players[0] <= n <= PUZZLE.players[1]:
        raise bad("players", f"{n} players: {PUZZLE.players_text()}")

    rounds = [_read_round(reader, w, rd, list(players)) for w, rd in reader.objects(data.get("rounds", []), "rounds")]
    return Record(source, E.EDITION, variant, subjects, list(players), rounds, read_ended(data, bad))


def _read_round(reader: Reader, w: str, rd: dict, players: list[str]) -> Round:
    """One round of a record (at `w`, "rounds[2]"): parse(), and Stream for a record that grows."""
    bad, whole, objects = reader.bad, reader.whole, reader.objects
    n = len(players)

    def maybe(v: Any, where: str) -> int | None:
        return None if v is None else whole(v, where)

    def who(v: Any, where: str) -> int:
        if isinstance(v, str):
            if players.count(v) != 1:
                raise bad(where, f"{v!r} is not a player" if v not in players
                          else f"{v!r} names {players.count(v)} players: use the index (0-based)")
            return players.index(v)
        v = whole(v, where)
        if not 0 <= v < n:
            raise bad(where, f"player {v} is not in the game (0 to {n - 1}, in the order of \"players\")")
        return v

    reader.refuse_unknown(rd, FIELDS["rounds[]"], w)
    roles = rd.get("roles")
    if not isinstance(roles, list):
        raise bad(w + ".roles", "missing, or not a list of roles (one per player)")
    if len(roles) != n:
        raise bad(w + ".roles", f"{len(roles)} roles for {n} players")
    for i, r in enumerate(roles):
        if r not in R.ROLES:
            raise bad(f"{w}.roles[{i}]", f"{r!r} is not a role ({', '.join(R.ROLES)})")
    rejected = []
    for rw, sub in objects(rd.get("rejected", []), w + ".rejected"):
        reader.refuse_unknown(sub, FIELDS["rounds[].rejected[]"], rw)
        rejected.append((whole(sub.get("number"), rw + ".number"), whole(sub.get("card"), rw + ".card"), rw))
    timer = rd.get("timer")
    if timer is not None:
        if isinstance(timer, dict):
            reader.refuse_unknown(timer, TIMER_KEYS, w + ".timer")
        if not isinstance(timer, dict) or not {"start_ms", "end_ms"} <= set(timer):
            raise bad(w + ".timer", "is not {\"start_ms\": ms, \"end_ms\": ms} (and \"paused_ms\": ms, if it "
                                    "was paused)")
        timer = tuple(whole(timer[k], f"{w}.timer.{k}") for k in TIMER_KEYS if k in timer)
        if len(timer) > 2 and timer[2] < 0:
            raise bad(w + ".timer.paused_ms", f"{timer[2]} is not a time (0 ms or more)")
    placements = None
    if rd.get("placements") is not None:
        pl = rd["placements"]
        if not isinstance(pl, list):
            raise bad(w + ".placements", "is not a list of [player, slot]")
        placements = []
        for i, item in enumerate(pl):
            pw = f"{w}.placements[{i}]"
            if not isinstance(item, list) or len(item) != 2:
                raise bad(pw, f"{item!r} is not [player, slot]")
            placements.append((who(item[0], pw + "[0]"), whole(item[1], pw + "[1]"), pw))
    baddy = None
    bd = rd.get("baddy")
    if isinstance(bd, dict):
        baddy = []
        reader.refuse_unknown(bd, FIELDS["rounds[].baddy"], w + ".baddy")
        for k, v in bd.items():  # in the order written: the order Baddy acted
            if v is not None:
                baddy.append((k, whole(v, f"{w}.baddy.{k}"), f"{w}.baddy.{k}"))
    elif isinstance(bd, list):
        baddy = []
        for i, item in enumerate(bd):
            bw = f"{w}.baddy[{i}]"
            if not isinstance(item, list) or len(item) != 2 or item[0] not in ("erase", "draw"):
                raise bad(bw, f"{item!r} is not [\"erase\" or \"draw\", board]")
            baddy.append((item[0], whole(item[1], bw + "[1]"), bw))
    elif bd is not None:
        raise bad(w + ".baddy", f"{bd!r} is not {{\"erase\": board, \"draw\": board}} or a list of actions")
    g = rd.get("guess")
    if g not in (None, "right", "wrong"):
        raise bad(w + ".guess", f"{g!r} is not \"right\" or \"wrong\"")
    return Round(w, tuple(roles), rejected, maybe(rd.get("number"), w + ".number"),
                 maybe(rd.get("card"), w + ".card"), timer, placements, baddy,
                 None if g is None else g == "right", maybe(rd.get("challenge"), w + ".challenge"))


# -- replaying ---------------------------------------------------------------------------------
def replay(rec: Record) -> Replay:
    """Play the record through the engine; every broken rule becomes a Violation."""
    game = rec.game()
    state = game.new_state()
    violations: list[Violation] = []
    for rule, reason in game.problems:     # spec.py's limits (ruling P9): checked as the choice limited
        lim = next(x for x in PUZZLE.limits if x.rule == rule)
        violations.append(Violation(0, -1, 0, "variant", rec.variant, rule,
                                    f"{reason}; the game is checked as {VARIANT.choice(lim.choice).name} "
                                    f"(ruling {lim.ruling})", sentence(rule), [PUZZLE.legal(rule)]))
    for rn, rd in enumerate(rec.rounds, start=1):
        if not _round(state, rd, rn, rn == len(rec.rounds), violations):
            break
    return Replay(rec, state, violations, state.is_terminal())


def _round(state: State, rd: Round, rn: int, last: bool, violations: list[Violation]) -> bool:
    """Round `rn` played (`last`: the record's last, which a game in progress may not have
    finished); False, and a violation, when the game was already over."""
    if state.is_terminal():
        violations.append(Violation(rn, -1, 0, rd.place, "round", "over",
                                    f"the game ended after round {E.ROUNDS}; round {rn} should not have "
                                    "been played", sentence("over")))
        return False
    _RoundReplay(state, rd, rn, last, violations).run()
    return True


class Stream:
    """A record that grows as its game is played (live validation: logger/verdicts.py makes the
    console's events a record as they come), replayed as it grows: update(data) plays the
    rounds before the last once, on the state kept, and the last round (where the table is)
    from its start, on a copy: its steps wait on the ones after them (ruling P11), so a round
    is short work and never the game's. The code is replay(parse(data))'s (_read_round,
    _round), so the two cannot disagree. A record changed otherwise than in its last round or
    by rounds added is a StreamError: replay it whole."""

    def __init__(self, data: dict, source: str = "record"):
        self.source = source
        self.reader = Reader(source)
        self.rec = parse(dict(data, rounds=[]), source)
        first = replay(self.rec)                    # the variant's problems (ruling P9), no round yet
        self.base, self.base_violations = first.state, first.violations   # before the last round
        self.over = False

    def update(self, data: dict) -> Replay:
        """The replay of the record `data` now is. The Replay may share this stream's state and
        violations: read them, do not change them."""
        rec, reader, players = self.rec, self.reader, self.rec.players
        rounds = data.get("rounds", [])
        if not isinstance(rounds, list) or len(rounds) < len(rec.rounds):
            raise StreamError(f"{self.source}: the record did not grow (its rounds)")
        read = list(reader.objects(rounds, "rounds"))
        for ri in range(max(len(rec.rounds) - 1, 0), len(read) - 1):      # no longer the last: played once
            rd = _read_round(reader, *read[ri], players)
            rec.rounds[ri:ri + 1] = [rd]
            if not self.over and not _round(self.base, rd, ri + 1, False, self.base_violations):
                self.over = True
        if not read:
            return Replay(rec, self.base, self.base_violations, self.base.is_terminal())
        rd = _read_round(reader, *read[-1], players)
        rec.rounds[len(read) - 1:] = [rd]
        state, violations = self.base.clone(), list(self.base_violations)
        if not self.over:
            _round(state, rd, len(read), True, violations)
        return Replay(rec, state, violations, state.is_terminal())


class _RoundReplay:
    def __init__(self, state: State, rd: Round, rn: int, last: bool, violations: list[Violation]):
        self.state, self.rd, self.rn, self.last, self.out = state, rd, rn, last, violations
        self.step = 0

    def attempt(self, a: Action, place: str, who: int | None = None, player: int | None = None,
                soft: bool = False) -> bool:
        """Check and apply one step. Refused: a violation; a soft step (number, card, minute) is
        then applied as the table played it, any other is skipped (ruling P11)."""
        st = self.state
        self.step += 1
        if who is None:
            who = player if player is not None else st.current_player()
            if who < 0:
                who = st.star if st.phase == E.CARD else -1
        try:
            st.check(a, player)
        except IllegalAction as exc:
            self.out.append(Violation(self.rn, who, self.step, place, str(a), exc.rule, exc.reason,
                                      exc.sentence, exc.legal))
            if soft:
                st.apply_unchecked(a)
            return False
        st.apply_unchecked(a)
        return True

    def stop(self, before: str) -> None:
        """The record's round ends here: a game in progress, or (ruling P11) a void round."""
        rd = self.rd
        if rd.guess is None and self.last:
            return
        why = (f"round {self.rn} stops before {before}" +
               (" but has a guess" if rd.guess is not None else f", but round {self.rn + 1} follows") +
               ": the round is not scored")
        self.out.append(Violation(self.rn, -1, self.step + 1, rd.place, "-", "incomplete", why,
                                  sentence("incomplete"), self.state.legal_text()))
        self.state.void_round(why)

    def run(self) -> None:
        st, rd = self.state, self.rd
        if not self.attempt(E.deal(rd.roles), rd.place + ".roles", who=-1):
            st.void_round("a deal the rulebook does not allow")
            return
        star = st.star
        for num, crd, place in rd.rejected:
            self.attempt(E.number(num), place + ".number", who=star, soft=True)
            self.attempt(E.card(crd), place + ".card", who=star, soft=True)
            self.attempt(E.AGAIN, place, who=star)
        if rd.number is None:
            return self.stop("the star Drawy's number")
        self.attempt(E.number(rd.number), rd.place + ".number", who=star, soft=True)
        if rd.card is None:
            return self.stop("the subject card")
        self.attempt(E.card(rd.card), rd.place + ".card", who=star, soft=True)
        if rd.timer is None and rd.placements is None and rd.baddy is None and rd.guess is None:
            return self.stop("the drawing minute")
        self.attempt(E.drawing(rd.timer), rd.place + (".timer" if rd.timer else ""), who=star, soft=True)
        for player, slot, place in rd.placements or []:
            self.attempt(E.place(slot), place, player=player)
        if st.phase == E.PLACE:
            if rd.baddy is None and rd.guess is None:
                return self.stop("all six boards are placed")
            empty = [str(s) for s in range(1, E.SLOTS + 1) if st.slots[s - 1] < 0]
            self.step += 1
            self.out.append(Violation(
                self.rn, st.current_player(), self.step, rd.place + ".placements", "-", "slots_empty",
                f"slot{'s' if len(empty) > 1 else ''} {', '.join(empty)} of the central frame "
                f"{'were' if len(empty) > 1 else 'was'} never filled",
                sentence("slots_empty"), st.legal_text()))
            st.end_placing()
        for kind, board, place in rd.baddy or []:
            self.attempt(Action(kind, board), place, who=st.baddy)
        if st.phase == E.MISCHIEF:
            if rd.baddy is None and rd.guess is None:
                return self.stop("the end of Baddy's Mischief")
            self.attempt(E.DONE, rd.place + ".baddy")
        if rd.guess is None:
            return self.stop("the guess")
        self.attempt(E.guess(rd.guess), rd.place + ".guess")
        if rd.challenge is not None:
            self.attempt(E.challenge(rd.challenge), rd.place + ".challenge", who=st.guessy)
        if st.phase == E.CHALLENGE:
            self.attempt(E.DECLINE, rd.place)


# -- writing -----------------------------------------------------------------------------------
def from_state(state: State, players: list[str]) -> dict:
    """The record of a game played on the engine (its history), as a JSON object. A mischief
    is written once it is over (Baddy done, or both actions taken)."""
    g = state.game
    rounds: list[dict] = []
    pending: dict[str, int] = {}
    for who, a in state.history:
        k = a.kind
        r = rounds[-1] if rounds else {}
        if k == "deal":
            rounds.append({"roles": list(a.roles)})
            pending = {}
        elif k in ("number", "card"):
            r[k] = a.value
        elif k == "again":
            r.setdefault("rejected", []).append({"number": r.pop("number"), "card": r.pop("card")})
        elif k == "drawing":
            if a.timer is not None:
                r["timer"] = {k: v for k, v in zip(TIMER_KEYS, a.timer) if k != "paused_ms" or v}
            r["placements"] = []
        elif k == "place":
            r["placements"].append([who, a.value])
        elif k in ("erase", "draw"):
            pending[k] = a.value
            if len(pending) == 2:
                r["baddy"] = dict(pending)
        elif k == "done":
            r["baddy"] = dict(pending)
        elif k == "guess":
            r["guess"] = "right" if a.value else "wrong"
        elif k == "challenge":
            r["challenge"] = a.value
    return {"format": FORMAT, "edition": E.EDITION, "variant": g.variant, "subjects": g.subjects,
            "players": list(players), "rounds": rounds}
