"""The greedy level's solo policy (5x5 editions): PlanPolicy's features (and a few more) as a
vector per move, and a weight per feature fitted to the values the search itself measures
(approximate policy iteration, tests/tools/tune_policy.py --fit): positions of games played by the
policy, the moves there valued by playouts of the policy (common random numbers), and the
weights that make softmax(theta . features) the likeliest to pick the moves the playouts
preferred. The policy then plays what the playouts would have chosen, as far as the features
can say it. Solo 5x5 games on a sim.Sim only (fast.FastPolicy is its face for the engine's
states; levels.linear_policy). docs/coach.md has what it gained (+1.4 alone, nothing as the
search's policy).
"""
from __future__ import annotations

import math

from doodlebox.coach.fast import FastPlan, _Net, group_gain
from doodlebox.coach.sim import _OPP, Rules, Sim

FEATURES = (
    "tree",       # minus the tree's cost (PlanPolicy's: more as they run out, the last one dearly)
    "house",      # a house crossed: the share of the shops still to draw
    "future",     # the change of PlanPolicy's future(): the points the empty hotels and shops may still circle
    "open",       # sides facing an empty square
    "connect",    # sides joined to a neighbour's road
    "dead",       # sides facing the edge or a piece that turns away
    "block",      # a neighbour's side this piece turns away
    "level",      # minus the squares it puts the sheet further off every long road (board.Templates)
    "many",       # log2 of the share of the best long roads it keeps
    "now",        # the points circled now (and the bonus)
    "keep",       # minus what the scoring square is kept for (0.7 x its best free value x the share still empty)
    "group",      # group points (taxis) joined now
    "hotel",      # a drawing in a hotel
    "shop",       # a drawing in a shop
    "plain",      # a drawing in a square that scores nothing now (taxi, plain)
    "joker",      # a white 6 taken
    "wasted",     # a hotel or shop drawn for nothing
    "hotel_early",  # a drawing in a hotel x the share of the road squares still empty
    "shop_early",   # a drawing in a shop x the same share
    "now_early",    # the points circled now x the same share
)

# PlanPolicy's own weights in these terms (Weights(), Plan() defaults): the fit's starting point.
PLAN_THETA = (1.0, 2.5, 0.4, 0.45 * 0.5, 0.45 * 2.0, 0.45 * -1.5, 0.45 * -1.5, 1.5, 0.15, 1.0, 0.5, 1.0,
              0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)

# Fitted (tests/tools/tune_policy.py --fit): 774 positions of 774 games (seeds 20000-20399, 30000-30399, one
# position a game at a random round) played by PLAN_THETA; at each, the policy's 10 best moves and
# 4 others valued by 12 playouts each (common random numbers); the weights maximise the likelihood
# of softmax(Q / 1 point) under softmax(theta . phi), with a small pull to PLAN_THETA. On 1000 games
# of the policy alone (seeds 2000-2999): 64.0 against PLAN_THETA's 62.7 (paired: +1.4 +- 0.5).
THETA = (0.691, 0.629, 0.158, 0.174, 0.512, -0.431, -0.076, 0.515, 0.061, 0.603, 0.318, 0.080,
         -0.162, -0.060, 0.065, 1.435, 0.092, 1.055, 0.876, -0.448)


class LinearPlan(FastPlan):
    """A move's score: theta . its features (FEATURES)."""

    def __init__(self, theta: tuple[float, ...] | None = None):
        super().__init__()
        self.theta = tuple(theta or THETA)
        assert len(self.theta) == len(FEATURES)

    def scores(self, sim: Sim, legal: list[tuple[int, int, int]]) -> list[float]:
        th = self.theta
        return [sum(t * f for t, f in zip(th, phi) if f) for phi in self.features(sim, legal)]

    def features(self, sim: Sim, legal: list[tuple[int, int, int]]) -> list[list[float]]:
        r = sim.r
        net, base, t, lv, best, count, share, tree, shops_left, keep_h, keep_s, may_end = self.context(sim)
        hot, shp, owned = sim.hot, sim.shp, sim.owned
        white = sim.white
        memo: dict[tuple[int, int], list[float]] = {}
        out = []
        n = len(FEATURES)
        for move in legal:
            d, i, bits = move
            if d == 0:
                phi = [0.0] * n
                phi[0] = -tree
                out.append(phi)
                continue
            if not bits:
                phi = [0.0] * n
                phi[1] = shops_left / r.shops if r.shops else 0.0
                phi[2] = self._estimate(r, net, hot, shp, owned, plus_house=net.seg[i]) - base
            else:
                key = (i, bits)
                v = memo.get(key)
                if v is None:
                    v = memo[key] = self._draw_features(sim, r, net, base, i, bits, t, lv, best, count,
                                                        keep_h, keep_s, may_end, share)
                phi = v[:]
            if white[d - 1] == 6:
                phi[0] = -tree
                phi[15] = 1.0
            out.append(phi)
        return out

    def _draw_features(self, sim: Sim, r: Rules, net: _Net, base: float, i: int, bits: int, t, lv, best: int,
                       count: int, keep_h: float, keep_s: float, may_end: bool, share: float) -> list[float]:
        phi = [0.0] * len(FEATURES)
        pieces = sim.pieces
        sides = 0
        for side, j in r.nbs[i]:
            pj = pieces[j]
            back = _OPP[side]
            if bits & side:
                sides += 1
                if not pj:
                    phi[3] += 1
                elif pj & back:
                    phi[4] += 1
                else:
                    phi[5] += 1
            elif pj & back:
                phi[6] += 1
        phi[5] += 2 - sides
        level, kept = t.after(lv, i, bits)
        phi[7] = -(level - best)
        if level == best:
            phi[8] = math.log2(kept / count)
        joined, merged = net.draw(r, pieces, i, bits)
        hot, shp, owned = sim.hot, sim.shp, sim.owned
        if r.scoring[i]:
            hotel = r.hotel[i]
            now, hot, shp, owned = self._circled(r, hotel, merged, hot, shp, owned, may_end)
            phi[9] = now
            phi[10] = -(keep_h if hotel else keep_s)
            phi[12 if hotel else 13] = 1.0
            phi[16] = 0.0 if now else 1.0
            phi[17 if hotel else 18] = share
            phi[19] = now * share
        else:
            phi[14] = 1.0
        phi[2] = self._estimate(r, net, hot, shp, owned, i, tuple(joined), merged) - base
        phi[11] = group_gain(r, net, i, joined)
        return phi
