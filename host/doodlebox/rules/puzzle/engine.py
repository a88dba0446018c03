"""The Doodle Puzzle rules engine, in the spirit of OpenSpiel and of the dice engine
(doodlebox.rules.dice.engine): a state, whose turn it is (a player, or CHANCE for the role deal
and the subject card), the legal actions, apply an action (refused with IllegalAction: the
reason, the rule, the rulebook's sentence, what was legal), chance outcomes, scores at any
time, the final result, clone.

A round, step by step (who acts):
  deal      CHANCE   the role cards, one per player (roles.py)
  number    star     a number from 1 to 12
  card      CHANCE   a subject card from the chosen set (6 beginner or 16 standard cards)
  drawing   star     "drawing": the one-minute drawing ran (with the timer's times if known);
                     or "again": the table agreed to repeat Choose a Subject (ruling P2)
  place     Drawys   one board per turn into a free slot 1-6, star first, clockwise (P4)
  mischief  Baddy    erase a board, draw on a board (each at most once), "done" (P5);
                     skipped in Baddy, Please Behave
  guess     Guessy   the table's verdict: right or wrong; scoring follows at once
  challenge Guessy   Showdown only, after a wrong guess: name a board, or decline (P6)
Five rounds, then the game is over. Players are 0-based, clockwise (roles.py).
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import NamedTuple

from doodlebox.rules import api
from doodlebox.rules.api import CHANCE, TERMINAL, GameConfigError, IllegalAction
from doodlebox.rules.common import History
from doodlebox.rules.puzzle import roles as R
from doodlebox.rules.puzzle.sentences import VERDICTS, sentence
from doodlebox.rules.puzzle.spec import PUZZLE, SUBJECTS, VARIANT

EDITION = PUZZLE.edition
ROUNDS = 5
SLOTS = R.SLOTS
NUMBERS = 12
SUBJECT_SETS = {"beginner": 6, "standard": 16}     # the cards of each set of spec.SUBJECTS
VARIANTS = PUZZLE.variants                          # spec.py: ("behave", "showdown")
VARIANT_NAMES = {c.value: c.name for c in VARIANT.choices}
MINUTE_MS = 60_000
TOLERANCE_MS = 1_000        # ruling P3
CHECK_POINTS = 2

DEAL, NUMBER, CARD, DRAWING, PLACE, MISCHIEF, GUESS, CHALLENGE, OVER = (
    "deal", "number", "card", "drawing", "place", "mischief", "guess", "challenge", "over")
CHECK, CROSS = "check", "cross"

PHASE_TEXT = {
    DEAL: "the role deal", NUMBER: "the star Drawy's number", CARD: "the subject card",
    DRAWING: "the drawing minute", PLACE: "Rearrange the Boards", MISCHIEF: "Baddy's Mischief",
    GUESS: "Guess the Subject", CHALLENGE: "the Showdown challenge", OVER: "the end of the game",
}
PHASE_OF = {"deal": DEAL, "number": NUMBER, "card": CARD, "again": DRAWING, "drawing": DRAWING, "place": PLACE,
            "erase": MISCHIEF, "draw": MISCHIEF, "done": MISCHIEF, "guess": GUESS, "challenge": CHALLENGE,
            "decline": CHALLENGE}


class Action(NamedTuple):
    """One step of a round. kind: deal (roles), number, card, again, drawing (timer), place
    (value = slot), erase / draw (value = board), done, guess (value 1 right, 0 wrong),
    challenge (value = board), decline."""
    kind: str
    value: int = 0
    roles: tuple[str, ...] = ()
    timer: tuple[int, ...] | None = None   # (start_ms, end_ms) or (start_ms, end_ms, paused_ms), if known

    def __str__(self) -> str:
        k, v = self.kind, self.value
        if k == "deal":
            return "deal " + " ".join(self.roles)
        if k in ("number", "card"):
            return f"{k} {v}"
        if k == "again":
            return "repeat Choose a Subject"
        if k == "drawing":
            if self.timer is None:
                return "the drawing minute"
            paused = f", paused {self.timer[2] / 1000:g} s" if len(self.timer) > 2 and self.timer[2] else ""
            return f"the drawing minute ({minute_ms(self.timer) / 1000:g} s{paused})"
        if k == "place":
            return f"place a board in slot {v}"
        if k == "erase":
            return f"erase board {v}"
        if k == "draw":
            return f"draw on board {v}"
        if k == "done":
            return "Baddy done"
        if k == "guess":
            return "guess right" if v else "guess wrong"
        if k == "challenge":
            return f"challenge board {v}"
        if k == "decline":
            return "no challenge"
        return k


def deal(roles) -> Action:
    return Action("deal", roles=tuple(roles))


def number(n: int) -> Action:
    return Action("number", n)


def card(c: int) -> Action:
    return Action("card", c)


def drawing(timer: tuple[int, ...] | None = None) -> Action:
    """The drawing minute ran; `timer`: (start_ms, end_ms), or with the ms it was paused in
    between (start_ms, end_ms, paused_ms)."""
    return Action("drawing", timer=tuple(timer[:3]) if timer is not None else None)


def minute_ms(timer: tuple[int, ...]) -> int:
    """How long the drawing ran: from start to end, less the time it was paused."""
    return timer[1] - timer[0] - (timer[2] if len(timer) > 2 else 0)


def place(slot: int) -> Action:
    return Action("place", slot)


def erase(board: int) -> Action:
    return Action("erase", board)


def draw_on(board: int) -> Action:
    return Action("draw", board)


def guess(right: bool) -> Action:
    return Action("guess", 1 if right else 0)


def challenge(board: int) -> Action:
    return Action("challenge", board)


AGAIN = Action("again")
DRAWING_RAN = Action("drawing")
DONE = Action("done")
DECLINE = Action("decline")
RIGHT = Action("guess", 1)
WRONG = Action("guess", 0)


def refused(reason: str, rule: str, legal: list[str] | None = None) -> IllegalAction:
    """The refusal of an action: the reason, the rule (an id of sentences.py) and its sentence."""
    return IllegalAction(reason, rule, sentence(rule), legal)


def parse_variant(variant) -> tuple[str, ...]:
    """'' / 'behave' / 'showdown' / 'behave+showdown' (or a list of names) -> names; GameConfigError if unknown."""
    return VARIANT.parse(variant, PUZZLE.name)


class Game(api.Game):
    """Doodle Puzzle for a number of players, a variant and a subject set.

    strict (the default) refuses the combinations the rulebook forbids (spec.py's limits: Behave
    with too many players, Behave with Showdown) with GameConfigError; records are read with
    strict=False, and the problems are in `problems` as (rule, reason), reported as violations.
    Such a game is played as Behave (no Baddy, so no challenge either; ruling P9).
    """

    def __init__(self, players: int, variant="", subjects: str = SUBJECTS.default, strict: bool = True):
        low, high = PUZZLE.players
        if not low <= players <= high:
            raise GameConfigError(f"{players} players: {PUZZLE.players_text()}")
        if subjects not in SUBJECT_SETS:
            raise GameConfigError(f"{subjects!r} is not a subject set (beginner: 6 cards, standard: 16 cards)")
        self.variants = parse_variant(variant)
        self.edition = EDITION
        self.players = players
        self.subjects = subjects
        self.cards = SUBJECT_SETS[subjects]
        self.behave = "behave" in self.variants
        self.showdown = "showdown" in self.variants and not self.behave
        self.problems: list[tuple[str, str]] = PUZZLE.problems(players, {"variant": self.variants,
                                                                         "subjects": subjects})
        if strict and self.problems:
            raise GameConfigError(self.problems[0][1])
        self.role_cards = R.role_cards(players, self.behave)

    @property
    def variant(self) -> str:
        return "+".join(self.variants)

    def new_state(self) -> State:
        return State(self)


@dataclass
class RoundResult:
    """One round once scored (or void: not scored, ruling P11)."""
    round: int
    roles: tuple[str, ...]
    number: int = 0
    card: int = 0
    rejected: tuple[tuple[int, int], ...] = ()
    timer: tuple[int, ...] | None = None
    slots: tuple[int, ...] = ()          # the player whose board is in slot 1..6 (-1: empty)
    erased: int = 0                      # board erased by Baddy (0: none)
    drawn: int = 0                       # board Baddy drew on (0: none)
    right: bool | None = None            # the guess
    challenge: int = 0                   # board named in a Showdown challenge (0: none)
    challenge_won: bool | None = None
    void: str = ""                       # why the round is not scored

    @property
    def sabotaged(self) -> set[int]:
        return {b for b in (self.erased, self.drawn) if b}


@dataclass
class Card:
    """One player's Scorecard (in Behave, the shared one): a mark per round, Showdown slashes."""
    marks: list[str] = field(default_factory=list)      # CHECK / CROSS / "" (void round), per round
    correct: int = 0        # slashes in the Guessy-correct box (+1 each)
    incorrect: int = 0      # slashes in the Guessy-incorrect box (-1 each)
    baddy: int = 0          # slashes in the Baddy box (-1 each)

    @property
    def checks(self) -> int:
        return self.marks.count(CHECK)

    @property
    def crosses(self) -> int:
        return self.marks.count(CROSS)

    @property
    def total(self) -> int:
        return card_points(self.checks, self.correct, self.incorrect, self.baddy)

    def copy(self) -> Card:
        return Card(self.marks[:], self.correct, self.incorrect, self.baddy)


def card_points(checks: int, correct: int = 0, incorrect: int = 0, baddy: int = 0) -> int:
    """A Scorecard's points: 2 per check mark; Showdown: +1 per slash in the Guessy-correct box,
    -1 per slash in the Guessy-incorrect box, -1 per slash in the Baddy box (ruling P7)."""
    return CHECK_POINTS * checks + correct - incorrect - baddy


@dataclass
class Result(api.Result):
    """totals per player (Behave: the shared card's points for everyone); winners: the highest
    total, ties share (Behave: none, ruling P8)."""
    finished: bool = False
    shared: Card | None = None   # Behave
    verdict: str = ""            # Behave: the evaluation of the shared card's check marks


class State(api.State[Action]):
    game: Game

    def __init__(self, game: Game):
        self.game = game
        self.phase = DEAL
        self.round = 0                       # the round being played (1-5), 0 before the first deal
        self.cards = [Card() for _ in range(game.players)]
        self.shared = Card() if game.behave else None
        self.results: list[RoundResult] = []
        self._log = History()
        self._reset_round()

    def _reset_round(self) -> None:
        self.roles: tuple[str, ...] = ()
        self.star = self.baddy = self.guessy = -1
        self.placers: list[int] = []         # who places the 1st..6th board
        self.number = 0
        self.card = 0
        self.rejected: list[tuple[int, int]] = []
        self.timer: tuple[int, ...] | None = None
        self.slots = [-1] * SLOTS            # player whose board fills slot 1..6
        self.placed = 0                      # boards placed (turns taken) this round
        self.erased = 0
        self.drawn = 0
        self.right: bool | None = None
        self.challenged = 0

    # -- history ----------------------------------------------------------------------------
    @property
    def history(self) -> list[tuple[int, Action]]:
        """(player or CHANCE, action) in the order they happened."""
        return self._log.items()

    def clone(self) -> State:
        c = State.__new__(State)
        c.__dict__.update(self.__dict__)
        c.cards = [x.copy() for x in self.cards]
        c.shared = self.shared.copy() if self.shared else None
        c.results = self.results[:]          # RoundResults are never changed once stored
        c.placers = self.placers[:]
        c.rejected = self.rejected[:]
        c.slots = self.slots[:]
        return c

    # -- who acts -----------------------------------------------------------------------------
    def current_player(self) -> int:
        ph = self.phase
        if ph == OVER:
            return TERMINAL
        if ph in (DEAL, CARD):
            return CHANCE
        if ph in (NUMBER, DRAWING):
            return self.star
        if ph == PLACE:
            return self.placers[self.placed]
        if ph == MISCHIEF:
            return self.baddy
        return self.guessy

    def is_chance_node(self) -> bool:
        return self.phase in (DEAL, CARD)

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def role_of(self, p: int) -> str:
        return self.roles[p] if self.roles else ""

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        if self.phase == DEAL:
            deals = R.all_deals(self.game.players, self.game.behave)
            return [(deal(r), 1 / len(deals)) for r in deals]
        if self.phase == CARD:
            return [(card(c), 1 / self.game.cards) for c in range(1, self.game.cards + 1)]
        return []

    def sample_chance(self, rng: random.Random) -> Action:
        """A chance outcome drawn with its probability (faster than chance_outcomes for deals)."""
        if self.phase == DEAL:
            return deal(R.deal(rng, self.game.players, self.game.behave))
        if self.phase == CARD:
            return card(rng.randint(1, self.game.cards))
        raise ValueError(f"not a chance node ({self.phase})")

    # -- the legal actions ----------------------------------------------------------------------
    def legal_actions(self, player: int | None = None) -> list[Action]:
        ph = self.phase
        if player is not None and player != self.current_player():
            return []
        if ph in (DEAL, CARD):
            return [a for a, _ in self.chance_outcomes()]
        if ph == NUMBER:
            return [number(n) for n in range(1, NUMBERS + 1)]
        if ph == DRAWING:
            return [DRAWING_RAN, AGAIN]
        if ph == PLACE:
            return [place(s) for s in range(1, SLOTS + 1) if self.slots[s - 1] < 0]
        if ph == MISCHIEF:
            out = []
            if not self.erased:
                out += [erase(b) for b in range(1, SLOTS + 1)]
            if not self.drawn:
                out += [draw_on(b) for b in range(1, SLOTS + 1)]
            return out + [DONE]
        if ph == GUESS:
            return [RIGHT, WRONG]
        if ph == CHALLENGE:
            return [challenge(b) for b in range(1, SLOTS + 1)] + [DECLINE]
        return []

    def name(self, p: int) -> str:
        return f"P{p + 1}"

    def legal_text(self, player: int | None = None) -> list[str]:
        """What may be done now, for a person (`player`: only if it is theirs to do)."""
        ph = self.phase
        g = self.game
        p = self.current_player()
        if player is not None and player != p:
            return []
        if ph == DEAL:
            return [f"deal {R.deal_text(g.players, g.behave)}"]
        if ph == NUMBER:
            return [f"{self.name(p)} (star Drawy) chooses a number from 1 to {NUMBERS}"]
        if ph == CARD:
            return [f"a subject card from 1 to {g.cards} ({g.subjects} set)"]
        if ph == DRAWING:
            return ["the one-minute drawing", "repeat Choose a Subject (most players agree)"]
        if ph == PLACE:
            free = [str(s) for s in range(1, SLOTS + 1) if self.slots[s - 1] < 0]
            return [f"{self.name(p)} places a board in slot {', '.join(free)}"]
        if ph == MISCHIEF:
            out = []
            if not self.erased:
                out.append(f"{self.name(p)} (Baddy) erases on a board (1-{SLOTS})")
            if not self.drawn:
                out.append(f"{self.name(p)} (Baddy) draws on a board (1-{SLOTS})")
            return out + ["Baddy is done"]
        if ph == GUESS:
            return [f"{self.name(p)} (Guessy) guesses: right or wrong"]
        if ph == CHALLENGE:
            return [f"{self.name(p)} (Guessy) challenges Baddy on a board (1-{SLOTS})", "no challenge"]
        return []

    # -- checking -------------------------------------------------------------------------------
    def check(self, a: Action, player: int | None = None) -> None:
        """Raise IllegalAction (the reason, the rule, what was legal) or return."""
        g = self.game

        def bad(reason: str, rule: str, legal: list[str] | None = None) -> IllegalAction:
            return refused(reason, rule, self.legal_text() if legal is None else legal)

        kind = a.kind
        if kind not in PHASE_OF:
            raise bad(f"unknown action {kind!r}", "order")
        if kind in ("erase", "draw", "done") and g.behave:
            raise bad("there is no Baddy in Baddy, Please Behave: Baddy's Mischief is skipped", "behave_sabotage",
                      ["nothing: Baddy, Please Behave skips Baddy's Mischief"])
        if kind in ("challenge", "decline") and self.phase != CHALLENGE:
            if not g.showdown:
                raise bad("a challenge belongs to the Guessy vs. Baddy Showdown!! variant, which this game does "
                          "not use" + (" (Baddy, Please Behave has no Baddy to challenge)" if g.behave else ""),
                          "challenge_variant", ["no challenge: the game is not a Showdown"])
            last = self.results[-1] if self.results and self.phase in (DEAL, OVER) else None
            if last is not None and last.right:
                raise bad(f"Guessy guessed right in round {last.round}: only after a wrong guess may Guessy "
                          "challenge Baddy", "challenge_right", ["no challenge after a right guess"])
        if kind in ("erase", "draw") and self.phase in (GUESS, CHALLENGE):
            done = self.erased if kind == "erase" else self.drawn
            if done:
                what = "erased board" if kind == "erase" else "drew on board"
                raise bad(f"Baddy already {what} {done} this round: each action at most once", "baddy_once",
                          ["nothing more for Baddy: Baddy's Mischief is over this round"])
            raise bad("Baddy's Mischief is over this round (Baddy said done)", "order",
                      ["nothing more for Baddy: Baddy's Mischief is over this round"])
        if kind == "place" and self.phase in (MISCHIEF, GUESS, CHALLENGE):
            if 1 <= a.value <= SLOTS and self.slots[a.value - 1] >= 0:
                raise bad(f"slot {a.value} is already filled ({self.name(self.slots[a.value - 1])}'s board): the "
                          f"central frame is full", "slot_twice", ["no more boards: all 6 slots are filled"])
            raise bad("Rearrange the Boards is over this round", "order", ["no more boards this round"])
        if self.phase == OVER:
            raise bad(f"the game is over after round {ROUNDS}", "over", [])
        if PHASE_OF[kind] != self.phase:
            raise bad(f"now is {PHASE_TEXT[self.phase]}, not {PHASE_TEXT[PHASE_OF[kind]]}", "order")
        p = self.current_player()
        if player is not None and p != CHANCE and player != p:
            if kind == "place":
                who = self.role_of(player) if 0 <= player < len(self.roles) else ""
                if who not in (R.STAR, R.DRAWY):
                    raise bad(f"{self.name(player)} is {R.NAMES.get(who, who)} this round: only Drawys place "
                              f"boards; it is {self.name(p)}'s turn (board {self.placed + 1} of {SLOTS})",
                              "place_turn")
                raise bad(f"it is {self.name(p)}'s turn to place board {self.placed + 1} of {SLOTS}, not "
                          f"{self.name(player)}'s (the star Drawy first, then the Drawys clockwise)", "place_turn")
            raise bad(f"it is {self.name(p)}'s step ({PHASE_TEXT[self.phase]}), not {self.name(player)}'s", "turn")
        getattr(self, "_check_" + kind, lambda a, bad: None)(a, bad)

    def _check_deal(self, a: Action, bad) -> None:
        g = self.game
        problems = R.deal_problems(a.roles, g.players, g.behave)
        if problems:
            rule = "behave_roles" if g.behave and R.BADDY in a.roles else "roles"
            raise bad(f"the deal has {'; '.join(problems)}: {g.players} players are dealt "
                      f"{R.deal_text(g.players, g.behave)}", rule)

    def _check_number(self, a: Action, bad) -> None:
        if not 1 <= a.value <= NUMBERS:
            raise bad(f"{a.value} is not a number from 1 to {NUMBERS}", "number")

    def _check_card(self, a: Action, bad) -> None:
        g = self.game
        if not 1 <= a.value <= g.cards:
            raise bad(f"there is no card {a.value} in the {g.subjects} set (cards 1 to {g.cards})", "card")

    def _check_drawing(self, a: Action, bad) -> None:
        if a.timer is not None:
            ms = minute_ms(a.timer)
            if abs(ms - MINUTE_MS) > TOLERANCE_MS:
                paused = f" (paused {a.timer[2] / 1000:g} s)" if len(a.timer) > 2 and a.timer[2] else ""
                raise bad(f"the drawing lasted {ms / 1000:g} s{paused}, not one minute "
                          f"({(MINUTE_MS - TOLERANCE_MS) / 1000:g} to {(MINUTE_MS + TOLERANCE_MS) / 1000:g} s)",
                          "minute", [f"a drawing of {MINUTE_MS // 1000} s (within {TOLERANCE_MS / 1000:g} s)"])

    def _check_place(self, a: Action, bad) -> None:
        s = a.value
        if not 1 <= s <= SLOTS:
            raise bad(f"there is no slot {s}: the central frame has slots 1 to {SLOTS}", "slot")
        if self.slots[s - 1] >= 0:
            raise bad(f"slot {s} is already filled ({self.name(self.slots[s - 1])}'s board)", "slot_twice")

    def _check_baddy(self, a: Action, bad, done: int, what: str) -> None:
        if done:
            raise bad(f"Baddy already {what} board {done} this round: each action at most once", "baddy_once")
        if not 1 <= a.value <= SLOTS:
            raise bad(f"there is no board {a.value}: the central frame holds boards 1 to {SLOTS}", "board")

    def _check_erase(self, a: Action, bad) -> None:
        self._check_baddy(a, bad, self.erased, "erased")

    def _check_draw(self, a: Action, bad) -> None:
        self._check_baddy(a, bad, self.drawn, "drew on")

    def _check_guess(self, a: Action, bad) -> None:
        if a.value not in (0, 1):
            raise bad("a guess is right or wrong", "guess")

    def _check_challenge(self, a: Action, bad) -> None:
        if not 1 <= a.value <= SLOTS:
            raise bad(f"there is no board {a.value}: the central frame holds boards 1 to {SLOTS}", "board")

    # -- applying -------------------------------------------------------------------------------
    def apply_unchecked(self, action: Action, player: int | None = None) -> None:
        """Apply an action of the phase without checking it (records replay a number, a card or
        a drawing minute that broke a rule as the table played it; ruling P11)."""
        self._apply(action)

    def _apply(self, a: Action) -> None:
        who = self.current_player()
        self._log = self._log.add(who, a)
        kind = a.kind
        g = self.game
        if kind == "deal":
            self._reset_round()
            self.round += 1
            self.roles = tuple(a.roles)
            self.star = self.roles.index(R.STAR)
            self.baddy = self.roles.index(R.BADDY) if R.BADDY in self.roles else -1
            self.guessy = self.roles.index(R.GUESSY)
            self.placers = R.placing_order(self.roles)
            self.phase = NUMBER
        elif kind == "number":
            self.number = a.value
            self.phase = CARD
        elif kind == "card":
            self.card = a.value
            self.phase = DRAWING
        elif kind == "again":
            self.rejected.append((self.number, self.card))
            self.number = self.card = 0
            self.phase = NUMBER
        elif kind == "drawing":
            self.timer = a.timer
            self.phase = PLACE
        elif kind == "place":
            self.slots[a.value - 1] = who
            self.placed += 1
            if self.placed == SLOTS:
                self.end_placing()
        elif kind in ("erase", "draw"):
            if kind == "erase":
                self.erased = a.value
            else:
                self.drawn = a.value
            if self.erased and self.drawn:
                self.phase = GUESS
        elif kind == "done":
            self.phase = GUESS
        elif kind == "guess":
            self.right = bool(a.value)
            self._score_guess()
            if g.showdown and not self.right:
                self.phase = CHALLENGE
            else:
                self._end_round()
        elif kind == "challenge":
            self.challenged = a.value
            won = a.value in {b for b in (self.erased, self.drawn) if b}
            if won:
                self.cards[self.guessy].correct += 1
                self.cards[self.baddy].baddy += 1
            else:
                self.cards[self.guessy].incorrect += 1
            self._end_round(won)
        elif kind == "decline":
            self._end_round()

    def end_placing(self) -> None:
        """Rearrange the Boards is over (all 6 placed; a replay also ends it with slots left empty)."""
        self.phase = GUESS if self.game.behave else MISCHIEF

    def _score_guess(self) -> None:
        """Scoring & Round Reset: the check marks and crosses of the round."""
        right = self.right
        if self.shared is not None:
            self.shared.marks.append(CHECK if right else CROSS)
            for c in self.cards:
                c.marks.append("")
            return
        for p, role in enumerate(self.roles):
            wins = (not right) if role == R.BADDY else right
            self.cards[p].marks.append(CHECK if wins else CROSS)

    def _end_round(self, won: bool | None = None) -> None:
        self.results.append(RoundResult(
            self.round, self.roles, self.number, self.card, tuple(self.rejected), self.timer, tuple(self.slots),
            self.erased, self.drawn, self.right, self.challenged, won))
        self._next_round()

    def _next_round(self) -> None:
        self.phase = OVER if self.round >= ROUNDS else DEAL

    def void_round(self, why: str) -> None:
        """For replays: the round cannot be scored (a bad deal, a round that stops before its
        guess while later rounds follow; ruling P11). It still counts as one of the five."""
        if self.phase == DEAL:
            self.round += 1
            self._reset_round()
        if self.phase == OVER:
            return
        self.results.append(RoundResult(self.round, self.roles, self.number, self.card, tuple(self.rejected),
                                        self.timer, tuple(self.slots), self.erased, self.drawn, void=why))
        for c in self.cards:
            c.marks.append("")
        if self.shared is not None:
            self.shared.marks.append("")
        self._next_round()

    # -- scores -----------------------------------------------------------------------------------
    def scores(self) -> list[int]:
        """Every player's points now (Behave: the shared card's, for everyone)."""
        if self.shared is not None:
            return [self.shared.total] * self.game.players
        return [c.total for c in self.cards]

    def result(self) -> Result:
        """The totals and the winners as if the game ended now (the final result once it has)."""
        totals = self.scores()
        if self.shared is not None:
            return Result(totals, [], self.is_terminal(), self.shared, VERDICTS[self.shared.checks])
        top = max(totals)
        return Result(totals, [p for p, t in enumerate(totals) if t == top], self.is_terminal())
