"""The named levels a bot plays at, from random moves to the strongest search (docs/coach.md).

    random   any legal move, each as likely
    greedy   one ply: the points a move takes now and features of the sheet it leaves, with a plan
             for the 5x5 editions (policy.py: PlanPolicy; DicePolicy for the 6x6 ones); solo 5x5,
             linear.LinearPlan (PlanPolicy's features, weights fitted to the playouts' values) on
             a sim.Sim
    rollout  flat Monte-Carlo: every plan played out ROLLOUTS times with the one-ply DicePolicy
             (fast), a plan kept over the greedy policy's own only when clearly better (search.DOUBT)
    search   sequential halving of the greedy policy's playouts within a time budget per move
             (search.py), the same doubt
"""
from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from doodlebox.coach import search
from doodlebox.coach.fast import FastPolicy
from doodlebox.coach.linear import LinearPlan
from doodlebox.coach.policy import DicePolicy, PlanPolicy, policy_for, random_move
from doodlebox.rules.api import State

ROLLOUTS = 8             # the rollout level's playouts per plan
DEFAULT_BUDGET_S = 1.0   # the search level's time per move


@dataclass(frozen=True)
class Level:
    """A level: its name, what it does, and how it chooses (state, rng, budget_s) -> action."""
    name: str
    description: str
    choose: Callable[[State, random.Random, float], Any]


def _random(state: State, rng: random.Random, budget_s: float) -> Any:
    return random_move(state, rng)


def _greedy(state: State, rng: random.Random, budget_s: float) -> Any:
    pol = policy_for(state)
    return (linear_policy() if isinstance(pol, PlanPolicy) else pol)(state, rng)


class _Rollout(PlanPolicy):
    """The greedy policy, whose playouts are DicePolicy's (one ply without the plan: ~8x faster)."""
    def __init__(self) -> None:
        super().__init__()
        self.playout = DicePolicy()


def _rollout(state: State, rng: random.Random, budget_s: float) -> Any:
    pol = policy_for(state)
    if isinstance(pol, PlanPolicy):
        pol = _Rollout()
    return search.best(state, None, budget_s, rng, playouts=ROLLOUTS, policy=pol)


def _search(state: State, rng: random.Random, budget_s: float) -> Any:
    return search.best(state, None, budget_s, rng)


_LINEAR: list[Any] = []


def linear_policy() -> Any:
    """The greedy level's policy for the 5x5 editions: LinearPlan on a sim.Sim when solo,
    PlanPolicy otherwise (fast.FastPolicy; made once per process, its caches kept)."""
    if not _LINEAR:
        _LINEAR.append(FastPolicy(fast=LinearPlan()))
    return _LINEAR[0]


LEVELS: dict[str, Level] = {lv.name: lv for lv in (
    Level("random", "any legal move, each as likely", _random),
    Level("greedy", "one ply: points now, features of the sheet left and a plan of long roads", _greedy),
    Level("rollout", f"flat Monte-Carlo: each plan played out {ROLLOUTS} times by the one-ply policy", _rollout),
    Level("search", "sequential halving of the greedy policy's playouts within the budget per move", _search),
)}
STRONGEST = "search"


def level(name: str) -> Level:
    try:
        return LEVELS[name]
    except KeyError:
        raise ValueError(f"{name!r} is not a level ({', '.join(LEVELS)})") from None
