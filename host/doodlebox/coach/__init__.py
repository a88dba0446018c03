"""coach/: how good is a move, and which is best? A search that values moves, and the bots that play by it
(docs/coach.md). It imports only the rules: the search works through the one game interface (rules/api.State), the
fast policies and the simulation through the dice editions' engine, layout and roads. Nothing else of the package:
the logger (the console's hints), the page and the command line import the coach, never the other way.

The search:

    search.evaluate(state, player=None, budget_s=1.0, rng=None, *, playouts=None, policy=None,
                    actions=None) -> [Evaluation(action, points, value, playouts), ...]
        every legal action of `player` at a decision point, best first: `points` the player's
        expected final points after it, `value` what the search maximises (the points solo;
        with others, own points minus the best other's), `playouts` the games played out for it.
        No action is ever valued above the first, and the first is what `best` plays.
    search.best(state, player=None, budget_s=1.0, rng=None, **same) -> action

A dice turn that draws in a scoring square and then circles a value (R10) is one plan (the draw
valued with its best circle); the list holds engine actions, and at phase CIRCLE the circles.

    search.py    evaluate and best: plans, playouts with common random numbers, sequential halving, the doubt
    policy.py    the fast policies the playouts use: `random_move`; the dice editions' greedy `DicePolicy`, `PlanPolicy`
    board.py     the coach's view of a dice sheet, made once per layout (a drawing's road and worth before it is drawn)
    sim.py       a lean simulation of solo 5x5 dice games without parks, barrels or floors, for the playouts
    fast.py      `PlanPolicy` played on a `sim.Sim` (`FastPlan`, `simulate_plan`); `FastPolicy` for the engine's states
    linear.py    `LinearPlan`: PlanPolicy's features with weights fitted to the playouts, the greedy level in solo 5x5
    levels.py    the named levels: random, greedy, rollout, search
    bots.py      whole games of a dice edition at the levels, and `doodlebox bot`'s figures
    deadly.py    Deadly Doodles' placements: `GreedyPlacement` (one ply) and `narrow`, the actions the budget can value
    analysis.py  each turn against the best move with the same dice (`analyse`), a solo game's hindsight, the hint
"""
