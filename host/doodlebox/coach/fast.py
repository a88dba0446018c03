"""PlanPolicy (policy.py) played on sim.py's lean solo simulation: the same moves as PlanPolicy on
the engine's state, so a playout here ends with the engine's final scores (tests/coach/test_coach.py
compares the moves and the scores); `simulate_plan`, PlanPolicy's playouts there; FastPolicy, a
policy for the engine's states that chooses on a Sim where one covers the state.
"""
from __future__ import annotations

import math
import random
from bisect import bisect_right
from typing import Any, NamedTuple

from doodlebox.coach.policy import Plan, PlanPolicy, Weights, side_value, square_reach
from doodlebox.coach.sim import _OPP, CIRCLE, ROLL, START, TURN, Rules, Sim, action, move_of
from doodlebox.rules.dice import engine as dice


class _Net:
    """policy._Net on plain lists (the same roads, in the same order). Its flood fill is policy._Net's
    written again on purpose over the Sim's flat arrays: this is the playouts' inner loop, and a
    shared one would cost it a call per square (tests/coach/test_coach.py holds the two to the same moves
    and scores, as coach/sim.py, a speed cache of the rules, is held to the engine)."""
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


    def draw(self, r: Rules, pieces: list[int], i: int, bits: int) -> tuple[list[int], tuple]:
        """Drawing `bits` on empty square i, as if made: the roads it joins, and the joined road's
        (length, houses, open ends) (policy._Net.draw on a Sim)."""
        joined: list[int] = []
        own: list[int] = []
        seg = self.seg
        for side, j in r.nbs[i]:
            if bits & side:
                pj = pieces[j]
                if pj & _OPP[side]:
                    if seg[j] not in joined:
                        joined.append(seg[j])
                elif not pj:
                    own.append(j)
        nl, nh, ne = self.length, self.houses, self.ends
        return joined, (1 + sum(nl[x] for x in joined), sum(nh[x] for x in joined),
                        own + [e for x in joined for e in ne[x] if e != i])


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


class Context(NamedTuple):
    """A turn's position as FastPlan values its moves: the roads' net, the estimate before any move,
    the sheet's template, its levels and the best, how many at the best, the share of road squares
    still empty, what a tree costs, the shops left, what keeping the best hotel and shop value is
    worth, and whether the game may end this round."""

    net: _Net
    base: float
    t: Any
    lv: list
    best: int
    at_best: int
    share: float
    tree: float
    shops_left: int
    keep_h: float
    keep_s: float
    may_end: bool


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

    def context(self, sim: Sim) -> Context:
        """What every move of a turn is valued against (scores(); LinearPlan's features())."""
        r = sim.r
        pieces = sim.pieces
        net = _Net(r, pieces, sim.crossed)
        hot, shp = sim.hot, sim.shp
        t = r.tmpl
        lv = t.levels(pieces)
        best = next((x for x, y in enumerate(lv) if y), len(lv))
        empty = sum(1 for i in range(r.size) if not r.house[i] and not pieces[i])
        share = empty / r.road_squares
        keep = self.w.keep
        return Context(net, self._estimate(r, net, hot, shp, sim.owned), t, lv, best,
                       lv[best].bit_count() if best < len(lv) else 1, share,
                       self._tree_cost(sim.trees, r.trees, share), sum(1 for i in r.shops_sq if not pieces[i]),
                       keep * self._best_later(r.hotel_values, hot, r.end_hotel) * share,
                       keep * self._best_later(r.shop_values, shp, r.end_shop) * share,
                       sum(1 for i in r.empty_scoring if not pieces[i]) <= 1)

    def scores(self, sim: Sim, legal: list[tuple[int, int, int]]) -> list[float]:
        r = sim.r
        w = self.w
        k = self.k
        net, base, t, lv, best, count, _, tree, shops_left, keep_h, keep_s, may_end = self.context(sim)
        hot, shp, owned = sim.hot, sim.shp, sim.owned
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
        return side_value(self.w, r.nbs[i], pieces, bits)

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
        joined, merged = net.draw(r, pieces, i, bits)
        jt = tuple(joined)
        hot, shp, owned = sim.hot, sim.shp, sim.owned
        if r.scoring[i]:
            hotel = r.hotel[i]
            now, hot, shp, owned = self._circled(r, hotel, merged, hot, shp, owned, may_end)
            s += now - k.keep * (keep_h if hotel else keep_s)
        s += k.later * (self._estimate(r, net, hot, shp, owned, i, jt, merged) - base)
        s += w.group * group_gain(r, net, i, joined)
        return s

    @staticmethod
    def _circled(r: Rules, hotel: bool, merged: tuple, hot: list[int], shp: list[int], owned: set[int],
                 may_end: bool) -> tuple[float, list[int], list[int], set[int]]:
        """A drawing that completes a hotel's (else a shop's) road, `merged` its squares and houses
        crossed: the points circled now (the best free value, kept off the end value while the game
        may go on, a shop's bonus with it), and the values and bonuses used after it."""
        worth = merged[0] if hotel else merged[1]     # the road's squares, or its houses crossed
        values, used = (r.hotel_values, hot) if hotel else (r.shop_values, shp)
        free = [v for v in values if v <= worth and v not in used]
        if not free:
            return 0.0, hot, shp, owned
        v = free[-1]
        if v == (r.end_hotel if hotel else r.end_shop) and len(free) > 1 and not may_end:
            v = free[-2]
        now = float(v)
        if not hotel and r.bonuses:
            bonus = [x for x in r.bonuses if x <= v and x not in owned]
            if bonus:
                now = float(v + bonus[-1])
        if hotel:
            return now, hot + [free[-1]], shp, owned
        bonus = [x for x in r.bonuses if x <= free[-1] and x not in owned]
        return now, hot, shp + [free[-1]], owned | {bonus[-1]} if bonus else owned

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
    tests/coach/test_coach.py), or None when the state is not one a Sim covers."""
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
