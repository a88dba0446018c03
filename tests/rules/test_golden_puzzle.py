"""Golden games of Doodle Puzzle, scored BY HAND from the rulebook
(../shared/rulebooks/doodle-puzzle.txt) and rulings P1-P11 before the engine was run.

Conventions: players are listed clockwise, 0-based; the next player clockwise sits to the left.
Placing order (P4): the star Drawy, then every Drawy clockwise (Baddy and Guessy are skipped),
round and round, one board per turn, until slots 1-6 are filled. Scoring: a right guess gives a
check mark to Guessy and every Drawy (star included) and a cross to Baddy; a wrong guess the
other way round; 2 points per check mark. Showdown (P6, P7): after a wrong guess, a challenge
naming an erased or drawn-on board is a slash in Guessy's correct box (+1) and in Baddy's box
(-1); any other board (or any board when Baddy did nothing: the Q&A) a slash in Guessy's
incorrect box (-1). Behave (P8): one shared card, the verdict by its check marks, no winner.
"""
from __future__ import annotations

from pathlib import Path

from doodlebox.rules.puzzle import record, report
from doodlebox.rules.puzzle import roles as R
from doodlebox.rules.puzzle.sentences import VERDICTS

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
V, X = "check", "cross"


def load(name):
    rp = record.replay(record.read(GOLDEN / name))
    return rp, rp.state


def test_base_six_players_a_shared_victory():
    """puzzle-base.json: 6 players (Ann Ben Cat Dan Eve Fay), standard set. 6 players: 4 Drawys,
    so the star and the next Drawy clockwise place 2 boards each, the other two Drawys 1.

    R1 roles star Ann, Drawys Ben Cat Dan, Baddy Eve, Guessy Fay. Drawys from Ann: Ann Ben Cat Dan
       -> order Ann Ben Cat Dan Ann Ben (Ann and Ben 2 each). Baddy erases and draws on board 2
       (the same board). Right: Ann Ben Cat Dan Fay check, Eve cross.
    R2 star Ben, Baddy Cat, Guessy Eve, Drawys Ann Dan Fay. From Ben: Cat is Baddy (skipped),
       Dan, Eve is Guessy (skipped), Fay, Ann -> Ben Dan Fay Ann Ben Dan: "the Drawy to their
       left" is Dan, the next Drawy. One subject set aside (12 on card 16), then 4 on card 9; a
       60.000 s timer. Baddy draws on 5 only. Wrong: Cat check, all others cross.
    R3 star Fay, Guessy Ann, Baddy Dan, Drawys Ben Cat Eve. From Fay: Ann (G) skipped, Ben, Cat,
       Dan (B) skipped, Eve -> Fay Ben Cat Eve Fay Ben. No "baddy" field with a guess: Baddy did
       nothing. Right: Ann Ben Cat Eve Fay check, Dan cross.
    R4 star Cat, Baddy Ann, Guessy Ben, Drawys Dan Eve Fay -> Cat Dan Eve Fay Cat Dan. Baddy draws
       on 6, then erases 1 (keys in that order). Wrong: Ann check, all others cross.
    R5 star Dan, Guessy Cat, Baddy Eve, Drawys Ann Ben Fay. From Dan: Eve (B) skipped, Fay, Ann,
       Ben, Cat (G) skipped -> Dan Fay Ann Ben Dan Fay. Baddy erases 3. Right: all check but Eve.

             R1 R2 R3 R4 R5  checks  points
       Ann   V  X  V  V  V     4       8
       Ben   V  X  V  X  V     3       6
       Cat   V  V  V  X  V     4       8
       Dan   V  X  X  X  V     2       4
       Eve   X  X  V  X  X     1       2
       Fay   V  X  V  X  V     3       6
    Highest total 8: Ann and Cat tie and share the victory.
    """
    rp, s = load("puzzle-base.json")
    assert not rp.violations and rp.finished and s.round == 5
    assert [c.marks for c in s.cards] == [
        [V, X, V, V, V], [V, X, V, X, V], [V, V, V, X, V], [V, X, X, X, V], [X, X, V, X, X], [V, X, V, X, V]]
    assert [c.checks for c in s.cards] == [4, 3, 4, 2, 1, 3]
    assert [c.crosses for c in s.cards] == [1, 2, 1, 3, 4, 2]
    assert all((c.correct, c.incorrect, c.baddy) == (0, 0, 0) for c in s.cards)
    res = s.result()
    assert res.totals == [8, 6, 8, 4, 2, 6] and res.winners == [0, 2]
    # who placed which slot, as worked out above
    r1, r2 = s.results[0], s.results[1]
    assert r1.slots == (0, 1, 2, 3, 0, 1) and r1.sabotaged == {2}
    assert r2.slots == (3, 1, 0, 5, 3, 1) and r2.rejected == ((12, 16),) and (r2.number, r2.card) == (4, 9)
    assert r2.timer == (1000, 61000) and (r2.erased, r2.drawn) == (0, 5)
    assert s.results[2].sabotaged == set() and (s.results[3].erased, s.results[3].drawn) == (1, 6)
    assert [R.boards_each(r.roles) for r in s.results][1] == {1: 2, 3: 2, 5: 1, 0: 1}
    assert "a tie: the tied players share the victory" in report.table_text(rp)


def test_behave_six_players_three_check_marks():
    """puzzle-behave.json: Baddy, Please Behave, 6 players, beginner set (cards 1-6). No Baddy: a
    star, a Guessy and 4 Drawys, so 5 Drawys place and only the star places 2 boards (P4: the
    count follows the Drawys, not the printed 6-player line). No mischief is entered.

    R1 star Ann, Guessy Dan: order Ann Ben Cat Eve Fay Ann.   right -> check
    R2 star Dan, Guessy Ann: order Dan Eve Fay Ben Cat Dan.   wrong -> cross
    R3 star Eve, Guessy Ben: order Eve Fay Ann Cat Dan Eve; a 59.5 s timer (within 1 s, P3).
                                                               right -> check
    R4 star Ben, Guessy Cat: two subjects set aside (5/3, 6/3), then 2 on card 4;
       order Ben Dan Eve Fay Ann Ben.                          right -> check
    R5 star Fay, Guessy Eve: order Fay Ann Ben Cat Dan Fay.   wrong -> cross
    Shared card: check cross check check cross = 3 check marks (6 points) -> verdict 3,
    "You've completed half the journey! ..."; no winner (P8); no personal card is marked.
    """
    rp, s = load("puzzle-behave.json")
    assert not rp.violations and rp.finished
    assert s.shared.marks == [V, X, V, V, X] and s.shared.checks == 3 and s.shared.crosses == 2
    res = s.result()
    assert res.verdict == VERDICTS[3] and res.verdict.startswith("You've completed half the journey!")
    assert res.totals == [6] * 6 and res.winners == []
    assert all(c.checks == 0 and c.crosses == 0 for c in s.cards)
    for r in s.results:
        each = R.boards_each(r.roles)
        star = r.roles.index("star")
        assert each[star] == 2 and sorted(each.values()) == [1, 1, 1, 1, 2]
        assert r.sabotaged == set()
    assert s.results[3].rejected == ((5, 3), (6, 3))
    js = report.as_json(rp)
    assert js["shared"] == {"marks": [V, X, V, V, X], "check_marks": 3, "points": 6, "verdict": VERDICTS[3]}
    assert js["winners"] == []


def test_showdown_seven_players_every_kind_of_challenge():
    """puzzle-showdown.json: Guessy vs. Baddy Showdown!!, 7 players (Ann Ben Cat Dan Eve Fay Gus),
    standard set. 5 Drawys: only the star places 2 boards.

    R1 star Ann, Baddy Fay, Guessy Gus. Baddy erases 2, draws on 4. Wrong: Fay check, the six
       others cross. Gus challenges 4 (drawn on): won -> Gus correct +1, Fay Baddy-box slash.
    R2 star Cat, Baddy Ann, Guessy Ben. Baddy does nothing ({}). Wrong: Ann check, others cross.
       Ben challenges 3: Baddy damaged nothing, so Guessy fails (the Q&A) -> Ben incorrect slash.
    R3 star Dan, Baddy Cat, Guessy Ann. Baddy erases 5. Wrong: Cat check, others cross. Ann
       challenges 1 (not sabotaged): lost -> Ann incorrect slash.
    R4 star Fay, Baddy Ben, Guessy Eve. Baddy (list form) erases 3, draws on 6. Wrong: Ben check,
       others cross. Eve challenges 3 (erased): won -> Eve correct, Ben Baddy-box slash.
    R5 star Ben, Baddy Gus, Guessy Dan. Baddy draws on 2. Right: all check but Gus; no challenge.

             R1 R2 R3 R4 R5  checks  x2  correct  incorrect  baddy  total
       Ann   X  V  X  X  V     2      4     0        1         0      3
       Ben   X  X  X  V  V     2      4     0        1         1      2
       Cat   X  X  V  X  V     2      4     0        0         0      4
       Dan   X  X  X  X  V     1      2     0        0         0      2
       Eve   X  X  X  X  V     1      2     1        0         0      3
       Fay   V  X  X  X  V     2      4     0        0         1      3
       Gus   X  X  X  X  X     0      0     1        0         0      1
    Cat wins alone with 4 (without her Baddy-box slash Fay would have tied her).
    """
    rp, s = load("puzzle-showdown.json")
    assert not rp.violations and rp.finished
    assert [c.marks for c in s.cards] == [
        [X, V, X, X, V], [X, X, X, V, V], [X, X, V, X, V], [X, X, X, X, V], [X, X, X, X, V], [V, X, X, X, V],
        [X, X, X, X, X]]
    assert [c.checks for c in s.cards] == [2, 2, 2, 1, 1, 2, 0]
    assert [c.correct for c in s.cards] == [0, 0, 0, 0, 1, 0, 1]
    assert [c.incorrect for c in s.cards] == [1, 1, 0, 0, 0, 0, 0]
    assert [c.baddy for c in s.cards] == [0, 1, 0, 0, 0, 1, 0]
    res = s.result()
    assert res.totals == [3, 2, 4, 2, 3, 3, 1] and res.winners == [2]
    assert [(r.challenge, r.challenge_won) for r in s.results] == [(4, True), (3, False), (1, False), (3, True),
                                                                  (0, None)]
    for r in s.results:
        each = R.boards_each(r.roles)
        assert each[r.roles.index("star")] == 2 and sorted(each.values()) == [1, 1, 1, 1, 2]


def test_violations_every_kind_with_round_player_step_and_rule():
    """puzzle-violations.json: base game, 4 players (Ann Ben Cat Dan), standard set. Worked out by hand:

    R1 deal star/Baddy/Baddy/Guessy: 2 Baddies and no Drawy -> roles; the round is void.
    R2 Ann star, Ben Drawy, Cat Baddy, Dan Guessy; order Ann Ben Ann Ben Ann Ben. Steps: 1 deal,
       2 set-aside number 0 (number), 3 its card, 4 again, 5 number 13 (number), 6 card 17
       (card), 7 a 45 s minute (minute), then placements from step 8:
         8 [Ann,1] ok; 9 [Ann,2] Ben's turn (place_turn); 10 [Ben,2] ok; 11 [Ann,2] filled
         (slot_twice); 12 [Cat,3] Baddy places (place_turn); 13 [Ann,3] ok; 14 [Ben,7] (slot);
         15 [Ben,4] 16 [Ann,5] 17 [Ben,6] ok -> full; 18 [Dan,1] frame full (slot_twice);
       Baddy list: 19 erase 3 ok; 20 draw 9 (board); 21 draw 2 ok; 22 erase 4, a third action
       (baddy_once); 23 guess right; 24 challenge in the base game (challenge_variant).
       Scores: Ann Ben Dan check, Cat cross.
    R3 Ben star, Cat Drawy, Dan Baddy, Ann Guessy; 4 boards placed (steps 5-8), then Baddy acts:
       step 9 slots 5, 6 never filled (slots_empty, Ben's turn). Wrong: Dan check, others cross.
    R4 stops after its card while R5 follows (incomplete, step 4): void.
    R5 Dan star, Ann Baddy, Ben Drawy, Cat Guessy; right: Dan Ben Cat check, Ann cross. Game over.
    R6 a sixth round (over).
    Totals: Ann 1 check (2), Ben 2 (4), Cat 1 (2), Dan 3 (6): Dan wins.
    """
    rp, s = load("puzzle-violations.json")
    got = [(v.round, v.player, v.turn, v.place, v.rule) for v in rp.violations]
    assert got == [
        (1, -1, 1, "rounds[0].roles", "roles"),
        (2, 0, 2, "rounds[1].rejected[0].number", "number"),
        (2, 0, 5, "rounds[1].number", "number"),
        (2, 0, 6, "rounds[1].card", "card"),
        (2, 0, 7, "rounds[1].timer", "minute"),
        (2, 0, 9, "rounds[1].placements[1]", "place_turn"),
        (2, 0, 11, "rounds[1].placements[3]", "slot_twice"),
        (2, 2, 12, "rounds[1].placements[4]", "place_turn"),
        (2, 1, 14, "rounds[1].placements[6]", "slot"),
        (2, 3, 18, "rounds[1].placements[10]", "slot_twice"),
        (2, 2, 20, "rounds[1].baddy[1]", "board"),
        (2, 2, 22, "rounds[1].baddy[3]", "baddy_once"),
        (2, 3, 24, "rounds[1].challenge", "challenge_variant"),
        (3, 1, 9, "rounds[2].placements", "slots_empty"),
        (4, -1, 4, "rounds[3]", "incomplete"),
        (6, -1, 0, "rounds[5]", "over"),
    ]
    for v in rp.violations:  # every one with a reason, the rulebook's words and (but for "over") what was legal
        assert v.reason and v.sentence and (v.legal or v.rule == "over")
    v = rp.violations
    assert "2 Baddies instead of 1" in v[0].reason and "no Drawy" in v[0].reason
    assert "P2's turn" in v[5].reason and "only Drawys" in v[7].reason
    assert v[13].reason == "slots 5, 6 of the central frame were never filled"
    assert v[13].legal == ["P2 places a board in slot 5, 6"]
    assert [r.void != "" for r in s.results] == [True, False, False, True, False]
    assert [c.marks for c in s.cards] == [["", V, X, "", X], ["", V, X, "", V], ["", X, X, "", V],
                                          ["", V, V, "", V]]
    res = s.result()
    assert res.totals == [2, 4, 2, 6] and res.winners == [3] and rp.finished
