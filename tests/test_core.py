"""The firmware core under CPython: round flow, refusals, trees, game end, journal, frames."""
import json
import random
from pathlib import Path

import pytest

from doodle import city, link
from doodle.app import App
from doodle.journal import Journal
from doodle.layouts import LAYOUTS

VECTORS = json.loads((Path(__file__).parent / "vectors" / "frames.json").read_text())
LAYOUT = LAYOUTS["city"]


def new_game(players=3, variant=""):
    events = []
    g = city.Game(LAYOUT, players, variant, 1, random.Random(1).randrange, events.append)
    for d in (1, 2, 3, 4, 5):
        g.roll(d, ())
    return g, events


def test_setup_rolls_start_roads_column_by_column():
    g, events = new_game()
    assert [e["col"] for e in events if e["k"] == "start"] == [1, 2, 3, 4, 5]
    houses = {(r, c): n for r, c, n in LAYOUT[3]}
    for sheet in g.sheets:
        for row, col in LAYOUT[2]:  # the start roads go into the house squares ...
            assert sheet.road[(row - 1) * 5 + col - 1]
            assert houses[(row, col)] == 2 and sheet.can_draw(row, col)  # ... which keep their houses
    assert g.phase == city.READY


def test_one_white_die_more_than_players_and_three_for_solo():
    assert new_game(3)[0].whites == 4
    solo, events = new_game(1)
    assert solo.whites == 3 and events[0]["var"] == "solo"


def test_claims_go_clockwise_and_a_taken_die_is_refused():
    g, events = new_game()
    g.roll(2, [1, 2, 4, 5])
    assert g.take(1) is None and events[-1]["p"] == 0
    assert g.take(1) == city.TAKEN and events[-1] == {"k": "refuse", "g": 1, "r": 1, "p": 1, "i": 1, "why": "taken"}
    assert g.take(2) is None and events[-1]["p"] == 1
    assert g.take(3) is None
    assert g.phase == city.READY and g.start_player == 1


PLAIN = (4, 1)  # a square with no house in the default City sheet


def test_a_die_pointing_to_a_drawn_square_is_refused():
    g, _ = new_game()
    r, c = PLAIN
    g.roll(c, [r, r, 2, 5])
    assert g.take(1) is None           # P1 draws there
    g.take(3), g.take(4)
    g.roll(c, [r, r, 2, 5])            # round 2: P2 starts, P3, then P1
    g.take(1), g.take(3)
    assert g.take(2) == city.NOSQUARE  # P1 has drawn there already


def test_house_square_takes_two_crosses_then_refuses():
    g, _ = new_game(1)
    r, c, n = LAYOUT[3][0]
    for _ in range(n):
        g.roll(c, [r, r, r])
        assert g.take(1) is None
    g.roll(c, [r, r, r])
    assert g.take(1) == city.NOSQUARE


def test_pass_refused_while_a_die_fits_unless_more_control():
    g, _events = new_game()
    g.roll(2, [1, 2, 4, 5])
    assert g.pass_turn() == city.CANPLAY
    g2, events2 = new_game(variant="control")
    g2.roll(2, [1, 2, 4, 5])
    assert g2.pass_turn() is None and events2[-1]["why"] == "pass"
    assert g2.sheets[0].trees == LAYOUT[1] - 1


def test_white_six_crosses_a_tree_and_asks_for_the_row():
    g, events = new_game()
    g.roll(2, [6, 1, 3, 4])
    assert g.take(1) is None and g.choosing() == "row"
    g.sheets[0].draw(1, 2)
    assert g.choose(1) == city.SQUARE
    free = g.sheets[0].free_in_col(2)[0]
    assert g.choose(free) is None
    assert events[-1] == {"k": "claim", "g": 1, "r": 1, "p": 0, "i": 1, "d": 6, "row": free, "col": 2}
    assert g.sheets[0].trees == LAYOUT[1] - 1


def test_column_six_asks_for_the_column_and_pass_cancels():
    g, events = new_game()
    g.roll(6, [1, 2, 3, 4])
    assert g.take(2) is None and g.choosing() == "col"
    assert g.pass_turn() is None and g.phase == city.CLAIM and g.current() == 0
    assert g.take(2) is None and g.choose(g.sheets[0].free_in_row(2)[0]) is None
    assert events[-1]["k"] == "claim" and events[-1]["row"] == 2


def test_white_six_needs_a_tree_left():  # docs/rulings.md R3
    g, events = new_game()
    g.sheets[0].trees = 0
    g.roll(2, [6, 1, 3, 4])
    assert g.take(1) == city.NOTREE
    assert events[-1]["why"] == "notree" and g.current() == 0


def test_blue_six_and_white_six_let_the_player_draw_anywhere():  # R4
    g, events = new_game()
    g.roll(6, [6, 1, 3, 4])
    assert g.take(1) is None and g.choosing() == "row"
    assert g.choose(5) is None and g.choosing() == "col"
    col = g.sheets[0].free_in_row(5)[-1]
    assert g.choose(col) is None
    assert events[-1] == {"k": "claim", "g": 1, "r": 1, "p": 0, "i": 1, "d": 6, "row": 5, "col": col}
    assert g.sheets[0].trees == LAYOUT[1] - 1


def test_no_die_fits_so_pass_crosses_a_tree():  # R5
    g, events = new_game(1)
    r, c = PLAIN
    g.sheets[0].draw(r, c)
    g.roll(c, [r, r, r])  # every die points to a square with a road
    assert g.forced(0)
    assert g.take(1) == city.NOSQUARE
    assert g.pass_turn() is None
    assert events[-1] == {"k": "tree", "g": 1, "r": 1, "p": 0, "why": "forced"}
    assert g.sheets[0].trees == LAYOUT[1] - 1 and g.phase == city.READY


def test_last_tree_ends_the_game_at_the_end_of_the_round():
    g, events = new_game(2, variant="control")
    for _ in range(LAYOUT[1]):
        g.roll(1, [2, 2, 2])
        g.pass_turn()          # player to act passes: a tree
        if g.phase == city.OVER:
            break
        g.pass_turn()
    assert g.phase == city.OVER
    assert events[-1]["k"] == "end" and events[-1]["why"] == "trees"
    kinds = [e["k"] for e in events]
    assert kinds.index("end") == len(kinds) - 1


def test_random_games_always_end_and_never_go_below_zero_trees():
    for seed in range(30):
        rng = random.Random(seed)
        players = rng.randint(1, 5)
        g, events = new_game(players, rng.choice(["", "control"]))
        steps = 0
        while g.phase != city.OVER:
            steps += 1
            assert steps < 5000
            if g.phase == city.READY:
                g.roll(rng.randint(1, 6), [rng.randint(1, 6) for _ in range(g.whites)])
            elif g.phase == city.CHOOSE:
                g.choose(rng.randint(1, 5))
            elif g.forced(g.current()) or rng.random() < 0.05:
                g.pass_turn()
            else:
                g.take(rng.randint(1, g.whites))
            assert all(s.trees >= 0 for s in g.sheets)
        assert events[-1]["k"] == "end"


def test_journal_acks_naks_and_resends():
    j = Journal(boot=3, capacity=4)
    for n in range(3):
        assert j.add({"k": "x", "n": n}) == n + 1
    assert len(j.pump(0)) == 3 and j.pump(10) == []
    assert len(j.pump(1000)) == 3 and j.resends == 1   # no ack within RESEND_MS: all again
    j.ack(2)
    assert j.first() == 3 and j.held() == 1
    j.rewind(3)
    assert len(j.pump(1001)) == 1
    for _ in range(3):
        j.add({})
    assert j.full()


def test_app_refuses_audibly_and_shows_why():
    app = App(random.Random(2).randrange, boot=1, uid="u")
    for b in ["D2", "ROLL"] + ["ROLL"] * 5 + ["ROLL"]:
        app.button(b, 0)
    app.tones()
    app.button("PASS", 10)
    assert app.tones() == ["refuse"]
    assert any(line.startswith("!") for line in app.screen())


@pytest.mark.parametrize("case", VECTORS["valid"], ids=lambda c: c["message"]["t"])
def test_firmware_frames_match_golden_vectors(case):
    msg = dict(case["message"])
    assert link.encode(dict(msg)) == case["frame"].encode()
    assert link.decode(case["frame"].encode()) == (msg, None)


@pytest.mark.parametrize("case", VECTORS["invalid"], ids=lambda c: c["name"])
def test_firmware_refuses_bad_lines_with_a_reason(case):
    msg, why = link.decode(case["line"].encode())
    assert msg is None and why.startswith(case["reason"])


def test_line_splitter_drops_overlong_lines_and_keeps_the_next():
    lines = link.Lines(limit=16)
    out = lines.feed(b"x" * 40 + b"\n@ok\n")
    assert out[0][0] is None and out[1] == (b"@ok", None)
