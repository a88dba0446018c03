"""One rules engine for the five dice editions, in the spirit of OpenSpiel: a state, the
legal actions of the player to act, apply an action (refused with a reason), chance outcomes
for the dice, scores at any time. Editions differ only in their layout (docs/layouts.md);
the readings of unclear rules are docs/rulings.md.

Rows and columns are 1-based, as printed. Players are 0-based, clockwise from the first
start player.
"""
from __future__ import annotations

import itertools

from doodlebox.rules import api
from doodlebox.rules.api import CHANCE, TERMINAL, GameConfigError, IllegalAction
from doodlebox.rules.common import History
from doodlebox.rules.dice import roads, scoring
from doodlebox.rules.dice.actions import PASS as PASS
from doodlebox.rules.dice.actions import Action as Action
from doodlebox.rules.dice.actions import circle as circle
from doodlebox.rules.dice.actions import draw as draw
from doodlebox.rules.dice.layout import PIECES, Layout
from doodlebox.rules.dice.sentences import sentence
from doodlebox.rules.dice.sheet import Pending as Pending
from doodlebox.rules.dice.sheet import Scored as Scored
from doodlebox.rules.dice.sheet import Sheet as Sheet
from doodlebox.rules.dice.spec import CONTROL, MOST_PLAYERS

# (the actions and a sheet's parts live in actions.py and sheet.py; imported "as" themselves, they
# are the engine's names too: engine.Action, engine.circle, engine.Pending)
START, ROLL, TURN, CIRCLE, OVER = "start", "roll", "turn", "circle", "over"
_PLAYS = frozenset(("draw", "house", "floor", "pass"))   # what a player does on a turn (phase TURN)
SCORING = ("hotel", "shop", "skyscraper")   # the squares scored at the moment of drawing


def refused(reason: str, rule: str, edition: str, legal: list[str] | None = None) -> IllegalAction:
    """The refusal of an action: the reason, the rule and its sentence in `edition`'s rulebook."""
    return IllegalAction(reason, rule, sentence(rule, edition), legal)


class Game(api.Game):
    """The rules of one edition (a layout) for a number of players and a variant."""

    def __init__(self, layout: Layout, players: int, variant: str = ""):
        if not 1 <= players <= MOST_PLAYERS:
            raise GameConfigError(f"{players} players: the dice editions are for 1 to {MOST_PLAYERS}")
        if variant not in CONTROL.values:
            raise GameConfigError(f"unknown variant {variant!r} ({CONTROL.known()})")
        if players == 1 and not layout.solo:
            raise GameConfigError(f"{layout.name} has no solo game (ruling R16)")
        if variant == "control" and not layout.jokers:
            raise GameConfigError("More control is a variant of the 5x5 editions; the 6x6 ones always allow passing")
        self.layout = layout
        self.edition = layout.edition
        self.players = players
        self.variant = variant
        self.solo = players == 1
        self.whites = 3 if self.solo else players + 1
        n = layout.size
        self.n = n
        self.nbs = roads.neighbours(n)
        self.kind = [s.kind for s in layout.squares]
        self.starts = [(s.row - 1) * n + s.col - 1 for s in layout.starts()]
        self.can_pass = layout.free_pass or variant == "control"
        self.draws: dict[tuple[int, int, tuple[int, int] | None], tuple[Action, ...]] = {}  # _square_actions'

    def new_state(self) -> State:
        return State(self)

    def roll_outcomes(self) -> int:
        return 6 ** (self.whites + 1)


class State(api.State[Action]):
    game: Game

    def __init__(self, game: Game):
        self.game = game
        lay = game.layout
        n = game.n
        self.phase = START
        self.round = 0
        self.start_player = 0
        self.turn = 0              # players who have acted this round
        self.column = 0
        self.white: tuple[int, ...] = ()
        self.taken: list[int] = []  # player who took each white die (index 0 = die 1), -1 if free
        self.start_faces: list[int] = []
        self.ending: list[str] = []  # why the game ends at the end of this round
        self.pending: Pending | None = None  # the drawing whose value is being chosen (CIRCLE)
        self.shared: dict[str, dict[int, int]] = {t: {} for t in lay.tracks}  # value -> player
        self.bonus_owner: dict[int, int] = {}
        crossed = [sq.precrossed for sq in lay.squares]
        floors = [sq.floors for sq in lay.squares]
        self.sheets = [Sheet([0] * (n * n), crossed[:], floors[:],
                             circled={t: [] for t in lay.tracks}, struck={t: set() for t in lay.tracks})
                       for _ in range(game.players)]
        self._owned = [True] * game.players  # copy-on-write: a sheet shared with a clone is copied before a change
        self._log = History()                  # shared by clones

    @property
    def history(self) -> list[tuple[int, Action]]:
        """(player or CHANCE, action) in the order they happened."""
        return self._log.items()

    def _log_add(self, who: int, a: Action) -> None:
        self._log = self._log.add(who, a)

    def _mine(self, p: int) -> Sheet:
        """Player p's sheet, to change (copied first if a clone shares it)."""
        if not self._owned[p]:
            self.sheets[p] = self.sheets[p].copy()
            self._owned[p] = True
        return self.sheets[p]

    # -- who acts ----------------------------------------------------------------------
    def current_player(self) -> int:
        if self.phase == OVER:
            return TERMINAL
        if self.phase in (START, ROLL):
            return CHANCE
        return (self.start_player + self.turn) % self.game.players

    def is_chance_node(self) -> bool:
        return self.phase in (START, ROLL)

    def circle_choices(self) -> list[int]:
        """The values the player may circle now, highest first ([] outside phase CIRCLE)."""
        return list(reversed(self.pending.free)) if self.pending is not None else []

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def clone(self) -> State:
        """An independent copy, cheap: sheets are shared until either state changes one
        (copy-on-write), so treat `sheets` as read-only outside this class."""
        s = State.__new__(State)
        s.__dict__.update(self.__dict__)
        s.taken = self.taken[:]
        s.start_faces = self.start_faces[:]
        s.ending = self.ending[:]
        s.shared = {k: dict(v) for k, v in self.shared.items()}
        s.bonus_owner = dict(self.bonus_owner)
        s.sheets = self.sheets[:]
        s._owned = [False] * len(self.sheets)
        self._owned = [False] * len(self.sheets)
        return s

    # -- chance ------------------------------------------------------------------------
    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """Every outcome with its probability (a roll of all dice: 6^(whites+1) outcomes)."""
        if self.phase == START:
            return [(Action("start", f), 1 / 6) for f in range(1, 7)]
        if self.phase == ROLL:
            k = self.game.whites + 1
            p = 1 / 6 ** k
            return [(Action("roll", d[0], whites=d[1:]), p) for d in itertools.product(range(1, 7), repeat=k)]
        return []

    def sample_chance(self, rng) -> Action:
        """One chance outcome drawn with `rng` (random.Random)."""
        if self.phase == START:
            return Action("start", rng.randint(1, 6))
        return Action("roll", rng.randint(1, 6), whites=tuple(rng.randint(1, 6) for _ in range(self.game.whites)))

    # -- the player's options --------------------------------------------------------------
    def legal_actions(self, player: int | None = None) -> list[Action]:
        if self.phase in (START, ROLL):
            return [a for a, _ in self.chance_outcomes()] if player is None else []
        if self.phase == CIRCLE:
            if player is not None and player != self.current_player():
                return []
            return [circle(v) for v in self.circle_choices()]
        if self.phase != TURN:
            return []
        p = self.current_player()
        if player is not None and player != p:
            return []
        sheet = self.sheets[p]
        out: list[Action] = []
        for i in range(1, len(self.white) + 1):
            if self.taken[i - 1] < 0:
                out.extend(self._die_actions(sheet, i))
        if not out or (self.game.can_pass and sheet.trees < self.game.layout.trees):
            out.append(PASS)
        return out

    def _targets(self, sheet: Sheet, die: int) -> tuple[list[tuple[int, tuple[int, int] | None]], str | None]:
        """(squares the die lets this sheet draw in, with the park it went through), or ([], why)."""
        g = self.game
        lay = g.layout
        n = g.n
        w, b = self.white[die - 1], self.column
        has_tree = sheet.trees < lay.trees
        if lay.jokers:
            if w == 6 and not has_tree:
                return [], "six_tree"
            rows = range(1, n + 1) if w == 6 else (w,)
            cols = range(1, n + 1) if b == 6 else (b,)
            return [((r - 1) * n + c - 1, None) for r in rows for c in cols], None
        i = (w - 1) * n + b - 1
        if g.kind[i] == "park" and lay.park:
            if lay.park == "row":
                if not has_tree:
                    return [], "park_tree"
                return [((w - 1) * n + c - 1, (w, b)) for c in range(1, n + 1)], None
            if sheet.barrels >= lay.barrels:
                return [], "park_barrel"
            return [(j, (w, b)) for j in range(n * n)], None
        return [(i, None)], None

    def _square_actions(self, sheet: Sheet, die: int, i: int, via) -> list[Action]:
        g = self.game
        kind = g.kind[i]
        r, c = divmod(i, g.n)
        r, c = r + 1, c + 1
        if kind == "house":
            sq = g.layout.squares[i]
            return [Action("house", die, r, c, via=via)] if sheet.crossed[i] < sq.houses else []
        if sheet.pieces[i]:
            return []
        draws = g.draws.get((die, i, via))
        if draws is None:      # Actions are immutable: each game makes a square's six draws once
            draws = g.draws[(die, i, via)] = tuple(Action("draw", die, r, c, p, via) for p in PIECES)
        if kind == "skyscraper" and sheet.floors[i] - g.layout.squares[i].floors < g.layout.extra_floors:
            return [Action("floor", die, r, c, via=via), *draws]
        return list(draws)

    def _die_actions(self, sheet: Sheet, die: int) -> list[Action]:
        targets, _ = self._targets(sheet, die)
        out: list[Action] = []
        for i, via in targets:
            out.extend(self._square_actions(sheet, die, i, via))
        return out

    # -- applying ----------------------------------------------------------------------
    def check(self, action: Action, player: int | None = None) -> None:
        """Raise IllegalAction (with the reason, the rule and what was legal) or return."""
        g = self.game
        if self.phase == TURN and action.kind in _PLAYS:   # the common case first (validation's hot path)
            p = (self.start_player + self.turn) % g.players
            if (player is None or player == p) and self._allowed(self.sheets[p], action):
                return
        ed = g.edition
        if self.phase == OVER:
            raise refused("the game is over", "over", ed)
        if action.kind in ("start", "roll"):
            self._check_chance(action)
            return
        if self.phase == CIRCLE:
            self._check_circle(action, player)
            return
        if self.phase != TURN:
            raise refused(f"the dice must be rolled first ({self.phase})", "order", ed)
        p = self.current_player()
        if player is not None and player != p:
            raise refused(f"it is P{p + 1}'s turn, not P{player + 1}'s", "turn", ed, self.legal_text())
        if action.kind == "circle":
            raise refused("there is no value to circle now: circle one right after a drawing that "
                          "scores, when more than one is free", "circle", ed, self.legal_text())
        sheet = self.sheets[p]
        if self._allowed(sheet, action):
            return
        raise self._why(sheet, action, self.legal_actions())

    def _allowed(self, sheet: Sheet, a: Action) -> bool:
        """Whether `a` is among legal_actions(), without listing them (validation's hot path;
        tests/rules/test_rules.py checks the two agree)."""
        g = self.game
        if a.kind == "pass":
            if a != PASS:
                return False
            if g.can_pass and sheet.trees < g.layout.trees:
                return True
            return not any(self.taken[i - 1] < 0 and self._die_actions(sheet, i) for i in range(1, len(self.white) + 1))
        if a.kind not in ("draw", "house", "floor") or a.whites or not 1 <= a.die <= len(self.white):
            return False
        if self.taken[a.die - 1] >= 0 or not (1 <= a.row <= g.n and 1 <= a.col <= g.n):
            return False
        i = (a.row - 1) * g.n + a.col - 1
        return self._reaches(sheet, a.die, i, a.via) and self._fits(sheet, a, i)

    def _reaches(self, sheet: Sheet, die: int, i: int, via: tuple[int, int] | None) -> bool:
        """Whether (i, via) is among _targets(sheet, die)."""
        g = self.game
        lay = g.layout
        n = g.n
        w, b = self.white[die - 1], self.column
        r, c = i // n + 1, i % n + 1
        if lay.jokers:
            if via is not None or (w == 6 and sheet.trees >= lay.trees):
                return False
            return (w == 6 or r == w) and (b == 6 or c == b)
        pointed = (w - 1) * n + b - 1
        if g.kind[pointed] == "park" and lay.park:
            if via != (w, b):
                return False
            if lay.park == "row":
                return sheet.trees < lay.trees and r == w
            return sheet.barrels < lay.barrels
        return via is None and i == pointed

    def _fits(self, sheet: Sheet, a: Action, i: int) -> bool:
        """Whether `a` is among _square_actions(sheet, a.die, i, a.via)."""
        g = self.game
        kind = g.kind[i]
        if kind == "house":
            return a.kind == "house" and not a.piece and sheet.crossed[i] < g.layout.squares[i].houses
        if a.kind == "house" or sheet.pieces[i]:
            return False
        if a.kind == "floor":
            return (not a.piece and kind == "skyscraper"
                    and sheet.floors[i] - g.layout.squares[i].floors < g.layout.extra_floors)
        return a.piece in roads.SIDES

    def _check_circle(self, a: Action, player: int | None) -> None:
        """In phase CIRCLE: only the circle of a free value up to the drawing's worth (R10)."""
        pend = self.pending
        assert pend is not None
        g = self.game
        lay = g.layout
        ed = g.edition
        p = pend.player
        if player is not None and player != p:
            raise refused(f"it is P{p + 1}'s turn, not P{player + 1}'s: P{p + 1} circles a value",
                          "turn", ed, self.legal_text())
        if a == circle(a.value) and a.value in pend.free:
            return
        r, c = divmod(pend.square, g.n)
        track = g.kind[pend.square]
        what = f"the {lay.word(track)} at {[r + 1, c + 1]}"
        legal = self.legal_text()
        if a.kind != "circle" or a != circle(a.value):
            raise refused(f"P{p + 1} first circles a value for {what} ({self._values(pend.free)})",
                          "circle", ed, legal)
        v = a.value
        sheet = self.sheets[p]
        if v not in lay.tracks[track].values:
            why = f"{v} is not a value of the {lay.word(track)} track"
        elif v > pend.worth:
            why = f"{v} is above what {what} is worth ({pend.worth})"
        elif v in sheet.circled[track]:
            why = f"{v} is already circled on P{p + 1}'s {lay.word(track)} track"
        else:
            owner = self.shared[track].get(v)
            why = f"{v} is crossed out" + (f": P{owner + 1} circled it" if owner is not None else "")
        raise refused(f"{why}; {what} may circle {self._values(pend.free)}", "circle", ed, legal)

    @staticmethod
    def _values(free: tuple[int, ...]) -> str:
        """Values highest first, for a person: "7, 6 or 4"."""
        vs = [str(v) for v in reversed(free)]
        return vs[0] if len(vs) == 1 else ", ".join(vs[:-1]) + " or " + vs[-1]

    def legal_text(self, player: int | None = None) -> list[str]:
        """What the player to act may do, summarised for a person."""
        if self.phase == CIRCLE:
            return [str(a) for a in self.legal_actions(player)]
        return self._legal_text(self.legal_actions(player)) if self.phase == TURN else []

    def _legal_text(self, legal: list[Action]) -> list[str]:
        """Legal actions summarised: one line per die and square (pieces are any of six)."""
        out: list[str] = []
        seen = set()
        for a in legal:
            key = (a.kind if a.kind != "draw" else "draw", a.die, a.row, a.col, a.via)
            if key in seen:
                continue
            seen.add(key)
            if a.kind == "pass":
                out.append("pass (cross a %s)" % self.game.layout.word("tree"))
            elif a.kind == "draw":
                out.append(f"die {a.die}: draw at {[a.row, a.col]}" + (f" (via {list(a.via)})" if a.via else ""))
            else:
                out.append(f"die {a.die}: {a.kind} at {[a.row, a.col]}" + (f" (via {list(a.via)})" if a.via else ""))
        return out

    def _why(self, sheet: Sheet, a: Action, legal: list[Action]) -> IllegalAction:
        g = self.game
        lay = g.layout
        ed = g.edition
        alt = self._legal_text(legal)

        def bad(reason: str, rule: str) -> IllegalAction:
            return refused(reason, rule, ed, alt)

        if a.kind == "pass":
            if sheet.trees >= lay.trees and g.can_pass:
                return bad(f"no {lay.word('tree')} left to cross out", "no_tree")
            return bad("a die can still be used: passing is not allowed", "must_take")
        if a.kind not in ("draw", "house", "floor"):
            return bad(f"unknown action {a.kind!r}", "action")
        if not 1 <= a.die <= len(self.white):
            return bad(f"there is no white die {a.die} (this round has {len(self.white)})", "die")
        if self.taken[a.die - 1] >= 0:
            return bad(f"white die {a.die} was already taken by P{self.taken[a.die - 1] + 1} this round", "taken")
        if not (1 <= a.row <= g.n and 1 <= a.col <= g.n):
            return bad(f"{[a.row, a.col]} is not on the {g.n}x{g.n} sheet", "square")
        targets, why = self._targets(sheet, a.die)
        if why:
            return bad(self._target_reason(why), why)
        i = (a.row - 1) * g.n + a.col - 1
        want = [(j, via) for j, via in targets if j == i]
        w = self.white[a.die - 1]
        if not want:
            if lay.jokers and (w == 6 or self.column == 6):
                return bad(f"the 6 does not allow {[a.row, a.col]}", "six_square")
            pointed = (w - 1) * g.n + self.column - 1
            if targets and targets[0][1] is not None:
                where = "its row" if lay.park == "row" else "any square"
                rule = (lay.park and "park_" + lay.park) or "square"
                return bad(f"after the {lay.word('park')}, draw in {where}", rule)
            pr, pc = divmod(pointed, g.n)
            return bad(f"die {a.die} ({w}) with the {lay.word('column_die')} {self.column} points to "
                       f"{[pr + 1, pc + 1]}, "
                       f"not {[a.row, a.col]}", "square")
        via = want[0][1]
        if (a.via or None) != via:
            if via is None:
                return bad(f"{[a.row, a.col]} is not reached through a {lay.word('park')}", "square")
            if a.via is None:
                return bad(f"the die points to the {lay.word('park')} at {list(via)}: say so with \"park\"",
                           "park_" + str(lay.park))
            return bad(f"the die points to the {lay.word('park')} at {list(via)}, not {list(a.via)}",
                       "park_" + str(lay.park))
        kind = g.kind[i]
        if kind == "house":
            if a.kind != "house":
                return bad(f"{[a.row, a.col]} is a {lay.word('house')}: cross out one of its {lay.word('houses')}, "
                           "draw nothing", "house")
            return bad(f"every {lay.word('houses')[:-1] if lay.word('houses').endswith('s') else lay.word('houses')} "
                       f"of the {lay.word('house')} at {[a.row, a.col]} is crossed out", "houses")
        if a.kind == "house":
            return bad(f"{[a.row, a.col]} is not a {lay.word('house')}", "house")
        if sheet.pieces[i]:
            return bad(f"a {lay.word('road')} is already drawn at {[a.row, a.col]}", "drawn")
        if a.kind == "floor":
            if kind != "skyscraper":
                return bad(f"{[a.row, a.col]} is not a {lay.word('skyscraper')}", "floor")
            return bad(f"the {lay.word('skyscraper')} at {[a.row, a.col]} has all the {lay.word('floors')} it may get: "
                       f"draw a {lay.word('road')}", "third_time")
        if a.piece not in PIECES:
            return bad(f"{a.piece!r} is not a piece ({', '.join(PIECES)})", "piece")
        return bad("not allowed", "action")  # pragma: no cover - every refusal has a reason above

    def _target_reason(self, why: str) -> str:
        lay = self.game.layout
        if why == "six_tree":
            return f"a white 6 costs a {lay.word('tree')}, and none is left"
        if why == "park_tree":
            return f"a die pointing to a {lay.word('park')} costs a {lay.word('tree')}, and none is left"
        return f"a die pointing to a {lay.word('park')} costs a {lay.word('barrel')}, and none is left"

    def _check_chance(self, a: Action) -> None:
        ed = self.game.edition
        if a.kind == "start":
            if self.phase != START:
                raise refused("the start roads are already drawn", "order", ed)
            if not 1 <= a.die <= 6:
                raise refused(f"{a.die} is not a die face", "dice", ed)
            return
        if self.phase != ROLL:
            raise refused("not the time to roll" if self.phase == TURN else "the start roads come first", "order", ed)
        if not 1 <= a.die <= 6 or len(a.whites) != self.game.whites or not all(1 <= w <= 6 for w in a.whites):
            raise refused(f"a roll is the {self.game.layout.word('column_die')} and {self.game.whites} white dice, "
                                f"each 1-6", "dice", ed)

    def apply_unchecked(self, action: Action, player: int | None = None) -> None:
        """For search and checked replays: `action` must be legal (players take turns, so
        `player` adds nothing)."""
        self._apply(action)

    def _apply(self, a: Action) -> None:
        g = self.game
        if a.kind == "start":
            col = len(self.start_faces)
            self.start_faces.append(a.die)
            i = g.starts[col]
            bits = roads.SIDES[g.layout.legend[a.die]]
            for q in range(g.players):
                sh = self._mine(q)
                sh.pieces[i] = bits
            self._log_add(CHANCE, a)
            if len(self.start_faces) == g.n:
                self.phase = ROLL
            return
        if a.kind == "roll":
            self.round += 1
            self.turn = 0
            self.column = a.die
            self.white = tuple(a.whites)
            self.taken = [-1] * len(a.whites)
            self.phase = TURN
            self._log_add(CHANCE, a)
            return
        if a.kind == "circle":
            assert self.pending is not None
            self._log_add(self.pending.player, a)
            self.settle_circle(a.value)
            return
        p = (self.start_player + self.turn) % g.players    # phase TURN: the player to act
        sheet = self._mine(p)
        self._log_add(p, a)
        if a.kind == "pass":
            self._cross_tree(sheet)
        else:
            self.taken[a.die - 1] = p
            if a.via is not None:
                if g.layout.park == "row":
                    self._cross_tree(sheet)
                else:
                    sheet.barrels += 1
            elif g.layout.jokers and self.white[a.die - 1] == 6:
                self._cross_tree(sheet)
            i = (a.row - 1) * g.n + a.col - 1
            if a.kind == "house":
                sheet.crossed[i] += 1
            elif a.kind == "floor":
                sheet.floors[i] += 1
            else:
                sheet.pieces[i] = roads.SIDES[a.piece]
                if g.kind[i] in SCORING and self._score_drawing(p, i):
                    return     # the player chooses the value first (phase CIRCLE)
        self.turn += 1
        if self.turn == g.players:
            self._end_round()

    def settle_circle(self, value: int) -> None:
        """Circle `value` (one of circle_choices()) for the drawing just made, and the turn
        goes on; no history entry: apply(circle(value)) logs the decision, then calls this."""
        pend = self.pending
        assert pend is not None and value in pend.free
        self.pending = None
        self.phase = TURN
        self._score(pend, value)
        self._next_turn()

    def _next_turn(self) -> None:
        self.turn += 1
        if self.turn == self.game.players:
            self._end_round()

    def _cross_tree(self, sheet: Sheet) -> None:
        if sheet.trees < self.game.layout.trees:
            sheet.trees += 1
            if sheet.trees == self.game.layout.trees and "trees" not in self.ending:
                self.ending.append("trees")

    def _end_round(self) -> None:
        if self.ending:
            self.phase = OVER
            return
        self.start_player = (self.start_player + 1) % self.game.players
        self.phase = ROLL

    # -- scores --------------------------------------------------------------------------
    def result(self) -> scoring.Result:
        """Every sheet's score as if the game ended now (scoring.py)."""
        return scoring.score(self)

    # -- scoring at the moment of drawing ------------------------------------------------------
    def _score_drawing(self, p: int, i: int) -> bool:
        """Score player p's drawing in square i (a hotel, shop or sky scraper) at once when it
        reaches one free value or none; with two or more, the player chooses first (phase
        CIRCLE, ruling R10): True."""
        g = self.game
        kind = g.kind[i]
        sheet = self.sheets[p]
        on_road = roads.road(sheet.pieces, g.nbs, i)
        houses = 0
        if kind == "hotel":
            worth = len(on_road)
        elif kind == "shop":
            houses = sum(sheet.crossed[j] for j in on_road if g.kind[j] == "house")
            worth = houses
        else:
            worth = sheet.floors[i] * sum(1 for j in on_road if g.kind[j] == "park")
        used = sheet.circled[kind]
        struck = sheet.struck[kind]
        free = tuple(v for v in g.layout.tracks[kind].values if v <= worth and v not in used and v not in struck)
        pend = Pending(p, i, worth, houses, free)
        if len(free) >= 2:
            self.pending = pend
            self.phase = CIRCLE
            return True
        self._score(pend, free[-1] if free else 0)
        return False

    def _score(self, pend: Pending, value: int) -> None:
        """The drawing scored with `value` circled (0: none was free): the bonus (R11), the
        shared tracks, the ending."""
        g = self.game
        p, i = pend.player, pend.square
        kind = g.kind[i]
        if value:
            self._take(p, kind, value)
        bonus = self._bonus(p, value) if kind == "shop" and value else 0
        r, c = divmod(i, g.n)
        top = pend.free[-1] if pend.free else 0
        self._mine(p).scored.append(Scored(kind, (r + 1, c + 1), pend.worth, value, self.round, bonus,
                                           pend.houses, top))
        end = g.layout.end.get(kind)
        if end is not None and value == end and kind not in self.ending:
            self.ending.append(kind)

    def available(self, p: int, track: str) -> list[int]:
        sheet = self.sheets[p]
        used = set(sheet.circled[track]) | sheet.struck[track]
        return [v for v in self.game.layout.tracks[track].values if v not in used]

    def _circle(self, p: int, track: str, worth: int) -> int:
        """Circle the highest free value up to `worth` (the default of ruling R10); 0 when none
        is free."""
        free = [v for v in self.available(p, track) if v <= worth]
        if not free:
            return 0
        self._take(p, track, free[-1])
        return free[-1]

    def _take(self, p: int, track: str, v: int) -> None:
        """Player p circles v; on a shared track every other player crosses it out."""
        self._mine(p).circled[track].append(v)
        if self.game.layout.tracks[track].shared:
            self.shared[track][v] = p
            for q in range(self.game.players):
                if q != p:
                    self._mine(q).struck[track].add(v)

    def _bonus(self, p: int, value: int) -> int:
        """The highest first-player bonus still free, up to the shop's circled value (R11)."""
        free = [b for b in self.game.layout.bonuses if b <= value and b not in self.bonus_owner]
        if not free:
            return 0
        b = free[-1]
        self.bonus_owner[b] = p
        self._mine(p).bonuses.append(b)
        for q in range(self.game.players):
            if q != p:
                self._mine(q).struck_bonuses.add(b)
        return b
