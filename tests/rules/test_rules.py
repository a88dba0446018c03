"""The rules engine of the dice editions: layouts, rulings and refusals (the random playouts
and record round trips of every game are test_game_api.py). Golden games scored by hand are in test_golden_*.py."""
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from doodlebox.rules.dice import engine, layout, scoring
from doodlebox.rules.dice.engine import PASS, Action, IllegalAction, draw

EDITIONS = list(layout.DEFAULT_FILES)


def started(edition, players=3, variant="", faces=(1, 2, 3, 4, 5, 6), roll=None):
    lay = layout.load(edition)
    s = engine.Game(lay, players, variant).new_state()
    for f in faces[:lay.size]:
        s.apply(Action("start", f))
    if roll:
        s.apply(Action("roll", roll[0], whites=tuple(roll[1])))
    return s


# -- the default layouts --------------------------------------------------------------------
@pytest.mark.parametrize("edition", EDITIONS)
def test_default_layouts_agree_with_the_rulebooks(edition):
    lay = layout.load(edition)
    assert lay.reconstructed, "a reconstructed sheet says so"
    assert len(lay.starts()) == lay.size and sorted(s.col for s in lay.starts()) == list(range(1, lay.size + 1))
    if lay.ruleset == "5x5":
        assert lay.size == 5 and lay.tree_points == 4 and lay.bonuses == (3, 5, 7, 10)
        assert max(lay.tracks["hotel"].values) == 15 == lay.end["hotel"]
        assert max(lay.tracks["shop"].values) == 10 == lay.end["shop"]
        houses = [s for s in lay.squares if s.kind == "house"]
        assert all(s.start for s in houses) and len(houses) == 5  # "the green house squares"
        assert all(s.houses - s.precrossed == 2 and 1 <= s.precrossed <= 2 for s in houses)
        assert sum(s.houses for s in houses) >= 16  # Shopping Spree can be earned (R17)
        hotels = sorted(lay.tracks["hotel"].values)[-sum(1 for s in lay.squares if s.kind == "hotel"):]
        assert sum(hotels) >= 42  # Hotel Magnate
        shops = sorted(lay.tracks["shop"].values)[-sum(1 for s in lay.squares if s.kind == "shop"):]
        assert sum(shops) + sum(lay.bonuses) >= 74  # Capitalist
        assert [r[0] for r in lay.solo.ranks] == [0, 30, 50, 70, 90, 105, 120]
        assert len(lay.solo.achievements) == 5
    else:
        assert lay.size == 6 and lay.trees == 12 and lay.tree_points == 7 and lay.solo is None
        assert lay.end == {"hotel": 18, "skyscraper": 18}
        assert all(t.shared for t in lay.tracks.values())
        assert all(s.kind == "park" for s in lay.starts())
        assert all(s.floors == 2 for s in lay.squares if s.kind == "skyscraper") and lay.extra_floors == 2


def test_layout_check_lists_every_problem_with_its_place():
    data = json.loads(layout.default_path("city").read_text())
    data["size"] = 5
    data["squares"][0]["at"] = [9, 1]
    data["squares"][1]["kind"] = "castle"
    data["tracks"]["hotel"]["values"] = [3, 2]
    data["legend"]["4"] = "XX"
    problems = dict(layout.check(data))
    assert "off the 5x5 grid" in problems["squares[0].at"]
    assert "castle" in problems["squares[1].kind"]
    assert "ascending" in problems["tracks.hotel.values"]
    assert "XX" in problems["legend.4"]
    assert len(layout.check(data)) >= 4
    assert layout.check(json.loads(layout.default_path("monsters").read_text())) == []


# -- rulings and refusals -------------------------------------------------------------------
def test_white_dice_one_more_than_players_three_solo_and_no_solo_in_6x6():  # R1, R16
    assert engine.Game(layout.load("city"), 4).whites == 5
    assert engine.Game(layout.load("treasures"), 1).whites == 3
    with pytest.raises(ValueError, match="no solo"):
        engine.Game(layout.load("shanghai"), 1)
    with pytest.raises(ValueError, match="More control"):
        engine.Game(layout.load("monsters"), 2, "control")


def test_a_taken_die_and_a_drawn_square_are_refused_with_the_rulebook_sentence():
    s = started("city", roll=(2, [1, 1, 4, 5]))
    s.apply(draw(1, 1, 2, "EW"))
    with pytest.raises(IllegalAction) as exc:
        s.apply(draw(1, 1, 2, "NS"))
    assert exc.value.rule == "taken" and "No other player" in exc.value.sentence
    assert "die 2: draw at [1, 2]" in exc.value.legal
    s.apply(draw(2, 1, 2, "NS"))  # the second 1 is free: the same square on P2's sheet
    assert s.sheets[1].pieces[1]


def test_house_square_takes_two_crosses_and_no_piece():
    s = started("city", players=1, roll=(1, [3, 3, 3]))  # [3, 1] is a house (start) square
    with pytest.raises(IllegalAction) as exc:
        s.apply(draw(1, 3, 1, "NS"))
    assert exc.value.rule == "house"
    s.apply(Action("house", 1, 3, 1))
    assert s.sheets[0].crossed[10] == 3  # 2 printed + 1
    s.apply(Action("roll", 1, whites=(3, 3, 3)))
    s.apply(Action("house", 2, 3, 1))
    s.apply(Action("roll", 1, whites=(3, 3, 3)))
    assert s.legal_actions() == [PASS]  # every die points to a full house square: forced (R5)
    s.apply(PASS)
    assert s.sheets[0].trees == 1


def test_pass_needs_more_control_in_5x5_and_a_tree_always():  # R8, R24
    s = started("city", roll=(2, [1, 2, 4, 5]))
    with pytest.raises(IllegalAction) as exc:
        s.apply(PASS)
    assert exc.value.rule == "must_take"
    c = started("city", variant="control", roll=(2, [1, 2, 4, 5]))
    c.apply(PASS)
    assert c.sheets[0].trees == 1
    m = started("monsters", roll=(2, [1, 2, 4, 5]))
    m.sheets[0].trees = 12
    with pytest.raises(IllegalAction) as exc:
        m.apply(PASS)
    assert exc.value.rule == "no_tree"


def test_sixes_in_5x5(): # R2, R3, R4
    s = started("city", roll=(2, [6, 1, 1, 1]))
    squares = {(a.row, a.col) for a in s.legal_actions() if a.die == 1}
    assert squares == {(r, 2) for r in range(1, 6)}  # the white 6: any square of the blue column
    assert {(a.row, a.col) for a in s.legal_actions() if a.die == 1 and a.kind == "house"} == {(5, 2)}
    s.apply(draw(1, 4, 2, "NS"))
    assert s.sheets[0].trees == 1
    b = started("city", roll=(6, [2, 6, 1, 1]))
    assert {(a.row, a.col) for a in b.legal_actions() if a.die == 1} == {(2, c) for c in range(1, 6)}
    assert len({(a.row, a.col) for a in b.legal_actions() if a.die == 2}) == 25
    b.sheets[0].trees = 10
    with pytest.raises(IllegalAction) as exc:
        b.apply(draw(2, 1, 1, "NS"))
    assert exc.value.rule == "six_tree"
    with pytest.raises(IllegalAction) as exc:
        b.apply(draw(1, 3, 1, "NS"))
    assert exc.value.rule == "six_square"


def test_six_is_a_plain_number_in_6x6():
    s = started("shanghai", roll=(6, [6, 1, 2, 3]))
    assert {(a.row, a.col) for a in s.legal_actions() if a.die == 1} == {(6, 6)}


def test_park_costs_a_tree_then_any_square_of_its_row():  # Shanghai, R14
    s = started("shanghai", roll=(1, [4, 1, 1, 1]))  # [4, 1] is a park
    acts = [a for a in s.legal_actions() if a.die == 1]
    assert {(a.row, a.col) for a in acts} == {(4, c) for c in (2, 3, 4, 5, 6)} and all(a.via == (4, 1) for a in acts)
    s.apply(draw(1, 4, 3, "EW", via=(4, 1)))
    assert s.sheets[0].trees == 1
    with pytest.raises(IllegalAction) as exc:
        s.apply(draw(2, 4, 3, "EW"))
    assert exc.value.rule == "square"


def test_breaker_costs_a_barrel_then_any_square():  # Sea of Monsters, R15
    s = started("monsters", roll=(1, [4, 4, 1, 1]))
    acts = {(a.row, a.col) for a in s.legal_actions() if a.die == 1}
    assert len(acts) == 36 - 6  # every square but the breakers (they hold the start routes)
    s.apply(draw(1, 6, 6, "NS", via=(4, 1)))
    assert s.sheets[0].barrels == 1 and s.sheets[0].trees == 0
    s.sheets[1].barrels = 6
    with pytest.raises(IllegalAction) as exc:
        s.apply(draw(2, 1, 1, "NS", via=(4, 1)))
    assert exc.value.rule == "park_barrel"


def test_skyscraper_two_floors_then_the_road_scores_floors_times_parks():  # R13, R20
    # Shanghai column 4: park [1, 4] (start road face 2 = NS), plain [2, 4] and [3, 4],
    # sky scraper [4, 4] with 2 printed floors, plain [5, 4]
    s = started("shanghai", players=2, faces=(1, 1, 1, 2, 1, 1))

    def rnd(*whites):
        s.apply(Action("roll", 4, whites=whites))

    rnd(2, 4, 1)
    s.apply(draw(1, 2, 4, "NS"))          # P1
    s.apply(Action("floor", 2, 4, 4))     # P2: 3 floors
    rnd(3, 4, 5)
    s.apply(draw(3, 5, 4, "NS"))          # P2 starts round 2
    s.apply(draw(1, 3, 4, "NS"))          # P1: park - [2,4] - [3,4] joined
    rnd(4, 4, 5)
    s.apply(Action("floor", 1, 4, 4))     # P1: 3 floors
    s.apply(Action("floor", 2, 4, 4))     # P2: 4 floors, both extra floors used
    rnd(4, 4, 6)
    with pytest.raises(IllegalAction) as exc:
        s.apply(Action("floor", 1, 4, 4))  # P2's third time
    assert exc.value.rule == "third_time" and "third time" in exc.value.sentence
    s.apply(draw(1, 4, 4, "NS"))          # P2: joined to [5, 4] only, no park: worth 0
    assert (s.sheets[1].scored[-1].worth, s.sheets[1].scored[-1].value) == (0, 0)
    s.apply(Action("floor", 2, 4, 4))     # P1: 4 floors
    rnd(4, 1, 1)
    s.apply(draw(1, 4, 4, "NS"))          # P1: 4 floors x 1 park
    assert s.legal_actions() == [engine.circle(v) for v in (4, 3, 2, 1)]   # R10: P1 chooses
    s.apply(engine.circle(4))
    p1 = s.sheets[0].scored[-1]
    assert (p1.track, p1.at, p1.worth, p1.value) == ("skyscraper", (4, 4), 4, 4)
    assert s.sheets[1].struck["skyscraper"] == {4}  # shared track


def test_loop_length_counts_each_square_once():  # R12
    s = started("city", players=1, faces=(3, 3, 3, 3, 3))
    sheet = s.sheets[0]
    from doodlebox.rules.dice import roads
    g = s.game
    for (r, c), p in {(1, 1): "ES", (1, 2): "SW", (2, 1): "NE", (2, 2): "NW"}.items():
        sheet.pieces[(r - 1) * 5 + c - 1] = roads.SIDES[p]
    assert len(roads.road(sheet.pieces, g.nbs, 0)) == 4


def test_circling_takes_the_highest_free_value_and_shared_values_are_struck():  # R10
    s = started("shanghai", players=3)
    s.phase = "turn"
    s.round, s.white, s.taken = 1, (1, 1, 1, 1), [-1] * 4
    assert s._circle(0, "hotel", 7) == 7
    assert s._circle(1, "hotel", 7) == 6  # the Frank example
    assert s.sheets[2].struck["hotel"] == {6, 7}
    assert s._circle(2, "hotel", 0) == 0


def test_a_lower_value_may_be_circled_and_the_record_says_so():  # R10
    # City, start faces [2,2,1,1,2]: (1,3) is a house square with 2 houses pre-crossed and the
    # start road EW. Ann takes die 1 (row 1, column 2): the shop (1,2); EW joins it to (1,3):
    # 2 crossed houses, so 2 or 1 may be circled. She circles 1. Ben draws on the taxi (3,2).
    from doodlebox.rules.dice import record, report

    rec = {"format": "doodlebox-record/1", "edition": "city", "players": ["Ann", "Ben"],
           "start": [2, 2, 1, 1, 2],
           "rounds": [{"roll": {"column": 2, "white": [1, 3, 4]},
                       "turns": [{"die": 1, "at": [1, 2], "piece": "EW", "circle": 1},
                                 {"die": 2, "at": [3, 2], "piece": "NS", "circle": 0}]}]}
    s = started("city", players=2, faces=(2, 2, 1, 1, 2), roll=(2, [1, 3, 4]))
    s.apply(draw(1, 1, 2, "EW"))
    assert (s.phase, s.current_player(), s.legal_actions()) == ("circle", 0, [engine.circle(2), engine.circle(1)])
    assert s.legal_actions(1) == [] and s.legal_text() == ["circle 2", "circle 1"]
    for bad, why in ((engine.circle(3), "above what the shop at [1, 2] is worth (2)"),
                     (draw(2, 3, 2, "NS"), "P1 first circles a value for the shop at [1, 2] (2 or 1)")):
        with pytest.raises(IllegalAction) as exc:
            s.apply(bad)
        assert exc.value.rule == "circle" and why in exc.value.reason and "lower" in exc.value.sentence
    s.apply(engine.circle(1))
    assert s.sheets[0].circled["shop"] == [1] and (s.phase, s.current_player()) == ("turn", 1)
    with pytest.raises(IllegalAction, match="no value to circle now"):
        s.apply(engine.circle(1))

    rp = record.replay(record.parse(json.loads(json.dumps(rec)), "circle.json"))
    assert rp.violations == []
    item = rp.state.sheets[0].scored[0]
    assert (item.track, item.worth, item.value, item.top) == ("shop", 2, 1, 2)
    assert "shop at [1, 2], 2 houses: circled 1" in report.sheets_text(rp)
    assert [str(a) for _, a in rp.state.history][-3:] == ["die 1 at [1, 2] EW", "circle 1", "die 2 at [3, 2] NS"]
    again = rp.state.game.new_state()          # the replay's history is the game: played again, the same
    for _, a in rp.state.history:
        again.apply(a)
    assert again.sheets[0].scored == rp.state.sheets[0].scored and again.scores() == rp.state.scores()
    written = record.from_state(rp.state, ["Ann", "Ben"])
    assert written["rounds"][0]["turns"] == [{"die": 1, "at": [1, 2], "piece": "EW", "circle": 1},
                                             {"die": 2, "at": [3, 2], "piece": "NS"}]
    assert record.from_state(s, ["Ann", "Ben"])["rounds"][0]["turns"][0]["circle"] == 1  # played on the engine

    del rec["rounds"][0]["turns"][0]["circle"]                       # without it, the highest
    rp = record.replay(record.parse(rec, "circle.json"))
    assert rp.violations == [] and rp.state.sheets[0].circled["shop"] == [2]
    assert "circle" not in record.from_state(rp.state, ["Ann", "Ben"])["rounds"][0]["turns"][0]

    rec["rounds"][0]["turns"][0]["circle"] = 3                        # not a value the shop reaches
    rec["rounds"][0]["turns"][1]["circle"] = 4                        # a taxi circles nothing
    rp = record.replay(record.parse(rec, "circle.json"))
    assert [(v.player, v.turn, v.rule) for v in rp.violations] == [(0, 1, "circle"), (1, 2, "circle")]
    first, second = rp.violations
    assert first.action == "die 1 at [1, 2] EW, circle 3" and "3 is above" in first.reason
    assert first.legal == ["circle 2", "circle 1"] and "circles nothing" in second.reason
    assert rp.state.sheets[0].circled["shop"] == [2]                 # the highest, so the game goes on

    rec["rounds"][0]["turns"][1]["circle"] = -1
    with pytest.raises(record.RecordError, match=r"rounds\[0\]\.turns\[1\]\.circle: -1 is not between 0 and 99"):
        record.parse(rec, "circle.json")


def test_a_value_another_player_circled_is_crossed_out():  # R10 on a shared track (6x6)
    s = started("shanghai", players=2, roll=(1, [1, 1, 1]))
    s._take(1, "hotel", 7)
    s.pending, s.phase = engine.Pending(0, 0, 7, 0, (3, 4, 5, 6)), "circle"
    assert s.legal_actions() == [engine.circle(v) for v in (6, 5, 4, 3)]
    with pytest.raises(IllegalAction, match=r"7 is crossed out: P2 circled it; .* may circle 6, 5, 4 or 3"):
        s.check(engine.circle(7))
    s.apply(engine.circle(5))
    assert s.sheets[1].struck["hotel"] == {5} and s.sheets[0].scored[-1].value == 5


def test_bonus_by_circled_value_one_per_shop():  # R11: the rulebook's two examples
    s = started("city", players=2)
    assert s._bonus(0, 8) == 7
    assert s._bonus(1, 9) == 5
    assert s.sheets[1].struck_bonuses == {7} and s.sheets[0].struck_bonuses == {5}


def test_trees_tie_for_everyone_is_plus_and_minus():  # R18
    s = started("city", players=3)
    res = scoring.score(s)
    assert all(("fewest trees crossed (0)", 4) in ss.items and ("most trees crossed (0)", -4) in ss.items
               for ss in res.sheets)
    s.sheets[0].trees = 2
    res = scoring.score(s)
    assert res.sheets[0].total == -4 and res.sheets[1].total == 4 and res.sheets[2].total == 4
    assert res.winners == [1, 2] and "shared" in res.tie_break


# -- random playouts --------------------------------------------------------------------------
def test_clone_is_independent():
    s = started("monsters", roll=(2, [1, 2, 3, 4]))
    c = s.clone()
    c.apply(draw(1, 1, 2, "NS"))
    assert not s.sheets[0].pieces[1] and c.sheets[0].pieces[1]
    assert s.taken == [-1] * 4


# -- the fast check agrees with the list of legal actions ----------------------------------------
def _nearby(s, rng):
    """Actions near the legal ones: every die, squares around, every piece, floors, houses,
    with and without a park (breaker)."""
    n = s.game.n
    out = [PASS]
    for _ in range(40):
        die = rng.randint(0, len(s.white) + 1)
        r, c = rng.randint(0, n + 1), rng.randint(0, n + 1)
        via = rng.choice([None, None, (rng.randint(1, n), rng.randint(1, n)),
                          (s.white[die - 1], s.column) if 1 <= die <= len(s.white) else None])
        kind = rng.choice(["draw", "draw", "house", "floor"])
        piece = rng.choice(["NS", "EW", "NE", "ES", "SW", "NW", "XX"]) if kind == "draw" else ""
        out.append(Action(kind, die, r, c, piece, via))
    return out


@pytest.mark.slow
@pytest.mark.parametrize("edition", EDITIONS)
@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 5))
def test_check_refuses_exactly_what_legal_actions_leaves_out(edition, seed, players):
    import random

    rng = random.Random(seed)
    s = engine.Game(layout.load(edition), players).new_state()
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply(s.sample_chance(rng))
            continue
        legal = s.legal_actions()
        for a in legal + _nearby(s, rng):
            try:
                s.check(a)
                ok = True
            except IllegalAction:
                ok = False
            assert ok == (a in legal), a
        s.apply(rng.choice(legal))
