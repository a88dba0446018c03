"""The coach on Deadly Doodles' card placements (`doodlebox analyse`, docs/coach.md, "Scope"),
through the one game interface only (api.State: legal_actions, clone, apply_unchecked, scores).

`GreedyPlacement` scores each legal action of a player by the search's objective on the scores
right after it (as if the game ended then: the player's points solo; with others, the points
minus the best other's, so a Trap that hits a rival counts). It screens a decision's actions
(`narrow`) when there are more than the budget can play out; the playouts themselves are
policy.random_move's (a greedy playout, a clone and a scoring per legal action per move, costs
20-40 times as much: one or two playouts a plan at the default budget).
"""
from __future__ import annotations

import random
import time
from typing import Any

from doodlebox.coach import search
from doodlebox.coach.policy import random_move
from doodlebox.rules.api import State

MIN_PLAYOUTS = 4    # a decision's actions are screened down to what the budget gives this many playouts each


class GreedyPlacement:
    """Deadly Doodles' greedy one-ply policy: the placement (or Trap) with the best immediate
    objective, ties broken by `rng`; DONE when it is the only legal action (the engine allows it
    only then)."""

    def scores(self, state: State, legal: list[Any], player: int | None = None) -> list[float]:
        """Each action's immediate objective for `player` (default: the player to act)."""
        who = state.current_player() if player is None else player
        out = []
        for a in legal:
            s = state.clone()
            s.apply_unchecked(a, who)
            out.append(search.objective(s.scores(), who))
        return out

    def __call__(self, state: State, rng: random.Random) -> Any:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        sc = self.scores(state, legal)
        top = max(sc)
        return rng.choice([a for a, v in zip(legal, sc) if v == top])


def narrow(state: State, who: int, legal: list[Any], played: Any, budget_s: float, playouts: int | None,
           seed: int) -> list[Any]:
    """The actions of `who` to value: all of them with `playouts=` or when the budget gives each
    MIN_PLAYOUTS random playouts (timed by one from `state`); else as many as it does (at least
    search.SCREEN), the ones GreedyPlacement scores highest, ties in a random order (`seed`), and
    the played one among them."""
    if playouts is not None or len(legal) <= search.SCREEN:
        return legal
    t0 = time.perf_counter()
    search.playout(state.clone(), random_move, random.Random(seed), random.Random(seed + 1))
    cost = max(time.perf_counter() - t0, 1e-6)
    n = max(search.SCREEN, int(budget_s / (cost * MIN_PLAYOUTS)))
    if len(legal) <= n:
        return legal
    sc = GreedyPlacement().scores(state, legal, who)
    rng = random.Random(seed)
    tie = [rng.random() for _ in legal]
    ranked = sorted(range(len(legal)), key=lambda i: (-sc[i], tie[i]))
    keep = [legal[i] for i in ranked[:n - (played is not None)]]
    if played is not None and played not in keep:
        keep.append(played)
    return keep
