"""The fast policies the search plays games out with, and the lower levels play by: `random_move`
(any legal move, chance by its odds) and, for the dice editions, `DicePolicy`: one ply, each legal
action scored by the points it takes now plus features of the sheet it leaves (sides joined to a
road, sides turned into a wall or away from a neighbour, a tree spent, a scoring square used
before its road is long). Deterministic for a state: the same state gives the same move, so that
playouts with the same dice (common random numbers) differ only by the moves compared.
"""
from __future__ import annotations

import math
import random
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from doodlebox.coach.board import SIDES, Board, board, templates
from doodlebox.rules.api import State
from doodlebox.rules.dice import engine as dice

Policy = Callable[[State, random.Random], Any]
"""(state, rng) -> a legal action of the player to act (never called at a chance node)."""


def random_move(state: State, rng: random.Random) -> Any:
    """Any legal action of the player to act, each as likely."""
    return rng.choice(state.legal_actions())


@dataclass(frozen=True)
class Weights:
    """The dice policy's features, in points (tuned by self-play on solo Doodle City: docs/coach.md)."""
    connect: float = 2.0   # a side joined to a neighbour's road
    open: float = 0.5      # a side facing an empty square (a road may come)
    dead: float = -1.5     # a side facing the sheet's edge or a piece that turns away
    block: float = -1.5    # a neighbour's side this piece turns away
    house: float = 2.5     # a house crossed, while shops are still to draw
    floor: float = 2.5     # a floor added to a sky scraper still to draw
    tree: float = 3.0      # a tree (or barrel) spent; more as they run out
    keep: float = 0.7      # a scoring square drawn now loses keep x its best free value x the share still empty
    group: float = 1.0     # group points (taxis...) joined now


class DicePolicy:
    """The greedy one-ply policy of the dice editions (the `greedy` level and the playouts)."""

    def __init__(self, weights: Weights | None = None):
        self.w = weights or Weights()

    def __call__(self, state: State, rng: random.Random) -> Any:
        assert isinstance(state, dice.State)
        if state.phase == dice.CIRCLE:
            return dice.circle(self.circle_value(state))
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        scores = self.scores(state, legal)
        best = max(scores)
        return legal[scores.index(best)]

    # -- the value circled ------------------------------------------------------------------
    def circle_value(self, state: dice.State) -> int:
        """The highest free value, but not the one that ends the game while the player is not
        ahead and the sheet still has scoring squares to draw."""
        choices = state.circle_choices()
        pend = state.pending
        assert pend is not None
        g = state.game
        track = g.kind[pend.square]
        if len(choices) > 1 and choices[0] == g.layout.end.get(track) and not self._may_end(state, pend.player):
            return choices[1]
        return choices[0]

    def _may_end(self, state: dice.State, p: int) -> bool:
        b = board(state.game)
        sheet = state.sheets[p]
        left = sum(1 for t in b.scoring.values() for i in t if not sheet.pieces[i])
        if state.game.players == 1:
            return left <= 1
        totals = state.scores()
        return totals[p] > max(t for q, t in enumerate(totals) if q != p) or left <= 1

    # -- a turn -----------------------------------------------------------------------------
    def scores(self, state: dice.State, legal: list[dice.Action]) -> list[float]:
        """Each legal action's score (same order)."""
        g = state.game
        lay = g.layout
        b = board(g)
        p = state.current_player()
        sheet = state.sheets[p]
        w = self.w
        empty = sum(1 for i, k in enumerate(b.kind) if k != "house" and not sheet.pieces[i])
        share = empty / b.road_squares
        tree = self.tree_cost(sheet.trees, lay.trees, share)
        barrel = w.tree * (1 + sheet.barrels / lay.barrels) if lay.barrels else 0.0
        shops_left = sum(1 for i in b.scoring.get("shop", ()) if not sheet.pieces[i])
        keep = {t: w.keep * self._best_later(state, p, t) * share for t in lay.tracks}
        memo: dict[tuple[int, int], float] = {}
        out = []
        for a in legal:
            kind = a.kind
            if kind == "pass":
                out.append(-tree)
                continue
            i = (a.row - 1) * b.n + a.col - 1
            s = 0.0
            if a.via is not None:
                s -= tree if lay.park == "row" else barrel
            elif lay.jokers and state.white[a.die - 1] == 6:
                s -= tree
            if kind == "house":
                s += w.house * (shops_left / b.shops if b.shops else 0.0)
            elif kind == "floor":
                s += w.floor
            else:
                bits = SIDES[a.piece]
                key = (i, bits)
                v = memo.get(key)
                if v is None:
                    v = memo[key] = self._draw(state, p, sheet, b, i, bits, keep)
                s += v
            out.append(s)
        return out

    def tree_cost(self, used: int, trees: int, share: float) -> float:
        left = trees - used
        if left <= 0:
            return 0.0
        if left == 1:          # the last tree ends the game
            return self.w.tree * (1 + 40 * share)
        return self.w.tree * (1 + used / trees)

    def _best_later(self, state: dice.State, p: int, track: str) -> int:
        """The highest value of `track` the player may still circle, the game-ending one aside."""
        sheet = state.sheets[p]
        top = state.game.layout.end.get(track)
        used = sheet.circled[track]
        struck = sheet.struck[track]
        best = 0
        for v in state.game.layout.tracks[track].values:
            if v not in used and v not in struck and v != top:
                best = v
        return best

    def _sides(self, b: Board, pieces: list[int], i: int, bits: int) -> float:
        """The side features of `bits` drawn in square i (both policies): side_value."""
        return side_value(self.w, b.nbs[i], pieces, bits)

    def _draw(self, state: dice.State, p: int, sheet: dice.Sheet, b: Board, i: int, bits: int,
              keep: dict[str, float]) -> float:
        w = self.w
        pieces = sheet.pieces
        s = self._sides(b, pieces, i, bits)
        road, _ = b.road_through(pieces, i, bits)
        kind = b.kind[i]
        if kind in keep:
            s += self._value_now(state, p, sheet, b, i, kind, road) - keep[kind]
        if b.group[i] >= 0 or any(b.group[j] >= 0 for j in road):
            s += w.group * b.group_gain(pieces, i, road)
        return s

    def _value_now(self, state: dice.State, p: int, sheet: dice.Sheet, b: Board, i: int, track: str,
                   road: list[int]) -> float:
        """The points circled now for a drawing in scoring square i on `road` (and its bonus)."""
        worth = b.worth(sheet, i, road)
        lay = state.game.layout
        used = sheet.circled[track]
        struck = sheet.struck[track]
        top = lay.end.get(track)
        free = [v for v in lay.tracks[track].values if v <= worth and v not in used and v not in struck]
        if not free:
            return 0.0
        v = free[-1]
        if v == top and len(free) > 1 and not self._may_end(state, p):
            v = free[-2]
        if track == "shop" and lay.bonuses:
            bonus = [x for x in lay.bonuses if x <= v and x not in state.bonus_owner]
            if bonus:
                return v + bonus[-1]
        return v


_OPP = {1: 4, 4: 1, 2: 8, 8: 2}


@dataclass(frozen=True)
class Plan:
    """PlanPolicy's features on top of DicePolicy's. Found by self-play (tests/tools/tune_policy.py: a
    coordinate search, each weight x0.5 and x1.5 in turn, kept when the mean of 200 seeded solo
    Doodle City games, seeds 3000-3199, rose by more than 0.3: from 61.9 to 64.2 in a round on
    those seeds, a second round found nothing; on seeds 1000-1499 these weights score 61.1 +- 0.8,
    so most of that gain was the tuning seeds' own: the weights sit on a plateau)."""
    local: float = 0.45    # x DicePolicy's side features (connect, open, dead, block)
    off: float = 1.5       # a drawing that puts the sheet one square further off every long road (Templates)
    many: float = 0.15     # x log2 of the share of the best long roads a piece keeps
    later: float = 0.4     # x the sheet's expected points still to come (future())
    keep: float = 0.5      # x DicePolicy's keep (the value a scoring square drawn now gives up)
    reach: float = 1.5     # squares a hotel's road may still gain per open end beyond it
    houses: float = 1.0    # houses a shop's road may still gain per open end beyond it


class PlanPolicy(DicePolicy):
    """The greedy policy with a plan, for the 5x5 editions: each action's score is DicePolicy's
    (points now, trees, taxis, a damped share of its side features and of its keep) plus
      - later x the change of future(): the points the sheet's empty hotels and shops may still
        circle, each valued by the road it could join now (its two longest neighbouring roads, or
        for a shop the two with most houses) plus what those roads' other open ends may add,
        the free values handed out best-first (and the shops' first-player bonuses);
      - the sheet's distance from one road through every square (board.Templates): `off` per
        square drawn off every Hamiltonian path at the best level, `many` x log2 of the share of
        those paths kept.
    A house crossed adds the change of future() (the shops it could count for) to DicePolicy's score."""

    def __init__(self, weights: Weights | None = None, plan: Plan | None = None):
        super().__init__(weights)
        self.plan = plan or Plan()
        self._base = 0.0
        self._tmpl: tuple | None = None
        self._net: _Net | None = None
        self._fast: Any = None        # its fast.FastPlan, made by fast.simulate_plan when first asked

    def scores(self, state: State, legal: list[dice.Action]) -> list[float]:
        assert isinstance(state, dice.State)
        g = state.game
        b = board(g)
        p = state.current_player()
        sheet = state.sheets[p]
        self._net = net = _Net(b, sheet.pieces, sheet.crossed)
        self._base = self._estimate(state, b, net, sheet.circled, state.bonus_owner)
        t = templates(g.n)
        self._tmpl = None
        if t is not None:
            lv = t.levels(sheet.pieces)
            best = next((k for k, x in enumerate(lv) if x), len(lv))
            self._tmpl = (t, lv, best, lv[best].bit_count() if best < len(lv) else 1)
        out = super().scores(state, legal)
        for k, a in enumerate(legal):
            if a.kind == "house":
                i = (a.row - 1) * b.n + a.col - 1
                out[k] += self.plan.later * (self._estimate(state, b, net, sheet.circled, state.bonus_owner,
                                                            plus_house=net.seg[i]) - self._base)
        return out

    def _draw(self, state: dice.State, p: int, sheet: dice.Sheet, b: Board, i: int, bits: int,
              keep: dict[str, float]) -> float:
        w = self.w
        k = self.plan
        pieces = sheet.pieces
        s = k.local * self._sides(b, pieces, i, bits)
        if self._tmpl is not None:
            t, lv, best, count = self._tmpl
            level, kept = t.after(lv, i, bits)
            s -= k.off * (level - best)
            if level == best:
                s += k.many * math.log2(kept / count)
        net = self._net
        assert net is not None            # made by scores()
        joined, merged = net.draw(b, i, bits)
        kind = b.kind[i]
        grouped = b.group[i] >= 0 or any(net.grouped[x] for x in joined)
        road = b.road_through(pieces, i, bits)[0] if kind in keep or grouped else []
        circled = sheet.circled
        owners = state.bonus_owner
        if kind in keep:
            s += self._value_now(state, p, sheet, b, i, kind, road) - k.keep * keep[kind]
            lay = state.game.layout
            worth = b.worth(sheet, i, road)
            free = [v for v in lay.tracks[kind].values if v <= worth and v not in circled[kind]
                    and v not in sheet.struck[kind]]
            if free:
                circled = {**circled, kind: circled[kind] + [free[-1]]}
                if kind == "shop":
                    bonus = [x for x in lay.bonuses if x <= free[-1] and x not in owners]
                    if bonus:
                        owners = {**owners, bonus[-1]: p}
        s += k.later * (self._estimate(state, b, net, circled, owners, i, joined, merged) - self._base)
        if grouped:
            s += w.group * b.group_gain(pieces, i, road)
        return s


    def future(self, state: dice.State, b: Board, pieces: list[int], crossed: list[int],
               circled: dict[str, list[int]], owners: dict[int, int]) -> float:
        """The points the empty hotels and shops of a sheet may still circle (see the class)."""
        return self._estimate(state, b, _Net(b, pieces, crossed), circled, owners)

    def _estimate(self, state: dice.State, b: Board, net: _Net, circled: dict[str, list[int]],
                  owners: dict[int, int], drawn: int = -1, joined: tuple[int, ...] = (),
                  merged: tuple[int, int, list[int]] | None = None, plus_house: int = -1) -> float:
        """future() of `net` changed by one drawing: square `drawn` drawn, joining the roads
        `joined` into one of (length, houses, open ends) `merged`; or a house crossed on the road
        `plus_house`."""
        base = net.est
        if base is None:
            base = net.est = {t: {j: self._square(net, t, j) for j in b.scoring.get(t, ()) if not net.pieces[j]}
                              for t in ("hotel", "shop")}
        touched: set[int] = set()
        if merged is not None:
            touched.update(merged[2])
            for sid in joined:
                touched.update(net.ends[sid])
            for sid in net.facing.get(drawn, ()):      # their open end at `drawn` is closed now
                touched.update(net.ends[sid])
        if plus_house >= 0:
            touched.update(net.ends[plus_house])
        lay = state.game.layout
        total = 0.0
        for track, known in base.items():
            if not known or track not in lay.tracks:
                continue
            est = [self._square(net, track, j, drawn, joined, merged, plus_house) if j in touched else e
                   for j, e in known.items() if j != drawn]
            key = (track, *circled[track])
            free = net.free.get(key)
            if free is None:
                free = net.free[key] = [v for v in lay.tracks[track].values if v not in circled[track]]  # ascending
            free = free[:]
            bonus = [x for x in lay.bonuses if x not in owners] if track == "shop" and lay.bonuses else []
            est.sort(reverse=True)
            for e in est:
                at = bisect_right(free, e) - 1
                if at < 0:
                    break          # the rest are lower still
                v = free.pop(at)
                total += v
                if bonus:
                    at = bisect_right(bonus, v) - 1
                    if at >= 0:
                        total += bonus.pop(at)
        return total

    def _square(self, net: _Net, track: str, j: int, drawn: int = -1, joined: tuple[int, ...] = (),
                merged: tuple[int, int, list[int]] | None = None, plus_house: int = -1) -> float:
        hotel = track == "hotel"
        return square_reach(net, hotel, self.plan.reach if hotel else self.plan.houses, j, drawn, joined, merged,
                            plus_house)


def side_value(w: Weights, nbs: Any, pieces: list[int], bits: int) -> float:
    """The side features of `bits` drawn in a square whose neighbours are `nbs` ((side, square)
    pairs, the board's or a sim.Sim's): each side open, joined, dead or blocking, and the sides
    facing the edge."""
    s = 0.0
    sides = 0
    for side, j in nbs:
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


def square_reach(net: Any, hotel: bool, grow: float, j: int, drawn: int = -1, joined: tuple[int, ...] = (),
                 merged: tuple | None = None, plus_house: int = -1) -> float:
    """What empty square j (a hotel's, else a shop's) may reach: its two best facing roads, and
    the open ends beyond them (`grow` each). `net`: the roads as _Net has them (length, houses,
    ends, facing), here or on fast.py's Sim; `joined`/`merged`/`plus_house`: a drawing not made
    yet, as if it were."""
    new = len(net.length)
    sids = net.facing.get(j, [])
    if merged is not None and j in merged[2]:
        sids = sids + [new]
    near: list[int] = []
    gains: list[float] = []
    for sid in sids:
        if sid in joined:
            sid = new
        if sid in near:
            continue
        near.append(sid)
        if sid == new:
            assert merged is not None
            size = merged[0] if hotel else merged[1]
            out = merged[2]
        else:
            size = net.length[sid] if hotel else net.houses[sid] + (sid == plus_house)
            out = net.ends[sid]
        gains.append(size + grow * sum(1 for x in out if x != j and x != drawn))
    gains.sort(reverse=True)
    return (1.0 if hotel else 0.0) + sum(gains[:2])


class _Net:
    """A sheet's roads for PlanPolicy.future(): per road its length, crossed houses and the empty
    squares its open ends face; per empty square the roads facing it."""

    def __init__(self, b: Board, pieces: list[int], crossed: list[int]):
        nbs = b.nbs
        kind = b.kind
        self.pieces = pieces
        self.seg = seg = [-1] * len(pieces)
        self.length: list[int] = []
        self.houses: list[int] = []
        self.grouped: list[bool] = []     # a road through a square of a group (taxis...)
        self.ends: list[list[int]] = []
        for s0, p0 in enumerate(pieces):
            if not p0 or seg[s0] >= 0:
                continue
            sid = len(self.length)
            seg[s0] = sid
            stack = [s0]
            n = h = 0
            grouped = False
            open_ends: list[int] = []
            while stack:
                x = stack.pop()
                n += 1
                grouped = grouped or b.group[x] >= 0
                if kind[x] == "house":
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
            self.length.append(n)
            self.houses.append(h)
            self.grouped.append(grouped)
            self.ends.append(open_ends)
        self.est: dict[str, dict[int, float]] | None = None    # PlanPolicy._estimate's, per square
        self.free: dict[tuple, list[int]] = {}                  # and its free values, per circles
        self.facing: dict[int, list[int]] = {}
        for sid, open_ends in enumerate(self.ends):
            for j in open_ends:
                self.facing.setdefault(j, []).append(sid)

    def draw(self, b: Board, i: int, bits: int) -> tuple[tuple[int, ...], tuple[int, int, list[int]]]:
        """(the roads a piece `bits` drawn in empty square i joins, the joined road's length,
        houses and open ends)."""
        pieces = self.pieces
        joined: list[int] = []
        own: list[int] = []
        for side, j in b.nbs[i]:
            if bits & side:
                pj = pieces[j]
                if pj & _OPP[side]:
                    if self.seg[j] not in joined:
                        joined.append(self.seg[j])
                elif not pj:
                    own.append(j)
        length = 1 + sum(self.length[x] for x in joined)
        houses = sum(self.houses[x] for x in joined)
        ends = own + [e for x in joined for e in self.ends[x] if e != i]
        return tuple(joined), (length, houses, ends)


def policy_for(state: State, weights: Weights | None = None) -> Policy:
    """The game's greedy policy: PlanPolicy for the 5x5 dice editions, DicePolicy for the 6x6
    ones, random moves for the others."""
    if isinstance(state, dice.State):
        return PlanPolicy(weights) if templates(state.game.n) is not None else DicePolicy(weights)
    return random_move
