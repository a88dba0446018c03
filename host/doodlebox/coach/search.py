"""The decision search: every legal action at a decision point valued by the expected final
points it leads to, through the one game interface (api.State: clone, apply_unchecked,
sample_chance, scores).

A *plan* is what one player does before the game moves on: an action, and in the dice editions
the value circled right after it when several are free (R10), so a drawing is valued with its
best circle. Each plan is played out to the end of the game with the policy (policy.py) for
every player and chance by its odds. Playout k of every plan uses the same dice (common random
numbers: its own random.Random for chance, another for the policy), so two plans are compared
on the same futures and differ only by the move.

With a time budget the policy's scores screen the actions first: only the plans of the SCREEN
actions it scores highest are played out (the CIRCLES highest circles after a drawing), and the
others are listed with 0 playouts, valued as the lowest plan played out. Then sequential
halving: one playout per plan, then rounds that give each surviving plan the same number of
further playouts and keep the better half (the policy's own plan always goes on), until the
budget is spent. A plan dropped after a round is valued against the best plan on the playouts
they shared (the best plan's value minus the mean difference then). With `playouts=N` every
plan gets exactly N and none is screened (deterministic for a seed).

Doubt: a plan other than the one the policy itself plays is valued DOUBT standard errors of its
gain over the policy's plan (on the playouts they shared) below its mean, and never above the
policy's plan on a single shared playout. Few playouts overfit to the futures sampled; so the
search leaves the policy's move only when its playouts say clearly that another is better.
"""
from __future__ import annotations

import random
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from doodlebox.coach import fast
from doodlebox.coach.policy import Policy, policy_for
from doodlebox.rules.api import State


@dataclass(frozen=True)
class Evaluation:
    """One legal action valued: `points` the player's expected final points after it, `value`
    what the search maximises (the points solo; points minus the best other's with others),
    `playouts` how many games were played out to value it (0: it was not searched, see
    evaluate's `screen`)."""
    action: Any
    points: float
    value: float
    playouts: int


def objective(totals: Sequence[int], player: int) -> float:
    """What the search maximises: the player's points solo; with others, the points minus the
    best other's (a win by more is better, a loss by less is better)."""
    if len(totals) == 1:
        return float(totals[0])
    return float(totals[player] - max(t for q, t in enumerate(totals) if q != player))


def playout(state: State, policy: Policy, chance: random.Random, moves: random.Random) -> list[int]:
    """Play `state` (changed in place) to its end: chance with `chance`, every player by
    `policy`; the final totals. A policy with a `simulate(state, chance)` that answers plays it
    out on its own faster simulation instead, PlanPolicy on fast.py's (the same moves, dice and
    scores; `state` is then left as it was)."""
    simulate = getattr(policy, "simulate", None)
    totals = simulate(state, chance) if simulate is not None else fast.simulate_plan(policy, state, chance)
    if totals is not None:
        return totals
    while True:
        if state.is_chance_node():
            state.apply_unchecked(state.sample_chance(chance))
            continue
        if state.is_terminal():
            return state.scores()
        state.apply_unchecked(policy(state, moves))


@dataclass
class _Plan:
    actions: tuple[Any, ...]          # the first is the root's action
    after: State
    values: list[float] = field(default_factory=list)
    points: list[float] = field(default_factory=list)
    dropped: int = 0                  # playouts shared with the others when it was dropped (0: kept)


def _plans(state: State, player: int, actions: Iterable[Any], circles: int | None = None) -> list[_Plan]:
    """The plans from `state`: each action, followed by each circle when the same player must
    circle a value next (the dice editions' phase CIRCLE; only the `circles` highest when given)."""
    out = []
    for a in actions:
        s = state.clone()
        s.apply_unchecked(a, player)
        nxt = s.legal_actions() if not s.is_terminal() and s.current_player() == player else []
        if nxt and getattr(s, "phase", None) == "circle":
            for c in (nxt if circles is None else nxt[:circles]):
                s2 = s.clone()
                s2.apply_unchecked(c, player)
                out.append(_Plan((a, c), s2))
        else:
            out.append(_Plan((a,), s))
    return out


def _mean(xs: Sequence[float], n: int | None = None) -> float:
    xs = xs[:n] if n is not None else xs
    return sum(xs) / len(xs) if xs else 0.0


def evaluate(state: State, player: int | None = None, budget_s: float = 1.0, rng: random.Random | None = None, *,
             playouts: int | None = None, policy: Policy | None = None,
             actions: Sequence[Any] | None = None) -> list[Evaluation]:
    """Every legal action of `player` (default: the player to act) valued, best first.

    budget_s   the time to spend (at least one playout per plan is always made)
    rng        the seed of the playouts' dice (default: a fresh random.Random())
    playouts   instead of a time budget: exactly this many playouts per plan
    policy     the playouts' policy (default: the game's greedy one, policy.policy_for)
    actions    only these actions (default: every legal one)
    """
    if state.is_chance_node() or state.is_terminal():
        raise ValueError("evaluate needs a player's decision, not a chance node or the end")
    who = state.current_player() if player is None else player
    rng = rng or random.Random()
    pol = policy or policy_for(state)
    legal = list(actions) if actions is not None else state.legal_actions(who)
    if not legal:
        raise ValueError(f"P{who + 1} has no legal action now")
    roll = getattr(pol, "playout", pol)       # a policy may name a faster one for its playouts (levels.py)
    scored = _policy_scores(state, legal, pol)
    if playouts is None and scored is not None and len(legal) > SCREEN:
        ranked = sorted(range(len(legal)), key=lambda i: -scored[i])
        searched = [legal[i] for i in ranked[:SCREEN]]      # the others: valued, never played out
    else:
        searched = legal
    plans = _plans(state, who, searched, CIRCLES if playouts is None else None)
    default = _default(state, who, pol, plans) if scored is not None else None
    base = rng.getrandbits(48)

    def play(plan: _Plan) -> None:
        k = len(plan.values)
        seed = base + k * 7919
        totals = playout(plan.after.clone(), roll, random.Random(seed), random.Random(seed ^ 0x5EED))
        plan.values.append(objective(totals, who))
        plan.points.append(float(totals[who]))

    alive = list(plans)
    if playouts is not None:
        for _ in range(max(1, playouts)):
            for plan in alive:
                play(plan)
    else:
        _halve(alive, play, time.perf_counter() + budget_s, default)
    return _report(plans, legal, default)


SCREEN = 6     # with a time budget, only the plans of this many actions the policy likes best are played out
CIRCLES = 2    # with a time budget, only this many of the highest values circled after a drawing are
DOUBT = 1.0    # a plan other than the policy's own is valued DOUBT standard errors below its mean gain


def _policy_scores(state: State, legal: list[Any], pol: Policy) -> list[float] | None:
    """The policy's scores of the legal actions at a turn (None: it gives none, or not a turn)."""
    scores = getattr(pol, "scores", None)
    if scores is None or getattr(state, "phase", None) != "turn":
        return None
    return list(scores(state, legal))


def _default(state: State, who: int, pol: Policy, plans: list[_Plan]) -> _Plan | None:
    """The plan the (deterministic) policy itself would play, if it is among `plans`."""
    s = state.clone()
    a = pol(s, random.Random(0))
    acts = [a]
    s.apply_unchecked(a, who)
    if not s.is_terminal() and s.current_player() == who and getattr(s, "phase", None) == "circle":
        acts.append(pol(s, random.Random(0)))
    for plan in plans:
        if plan.actions[0] == a and (len(plan.actions) == 1 or plan.actions[1] == acts[-1]):
            return plan
    return None


def _halve(alive: list[_Plan], play, deadline: float, default: _Plan | None) -> None:
    """Sequential halving until `deadline`: every survivor gets the same playouts each round,
    then the better half by mean goes on (the policy's own plan, `default`, always does)."""
    t0 = time.perf_counter()
    for plan in alive:
        play(plan)
    done = 1
    cost = (time.perf_counter() - t0) / len(alive)
    while True:
        left = deadline - time.perf_counter()
        if left <= 0:
            return
        if len(alive) > 1:
            rounds = max(1, (len(alive) - 1).bit_length())
            per = max(1, int(left / rounds / max(cost, 1e-6) / len(alive)))
        else:
            per = max(1, int(left / max(cost, 1e-6)))
        for _ in range(per):
            if done > 1 and time.perf_counter() > deadline:
                break
            t = time.perf_counter()
            for plan in alive:
                play(plan)
            done += 1
            cost = 0.7 * cost + 0.3 * (time.perf_counter() - t) / len(alive)
        if len(alive) > 1:
            alive.sort(key=lambda p: -_mean(p.values))
            keep = (len(alive) + 1) // 2
            if default is not None and any(p is default for p in alive[keep:]):
                keep = max(2, keep)      # the policy's plan stays, with the best keep - 1 of the others
                stay = alive[:keep - 1] + [default]
            else:
                stay = alive[:keep]
            for plan in alive:
                if not any(plan is x for x in stay):
                    plan.dropped = done
            alive[:] = stay


def _report(plans: list[_Plan], legal: list[Any], default: _Plan | None = None) -> list[Evaluation]:
    kept = [p for p in plans if not p.dropped]
    top = max(kept, key=lambda p: (len(p.values), _mean(p.values)))
    best_v, best_p = _mean(top.values), _mean(top.points)
    value: dict[int, tuple[float, float]] = {}
    for p in plans:
        if p is top or len(p.values) == len(top.values):
            v, pts = _mean(p.values), _mean(p.points)
        else:     # valued against the best on the playouts they shared
            n = len(p.values)
            d = max(0.0, _mean(top.values, n) - _mean(p.values))
            v = best_v - d
            pts = best_p - (_mean(top.points, n) - _mean(p.points))
        value[id(p)] = (v - _doubt(p, default, value), pts) if default is not None and p is not default else (v, pts)
    out = []
    for a in legal:
        mine = [p for p in plans if p.actions[0] is a]
        if not mine:      # screened out (evaluate's SCREEN): never above a plan played out
            continue
        bestp = max(mine, key=lambda p: value[id(p)][0])
        v, pts = value[id(bestp)]
        out.append(Evaluation(a, pts, v, sum(len(p.values) for p in mine)))
    low_v = min(e.value for e in out)
    low_p = min(e.points for e in out)
    searched = {id(e.action) for e in out}
    out.extend(Evaluation(a, low_p, low_v, 0) for a in legal if id(a) not in searched)
    first = default.actions[0] if default is not None else None
    out.sort(key=lambda e: (-e.value, e.action is not first))
    return out


def _doubt(p: _Plan, default: _Plan, value: dict[int, tuple[float, float]]) -> float:
    """What a plan's value loses for the doubt that it beats the policy's own plan: DOUBT standard
    errors of its mean gain over it on the playouts they shared; with fewer than 2 shared, all of
    its gain (it is never valued above the policy's plan on one sampled future)."""
    m = min(len(p.values), len(default.values))
    diffs = [p.values[k] - default.values[k] for k in range(m)]
    if m < 2:
        return max(0.0, diffs[0]) if diffs else 0.0
    mean = sum(diffs) / m
    var = sum((x - mean) ** 2 for x in diffs) / (m - 1)
    return DOUBT * (var / m) ** 0.5


def best(state: State, player: int | None = None, budget_s: float = 1.0, rng: random.Random | None = None,
         **options: Any) -> Any:
    """The action evaluate() values highest (the first legal one when there is only one)."""
    legal = state.legal_actions(player)
    if len(legal) == 1:
        return legal[0]
    return evaluate(state, player, budget_s, rng, **options)[0].action
