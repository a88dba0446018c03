"""Tune PlanPolicy's features (coach/policy.py, Plan) by self-play: a coordinate search over the
weights on solo Doodle City, every setting scored on the same seeded games (common random
numbers: the same dice for every setting, so settings differ only by their moves).

    .venv/bin/python tests/tools/tune_policy.py [--games 200] [--seed 3000] [--rounds 2]
    .venv/bin/python tests/tools/tune_policy.py --fit [--seeds 20000:20400,30000:30400]

--fit: the greedy level's solo weights (coach/linear.py, THETA) fitted to the values of the moves
measured by playouts (see linear.py and docs/coach.md; ~15 min on one core for the 800 games).

Prints each trial (the weights changed, the mean over the games) and the best weights found; the
result is written by hand into policy.Plan's defaults with a comment saying how it was found.
Pure Python and single-threaded: about 1 ms per move, 200 games in ~10 s."""
from __future__ import annotations

import argparse
import dataclasses
import random
import statistics

from doodlebox.coach.policy import Plan, PlanPolicy
from doodlebox.rules.games import find_game


def play(policy: PlanPolicy, seed: int) -> int:
    """One solo Doodle City game by the policy alone (chance seeded `seed`)."""
    state = find_game("city").new_game(1).new_state()
    chance = random.Random(seed)
    moves = random.Random(seed * 1000 + 17)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_unchecked(state.sample_chance(chance))
        else:
            state.apply_unchecked(policy(state, moves))
    return state.scores()[0]


def score(plan: Plan, games: int, seed: int) -> float:
    pol = PlanPolicy(plan=plan)
    return statistics.mean(play(pol, seed + k) for k in range(games))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=3000)
    ap.add_argument("--rounds", type=int, default=2)
    args = ap.parse_args()
    best = Plan()
    best_score = score(best, args.games, args.seed)
    print(f"start {best} {best_score:.2f}", flush=True)
    for _ in range(args.rounds):
        for f in dataclasses.fields(Plan):
            for factor in (0.5, 1.5):
                trial = dataclasses.replace(best, **{f.name: getattr(best, f.name) * factor})
                got = score(trial, args.games, args.seed)
                print(f"  {f.name} x{factor}: {got:.2f}", flush=True)
                if got > best_score + 0.3:
                    best, best_score = trial, got
                    print(f"better {best} {best_score:.2f}", flush=True)
    print(f"best {best} {best_score:.2f}")



# -- --fit: LinearPlan's weights (the greedy level, solo), fitted to the playouts' values ------
def positions(theta, seeds, rng_of, top: int = 10, extra: int = 4, playouts: int = 12):
    """For each seed, one position of a game played by LinearPlan(theta) at a random round, its
    policy's `top` best moves and `extra` others valued by `playouts` playouts each (common
    random numbers): [(features of each move, their values)]."""
    from doodlebox.coach import sim as sim_
    from doodlebox.coach.linear import LinearPlan
    game = find_game("city").new_game(1)
    pol = LinearPlan(theta)
    out = []
    for g in seeds:
        rng = rng_of(g)
        state = game.new_state()
        chance = random.Random(g)
        sim = sim_.Sim.of(state)
        stop = rng.randint(1, 28)
        rounds = -1        # (the data of THETA counted rounds from the second roll)
        while sim.phase != sim_.OVER:
            if sim.phase in (sim_.ROLL, sim_.START):
                rounds += sim.phase == sim_.ROLL
                sim.roll(chance)
            elif sim.phase == sim_.CIRCLE:
                sim.circle(pol.circle_value(sim))
            else:
                legal = sim.legal()
                if rounds >= stop and len(legal) > 1:
                    break
                sim.play(legal[0] if len(legal) == 1 else pol.choose(sim, legal))
        if sim.phase == sim_.OVER:
            continue
        legal = sim.legal()
        phis = pol.features(sim, legal)
        sc = pol.scores(sim, legal)
        order = sorted(range(len(legal)), key=lambda k: -sc[k])
        pick = order[:top] + rng.sample(order[top:], min(extra, len(order[top:])))
        seeds_k = [rng.getrandbits(40) for _ in range(playouts)]
        values = []
        for k in pick:
            total = 0
            for sd in seeds_k:
                x = sim.copy()
                x.play(legal[k])
                if x.phase == sim_.CIRCLE:
                    x.circle(pol.circle_value(x))
                total += pol.playout(x, random.Random(sd))
            values.append(total / playouts)
        out.append(([phis[k] for k in pick], values))
    return out


def fit(data, prior, temperature: float = 1.0, pull: float = 0.01, steps: int = 400):
    """The weights maximising the likelihood of softmax(values / temperature) under
    softmax(theta . features), pulled towards `prior` (numpy, gradient steps scaled per feature)."""
    import numpy as np
    prior = np.array(prior)
    pos = []
    for phis, values in data:
        q = np.array(values)
        t = np.exp((q - q.max()) / temperature)
        pos.append((np.array(phis), t / t.sum()))
    scale = np.vstack([p for p, _ in pos]).std(0) + 1e-6
    theta = prior.copy()
    for _ in range(steps):
        grad = 2 * pull * (theta - prior) * scale ** 2 * len(pos)
        for p, t in pos:
            s = p @ theta
            e = np.exp(s - s.max())
            grad -= p.T @ (t - e / e.sum())
        theta -= 0.05 * grad / len(pos) / scale ** 2
    return tuple(round(float(x), 3) for x in theta)


def main_fit(args) -> None:
    from doodlebox.coach.linear import PLAN_THETA
    seeds = [g for part in args.seeds.split(",") for g in range(*map(int, part.split(":")))]
    data = positions(PLAN_THETA, seeds, lambda g: random.Random(g * 7 + 1))
    print(f"{len(data)} positions; THETA = {fit(data, PLAN_THETA)}")


if __name__ == "__main__" and "--fit" in __import__("sys").argv:
    ap = argparse.ArgumentParser()
    ap.add_argument("--fit", action="store_true")
    ap.add_argument("--seeds", default="20000:20400,30000:30400", help="the games, as ranges a:b")
    main_fit(ap.parse_args())
elif __name__ == "__main__":
    main()
