"""The coach (host/doodlebox/coach/, docs/coach.md): the search's best move is legal and loses
nothing against its own evaluation, no move is valued above it, a hand-made blunder is valued
clearly lower, the levels are ordered, and `doodlebox bot` prints its table. Every search here
is seeded, with a fixed number of playouts or a tiny budget: none can fail by noise."""
from __future__ import annotations

import contextlib
import io
import random

import pytest

from doodlebox.cli import main
from doodlebox.coach import bots, search
from doodlebox.coach.policy import DicePolicy
from doodlebox.rules.dice.engine import Action, circle, draw
from doodlebox.rules.games import find_game


def midgame(edition: str = "city", players: int = 1, seed: int = 3, turns: int = 8):
    """A state at a player's decision after `turns` greedy turns."""
    state = find_game(edition).new_game(players).new_state()
    rng = random.Random(seed)
    pol = DicePolicy()
    done = 0
    while True:
        if state.is_chance_node():
            state.apply(state.sample_chance(rng))
        elif done >= turns and state.phase == "turn" and len(state.legal_actions()) > 3:
            return state
        else:
            state.apply(pol(state, rng))
            done += 1


@pytest.mark.parametrize("edition,players", [("city", 1), ("treasures", 1), ("shanghai", 2), ("monsters", 3)])
def test_the_best_move_is_legal_and_no_move_is_valued_above_it(edition, players):
    state = midgame(edition, players)
    evals = search.evaluate(state, budget_s=0.0, rng=random.Random(1), playouts=2)
    legal = state.legal_actions()
    assert sorted(map(str, (e.action for e in evals))) == sorted(map(str, legal))
    state.check(evals[0].action)
    assert all(e.value <= evals[0].value for e in evals)
    assert all(e.playouts >= 2 for e in evals)


def test_with_a_time_budget_no_dropped_move_is_valued_above_the_best():
    state = midgame("city", 1, seed=5)     # the fast greedy playouts: several rounds in the budget
    evals = search.evaluate(state, budget_s=0.3, rng=random.Random(2), policy=DicePolicy())
    assert all(e.value <= evals[0].value for e in evals)
    assert evals[0].playouts >= max(e.playouts for e in evals) > 1


def test_the_move_the_search_plays_loses_nothing_against_its_own_evaluation():
    state = midgame("city", 1, seed=7)
    evals = search.evaluate(state, rng=random.Random(4), playouts=3)
    played = search.best(state, rng=random.Random(4), playouts=3)
    value = {e.action: e.value for e in evals}
    assert value[played] == max(value.values())
    assert max(value.values()) - value[played] == 0


def hotel_on_a_road():
    """Doodle City solo: a road of nine squares from the start road at [1, 3] down column 3, west
    along row 5 and up column 1 to [2, 1], but for the hotel at [2, 3]; then the blue die 3 and a
    white 2: the hotel may join the road (10 squares: it may circle 10) or be wasted with a piece
    across it (1 square: nothing circled)."""
    state = find_game("city").new_game(1).new_state()
    for face in (2, 1, 2, 1, 1):           # start roads: [3, 1] N-S, [5, 2] E-W, [1, 3] N-S
        state.apply(Action("start", face))
    for blue, row, piece in ((1, 2, "NS"), (1, 4, "NS"), (1, 5, "NE"), (3, 5, "NW"), (3, 4, "NS"), (3, 3, "NS")):
        state.apply(Action("roll", blue, whites=(row, 1, 1)))
        state.apply(draw(1, row, blue, piece))
        if state.phase == "circle":
            state.apply(circle(state.circle_choices()[0]))
    state.apply(Action("roll", 3, whites=(2, 1, 5)))
    return state


JOINED, WASTED = draw(1, 2, 3, "NS"), draw(1, 2, 3, "EW")


def test_a_hotel_wasted_across_its_road_is_valued_clearly_lower():
    state = hotel_on_a_road()
    trial = state.clone()
    trial.apply(JOINED)
    assert trial.circle_choices()[0] == 10
    trial = state.clone()
    trial.apply(WASTED)
    assert trial.phase != "circle" and trial.sheets[0].circled["hotel"] == []
    evals = search.evaluate(state, rng=random.Random(5), playouts=12)
    value = {e.action: e.value for e in evals}
    assert value[WASTED] <= value[JOINED] - 5
    assert value[WASTED] <= evals[0].value - 5


def test_a_drawing_is_valued_with_its_best_circle():
    state = hotel_on_a_road()
    plans = search._plans(state, 0, [JOINED, WASTED])
    choices = [circle(v) for v in (10, 9, 8, 7, 6, 5, 4, 3)]
    assert [p.actions for p in plans] == [(JOINED, c) for c in choices] + [(WASTED,)]
    evals = search.evaluate(state, rng=random.Random(6), playouts=2, actions=[JOINED, WASTED])
    assert evals[0].playouts == 2 * 8 or evals[1].playouts == 2 * 8


def play_levels(name: str, seeds=range(4)) -> float:
    return sum(bots.play("city", [name], s, 0.0).totals[0] for s in seeds) / len(seeds)


def test_greedy_beats_random_by_a_wide_margin():
    assert play_levels("greedy") > play_levels("random") + 20


def test_places_share_a_tie_and_break_it_on_trees():
    assert bots.places([30, 30, 10], [2, 3, 0]) == [1, 2, 3]
    assert bots.places([30, 30, 10], [2, 2, 0]) == [1, 1, 3]


def run_cli(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(list(argv))
    return code, out.getvalue()


def test_bot_prints_its_table_solo_and_against_each_other():
    code, text = run_cli("bot", "--edition", "city", "--games", "2", "--level", "greedy")
    assert code == 0
    assert "Doodle City, solo, 2 games" in text and "greedy" in text and "ranks: Try again!" in text
    code, text = run_cli("bot", "--edition", "suzhou", "--players", "2", "--games", "1", "--level", "random,greedy")
    assert code == 0
    assert "P1 (random) places" in text and "P2 (greedy) places" in text


def test_bot_plays_a_sheet_of_ones_own(tmp_path, capsys):
    import json

    from doodlebox import paths
    data = json.loads((paths.layouts() / "doodle-city.json").read_text())
    data["trees"] = 2                              # a sheet of 2 trees: the games end far sooner
    sheet = tmp_path / "my-city.json"
    sheet.write_text(json.dumps(data))
    code, text = run_cli("bot", "--edition", "city", "--games", "3", "--layout", str(sheet), "--json")
    assert code == 0
    short = json.loads(text)
    code, text = run_cli("bot", "--edition", "city", "--games", "3", "--json")
    default = json.loads(text)
    assert short["seats"][0]["mean"] < default["seats"][0]["mean"]
    from doodlebox.rules.dice import layout
    m = bots.run("city", 1, 3, ["greedy"], 1, layout=layout.load(sheet))
    d = bots.run("city", 1, 3, ["greedy"], 1)
    assert sum(g.moves[0] for g in m.games) < sum(g.moves[0] for g in d.games)
    code, text = run_cli("bot", "--edition", "city", "--games", "1", "--layout", str(sheet))
    assert code == 0 and f"Doodle City, solo, the sheet {sheet}, 1 games" in text
    assert main(["bot", "--edition", "suzhou", "--layout", str(sheet)]) == 2
    assert "a sheet of 'city', not of 'suzhou'" in capsys.readouterr().err


def test_bot_refuses_what_cannot_be_played(capsys):
    assert main(["bot", "--edition", "shanghai", "--players", "1"]) == 2
    assert "Doodle China: Shanghai is for 2 to 5" in capsys.readouterr().err
    assert main(["bot", "--level", "genius"]) == 2


def test_templates_are_the_grids_long_roads_and_a_closed_loop_is_off_all_of_them():
    from doodlebox.coach.board import templates
    from doodlebox.rules.dice.roads import SIDES
    t = templates(5)
    assert t is not None and t.count == 4324 and templates(6) is None
    empty = [0] * 25
    lv = t.levels(empty)
    assert lv[0] == t.all
    loop = empty[:]
    for i, piece in ((0, "ES"), (1, "SW"), (5, "NE"), (6, "NW")):     # a 2x2 loop: no path holds it
        loop[i] = SIDES[piece]
    lv = t.levels(loop)
    assert lv[0] == 0 and lv[1]
    two = empty[:]
    two[0], two[1] = loop[0], loop[1]
    assert t.levels(two)[0]                # two squares of it still fit a long road
    for bits in SIDES.values():            # after() agrees with levels() of the sheet drawn
        drawn = two[:]
        drawn[5] = bits
        full = t.levels(drawn)
        best = next(k for k, x in enumerate(full) if x)
        assert t.after(t.levels(two), 5, bits) == (best, full[best].bit_count())


def test_the_plan_policys_future_made_piece_by_piece_is_the_future_made_afresh():
    from doodlebox.coach.board import board
    from doodlebox.coach.policy import PlanPolicy, _Net
    from doodlebox.rules.dice.roads import SIDES
    pol = PlanPolicy()
    for seed in (1, 2):
        state = midgame("city", 1, seed=seed, turns=6 * seed)
        sheet = state.sheets[0]
        b = board(state.game)
        net = _Net(b, sheet.pieces, sheet.crossed)
        for i in range(25):
            if sheet.pieces[i]:
                continue
            for bits in SIDES.values():
                after = sheet.pieces[:]
                after[i] = bits
                joined, merged = net.draw(b, i, bits)
                assert pol._estimate(state, b, net, sheet.circled, state.bonus_owner, i, joined, merged) == \
                    pol.future(state, b, after, sheet.crossed, sheet.circled, state.bonus_owner)


def test_on_one_playout_the_search_plays_the_policys_own_move():
    from doodlebox.coach.policy import policy_for
    for seed in (3, 4, 5):
        state = midgame("city", 1, seed=seed)
        own = policy_for(state)(state.clone(), random.Random(0))
        evals = search.evaluate(state, rng=random.Random(seed), playouts=1)
        assert evals[0].action == own
        assert all(e.value <= evals[0].value for e in evals)


def test_with_a_time_budget_only_the_policys_best_actions_are_played_out():
    state = midgame("city", 1, seed=5)
    rng = random.Random(5)
    while state.phase != "turn" or len(state.legal_actions()) <= search.SCREEN * 6:   # a 6 opens a row...
        state.apply(state.sample_chance(rng) if state.is_chance_node() else DicePolicy()(state, rng))
    evals = search.evaluate(state, budget_s=0.05, rng=random.Random(3), policy=DicePolicy())
    assert len(evals) == len(state.legal_actions())
    played = [e for e in evals if e.playouts]
    assert len({(e.action.row, e.action.col, e.action.piece) for e in played}) <= search.SCREEN
    assert all(e.value <= evals[0].value for e in evals) and evals[0].playouts > 0


@pytest.mark.parametrize("edition,players", [("suzhou", 1), ("treasures", 2), ("city", 3)])
def test_the_plan_policy_plays_whole_games_of_the_5x5_editions(edition, players):
    game = bots.play(edition, ["greedy"] * players, 11, 0.0)      # bots.play checks every move
    assert len(game.totals) == players and max(game.totals) > 0


def test_halving_keeps_the_better_half_and_the_policys_own_plan_and_may_leave_it():
    state = midgame("city", 1, seed=3)
    plans = search._plans(state, 0, state.legal_actions()[:4])[:4]
    worth = {id(p): float(k) for k, p in enumerate(plans)}      # plan k always ends on k points

    def play(plan):
        plan.values.append(worth[id(plan)])
        plan.points.append(worth[id(plan)])

    default = plans[0]                                          # the policy's plan: the worst here
    alive = list(plans)
    search._halve(alive, play, search.time.perf_counter() + 0.02, default)
    assert {id(p) for p in alive} == {id(plans[3]), id(default)}
    evals = search._report(plans, [p.actions[0] for p in plans], default)
    assert evals[0].action == plans[3].actions[0]               # sure by every playout: no doubt left
    assert all(e.value <= evals[0].value for e in evals)


@pytest.mark.parametrize("edition", ["city", "suzhou", "treasures"])
def test_the_fast_simulation_agrees_with_the_engine_on_random_and_greedy_games(edition):
    """sim_.Sim beside the engine on the same dice: the same legal moves (in the engine's order)
    at every turn, the same values to circle, the same end, the same final score."""
    from doodlebox.coach import sim as sim_
    from doodlebox.coach.policy import PlanPolicy
    game = find_game(edition).new_game(1)
    pol = PlanPolicy()
    ended = set()
    for seed in range(24):
        rng = random.Random(seed)
        state = game.new_state()
        while seed % 2 and state.is_chance_node():      # half of them from the start roads on
            state.apply(state.sample_chance(rng))
        sim = sim_.Sim.of(state)
        assert sim is not None
        greedy = seed % 3 == 0
        while not state.is_terminal():
            if state.is_chance_node():
                before = rng.getstate()
                state.apply(state.sample_chance(rng))
                rng.setstate(before)
                sim.roll(rng)              # the same draws from the same Random as sample_chance
                continue
            if state.phase == "turn":
                moves = sim.legal()
                assert [sim_.action(sim, m) for m in moves] == state.legal_actions()
                assert [sim_.move_of(state, a) for a in state.legal_actions()] == moves
                a = pol(state, rng) if greedy else sim_.action(sim, rng.choice(moves))
                state.apply(a)
                sim.play(sim_.move_of(state, a))
            else:
                assert sim.phase == sim_.CIRCLE
                assert [circle(v) for v in reversed(sim.pend[1])] == state.legal_actions()
                c = pol(state, rng) if greedy else rng.choice(state.legal_actions())
                state.apply(c)
                sim.circle(c.value)
            assert (sim.phase == sim_.OVER) == state.is_terminal()
            assert sim.score() == state.scores()[0]      # scores() at any time, not only at the end
        ended.update(state.ending)
    assert "trees" in ended and ended & {"hotel", "shop"}     # ended on the last tree, and on a top value


def test_the_fast_plan_policy_chooses_and_plays_out_as_the_plan_policy():
    """FastPlan (fast.py) is PlanPolicy on a Sim: the same move at every turn of greedy games, and
    a playout on the Sim ends with the engine playout's totals on the same dice."""
    from doodlebox.coach import fast
    from doodlebox.coach.policy import PlanPolicy
    game = find_game("city").new_game(1)
    pol = PlanPolicy()
    quick = fast.FastPolicy()
    turns = 0
    for seed in range(8):
        rng = random.Random(seed)
        state = game.new_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply(state.sample_chance(rng))
                continue
            a = pol(state, rng)
            assert quick(state, rng) == a
            if state.phase == "turn":
                legal = state.legal_actions()
                assert quick.scores(state, legal) == pol.scores(state, legal)
                turns += 1
            if turns % 5 == 0:
                engine = state.clone()
                rolls = random.Random(turns)
                while not engine.is_terminal():          # the engine's own playout, move by move
                    engine.apply(engine.sample_chance(rolls) if engine.is_chance_node() else pol(engine, rolls))
                assert fast.simulate_plan(pol, state.clone(), random.Random(turns)) == engine.scores()
            state.apply(a)
    assert turns > 100


def test_the_linear_policy_with_the_plan_policys_weights_scores_as_the_plan_policy():
    """linear.py's features weighted by PLAN_THETA are PlanPolicy's score (to rounding)."""
    from doodlebox.coach import fast
    from doodlebox.coach import sim as sim_
    from doodlebox.coach.linear import PLAN_THETA, LinearPlan
    plan, lin = fast.FastPlan(), LinearPlan(PLAN_THETA)
    checked = 0
    for seed in range(4):
        rng = random.Random(seed)
        sim = sim_.Sim.of(find_game("city").new_game(1).new_state())
        while sim.phase != sim_.OVER:
            if sim.phase in (sim_.START, sim_.ROLL):
                sim.roll(rng)
            elif sim.phase == sim_.CIRCLE:
                sim.circle(plan.circle_value(sim))
            else:
                legal = sim.legal()
                want, got = plan.scores(sim, legal), lin.scores(sim, legal)
                assert got == pytest.approx(want, abs=1e-9)
                checked += len(legal)
                sim.play(legal[want.index(max(want))])
    assert checked > 500


def test_the_greedy_level_plays_the_linear_policy_solo_and_the_plan_policy_with_others():
    from doodlebox.coach import levels
    from doodlebox.coach import sim as sim_
    from doodlebox.coach.linear import LinearPlan
    from doodlebox.coach.policy import PlanPolicy
    for seed in (3, 4, 5):
        solo = midgame("city", 1, seed=seed)
        sim = sim_.Sim.of(solo)
        assert sim is not None
        legal = sim.legal()
        assert levels.level("greedy").choose(solo, random.Random(0), 0.0) == \
            sim_.action(sim, LinearPlan().choose(sim, legal))
        duo = midgame("city", 2, seed=seed)
        assert levels.level("greedy").choose(duo, random.Random(0), 0.0) == PlanPolicy()(duo, None)
    assert bots.play("city", ["greedy", "greedy"], 11, 0.0).totals[0] > 0   # bots.play checks every move
