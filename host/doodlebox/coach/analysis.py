"""The coach after the game and at the table: every turn of a dice game valued against the
search's best move with the same dice (`doodlebox analyse`), a solo game's hindsight best on the
same rolls, and the hint for the player to act (`doodlebox hint`). Built on search.evaluate
only (docs/coach.md, "The analysis"). Deadly Doodles' placements are valued the same way, on
random playouts and deadly.narrow's screen (docs/coach.md, "Scope").

A turn is the state before the player's move (rebuilt from the record's history) and what the
player did: the engine action and, where a drawing let them choose, the value circled (R10).
The turn's actions are valued in one evaluate() call, the played one among them, so the best
and the played move are compared on the same playouts; a circle chosen is valued in a second
call on the state after the drawing, with the same seed (with `playouts=`, exactly the values
the first call gave that drawing's plans).

One measure throughout, the one the search decides by (search.objective, `measure`): solo, the
expected final points; with others, the expected final margin over the best other player (own
points minus the highest other's). A turn shows the played move's and the best move's value on
it and the loss, best - played: never negative, and a played move valued as high as the best is
the best. The marks are on the same measure.
"""
from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from doodlebox.coach import deadly, search
from doodlebox.coach.policy import policy_for
from doodlebox.rules.api import CHANCE, State
from doodlebox.rules.deadly import engine as deadly_rules
from doodlebox.rules.dice import engine as dice

ANALYSE_BUDGET_S = 0.2   # `doodlebox analyse`'s time per decision (a 3-player City game: 15-25 s)
HINT_BUDGET_S = 0.5      # `doodlebox hint`'s (p95 under 1 s with a 6's many plans: make bench)
WEB_PLAYOUTS = 4         # the web page's analysis: playouts per plan (fixed: the same chart every time)
CIRCLE_SHARE = 0.25      # of the budget, for valuing the circle after a drawing
MARKS = (("blunder", 10.0), ("mistake", 5.0), ("inaccuracy", 2.0))   # lost on the measure, at least
NEAR = 2.0               # a turn "on the mark": lost less than this (the accuracy line)
PLAYS = ("draw", "house", "floor", "pass")
DIGITS = 1               # a turn's values and loss, rounded (the loss is the rounded values' difference)
# the measure a turn is valued on (search.objective): its name (the table's column) and its words
MEASURES = {"points": "expected final points",
            "margin": "expected final margin over the best other player (own points minus the highest other's)"}


def measure(players: int) -> str:
    """The measure moves are valued on in a game of `players`: "points" solo, "margin" with others
    (search.objective: what the search maximises, so what its best move is best on)."""
    return "points" if players == 1 else "margin"


def value_text(value: float, measure_name: str) -> str:
    """A value on the measure as the table prints it: "41.0" points, "+3.0" or "-12.5" a margin."""
    value = round(value, DIGITS) + 0.0        # (+ 0.0: never "-0.0")
    return f"{value:+.{DIGITS}f}" if measure_name == "margin" else f"{value:.{DIGITS}f}"


def mark(lost: float) -> str:
    """"blunder", "mistake", "inaccuracy" or "" for a turn that lost `lost` on the measure."""
    for name, at_least in MARKS:
        if lost >= at_least:
            return name
    return ""


# -- a move in words ---------------------------------------------------------------------------
def move_text(state: State, action: Any, circle: int | None = None) -> str:
    """A dice move as a player reads it at the table: "take die 3 (the 5) -> row 5, column 2
    (hotel), draw NS; circle 4"; `state` is the state before it. A Deadly Doodles move as the
    engine words it: "card 12 at C4 opening N E"."""
    if isinstance(state, deadly_rules.State):
        return str(action)
    assert isinstance(state, dice.State)
    lay = state.game.layout
    if action.kind == "circle":
        return f"circle {action.value}"
    if action.kind == "pass":
        text = f"pass: cross out a {lay.word('tree')}"
    else:
        w = state.white[action.die - 1]
        text = f"take die {action.die} (the {w}) -> row {action.row}, column {action.col}"
        kind = lay.square(action.row, action.col).kind
        if action.via is not None:
            text += f" (through the {lay.word('park')} at row {action.via[0]}, column {action.via[1]})"
        elif kind != "plain":
            text += f" ({lay.word(kind)})"
        if action.kind == "house":
            text += f", cross a {lay.word('house')}"
        elif action.kind == "floor":
            text += ", add a floor"
        else:
            text += f", draw {action.piece}"
    return text + (f"; circle {circle}" if circle is not None else "")


def roll_text(state: State) -> str:
    """The dice of the turn: "col 3 | 1 5 6" (a die already taken in brackets)."""
    assert isinstance(state, dice.State)
    whites = " ".join(f"[{v}]" if state.taken[k] >= 0 else str(v) for k, v in enumerate(state.white))
    return f"col {state.column} | {whites}"


# -- one decision -------------------------------------------------------------------------------
@dataclass
class Choice:
    """A move valued: the engine action, the value circled after it (None: no choice), the
    player's own expected final points (not shown: the search does not decide by them) and the
    value on the measure (`measure`: points solo; margin with others)."""
    action: Any
    circle: int | None
    points: float
    value: float
    text: str


@dataclass
class Decision:
    """A decision valued: the best move, the played one (None for a hint), the next best, the loss
    (best.value - played.value: never negative; the played move is the best when it is valued as
    high)."""
    best: Choice
    played: Choice | None
    second: Choice | None
    lost: float
    considered: int      # the moves (engine actions) valued
    playouts: int        # games played out to value them
    forced: bool         # only one legal move (and no circle to choose)


def _narrow(state: State, legal: list[Any], played: Any) -> list[Any]:
    """The actions to value: with more than search.SCREEN of them, the SCREEN (with a played
    move: SCREEN - 1) the greedy policy scores highest and the played one (so that the played one is searched on, not
    screened out after one playout); else all of them."""
    scores = getattr(policy_for(state), "scores", None)
    if scores is None or len(legal) <= search.SCREEN or getattr(state, "phase", None) != "turn":
        return legal
    ranked = sorted(range(len(legal)), key=lambda i: -s[i]) if (s := scores(state, legal)) else []
    keep = [legal[i] for i in ranked[:search.SCREEN - (played is not None)]]
    if played is not None and played not in keep:
        keep.append(played)
    return keep


def _circles(after: State, who: int, budget_s: float, seed: int, playouts: int | None) -> list[search.Evaluation]:
    """The circles open after a drawing valued (same seed as the drawing's call); [] when the
    player has no value to choose."""
    if after.is_terminal() or after.is_chance_node() or getattr(after, "phase", None) != "circle":
        return []
    if len(after.legal_actions(who)) < 2:
        return []
    return search.evaluate(after, who, budget_s, random.Random(seed), playouts=playouts)


def decide(state: State, who: int | None = None, played: Any = None, circle: int | None = None, *,
           budget_s: float = ANALYSE_BUDGET_S, seed: int = 0, playouts: int | None = None) -> Decision:
    """Value the decision of `who` (default: the player to act) in `state` (a dice edition's
    phase TURN or CIRCLE; or a Deadly Doodles placement: deadly.narrow's actions, random
    playouts): the best move with its circle, `played` (with the value `circle`d after it, if
    any) on the same playouts, the next best, what the played move lost on the measure (the
    search's value: points solo, margin with others). A played move valued as high as the best
    is the best (`best` is then `played`).
    `seed` fixes the playouts' dice; `playouts` instead of `budget_s` gives every plan exactly
    that many (deterministic)."""
    who = state.current_player() if who is None else who
    legal = state.legal_actions(who)
    rng = random.Random(seed)
    placing = isinstance(state, deadly_rules.State)      # Deadly Doodles: no circle, its own screen
    share = 0.0 if playouts is not None or placing else budget_s * CIRCLE_SHARE
    actions = (deadly.narrow(state, who, legal, played, budget_s, playouts, seed) if placing
               else _narrow(state, legal, played))
    evals = search.evaluate(state, who, budget_s - share, rng, playouts=playouts, actions=actions)
    # best first, and of equal values the one searched most: a plan screened out after one playout
    # may tie with the best (search._report), and the best is the one valued on the most playouts
    evals.sort(key=lambda e: (-e.value, -e.playouts))
    spent = sum(e.playouts for e in evals)
    by_action = {e.action: e for e in evals}

    def choice(e: search.Evaluation, chosen: int | None = None) -> tuple[Choice, float]:
        """The move of `e` with its circle (the best one, or `chosen`), and the value the circle
        chosen loses against the best circle."""
        nonlocal spent
        if e.action.kind == "circle":
            return Choice(e.action, None, e.points, e.value, move_text(state, e.action)), 0.0
        after = state.clone()
        after.apply_unchecked(e.action, who)
        circles = _circles(after, who, share, seed, playouts)
        spent += sum(c.playouts for c in circles)
        if not circles:
            return Choice(e.action, None, e.points, e.value, move_text(state, e.action)), 0.0
        top = circles[0]
        mine = top if chosen is None else next(c for c in circles if c.action.value == chosen)
        cut_v, cut_p = top.value - mine.value, top.points - mine.points
        value = e.value - cut_v
        return (Choice(e.action, mine.action.value, e.points - cut_p, value,
                       move_text(state, e.action, mine.action.value)), cut_v)

    best, _ = choice(evals[0])
    second = choice(evals[1])[0] if len(evals) > 1 else None
    mine: Choice | None = None
    lost = 0.0
    if played is not None:
        if played == evals[0].action and circle == best.circle:
            mine = best
        else:
            e = by_action[played]
            mine, cut = choice(e, circle)
            lost = max(0.0, evals[0].value - e.value) + max(0.0, cut)
            mine.value = best.value - lost
            if lost <= 0.0:      # valued as high as the best on the same playouts: it is a best move
                best = mine
    forced = len(legal) == 1 and (mine is None or mine.circle is None)
    return Decision(best, mine, second, lost, len(evals), spent, forced)


# -- a whole game ---------------------------------------------------------------------------------
@dataclass
class Turn:
    """One turn of one player, analysed: the played and the best move in words, their values on
    the analysis's measure (rounded to DIGITS) and the loss, their difference (`turn`)."""
    player: int
    round: int
    roll: str
    played: str
    best: str
    played_value: float
    best_value: float
    lost: float
    mark: str
    forced: bool
    played_action: Any = field(repr=False, default=None)
    played_circle: int | None = field(repr=False, default=None)
    best_action: Any = field(repr=False, default=None)
    best_circle: int | None = field(repr=False, default=None)
    state: Any = field(repr=False, default=None)        # the state before the move (the tests)

    def as_json(self) -> dict:
        d = asdict(self)
        for k in ("played_action", "played_circle", "best_action", "best_circle", "state"):
            d.pop(k)
        return d


def turn(player: int, roll: str, d: Decision, state: Any, action: Any, circled: int | None = None) -> Turn:
    """Decision `d` of `player` in `state` (the played `action`, `circled` after it) as a turn: both
    values rounded to DIGITS, the loss the difference of the rounded values (so a reader's best -
    played is the loss shown), its mark."""
    mine = d.played
    assert mine is not None
    best_v, played_v = round(d.best.value, DIGITS) + 0.0, round(mine.value, DIGITS) + 0.0    # (never -0.0)
    lost = round(max(0.0, best_v - played_v), DIGITS) + 0.0
    return Turn(player, state.round, roll, mine.text, d.best.text, played_v, best_v, lost, mark(lost), d.forced,
                action, circled, d.best.action, d.best.circle, state)


@dataclass
class Hindsight:
    """A solo game's best on the same rolls, as far as the beam search found."""
    points: int            # the final points of the best line found
    played: int            # the final points played
    line: list[str]        # its moves, one a round
    width: int
    branch: int
    budget_s: float
    seconds: float
    complete: bool         # the beam went through every round within the budget
    rounds: int            # the rounds whose roll the record has: no line plays more
    played_line: bool = False  # the beam found no line above the one played: `line` is the one played

    def as_json(self) -> dict:
        return asdict(self)


@dataclass
class Analysis:
    edition: str
    game: str              # its name
    players: list[str]
    totals: list[int]
    finished: bool
    budget_s: float
    playouts: int | None
    seconds: float
    turns: list[Turn]
    hindsight: Hindsight | None = None
    # (player, round) of each turn not analysed: played out of turn or against the rules, so no
    # decision the rules gave that player (`doodlebox validate` lists them)
    skipped: list[tuple[int, int]] = field(default_factory=list)

    @property
    def measure(self) -> str:
        """The measure of every value and loss: "points" solo, "margin" with others (`measure`)."""
        return measure(len(self.players))

    def summary(self) -> list[dict]:
        """Per player: turns analysed, lost on the measure in all and per mark, the turns of each
        mark, the turns within NEAR of the best (on the mark) and the mean loss a turn."""
        out = []
        for p, name in enumerate(self.players):
            mine = [t for t in self.turns if t.player == p]
            if not mine:
                continue
            marks = {m: [t for t in mine if t.mark == m] for m, _ in MARKS}
            out.append({"player": p + 1, "name": name, "turns": len(mine),
                        "lost": round(sum(t.lost for t in mine), DIGITS),
                        "mean_lost": round(sum(t.lost for t in mine) / len(mine), 2),
                        "on_the_mark": sum(1 for t in mine if t.lost < NEAR),
                        "marks": {m: {"turns": len(ts), "lost": round(sum(t.lost for t in ts), DIGITS)}
                                  for m, ts in marks.items()},
                        "final": self.totals[p] if p < len(self.totals) else None})
        return out

    def as_json(self) -> dict:
        return {"edition": self.edition, "game": self.game, "players": self.players, "totals": self.totals,
                "finished": self.finished, "budget_s": self.budget_s, "playouts": self.playouts,
                "seconds": round(self.seconds, 2),
                "measure": self.measure, "measure_text": MEASURES[self.measure],
                "thresholds": {m: v for m, v in MARKS}, "near": NEAR,
                "turns": [t.as_json() for t in self.turns], "summary": self.summary(),
                "hindsight": self.hindsight.as_json() if self.hindsight else None,
                "skipped": [{"player": p, "round": r} for p, r in self.skipped]}


def turns_of(state: dice.State) -> list[tuple[dice.State, int, Any, int | None]]:
    """(the state before, player, action, value circled after it or None) for every player's turn
    of a played dice game (its history replayed from a new state)."""
    hist = state.history
    s = state.game.new_state()
    out: list[tuple[dice.State, int, Any, int | None]] = []
    for k, (who, a) in enumerate(hist):
        if who != CHANCE and a.kind in PLAYS:
            nxt = hist[k + 1] if k + 1 < len(hist) else None
            circled = nxt[1].value if nxt is not None and nxt[0] == who and nxt[1].kind == "circle" else None
            out.append((s.clone(), who, a, circled))
        s.apply_unchecked(a, who)
    return out


def placements_of(state: deadly_rules.State) -> list[tuple[deadly_rules.State, int, Any]]:
    """(the state before, player, action) for every placement and Trap of every player of a
    played Deadly Doodles game (its history replayed from a new state; DONE, which the engine
    allows only when nothing can be drawn, is no decision)."""
    s = state.game.new_state()
    out: list[tuple[deadly_rules.State, int, Any]] = []
    for who, a in state.history:
        if who != CHANCE and a.kind != "done":
            out.append((s.clone(), who, a))
        s.apply_unchecked(a, who)
    return out


def cards_text(state: deadly_rules.State, who: int) -> str:
    """The cards `who` may still draw this round: "cards 3 17 22"."""
    return "cards " + " ".join(str(c) for c in state.open_cards(who))


def _analyse_deadly(rp: Any, game_name: str, player: int | None, budget_s: float, seed: int,
                    playouts: int | None, progress: Callable[[int, int], None] | None) -> Analysis:
    t0 = time.perf_counter()
    state = rp.state
    todo = placements_of(state)
    out: list[Turn] = []
    for k, (before, who, a) in enumerate(todo):
        if progress is not None:
            progress(k, len(todo))
        if player is not None and who != player:
            continue
        d = decide(before, who, a, budget_s=budget_s, seed=seed * 100003 + k, playouts=playouts)
        out.append(turn(who, cards_text(before, who), d, before, a))
    analysis = Analysis(state.game.edition, game_name, list(rp.record.players), list(state.scores()),
                        state.is_terminal(), budget_s, playouts, 0.0, out)
    analysis.seconds = time.perf_counter() - t0
    return analysis


def analyse(rp: Any, game_name: str = "", player: int | None = None, budget_s: float = ANALYSE_BUDGET_S,
            seed: int = 1, playouts: int | None = None, hindsight_s: float | None = None,
            progress: Callable[[int, int], None] | None = None) -> Analysis:
    """Every turn of a replayed dice game (rules/common.Replay), or of `player` (0-based) only.
    Turn k's playouts are seeded `seed` * 100003 + k. A solo game also gets its hindsight best
    (hindsight(): `hindsight_s` its time, default HINDSIGHT_S; 0 for none). A Deadly Doodles
    game (not recorded with tallies): every placement and Trap of every player, no hindsight."""
    if isinstance(rp.state, deadly_rules.State):
        return _analyse_deadly(rp, game_name, player, budget_s, seed, playouts, progress)
    t0 = time.perf_counter()
    state = rp.state
    assert isinstance(state, dice.State)
    todo = turns_of(state)
    out: list[Turn] = []
    skipped: list[tuple[int, int]] = []
    for k, (before, who, a, circled) in enumerate(todo):
        if progress is not None:
            progress(k, len(todo))
        if player is not None and who != player:
            continue
        if before.is_chance_node() or before.is_terminal() or a not in before.legal_actions(who):
            skipped.append((who, before.round))      # a violation: no decision of the rules to value
            continue
        d = decide(before, who, a, circled, budget_s=budget_s, seed=seed * 100003 + k, playouts=playouts)
        out.append(turn(who, roll_text(before), d, before, a, circled))
    res = state.result()
    names = list(rp.record.players)
    analysis = Analysis(state.game.edition, game_name, names, list(res.totals), state.is_terminal(), budget_s,
                        playouts, 0.0, out, skipped=skipped)
    if state.game.players == 1 and hindsight_s != 0:
        analysis.hindsight = hindsight(state, budget_s=HINDSIGHT_S if hindsight_s is None else hindsight_s)
    analysis.seconds = time.perf_counter() - t0
    return analysis


# -- hindsight: the rolls known ---------------------------------------------------------------------
HINDSIGHT_S = 10.0     # its time bound
WIDTH = 8              # the beam: states kept after each turn
BRANCH = 12            # the moves tried from each (the greedy policy's best), each with every circle


def _advance(state: State, chance: Sequence[Any], used: int) -> tuple[int, bool]:
    """Apply the record's chance outcomes from `used` on while `state` is at a chance node:
    (how many are used now, whether the state got to a decision or the end; False when the
    record's rolls ran out)."""
    while state.is_chance_node():
        if used >= len(chance):
            return used, False
        state.apply_unchecked(chance[used])
        used += 1
    return used, True


def _greedy_end(state: dice.State, used: int, chance: Sequence[Any]) -> tuple[int, list[str]]:
    """The greedy policy played on with the known rolls, until the game ends or the rolls run out:
    (the points then, its moves)."""
    pol = policy_for(state)
    s = state.clone()
    moves: list[str] = []
    rng = random.Random(0)
    while True:
        used, more = _advance(s, chance, used)
        if s.is_terminal() or not more:
            return s.scores()[0], moves
        before = s.clone() if s.phase == dice.TURN else None
        a = pol(s, rng)
        if before is not None:
            moves.append(f"round {s.round}: {move_text(before, a)}")
        elif moves:
            moves[-1] += f"; circle {a.value}"
        s.apply_unchecked(a)


def hindsight(state: dice.State, width: int = WIDTH, branch: int = BRANCH, budget_s: float = HINDSIGHT_S) -> Hindsight:
    """A solo game's best line on its own rolls (known in advance): a beam search over turns.
    Each state of the beam (at most `width`) is expanded by its `branch` moves the greedy policy
    scores highest (each with every value it may circle); each child is valued by the greedy
    policy playing on to the end with the known rolls (rolls beyond the record's come from a
    fixed seed), and the best `width` children go on. The answer is the best line valued so far:
    a real line of play on those rolls (a lower bound of the hindsight optimum, not a proof),
    found within `budget_s` seconds; the line played when the beam found none above it."""
    t0 = time.perf_counter()
    deadline = t0 + budget_s
    chance = [a for who, a in state.history if who == CHANCE]
    played = state.scores()[0]
    start = state.game.new_state()
    used, _ = _advance(start, chance, 0)
    best = _greedy_end(start, used, chance)
    beam: list[tuple[dice.State, int, list[str]]] = [(start, used, [])]
    complete = True
    while beam:
        children: list[tuple[int, dice.State, int, list[str]]] = []
        for s, used, path in beam:
            if time.perf_counter() > deadline:
                complete = False
                break
            legal = s.legal_actions()
            scores = getattr(policy_for(s), "scores", None)
            if scores is not None and len(legal) > branch:
                sc = scores(s, legal)
                legal = [legal[i] for i in sorted(range(len(legal)), key=lambda i: -sc[i])[:branch]]
            for a in legal:
                s1 = s.clone()
                s1.apply_unchecked(a)
                step = f"round {s.round}: {move_text(s, a)}"
                ends = [s1]
                if s1.phase == dice.CIRCLE:
                    ends = []
                    for c in s1.legal_actions():
                        s2 = s1.clone()
                        s2.apply_unchecked(c)
                        ends.append(s2)
                for e in ends:
                    text = step + (f"; circle {e.history[-1][1].value}" if e is not s1 else "")
                    u, more = _advance(e, chance, used)
                    rest: list[str] = []
                    if e.is_terminal() or not more:
                        v = e.scores()[0]
                    else:
                        v, rest = _greedy_end(e, u, chance)
                        children.append((v, e, u, path + [text]))
                    if v > best[0]:
                        best = (v, path + [text] + rest)
        if not complete:
            break
        children.sort(key=lambda c: -c[0])
        beam = [(e, u, path) for _, e, u, path in children[:width]]
    own = played > best[0]      # the line played is a line on these rolls too: the best is never below it
    if own:
        best = (played, _played_line(state))
    return Hindsight(best[0], played, best[1], width, branch, budget_s, time.perf_counter() - t0, complete,
                     sum(1 for a in chance if a.kind == "roll"), own)


def _played_line(state: dice.State) -> list[str]:
    """The moves played, one a round, in the words of hindsight()'s lines."""
    s = state.game.new_state()
    out: list[str] = []
    for who, a in state.history:
        if who != CHANCE:
            if a.kind == "circle" and out:
                out[-1] += f"; circle {a.value}"
            else:
                out.append(f"round {s.round}: {move_text(s, a)}")
        s.apply_unchecked(a)
    return out
