"""A lean solo simulation of the 5x5 dice editions for the search's playouts: the same dice from
the same random.Random as the engine's sample_chance, the same legal moves in the engine's
order, the same scores (tests/coach/test_coach.py plays random and greedy games on both and compares
the legal moves after every step and the scores at the end).

Only what the search needs from a state after its first move: solo games of a 5x5 layout
(jokers: a white 6 costs a tree and frees the row, a blue 6 the column) without parks,
barrels or floors, tracks "hotel" and "shop". `Sim.of(state)` is None for anything else, and
the search plays such games out on the engine as before. The rules here mirror engine.py (the
rules stay there: a bot's moves are engine actions, checked by the engine, and its scores are
the engine's); this file is a cache of them for speed, as board.py is for the policy.

A move here is a tuple: (die, square, bits) a drawing (bits: roads.SIDES), (die, square, 0) a
house crossed, PASS_MOVE a tree crossed instead of a die. PlanPolicy played on it is fast.py.
"""
from __future__ import annotations

import random

from doodlebox.coach.board import Board, board, templates
from doodlebox.rules.dice import engine as dice
from doodlebox.rules.dice import roads
from doodlebox.rules.dice.layout import PIECES

PASS_MOVE = (0, -1, 0)
ROLL, TURN, CIRCLE, OVER, START = 0, 1, 2, 3, 4
_BITS = tuple(roads.SIDES[p] for p in PIECES)     # the engine's order of a square's six drawings
_OPP = {1: 4, 4: 1, 2: 8, 8: 2}


class Rules:
    """One layout's rules as the simulation reads them (made once per layout)."""

    def __init__(self, game: dice.Game):
        lay = game.layout
        self.layout = lay
        self.b: Board = board(game)
        self.n = n = game.n
        self.size = n * n
        self.kind = tuple(game.kind)
        self.nbs = game.nbs
        self.house = tuple(k == "house" for k in self.kind)
        self.houses = tuple(sq.houses for sq in lay.squares)
        self.hotel = tuple(k == "hotel" for k in self.kind)
        self.shop = tuple(k == "shop" for k in self.kind)
        self.scoring = tuple(k in lay.tracks for k in self.kind)
        self.trees = lay.trees
        self.hotel_values = lay.tracks["hotel"].values if "hotel" in lay.tracks else ()
        self.shop_values = lay.tracks["shop"].values if "shop" in lay.tracks else ()
        self.bonuses = tuple(lay.bonuses)
        self.end_hotel = lay.end.get("hotel")
        self.end_shop = lay.end.get("shop")
        self.can_pass = game.can_pass
        self.whites = game.whites
        self.road_squares = self.b.road_squares
        self.shops = self.b.shops
        self.group = self.b.group
        self.points = self.b.points
        self.members = tuple(i for i in range(self.size) if self.group[i] >= 0)
        self.hotels_sq = tuple(i for i in range(self.size) if self.hotel[i])
        self.shops_sq = tuple(i for i in range(self.size) if self.shop[i])
        self.empty_scoring = tuple(i for i in range(self.size) if self.scoring[i])
        tmpl = templates(n)
        assert tmpl is not None        # supports(): 5x5 and below
        self.tmpl = tmpl
        self.starts = tuple(game.starts)
        self.legend = {face: roads.SIDES[piece] for face, piece in lay.legend.items()}

    @staticmethod
    def supports(state: dice.State) -> bool:
        g = state.game
        lay = g.layout
        return (g.players == 1 and lay.jokers and not lay.park and not lay.barrels and not lay.extra_floors
                and set(lay.tracks) <= {"hotel", "shop"} and templates(g.n) is not None
                and state.phase in (dice.START, dice.ROLL, dice.TURN, dice.CIRCLE, dice.OVER))


_RULES: dict[int, tuple[dice.Game, Rules]] = {}
_PHASES = {dice.START: START, dice.ROLL: ROLL, dice.TURN: TURN, dice.CIRCLE: CIRCLE, dice.OVER: OVER}


def rules(game: dice.Game) -> Rules:
    hit = _RULES.get(id(game))
    if hit is None or hit[0] is not game:
        hit = _RULES[id(game)] = (game, Rules(game))
    return hit[1]


class Sim:
    """A solo sheet and the round: what engine.State keeps, as plain lists."""
    __slots__ = (
        "bonus",
        "column",
        "crossed",
        "ending",
        "hot",
        "owned",
        "pend",
        "phase",
        "pieces",
        "points",
        "r",
        "shp",
        "started",
        "trees",
        "white",
    )
    r: Rules
    pieces: list[int]
    crossed: list[int]
    trees: int
    hot: list[int]                    # the hotel values circled
    shp: list[int]                    # the shop values circled
    owned: set[int]                   # the first-player bonuses circled
    bonus: int
    points: int                       # circled so far (values and bonuses)
    ending: bool                      # the game ends at the end of this round
    phase: int
    column: int
    white: tuple[int, ...]            # this round's white dice (0: taken)
    pend: tuple[int, tuple[int, ...]] | None     # (square, free values) of a drawing to circle for
    started: int                      # start roads drawn

    @classmethod
    def of(cls, state: dice.State) -> Sim | None:
        """The simulation of an engine state, or None when it is not one this file covers."""
        if not Rules.supports(state):
            return None
        s = cls.__new__(cls)
        s.r = rules(state.game)
        sh = state.sheets[0]
        s.pieces = sh.pieces[:]
        s.crossed = sh.crossed[:]
        s.trees = sh.trees
        s.hot = list(sh.circled.get("hotel", ()))
        s.shp = list(sh.circled.get("shop", ()))
        s.owned = set(state.bonus_owner)
        s.bonus = sum(sh.bonuses)
        s.points = sum(s.hot) + sum(s.shp) + s.bonus
        s.ending = bool(state.ending)
        s.phase = _PHASES[state.phase]
        s.started = len(state.start_faces)
        s.column = state.column
        s.white = tuple(w if state.taken[k] < 0 else 0 for k, w in enumerate(state.white)) if state.white else ()
        s.pend = (state.pending.square, state.pending.free) if state.pending is not None else None
        return s

    def copy(self) -> Sim:
        s = Sim.__new__(Sim)
        s.r = self.r
        s.pieces = self.pieces[:]
        s.crossed = self.crossed[:]
        s.trees = self.trees
        s.hot = self.hot[:]
        s.shp = self.shp[:]
        s.owned = set(self.owned)
        s.bonus = self.bonus
        s.points = self.points
        s.ending = self.ending
        s.phase = self.phase
        s.column = self.column
        s.white = self.white
        s.pend = self.pend
        s.started = self.started
        return s

    # -- chance ------------------------------------------------------------------------------
    def roll(self, rng: random.Random) -> None:
        """The engine's sample_chance and apply of a roll: the column die, then the whites (at
        the start, the face of the next start road)."""
        if self.phase == START:
            r = self.r
            self.pieces[r.starts[self.started]] = r.legend[rng.randint(1, 6)]
            self.started += 1
            if self.started == r.n:
                self.phase = ROLL
            return
        self.column = rng.randint(1, 6)
        self.white = tuple(rng.randint(1, 6) for _ in range(self.r.whites))
        self.phase = TURN

    # -- legal moves -------------------------------------------------------------------------
    def legal(self) -> list[tuple[int, int, int]]:
        """The engine's legal_actions() at phase TURN, in its order (as move tuples)."""
        r = self.r
        n = r.n
        pieces = self.pieces
        crossed = self.crossed
        has_tree = self.trees < r.trees
        b = self.column
        out = []
        for d, w in enumerate(self.white, 1):
            if not w or (w == 6 and not has_tree):
                continue
            rows = range(n) if w == 6 else (w - 1,)
            cols = range(n) if b == 6 else (b - 1,)
            for row in rows:
                for c in cols:
                    i = row * n + c
                    if r.house[i]:
                        if crossed[i] < r.houses[i]:
                            out.append((d, i, 0))
                    elif not pieces[i]:
                        out.extend((d, i, bits) for bits in _BITS)
        if not out or (r.can_pass and has_tree):
            out.append(PASS_MOVE)
        return out

    # -- applying ----------------------------------------------------------------------------
    def play(self, move: tuple[int, int, int]) -> None:
        """engine.State._apply of a move at phase TURN (solo: the round ends with it, unless a
        value is to be circled)."""
        r = self.r
        d, i, bits = move
        if d == 0:
            self._tree()
        else:
            if self.white[d - 1] == 6:
                self._tree()
            if not bits:
                self.crossed[i] += 1
            else:
                self.pieces[i] = bits
                if r.scoring[i] and self._score_drawing(i):
                    return
        self._end_round()

    def circle(self, value: int) -> None:
        """engine.State.settle_circle."""
        assert self.pend is not None
        i, free = self.pend
        self.pend = None
        self._score(i, value, free)
        self._end_round()

    def _tree(self) -> None:
        if self.trees < self.r.trees:
            self.trees += 1
            if self.trees == self.r.trees:
                self.ending = True

    def _end_round(self) -> None:
        self.white = ()
        self.phase = OVER if self.ending else ROLL

    def worth(self, i: int, road: list[int]) -> int:
        r = self.r
        if r.hotel[i]:
            return len(road)
        crossed = self.crossed
        house = r.house
        return sum(crossed[j] for j in road if house[j])

    def _score_drawing(self, i: int) -> bool:
        r = self.r
        worth = self.worth(i, roads.road(self.pieces, r.nbs, i))
        if r.hotel[i]:
            used, values = self.hot, r.hotel_values
        else:
            used, values = self.shp, r.shop_values
        free = tuple(v for v in values if v <= worth and v not in used)
        if len(free) >= 2:
            self.pend = (i, free)
            self.phase = CIRCLE
            return True
        self._score(i, free[-1] if free else 0, free)
        return False

    def _score(self, i: int, value: int, free: tuple[int, ...]) -> None:
        r = self.r
        if not value:
            return
        self.points += value
        if r.hotel[i]:
            self.hot.append(value)
            if value == r.end_hotel:
                self.ending = True
            return
        self.shp.append(value)
        bonus = [x for x in r.bonuses if x <= value and x not in self.owned]
        if bonus:
            self.owned.add(bonus[-1])
            self.bonus += bonus[-1]
            self.points += bonus[-1]
        if value == r.end_shop:
            self.ending = True

    # -- scores ------------------------------------------------------------------------------
    def score(self) -> int:
        """scoring.score's solo total: the values circled, the bonuses, the group points."""
        r = self.r
        pieces = self.pieces
        group = r.group
        total = self.points
        for i in r.members:
            if pieces[i]:
                g = group[i]
                if any(k != i and group[k] == g and pieces[k] for k in roads.road(pieces, r.nbs, i)):
                    total += r.points[i]
        return total


def action(sim: Sim, move: tuple[int, int, int]) -> dice.Action:
    """The engine's Action of a move."""
    d, i, bits = move
    if d == 0:
        return dice.PASS
    row, col = divmod(i, sim.r.n)
    if not bits:
        return dice.Action("house", d, row + 1, col + 1)
    return dice.draw(d, row + 1, col + 1, roads.NAMES[bits])


# -- PlanPolicy on a Sim ---------------------------------------------------------------------

def move_of(state: dice.State, a: dice.Action) -> tuple[int, int, int]:
    """The move tuple of an engine Action at phase TURN (the inverse of action())."""
    if a.kind == "pass":
        return PASS_MOVE
    i = (a.row - 1) * state.game.n + a.col - 1
    return (a.die, i, roads.SIDES[a.piece] if a.kind == "draw" else 0)
