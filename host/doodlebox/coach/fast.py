"""A lean solo simulation of the 5x5 dice editions for the search's playouts, and PlanPolicy
played on it: the same moves as policy.PlanPolicy on the engine's state, the same dice from the
same random.Random as the engine's sample_chance, so a playout here ends with the engine's
final scores (tests/test_coach.py plays random and greedy games on both and compares the legal
moves after every step and the scores at the end).

Only what the search needs from a state after its first move: solo games of a 5x5 layout
(jokers: a white 6 costs a tree and frees the row, a blue 6 the column) without parks,
barrels or floors, tracks "hotel" and "shop". `Sim.of(state)` is None for anything else, and
the search plays such games out on the engine as before. The rules here mirror engine.py (the
rules stay there: a bot's moves are engine actions, checked by the engine, and its scores are
the engine's); this file is a cache of them for speed, as board.py is for the policy.

A move here is a tuple: (die, square, bits) a drawing (bits: roads.SIDES), (die, square, 0) a
house crossed, PASS_MOVE a tree crossed instead of a die.
"""
from __future__ import annotations

import math
import random
from bisect import bisect_right

from doodlebox.coach.board import Board, board, templates
from doodlebox.coach.policy import Plan, PlanPolicy, Weights, square_reach
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
class _Net:
    """policy._Net on plain lists (the same roads, in the same order)."""
    __slots__ = ("ends", "est", "facing", "grouped", "houses", "length", "members", "part", "pieces", "seg")

    def __init__(self, r: Rules, pieces: list[int], crossed: list[int]):
        nbs = r.nbs
        house = r.house
        group = r.group
        self.pieces = pieces
        self.seg = seg = [-1] * len(pieces)
        length: list[int] = []
        houses: list[int] = []
        grouped: list[bool] = []
        ends: list[list[int]] = []
        members: list[dict[int, list[int]]] = []     # per road: group -> [its squares' count, their points]
        points = r.points
        for s0, p0 in enumerate(pieces):
            if not p0 or seg[s0] >= 0:
                continue
            sid = len(length)
            seg[s0] = sid
            stack = [s0]
            n = h = 0
            gr = False
            mem: dict[int, list[int]] = {}
            open_ends: list[int] = []
            while stack:
                x = stack.pop()
                n += 1
                gx = group[x]
                if gx >= 0:
                    gr = True
                    m = mem.get(gx)
                    if m is None:
                        mem[gx] = [1, points[x]]
                    else:
                        m[0] += 1
                        m[1] += points[x]
                if house[x]:
                    h += crossed[x]
                px = pieces[x]
                for side, j in nbs[x]:
                    if px & side:
                        pj = pieces[j]
                        if pj & _OPP[side]:
                            if seg[j] < 0:
                                seg[j] = sid
                                stack.append(j)
                        elif not pj:
                            open_ends.append(j)
            length.append(n)
            houses.append(h)
            grouped.append(gr)
            ends.append(open_ends)
            members.append(mem)
        self.members = members
        self.length = length
        self.houses = houses
        self.grouped = grouped
        self.ends = ends
        self.est: tuple[dict[int, float], dict[int, float]] | None = None
        # _estimate's circles and bonuses, and its hotel and shop points, of the sheet as it is
        self.part: tuple[list[int], list[int], set[int], int, int] = ([], [], set(), 0, 0)
        facing: dict[int, list[int]] = {}
        for sid, open_ends in enumerate(ends):
            for j in open_ends:
                facing.setdefault(j, []).append(sid)
        self.facing = facing


_FREE: dict[tuple, list[int]] = {}


def group_gain(r: Rules, net: _Net, i: int, joined: tuple[int, ...] | list[int]) -> int:
    """board.group_gain on the Sim: the points of the groups that drawing square `i` (a road
    joining the networks `joined`) completes or adds to, members of a group on the joined road
    each not yet joined to another."""
    gi = r.group[i]
    if gi < 0 and not any(net.grouped[x] for x in joined):
        return 0
    members = net.members
    counts: dict[int, int] = {gi: 1} if gi >= 0 else {}
    for x in joined:
        for g, m in members[x].items():
            counts[g] = counts.get(g, 0) + m[0]
    gain = 0
    for g, c in counts.items():
        if c < 2:
            continue
        if g == gi:
            gain += r.points[i]
        for x in joined:
            mx = members[x].get(g)
            if mx is not None and mx[0] < 2:
                gain += mx[1]
    return gain


class FastPlan:
    """PlanPolicy's choice on a Sim (the same scores, summed in the same order)."""

    def __init__(self, weights: Weights | None = None, plan: Plan | None = None):
        self.w = weights or Weights()
        self.k = plan or Plan()

    # -- a playout ---------------------------------------------------------------------------
    def playout(self, sim: Sim, chance: random.Random) -> int:
        """Play the simulation to its end (chance by `chance`, as the engine samples it): the
        final score."""
        while True:
            ph = sim.phase
            if ph == ROLL or ph == START:
                sim.roll(chance)
            elif ph == TURN:
                legal = sim.legal()
                sim.play(legal[0] if len(legal) == 1 else self.choose(sim, legal))
            elif ph == CIRCLE:
                sim.circle(self.circle_value(sim))
            else:
                return sim.score()

    # -- the value circled -------------------------------------------------------------------
    def _may_end(self, sim: Sim) -> bool:
        pieces = sim.pieces
        return sum(1 for i in sim.r.empty_scoring if not pieces[i]) <= 1

    def circle_value(self, sim: Sim) -> int:
        assert sim.pend is not None
        i, free = sim.pend
        r = sim.r
        top = r.end_hotel if r.hotel[i] else r.end_shop
        if len(free) > 1 and free[-1] == top and not self._may_end(sim):
            return free[-2]
        return free[-1]

    # -- a turn ------------------------------------------------------------------------------
    def choose(self, sim: Sim, legal: list[tuple[int, int, int]]) -> tuple[int, int, int]:
        scores = self.scores(sim, legal)
        return legal[scores.index(max(scores))]

    def scores(self, sim: Sim, legal: list[tuple[int, int, int]]) -> list[float]:
        r = sim.r
        w = self.w
        k = self.k
        pieces = sim.pieces
        crossed = sim.crossed
        net = _Net(r, pieces, crossed)
        hot, shp, owned = sim.hot, sim.shp, sim.owned
        base = self._estimate(r, net, hot, shp, owned)
        t = r.tmpl
        lv = t.levels(pieces)
        best = next((x for x, y in enumerate(lv) if y), len(lv))
        count = lv[best].bit_count() if best < len(lv) else 1
        empty = sum(1 for i in range(r.size) if not r.house[i] and not pieces[i])
        share = empty / r.road_squares
        tree = self._tree_cost(sim.trees, r.trees, share)
        shops_left = sum(1 for i in r.shops_sq if not pieces[i])
        keep_h = w.keep * self._best_later(r.hotel_values, hot, r.end_hotel) * share
        keep_s = w.keep * self._best_later(r.shop_values, shp, r.end_shop) * share
        may_end = sum(1 for i in r.empty_scoring if not pieces[i]) <= 1
        white = sim.white
        memo: dict[tuple[int, int], float] = {}
        out = []
        for move in legal:
            d, i, bits = move
            if d == 0:
                out.append(-tree)
                continue
            s = 0.0
            if white[d - 1] == 6:
                s -= tree
            if not bits:
                s += w.house * (shops_left / r.shops if r.shops else 0.0)
                s += k.later * (self._estimate(r, net, hot, shp, owned, plus_house=net.seg[i]) - base)
            else:
                key = (i, bits)
                v = memo.get(key)
                if v is None:
                    v = memo[key] = self._draw(sim, r, net, base, i, bits, t, lv, best, count,
                                               keep_h, keep_s, may_end)
                s += v
            out.append(s)
        return out

    def _tree_cost(self, used: int, trees: int, share: float) -> float:
        left = trees - used
        if left <= 0:
            return 0.0
        if left == 1:
            return self.w.tree * (1 + 40 * share)
        return self.w.tree * (1 + used / trees)

    @staticmethod
    def _best_later(values: tuple[int, ...], used: list[int], top: int | None) -> int:
        best = 0
        for v in values:
            if v not in used and v != top:
                best = v
        return best

    def _sides(self, r: Rules, pieces: list[int], i: int, bits: int) -> float:
        w = self.w
        s = 0.0
        sides = 0
        for side, j in r.nbs[i]:
            pj = pieces[j]
            back = _OPP[side]
            if bits & side:
                sides += 1
                if not pj:
                    s += w.open
                elif pj & back:
                    s += w.connect
                else:
                    s += w.dead
            elif pj & back:
                s += w.block
        return s + (2 - sides) * w.dead

    def _draw(self, sim: Sim, r: Rules, net: _Net, base: float, i: int, bits: int, t, lv, best: int, count: int,
              keep_h: float, keep_s: float, may_end: bool) -> float:
        w = self.w
        k = self.k
        pieces = sim.pieces
        s = k.local * self._sides(r, pieces, i, bits)
        level, kept = t.after(lv, i, bits)
        s -= k.off * (level - best)
        if level == best:
            s += k.many * math.log2(kept / count)
        # net.draw: the roads joined, the joined road's length, houses and open ends
        joined: list[int] = []
        own: list[int] = []
        seg = net.seg
        for side, j in r.nbs[i]:
            if bits & side:
                pj = pieces[j]
                if pj & _OPP[side]:
                    if seg[j] not in joined:
                        joined.append(seg[j])
                elif not pj:
                    own.append(j)
        nl = net.length
        nh = net.houses
        ne = net.ends
        merged = (1 + sum(nl[x] for x in joined), sum(nh[x] for x in joined),
                  own + [e for x in joined for e in ne[x] if e != i])
        jt = tuple(joined)
        hot, shp, owned = sim.hot, sim.shp, sim.owned
        if r.scoring[i]:
            hotel = r.hotel[i]
            worth = merged[0] if hotel else merged[1]     # the road's squares, or its houses crossed
            values, used = (r.hotel_values, hot) if hotel else (r.shop_values, shp)
            free = [v for v in values if v <= worth and v not in used]
            now = 0.0
            if free:
                v = free[-1]
                if v == (r.end_hotel if hotel else r.end_shop) and len(free) > 1 and not may_end:
                    v = free[-2]
                now = v
                if not hotel and r.bonuses:
                    bonus = [x for x in r.bonuses if x <= v and x not in owned]
                    if bonus:
                        now = v + bonus[-1]
            s += now - k.keep * (keep_h if hotel else keep_s)
            if free:
                if hotel:
                    hot = hot + [free[-1]]
                else:
                    shp = shp + [free[-1]]
                    bonus = [x for x in r.bonuses if x <= free[-1] and x not in owned]
                    if bonus:
                        owned = owned | {bonus[-1]}
        s += k.later * (self._estimate(r, net, hot, shp, owned, i, jt, merged) - base)
        s += w.group * group_gain(r, net, i, joined)
        return s

    def _estimate(self, r: Rules, net: _Net, hot: list[int], shp: list[int], owned: set[int],
                  drawn: int = -1, joined: tuple[int, ...] = (), merged: tuple | None = None,
                  plus_house: int = -1) -> float:
        """policy.PlanPolicy._estimate (a sum of whole values: the same in any order). Called first
        for the sheet as it is (it keeps each track's part, net.part); then only a track whose
        squares a change touches, or whose values it circles, is made again."""
        known2 = net.est
        first = known2 is None
        if known2 is None:
            pieces = net.pieces
            known2 = net.est = ({j: self._square(net, True, j) for j in r.hotels_sq if not pieces[j]},
                                {j: self._square(net, False, j) for j in r.shops_sq if not pieces[j]})
            net.part = (hot, shp, owned, 0, 0)
        touched: set[int] = set()
        if merged is not None:
            touched.update(merged[2])
            ends = net.ends
            for sid in joined:
                touched.update(ends[sid])
            for sid in net.facing.get(drawn, ()):
                touched.update(ends[sid])
        if plus_house >= 0:
            touched.update(net.ends[plus_house])
        b_hot, b_shp, b_owned, b_h, b_s = net.part
        parts = [0, 0]
        for hotel in (True, False):
            known = known2[0] if hotel else known2[1]
            if not known or not (r.hotel_values if hotel else r.shop_values):
                continue
            if not first and drawn not in known and touched.isdisjoint(known) and (
                    hot is b_hot if hotel else shp is b_shp and owned is b_owned):
                parts[not hotel] = b_h if hotel else b_s
                continue
            est = [self._square(net, hotel, j, drawn, joined, merged, plus_house) if j in touched else e
                   for j, e in known.items() if j != drawn]
            used = hot if hotel else shp
            key = (hotel, *used)
            free = _FREE.get(key)
            if free is None:
                free = _FREE[key] = [v for v in (r.hotel_values if hotel else r.shop_values) if v not in used]
            free = free[:]
            bonus = [x for x in r.bonuses if x not in owned] if not hotel and r.bonuses else []
            est.sort(reverse=True)
            total = 0
            for e in est:
                at = bisect_right(free, e) - 1
                if at < 0:
                    break
                v = free.pop(at)
                total += v
                if bonus:
                    at = bisect_right(bonus, v) - 1
                    if at >= 0:
                        total += bonus.pop(at)
            parts[not hotel] = total
        if first:
            net.part = (hot, shp, owned, parts[0], parts[1])
        return float(parts[0] + parts[1])

    def _square(self, net: _Net, hotel: bool, j: int, drawn: int = -1, joined: tuple[int, ...] = (),
                merged: tuple | None = None, plus_house: int = -1) -> float:
        return square_reach(net, hotel, self.k.reach if hotel else self.k.houses, j, drawn, joined, merged, plus_house)


def simulate(state: dice.State, chance: random.Random, policy: FastPlan | None = None) -> list[int] | None:
    """The engine state played to its end on a Sim by PlanPolicy (FastPlan), chance drawn from
    `chance` as the engine draws it: the final totals (the engine's, by construction and by
    tests/test_coach.py), or None when the state is not one a Sim covers."""
    sim = Sim.of(state)
    if sim is None:
        return None
    return [(policy or FastPlan()).playout(sim, chance)]


def simulate_plan(policy: object, state: object, chance: random.Random) -> list[int] | None:
    """PlanPolicy's playout of `state` to its end on the lean simulation (the same moves and
    scores, ~1.7x faster): the final totals, or None when the state is not one it covers (not
    solo, another layout) or `policy` is not PlanPolicy itself (a subclass changes the policy).
    The policy keeps its FastPlan (`_fast`)."""
    if type(policy) is not PlanPolicy or not isinstance(state, dice.State):
        return None
    if policy._fast is None:
        policy._fast = FastPlan(policy.w, policy.plan)
    return simulate(state, chance, policy._fast)


def move_of(state: dice.State, a: dice.Action) -> tuple[int, int, int]:
    """The move tuple of an engine Action at phase TURN (the inverse of action())."""
    if a.kind == "pass":
        return PASS_MOVE
    i = (a.row - 1) * state.game.n + a.col - 1
    return (a.die, i, roads.SIDES[a.piece] if a.kind == "draw" else 0)


class FastPolicy:
    """A PlanPolicy (its weights) for the engine's states that chooses on a Sim when one covers
    the state (solo 5x5 games: the same choice, faster) and as PlanPolicy otherwise; its
    playouts (`simulate`) run on the Sim. `fast`: another policy on a Sim (linear.LinearPlan: the
    greedy level's, levels.linear_policy)."""

    def __init__(self, weights: Weights | None = None, plan: Plan | None = None, fast: FastPlan | None = None):
        self.fast = fast or FastPlan(weights, plan)
        self.slow = PlanPolicy(weights, plan)

    def __call__(self, state: dice.State, rng: random.Random) -> dice.Action:
        sim = Sim.of(state) if isinstance(state, dice.State) else None
        if sim is None:
            return self.slow(state, rng)
        if sim.phase == CIRCLE:
            return dice.circle(self.fast.circle_value(sim))
        legal = sim.legal()
        return action(sim, legal[0] if len(legal) == 1 else self.fast.choose(sim, legal))

    def scores(self, state: dice.State, legal: list[dice.Action]) -> list[float]:
        sim = Sim.of(state)
        if sim is None or sim.phase != TURN:
            return self.slow.scores(state, legal)
        return self.fast.scores(sim, [move_of(state, a) for a in legal])

    def simulate(self, state: dice.State, chance: random.Random) -> list[int] | None:
        sim = Sim.of(state) if isinstance(state, dice.State) else None
        return None if sim is None else [self.fast.playout(sim, chance)]
