"""Doodle Puzzle: the role deal, the round flow, scoring, the variants, records and the CLI
(host/doodlebox/rules/puzzle/, docs/doodle-puzzle.md, rulings P1-P12). Golden games scored by
hand are in test_golden_puzzle.py."""
from __future__ import annotations

import json
import random
import re
from collections import Counter
from pathlib import Path

import invariants
import pytest
import randomplay
from cli_run import doodlebox
from randomplay import NAMES

from doodlebox.cli import main
from doodlebox.rules.common import RecordError
from doodlebox.rules.games import find_game
from doodlebox.rules.puzzle import engine as E
from doodlebox.rules.puzzle import record, report
from doodlebox.rules.puzzle import roles as R
from doodlebox.rules.puzzle.engine import (
    AGAIN,
    DECLINE,
    DONE,
    DRAWING_RAN,
    RIGHT,
    WRONG,
    Game,
    IllegalAction,
    card,
    challenge,
    deal,
    draw_on,
    drawing,
    erase,
    number,
    place,
)
from doodlebox.rules.puzzle.sentences import RULES, VERDICTS, sentence

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden"
COMBOS = [(n, v) for v in ("", "behave", "showdown") for n in range(3, 9) if not (v == "behave" and n == 8)]


# -- helpers --------------------------------------------------------------------------------------
def refused(state, action, rule, player=None) -> IllegalAction:
    with pytest.raises(IllegalAction) as exc:
        state.apply(action, player)
    assert exc.value.rule == rule, (exc.value.rule, exc.value.reason)
    assert exc.value.sentence and exc.value.reason
    return exc.value


def to_placing(roles, players=None, variant="", subjects="standard", n=1, c=1):
    """A state at Rearrange the Boards with the given deal."""
    s = Game(players or len(roles), variant, subjects).new_state()
    for a in (deal(roles), number(n), card(c), DRAWING_RAN):
        s.apply(a)
    return s


def place_all(s):
    while s.phase == E.PLACE:
        s.apply(s.legal_actions()[0])
    return s


# -- the deal (P1) --------------------------------------------------------------------------------
@pytest.mark.parametrize("n", range(3, 9))
def test_role_cards_always_hold_star_baddy_guessy_and_drawys_for_the_rest(n):
    cards = Counter(R.role_cards(n))
    assert cards == Counter({R.STAR: 1, R.BADDY: 1, R.GUESSY: 1, R.DRAWY: n - 3})
    deals = R.all_deals(n)
    assert len(deals) == len(set(deals)) == n * (n - 1) * (n - 2)
    assert all(not R.deal_problems(d, n) for d in deals)
    if n < 8:  # Behave: no Baddy, an extra Drawy
        assert Counter(R.role_cards(n, True)) == Counter({R.STAR: 1, R.GUESSY: 1, R.DRAWY: n - 2})
        assert len(R.all_deals(n, True)) == n * (n - 1)
    s = Game(n).new_state()
    outs = s.chance_outcomes()
    assert s.current_player() == E.CHANCE and abs(sum(p for _, p in outs) - 1) < 1e-9
    assert {a.roles for a, _ in outs} == set(deals)


def test_a_fresh_seeded_deal_each_round():
    a, b = R.dealer(7, 5), R.dealer(7, 5)
    first = [next(a) for _ in range(20)]
    assert first == [next(b) for _ in range(20)]
    assert len(set(first)) > 5 and all(d in R.all_deals(5) for d in first)
    rng = random.Random(1)
    assert all(R.BADDY not in R.deal(rng, 6, True) for _ in range(50))


@pytest.mark.parametrize("roles, behave, words", [
    (("star", "baddy", "baddy", "guessy"), False, ["2 Baddies instead of 1", "no Drawy"]),
    (("star", "star", "baddy", "guessy", "drawy"), False, ["2 star Drawys instead of 1"]),
    (("drawy", "drawy", "baddy", "guessy"), False, ["no star Drawy"]),
    (("star", "drawy", "baddy", "drawy"), False, ["no Guessy"]),
    (("star", "drawy", "baddy", "guessy"), True, ["Baddy, Please Behave has no Baddy"]),
])
def test_a_role_dealt_twice_or_missing_is_refused(roles, behave, words):
    s = Game(len(roles), "behave" if behave else "").new_state()
    exc = refused(s, deal(roles), "behave_roles" if behave else "roles")
    for w in words:
        assert w in exc.reason
    assert exc.legal == [f"deal {R.deal_text(len(roles), behave)}"]
    assert s.phase == E.DEAL and s.round == 0  # nothing changed


# -- Choose a Subject (P2) ----------------------------------------------------------------------------
def test_number_one_to_twelve_and_the_card_from_the_chosen_set():
    s = Game(4, subjects="beginner").new_state()
    s.apply(deal(("star", "drawy", "baddy", "guessy")))
    assert s.current_player() == 0 and s.legal_actions() == [number(n) for n in range(1, 13)]
    refused(s, number(0), "number")
    refused(s, number(13), "number")
    refused(s, number(5), "turn", player=1)
    s.apply(number(12), player=0)
    assert s.is_chance_node() and [a.value for a, _ in s.chance_outcomes()] == [1, 2, 3, 4, 5, 6]
    refused(s, card(7), "card")
    s.apply(card(6))
    t = Game(4, subjects="standard").new_state()
    for a in (deal(("star", "drawy", "baddy", "guessy")), number(1)):
        t.apply(a)
    assert len(t.chance_outcomes()) == 16
    refused(t, card(17), "card")
    t.apply(card(16))


def test_the_star_drawy_may_repeat_choose_a_subject_before_the_drawing():  # P2
    s = Game(3).new_state()
    for a in (deal(("guessy", "star", "baddy")), number(3), card(5)):
        s.apply(a)
    assert s.legal_actions() == [DRAWING_RAN, AGAIN]
    s.apply(AGAIN, player=1)
    assert s.phase == E.NUMBER and s.rejected == [(3, 5)]
    for a in (number(3), card(5), AGAIN, number(9), card(2), DRAWING_RAN):  # the same subject may come again
        s.apply(a)
    assert s.rejected == [(3, 5), (3, 5)] and (s.number, s.card) == (9, 2)
    refused(s, AGAIN, "order")  # the drawing has started


def test_a_paused_minute_is_the_time_it_ran():  # P12
    s = Game(3).new_state()
    for a in (deal(("star", "baddy", "guessy")), number(1), card(1)):
        s.apply(a)
    exc = refused(s, drawing((5000, 65000, 7000)), "minute")      # 53 s of drawing
    assert "lasted 53 s (paused 7 s), not one minute" in exc.reason
    s.apply(drawing((5000, 72500, 7000)))                           # 60.5 s of drawing
    assert s.phase == E.PLACE and s.timer == (5000, 72500, 7000)
    assert str(drawing((5000, 72500, 7000))) == "the drawing minute (60.5 s, paused 7 s)"
    timer = {"start_ms": 120400, "end_ms": 184410, "paused_ms": 4000}
    data = rec(3, rounds=[rnd(("star", "baddy", "guessy"), timer=timer)])
    assert violations(data)[0] == []
    assert record.from_state(violations(data)[1].state, NAMES[:3])["rounds"][0]["timer"] == timer
    data["rounds"][0]["timer"] = dict(timer, paused_ms=0)           # never paused: 64 s
    assert violations(data)[0] == [(1, 0, "minute")]
    assert record.from_state(violations(data)[1].state, NAMES[:3])["rounds"][0]["timer"] == {
        "start_ms": 120400, "end_ms": 184410}                       # a 0 is not written
    for bad, what in (({"paused_ms": -1}, "rounds[0].timer.paused_ms: -1 is not a time"),
                      ({"paused_ms": "4s"}, "rounds[0].timer.paused_ms: '4s' is not a whole number"),
                      ({"pause": 3}, 'rounds[0].timer.pause: unknown field "pause"')):
        data["rounds"][0]["timer"] = dict(timer, **bad)
        with pytest.raises(RecordError, match=re.escape(what)):
            record.parse(data, "t.json")


@pytest.mark.parametrize("ms, ok", [(60000, True), (59000, True), (61000, True), (58999, False), (61001, False),
                                    (0, False), (-60000, False), (120000, False)])
def test_the_drawing_lasts_one_minute_within_a_second(ms, ok):  # P3
    s = Game(3).new_state()
    for a in (deal(("star", "baddy", "guessy")), number(1), card(1)):
        s.apply(a)
    if ok:
        s.apply(drawing((5000, 5000 + ms)))
        assert s.phase == E.PLACE and s.timer == (5000, 5000 + ms)
    else:
        exc = refused(s, drawing((5000, 5000 + ms)), "minute")
        assert "not one minute" in exc.reason


# -- Rearrange the Boards (P4) ------------------------------------------------------------------------
def boards(roles):
    return [R.boards_each(roles).get(p, 0) for p in range(len(roles))]


def test_six_players_the_star_and_the_drawy_to_their_left_place_two_boards():
    # seats 0..5 clockwise; Baddy and Guessy anywhere: the next Drawy clockwise is "to their left"
    assert boards(("star", "drawy", "drawy", "drawy", "baddy", "guessy")) == [2, 2, 1, 1, 0, 0]
    assert boards(("drawy", "star", "baddy", "drawy", "guessy", "drawy")) == [1, 2, 0, 2, 0, 1]
    assert R.placing_order(("drawy", "star", "baddy", "drawy", "guessy", "drawy")) == [1, 3, 5, 0, 1, 3]
    for roles in R.all_deals(6):
        counts = sorted(R.boards_each(roles).values())
        assert counts == [1, 1, 2, 2]
        ds = R.drawys_clockwise(roles)
        assert R.boards_each(roles)[ds[0]] == R.boards_each(roles)[ds[1]] == 2


def test_seven_players_only_the_star_places_two_and_every_count_follows_the_rule():
    for roles in R.all_deals(7):
        each = R.boards_each(roles)
        star = roles.index("star")
        assert each[star] == 2 and all(v == 1 for p, v in each.items() if p != star)
    expected = {3: [6], 4: [3, 3], 5: [2, 2, 2], 6: [2, 2, 1, 1], 7: [2, 1, 1, 1, 1], 8: [1] * 6}
    for n, counts in expected.items():
        roles = tuple(R.role_cards(n))
        assert [R.boards_each(roles)[p] for p in R.drawys_clockwise(roles)] == counts
    behave = {3: [3, 3], 4: [2, 2, 2], 5: [2, 2, 1, 1], 6: [2, 1, 1, 1, 1], 7: [1] * 6}  # P4: by Drawys
    for n, counts in behave.items():
        roles = tuple(R.role_cards(n, True))
        assert [R.boards_each(roles)[p] for p in R.drawys_clockwise(roles)] == counts


def test_placing_out_of_turn_by_a_non_drawy_or_in_a_filled_slot_is_refused():
    s = to_placing(("drawy", "baddy", "star", "guessy", "drawy"))  # Drawys: 2, 4, 0
    assert s.placers == [2, 4, 0, 2, 4, 0] and s.current_player() == 2
    exc = refused(s, place(1), "place_turn", player=4)
    assert "P3's turn" in exc.reason and exc.legal == ["P3 places a board in slot 1, 2, 3, 4, 5, 6"]
    assert "only Drawys" in refused(s, place(1), "place_turn", player=1).reason
    refused(s, place(7), "slot")
    refused(s, place(0), "slot")
    s.apply(place(4), player=2)
    refused(s, place(4), "slot_twice", player=4)
    refused(s, erase(1), "order")
    for slot in (1, 2, 3, 5, 6):
        s.apply(place(slot))
    assert s.slots == [4, 0, 2, 2, 4, 0] and s.phase == E.MISCHIEF
    assert refused(s, place(2), "slot_twice").legal == ["no more boards: all 6 slots are filled"]


# -- Baddy's Mischief (P5) ------------------------------------------------------------------------------
def test_baddy_erases_and_draws_at_most_once_each_on_any_boards():
    s = place_all(to_placing(("star", "baddy", "guessy")))
    assert s.current_player() == 1 and len(s.legal_actions()) == 13
    refused(s, erase(7), "board")
    s.apply(erase(2), player=1)
    refused(s, erase(3), "baddy_once")
    assert s.legal_actions() == [draw_on(b) for b in range(1, 7)] + [DONE]
    s.apply(draw_on(2))  # the same board is allowed
    assert s.phase == E.GUESS
    refused(s, erase(5), "baddy_once")  # a third action
    refused(s, draw_on(5), "baddy_once")
    t = place_all(to_placing(("star", "baddy", "guessy")))
    t.apply(DONE)  # none at all
    assert t.phase == E.GUESS
    refused(t, erase(1), "order")


def test_behave_skips_the_mischief_and_refuses_any_sabotage():
    s = place_all(to_placing(("star", "drawy", "guessy"), variant="behave"))
    assert s.phase == E.GUESS
    for a in (erase(1), draw_on(2), DONE):
        refused(s, a, "behave_sabotage")


# -- scoring ---------------------------------------------------------------------------------------
def play_round(s, roles, right, sabotage=(), chal=None, n=1, c=1):
    for a in (deal(roles), number(n), card(c), DRAWING_RAN):
        s.apply(a)
    place_all(s)
    if s.phase == E.MISCHIEF:
        for a in sabotage:
            s.apply(a)
        if s.phase == E.MISCHIEF:
            s.apply(DONE)
    s.apply(RIGHT if right else WRONG)
    if s.phase == E.CHALLENGE:
        s.apply(challenge(chal) if chal else DECLINE)
    return s


def test_right_guess_checks_guessy_and_every_drawy_wrong_guess_checks_baddy():
    s = Game(5).new_state()
    roles = ("drawy", "star", "guessy", "baddy", "drawy")
    play_round(s, roles, True)
    assert [c.marks for c in s.cards] == [["check"], ["check"], ["check"], ["cross"], ["check"]]
    assert s.scores() == [2, 2, 2, 0, 2]
    play_round(s, roles, False)
    assert [c.marks[-1] for c in s.cards] == ["cross", "cross", "cross", "check", "cross"]
    assert s.scores() == [2, 2, 2, 2, 2]
    refused(s, challenge(1), "challenge_variant")
    for _ in range(3):
        play_round(s, roles, True)
    assert s.is_terminal() and s.scores() == [8, 8, 8, 2, 8]
    res = s.result()
    assert res.winners == [0, 1, 2, 4] and res.finished  # ties share the victory
    refused(s, deal(roles), "over")


def test_showdown_challenge_after_a_wrong_guess():  # P6
    roles = ("guessy", "star", "baddy", "drawy")
    s = Game(4, "showdown").new_state()
    play_round(s, roles, False, [erase(3), draw_on(5)], chal=5)  # the drawn-on board: won
    assert (s.cards[0].correct, s.cards[2].baddy) == (1, 1)
    play_round(s, roles, False, [erase(3)], chal=3)  # the erased board: won
    play_round(s, roles, False, [erase(3)], chal=4)  # not sabotaged: lost
    play_round(s, roles, False, [], chal=1)          # Q&A: nothing sabotaged, Guessy fails
    play_round(s, roles, False, [draw_on(6)])        # no challenge
    g, b = s.cards[0], s.cards[2]
    assert (g.correct, g.incorrect, g.baddy) == (2, 2, 0) and (b.correct, b.incorrect, b.baddy) == (0, 0, 2)
    assert [r.challenge_won for r in s.results] == [True, True, False, False, None]
    assert g.checks == 0 and b.checks == 5  # the challenge leaves the check marks as they were
    assert s.scores() == [0 + 2 - 2, 0, 10 - 2, 0] == invariants.puzzle_score(s)


def test_no_challenge_after_a_right_guess_or_outside_the_showdown():
    roles = ("guessy", "star", "baddy")
    s = Game(3, "showdown").new_state()
    play_round(s, roles, True, [erase(1)])
    assert s.phase == E.DEAL
    exc = refused(s, challenge(1), "challenge_right")
    assert "guessed right in round 1" in exc.reason
    s = place_all(to_placing(("guessy", "star", "baddy")))
    s.apply(DONE)
    s.apply(WRONG)
    refused(s, challenge(1), "challenge_variant")
    assert s.phase == E.DEAL


def test_the_printed_showdown_example_is_not_reproduced():  # P7
    # "3 slashes in the Guessy-correct box (+1), 1 slash in the Guessy-incorrect box (-1), and
    # 3 slashes in the Baddy box (-1), giving a total of 1": per slash, as the rule says, that is -1
    assert E.card_points(0, correct=3, incorrect=1, baddy=3) == 3 - 1 - 3 == -1
    assert E.card_points(2, correct=1) == 5
    # and no one can hold 7 slashes: at most one per round, five rounds (see tests/support/invariants.py)
    for seed in range(30):
        s = randomplay.random_game(find_game("puzzle"), seed, 3, "showdown")
        assert all(c.correct + c.incorrect + c.baddy <= 5 for c in s.cards)


def test_behave_keeps_one_shared_scorecard_and_gives_the_verdict():  # P8
    s = Game(4, "behave").new_state()
    roles = ("star", "drawy", "guessy", "drawy")
    for right in (True, False, True, True, False):
        play_round(s, roles, right)
    res = s.result()
    assert s.shared.marks == ["check", "cross", "check", "check", "cross"]
    assert res.totals == [6, 6, 6, 6] and res.winners == [] and res.verdict == VERDICTS[3]
    assert res.verdict.startswith("You've completed half the journey!")
    assert all(c.checks == 0 for c in s.cards)
    assert sorted(VERDICTS) == [0, 1, 2, 3, 4, 5]


def test_behave_not_with_8_players_nor_with_showdown():  # P9
    with pytest.raises(ValueError, match="8 players"):
        Game(8, "behave")
    with pytest.raises(ValueError, match="cannot be combined"):
        Game(5, "behave+showdown")
    with pytest.raises(ValueError, match="3 to 8"):
        Game(9)
    with pytest.raises(ValueError, match="not a variant"):
        Game(4, "solo")
    g = Game(8, ["behave", "showdown"], strict=False)
    assert [r for r, _ in g.problems] == ["behave_8", "behave_showdown"] and g.behave and not g.showdown


def test_every_rule_id_has_the_rulebooks_sentence():
    text = (Path("/work/shared/rulebooks/doodle-puzzle.txt").read_text()
            if Path("/work/shared/rulebooks/doodle-puzzle.txt").exists() else "")
    for rule in RULES:
        assert sentence(rule)
    if text:
        for v in VERDICTS.values():
            assert v in text
        for rule in ("behave_8", "behave_showdown", "baddy_once", "over", "number", "card"):
            assert sentence(rule).split(" (ruling")[0].strip(". ") in text.replace("\n", " ")


def test_clone_is_independent():
    s = to_placing(("star", "drawy", "baddy", "guessy"))
    c = s.clone()
    c.apply(place(1))
    assert s.slots == [-1] * 6 and c.slots[0] == 0 and len(c.history) == len(s.history) + 1
    place_all(c)
    c.apply(DONE)
    c.apply(RIGHT)
    assert s.scores() == [0, 0, 0, 0] and c.scores() == [2, 2, 0, 2] and not s.results


# -- records: violations with the variants ----------------------------------------------------------------
def rec(players=4, variant="", subjects="standard", rounds=()):
    return {"format": "doodlebox-record/1", "edition": "puzzle", "variant": variant, "subjects": subjects,
            "players": list(NAMES[:players]), "rounds": list(rounds)}


def rnd(roles, guess="right", **kw):
    order = R.placing_order(roles)
    out = {"roles": list(roles), "number": 1, "card": 1, "placements": [[p, i + 1] for i, p in enumerate(order)]}
    out.update(kw)
    if guess:
        out["guess"] = guess
    return out


def violations(data):
    rp = record.replay(record.parse(data, "t.json"))
    return [(v.round, v.player, v.rule) for v in rp.violations], rp


def test_behave_with_8_players_and_behave_with_showdown_are_reported_and_checked_as_behave():  # P9
    b8 = ("star",) + ("drawy",) * 6 + ("guessy",)
    got, rp = violations(rec(8, "behave", rounds=[rnd(b8)]))
    assert got == [(0, -1, "behave_8")] and rp.state.shared.marks == ["check"]
    got, rp = violations(rec(4, ["behave", "showdown"], rounds=[
        rnd(("star", "drawy", "guessy", "drawy"), "wrong", baddy={"erase": 2}, challenge=2),
        rnd(("star", "drawy", "baddy", "guessy"))]))
    assert got == [(0, -1, "behave_showdown"), (1, -1, "behave_sabotage"), (1, 2, "challenge_variant"),
                   (2, -1, "behave_roles")]
    assert rp.state.shared.marks == ["cross", ""] and [r.void for r in rp.state.results][1]


def test_a_challenge_after_a_right_guess_in_the_showdown():
    got, rp = violations(rec(3, "showdown", rounds=[
        rnd(("star", "baddy", "guessy"), "right", baddy={"draw": 1}, challenge=1),
        rnd(("star", "baddy", "guessy"), "wrong", baddy={"draw": 1}, challenge=1)]))
    assert got == [(1, 2, "challenge_right")]
    assert [c.correct for c in rp.state.cards] == [0, 0, 1]


def test_a_round_cut_short_is_in_progress_only_when_it_is_the_last():  # P11
    r = rnd(("star", "baddy", "guessy"), guess=None, baddy=None)
    r["placements"] = r["placements"][:3]
    got, rp = violations(rec(3, rounds=[r]))
    assert got == [] and not rp.finished and rp.state.phase == E.PLACE and rp.state.placed == 3
    got, rp = violations(rec(3, rounds=[r, rnd(("baddy", "star", "guessy"))]))
    assert got == [(1, -1, "incomplete")] and rp.state.results[0].void
    got, _ = violations(rec(3, rounds=[{"roles": ["star", "baddy", "guessy"], "guess": "right"}]))
    assert got == [(1, -1, "incomplete")]


def test_a_bad_number_card_or_minute_is_reported_and_the_round_still_scores():  # P11
    got, rp = violations(rec(3, "", "beginner", rounds=[
        rnd(("star", "baddy", "guessy"), number=0, card=7, timer={"start_ms": 10, "end_ms": 30010})]))
    assert got == [(1, 0, "number"), (1, 0, "card"), (1, 0, "minute")]
    assert rp.state.scores() == [2, 0, 2]


# -- records: what cannot be read ----------------------------------------------------------------------
def good():
    return rec(4, rounds=[rnd(("star", "drawy", "baddy", "guessy"))])


def spoil(path, value):
    d = good()
    *head, last = path
    node = d
    for k in head:
        node = node[k]
    if value is KeyError:
        del node[last]
    else:
        node[last] = value
    return d


@pytest.mark.parametrize("path, value, place, what", [
    (("format",), "x", "format", "is not 'doodlebox-record/1'"),
    (("edition",), "city", "edition", "'city' is not 'puzzle'"),
    (("variant",), "solo", "variant", "'solo' is not a variant"),
    (("variant",), 3, "variant", "is not a variant name"),
    (("subjects",), KeyError, "subjects", "is not a subject set"),
    (("players",), ["a", "b"], "players", "2 players: Doodle Puzzle is for 3 to 8"),
    (("players",), "abc", "players", "is not a list of names"),
    (("rounds",), {}, "rounds", "is not a list"),
    (("rounds", 0, "roles"), ["star", "drawy", "baddy"], "rounds[0].roles", "3 roles for 4 players"),
    (("rounds", 0, "roles", 1), "joker", "rounds[0].roles[1]", "'joker' is not a role"),
    (("rounds", 0, "roles"), KeyError, "rounds[0].roles", "missing"),
    (("rounds", 0, "number"), "7", "rounds[0].number", "'7' is not a whole number"),
    (("rounds", 0, "card"), True, "rounds[0].card", "True is not a whole number"),
    (("rounds", 0, "guess"), "maybe", "rounds[0].guess", "is not \"right\" or \"wrong\""),
    (("rounds", 0, "placements", 2), [0], "rounds[0].placements[2]", "is not [player, slot]"),
    (("rounds", 0, "placements", 2), [9, 1], "rounds[0].placements[2][0]", "player 9 is not in the game"),
    (("rounds", 0, "placements", 2), ["Zed", 1], "rounds[0].placements[2][0]", "'Zed' is not a player"),
    (("rounds", 0, "baddy"), {"smudge": 1}, "rounds[0].baddy.smudge", "unknown field"),
    (("rounds", 0, "baddy"), [["paint", 1]], "rounds[0].baddy[0]", "is not [\"erase\" or \"draw\", board]"),
    (("rounds", 0, "baddy"), 3, "rounds[0].baddy", "is not {\"erase\""),
    (("rounds", 0, "timer"), {"start_ms": 1}, "rounds[0].timer", "is not {\"start_ms\""),
    (("rounds", 0, "rejected"), [{"number": 1}], "rounds[0].rejected[0].card", "None is not a whole number"),
    (("rounds", 0, "extra"), 1, "rounds[0].extra", "unknown field"),
])
def test_unreadable_records_raise_one_line_with_the_place(path, value, place, what):
    with pytest.raises(RecordError) as exc:
        record.parse(spoil(path, value), "g.json")
    msg = str(exc.value)
    assert msg.startswith(f"g.json: {place}: ") and what in msg and "\n" not in msg, msg


def test_record_error_for_a_record_that_is_not_an_object():
    with pytest.raises(RecordError, match=r"^g.json: record: is not a JSON object$"):
        record.parse([1], "g.json")


# -- the docs and the CLI ---------------------------------------------------------------------------------
def test_the_example_in_the_docs_is_a_valid_record():
    text = (ROOT / "docs" / "doodle-puzzle.md").read_text()
    data = json.loads(re.search(r"```json\n(.*?)```", text, re.S).group(1))
    rp = record.replay(record.parse(data, "doc"))
    assert not rp.violations and not rp.finished
    assert rp.state.cards[0].marks == ["cross"] and rp.state.cards[3].correct == 1
    assert rp.state.cards[2].baddy == 1 and rp.state.scores() == [0, 0, 1, 1]


def test_validate_and_score_through_the_cli(capsys, tmp_path):
    assert main(["validate", str(GOLDEN / "puzzle-showdown.json")]) == 0
    out = capsys.readouterr().out
    assert "valid" in out and "1 slash in the Baddy box" in out
    assert main(["validate", "--json", str(GOLDEN / "puzzle-violations.json")]) == 1
    js = json.loads(capsys.readouterr().out)
    assert js["edition"] == "puzzle" and not js["valid"] and js["violations"][0]["rule"] == "roles"
    assert main(["score", str(GOLDEN / "puzzle-behave.json")]) == 0
    out = capsys.readouterr().out
    assert "3 check marks" in out and VERDICTS[3] in out
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(spoil(("rounds", 0, "roles", 2), "villain")))
    assert main(["validate", str(bad)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"doodlebox: {bad}: rounds[0].roles[2]: 'villain' is not a role (star, drawy, baddy, guessy)"]
    assert main(["render", str(GOLDEN / "puzzle-base.json"), "-o", str(tmp_path / "x.png")]) == 2
    assert "no sheets to draw" in capsys.readouterr().err


def test_an_unreadable_record_is_one_line_and_exit_2_from_the_command(tmp_path):
    bad = tmp_path / "cut.json"
    bad.write_text('{"format": "doodlebox-record/1", "edition": "puzzle", "rounds": [')
    r = doodlebox("validate", str(bad))
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert r.stderr.strip().splitlines() == [f"doodlebox: {bad}: not JSON (line 1, column 66): "
                                             "Expecting value (the file looks cut short)"]


def test_report_json_has_every_card_and_the_winners():
    rp = record.replay(record.read(GOLDEN / "puzzle-base.json"))
    js = report.as_json(rp)
    assert js["winners"] == ["Ann", "Cat"] and js["finished"] and js["valid"] and js["rounds"] == 5
    assert [c["total"] for c in js["cards"]] == [8, 6, 8, 4, 2, 6]
    assert "a tie: the tied players share the victory" in report.table_text(rp)
