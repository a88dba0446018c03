"""The coach: a search that values moves and the bots that play by it (docs/coach.md).

Through the one game interface (rules/api.State) only:

    search.evaluate(state, player=None, budget_s=1.0, rng=None, *, playouts=None, policy=None,
                    actions=None) -> [Evaluation(action, points, value, playouts), ...]
        every legal action of `player` at a decision point, best first: `points` the player's
        expected final points after it, `value` what the search maximises (the points solo;
        with others, own points minus the best other's), `playouts` the games played out for it.
        No action is ever valued above the first, and the first is what `best` plays.
    search.best(state, player=None, budget_s=1.0, rng=None, **same) -> action

A dice turn that draws in a scoring square and then circles a value (R10) is one plan (the draw
valued with its best circle); the list holds engine actions, and at phase CIRCLE the circles.

    policy.py   the fast policies the playouts use (random; the dice editions' greedy one ply)
    board.py    the coach's view of a dice sheet (a drawing's road and worth before it is drawn)
    search.py   evaluate and best: plans, playouts with common random numbers, sequential halving
    levels.py   the named levels: random, greedy, rollout, search
    bots.py     whole games at the levels, and `doodlebox bot`'s figures
    analysis.py each turn against the best move with the same dice (`doodlebox analyse`), a solo
                game's hindsight best, the hint (`doodlebox hint`)
"""
