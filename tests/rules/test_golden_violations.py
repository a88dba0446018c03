"""Records full of violations, checked one by one, and records that cannot be read at all.

tests/golden/violations.json            Doodle City (5x5): the 5x5 rules and the turn order
tests/golden/violations-shanghai.json   Doodle China: Shanghai (6x6): parks, floors, the end
tests/golden/violations-monsters.json   Doodle Islands: Sea of Monsters (6x6): breakers, barrels

Every expected violation (round, player, turn, place, rule, reason, what was legal) was worked
out by hand from the record and the rules before the engine was run. `doodlebox validate` is
run as a subprocess (all of them side by side, to stay fast): exit 1 with violations, exit 2
and one `doodlebox: FILE: PLACE: ...` line for a file that is not a record.

Three rules cannot be reached by any record, and are checked on the engine directly: no_tree,
six_tree and park_tree all need a player with every tree crossed out. Crossing the last tree
ends the game at the end of that round (R6, Shanghai's "game end"), and each player acts once
a round, so that player never gets another turn: the next round is reported as "over".
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_run import validate_all

from doodlebox.rules.dice import layout, record, sentences
from doodlebox.rules.dice.engine import PASS, Action, Game, IllegalAction

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
FILES = ["violations.json", "violations-shanghai.json", "violations-monsters.json"]


_cli = validate_all


# ---------------------------------------------------------------------------------------------
# violations.json: Doodle City, Ann (P1, 0), Ben (P2, 1), Cat (P3, 2); 4 white dice; no More
# control. Start faces [2,2,1,1,2]: house squares (3,1), (5,2), (1,3), (4,4), (2,5).
# City sheet: (1,2) shop, (3,2) taxi, (4,2) hotel, (2,2) shop; (1,3) house 4 printed / 2 crossed,
# (2,3) hotel, (3,3) shop, (4,3) shop, (5,3) plain; (5,2) house 3 / 1.
#  R1 col2 [1,3,4,2] (Ann, Ben, Cat): die 1 -> (1,2), 2 -> (3,2), 3 -> (4,2), 4 -> (2,2)
#     Ann: die 1 at (3,2)            -> square (die 1 points to (1,2)); skipped, so die 1 is free
#     Ben: die 1 at (1,2)            -> legal
#     Cat: die 1 at (1,2)            -> taken (by P2)
#  R2 col3 [1,2,3,5] (Ben, Cat, Ann): 1 -> (1,3) house, 2 -> (2,3), 3 -> (3,3), 4 -> (5,3)
#     Ben: die 5                     -> die (only 4 white dice)
#     Cat: die 1 at (1,3) with a piece -> house (a house square takes a cross, no piece)
#     Ann: die 1 cross at (1,3)      -> legal (3 of 4 crossed)
#  R3 col3 [1,4,3,2] (Cat, Ann, Ben): 1 -> (1,3), 2 -> (4,3) shop, 3 -> (3,3), 4 -> (2,3)
#     Cat: die 2 "cross" at (4,3)    -> house (not a house square)
#     Ann: die 1 cross at (1,3)      -> legal (4 of 4)
#     Ben: die 3 at (3,3) EW         -> legal
#  R4 col3 [1,3,5,1] (Ann, Ben, Cat): 1 -> (1,3), 2 -> (3,3), 3 -> (5,3), 4 -> (1,3)
#     Ann: die 1 cross at (1,3)      -> houses (all 4 crossed); she could take die 2 or 3
#     Ben: die 2 at (3,3)            -> drawn (his road from R3)
#     Cat: pass                      -> must_take (every die fits her empty sheet)
#  R5 col2 [6,3,1,4] (Ben, Cat, Ann): die 1 is a white 6: any square of column 2, for a tree
#     Ben: die 1 at (3,4)            -> six_square (not column 2)
#     Cat: die 2 floor at (3,2)      -> floor (a taxi, not a sky scraper)
#     Ann: die 2 at (3,2) NS         -> legal: die 2 is free (Cat was skipped) and her (3,2) is
#                                       empty (her R1 attempt there was skipped)
#  R6 col4 (Cat, Ann, Ben): the first turn says "player": 1, but it is Cat's -> turn; Cat loses
#     the turn; Ann (player 0) and Ben (player 1) then play legally.
#  R7 col5 (Ann, Ben, Cat): only two turns and more rounds follow -> turn (Cat, turn 3)
#  R8 col1 (Ben, Cat, Ann): a fourth turn -> turn (player -1, turn 4). The record ends here.
CITY = [
    (1, 0, 1, "rounds[0].turns[0]", "square", "points to [1, 2], not [3, 2]",
     ["die 1: draw at [1, 2]", "die 2: draw at [3, 2]", "die 3: draw at [4, 2]", "die 4: draw at [2, 2]"]),
    (1, 2, 3, "rounds[0].turns[2]", "taken", "already taken by P2",
     ["die 2: draw at [3, 2]", "die 3: draw at [4, 2]", "die 4: draw at [2, 2]"]),
    (2, 1, 1, "rounds[1].turns[0]", "die", "no white die 5",
     ["die 1: house at [1, 3]", "die 2: draw at [2, 3]", "die 3: draw at [3, 3]", "die 4: draw at [5, 3]"]),
    (2, 2, 2, "rounds[1].turns[1]", "house", "[1, 3] is a house square",
     ["die 1: house at [1, 3]", "die 2: draw at [2, 3]", "die 3: draw at [3, 3]", "die 4: draw at [5, 3]"]),
    (3, 2, 1, "rounds[2].turns[0]", "house", "[4, 3] is not a house square",
     ["die 1: house at [1, 3]", "die 2: draw at [4, 3]", "die 3: draw at [3, 3]", "die 4: draw at [2, 3]"]),
    (4, 0, 1, "rounds[3].turns[0]", "houses", "crossed out",
     ["die 2: draw at [3, 3]", "die 3: draw at [5, 3]"]),
    (4, 1, 2, "rounds[3].turns[1]", "drawn", "already drawn at [3, 3]",
     ["die 1: house at [1, 3]", "die 3: draw at [5, 3]", "die 4: house at [1, 3]"]),
    (4, 2, 3, "rounds[3].turns[2]", "must_take", "passing is not allowed",
     ["die 1: house at [1, 3]", "die 2: draw at [3, 3]", "die 3: draw at [5, 3]", "die 4: house at [1, 3]"]),
    # Ben's sheet: (1,2) drawn, (5,2) house with 2 crosses left: the 6 allows (2,2), (3,2), (4,2), (5,2)
    (5, 1, 1, "rounds[4].turns[0]", "six_square", "does not allow [3, 4]",
     ["die 1: draw at [2, 2]", "die 1: draw at [3, 2]", "die 1: draw at [4, 2]", "die 1: house at [5, 2]",
      "die 2: draw at [3, 2]", "die 4: draw at [4, 2]"]),
    # Cat's sheet is still empty: every one of her earlier turns was skipped
    (5, 2, 2, "rounds[4].turns[1]", "floor", "[3, 2] is not a",
     ["die 1: draw at [1, 2]", "die 1: draw at [2, 2]", "die 1: draw at [3, 2]", "die 1: draw at [4, 2]",
      "die 1: house at [5, 2]", "die 2: draw at [3, 2]", "die 3: draw at [1, 2]", "die 4: draw at [4, 2]"]),
    (6, 2, 1, "rounds[5].turns[0]", "turn", "P3's turn, not P2's", None),  # legal: see its own test
    (7, 2, 3, "rounds[6]", "turn", "round 7 ends with 1 player(s) still to act", None),  # idem
    (8, -1, 4, "rounds[7].turns[3]", "turn", "every player has already acted in round 8", []),
]

# ---------------------------------------------------------------------------------------------
# violations-shanghai.json: Ann (0) and Ben (1), 3 white dice. Start faces [2,2,1,1,5,2]:
# (4,1) NS, (2,2) NS, (6,3) EW, (1,4) EW, (5,5) SW, (3,6) NS. Ann passes in every round: her
# 12th tree (round 12) ends the game, and round 13 is "over". Ben's turns:
#  R1  col4 [1,3,4]: die 1 -> park (1,4); Ben draws at (2,4)   -> park_row (not the park's row)
#  R2  col4 [1,2,6]: die 1 at (1,5) without "park"             -> park_row (say so with "park")
#  R3  col2 [3,5,1]: die 1 -> (3,2), a plain square, "park" [2,2] -> square
#  R4, R5 col6: die 1 floor at (1,6)                           -> legal (3, then 4 floors)
#  R6  col6 [1,5,2]: a third floor at (1,6)                    -> third_time (R13)
#  R7  col5 [2,4,1]: die 2 floor at (4,5)                      -> floor (not a sky scraper)
#  R8  col6: die 1 (1,6) SW                                    -> legal (4 floors x 0 parks = 0:
#                                                                 nothing to circle)
#  R9  col6 [1,4,5]: die 1 floor at (1,6)                      -> drawn (the road is there)
#  R10 col3: die 1 -> park (6,3), (6,5) EW                     -> legal (Ben's only tree)
#  R11 col1 [4,2,3]: die 1 -> park (4,1), written "park" [2,2] -> park_row
#  R12 col2: die 2 (5,2) EW                                    -> legal; Ann's 12th tree
#  R13 -> over (the game ended after round 12); nothing after it is checked.
ROW1 = ["die 1: draw at [1, 1] (via [1, 4])", "die 1: draw at [1, 2] (via [1, 4])",
        "die 1: draw at [1, 3] (via [1, 4])", "die 1: draw at [1, 5] (via [1, 4])",
        "die 1: floor at [1, 6] (via [1, 4])", "die 1: draw at [1, 6] (via [1, 4])"]
SHANGHAI = [
    (1, 1, 2, "rounds[0].turns[1]", "park_row", "draw in its row",
     ROW1 + ["die 2: draw at [3, 4]", "die 3: floor at [4, 4]", "die 3: draw at [4, 4]", "pass (cross a tree)"]),
    (2, 1, 1, "rounds[1].turns[0]", "park_row", "points to the park at [1, 4]",
     ROW1 + ["die 2: draw at [2, 4]", "die 3: draw at [6, 4]", "pass (cross a tree)"]),
    (3, 1, 2, "rounds[2].turns[1]", "square", "[3, 2] is not reached through a park",
     ["die 1: draw at [3, 2]", "die 2: draw at [5, 2]", "die 3: draw at [1, 2]", "pass (cross a tree)"]),
    (6, 1, 1, "rounds[5].turns[0]", "third_time", "has all the floors",
     ["die 1: draw at [1, 6]", "die 2: draw at [5, 6]", "die 3: draw at [2, 6]", "pass (cross a tree)"]),
    (7, 1, 2, "rounds[6].turns[1]", "floor", "[4, 5] is not a sky scraper",
     ["die 1: draw at [2, 5]", "die 2: draw at [4, 5]", "die 3: draw at [1, 5]", "pass (cross a tree)"]),
    (9, 1, 2, "rounds[8].turns[1]", "drawn", "already drawn at [1, 6]",
     ["die 2: draw at [4, 6]", "die 3: draw at [5, 6]", "pass (cross a tree)"]),
    (11, 1, 2, "rounds[10].turns[1]", "park_row", "points to the park at [4, 1]",
     ["die 1: draw at [4, 2] (via [4, 1])", "die 1: draw at [4, 3] (via [4, 1])",
      "die 1: floor at [4, 4] (via [4, 1])", "die 1: draw at [4, 4] (via [4, 1])",
      "die 1: draw at [4, 5] (via [4, 1])", "die 1: draw at [4, 6] (via [4, 1])",
      "die 2: draw at [2, 1]", "die 3: draw at [3, 1]", "pass (cross a tree)"]),
    (13, -1, 0, "rounds[12]", "over", "the game ended after round 12 (trees)", []),
]

# ---------------------------------------------------------------------------------------------
# violations-monsters.json: Ann (0) and Ben (1). Start faces [2,2,1,1,5,2].
#  R1 col1 [4,5,6]: Ann: die 1 -> breaker (4,1), drawn at (2,4) without "park" -> park_any;
#     Ben then takes die 1 legally through the breaker (barrel 1).
#  R2..R6: Ben goes through a breaker every round (barrels 2..6), Ann plays legally; in R6 Ann
#     draws (2,4): legal, her R1 attempt there was skipped. R4, R7: Ann adds two tentacles (1,6).
#  R7 col6 [1,3,5]: Ben: die 2 -> breaker (3,6) with no barrel left -> park_barrel (R15); die 1
#     is Ann's, so only die 3 -> (5,6) or a pass remain.
#  R8 col6 [1,2,4]: Ann: a third tentacle at (1,6) -> third_time.
MONSTERS = [
    (1, 0, 1, "rounds[0].turns[0]", "park_any", "points to the breaker at [4, 1]", "any"),
    (7, 1, 2, "rounds[6].turns[1]", "park_barrel", "none is left", ["die 3: draw at [5, 6]", "pass (cross a bottle)"]),
    (8, 0, 2, "rounds[7].turns[1]", "third_time", "has all the tentacles",
     ["die 1: draw at [1, 6]", "die 2: draw at [2, 6]", "pass (cross a bottle)"]),
]

EXPECTED = {"violations.json": CITY, "violations-shanghai.json": SHANGHAI, "violations-monsters.json": MONSTERS}


@pytest.fixture(scope="module")
def cli_reports():
    return _cli([GOLDEN / f for f in FILES])


@pytest.mark.parametrize("name", FILES)
def test_every_violation_is_reported_with_its_rule_and_what_was_legal(name, cli_reports):
    code, stdout, stderr = cli_reports[GOLDEN / name]
    assert code == 1, stderr
    js = json.loads(stdout)
    assert js["valid"] is False
    got = js["violations"]
    expected = EXPECTED[name]
    assert [(v["round"], v["player"], v["turn"], v["rule"]) for v in got] == [e[:3] + e[4:5] for e in expected]
    edition = js["edition"]
    for v, (rnd, _player, turn, place, rule, reason, legal) in zip(got, expected):
        where = f"{name} round {rnd} turn {turn}"
        assert v["place"] == place, where
        assert reason in v["reason"], (where, v["reason"])
        assert v["sentence"] and v["sentence"] == sentences.sentence(rule, edition), where
        assert v["action"], where
        if legal == "any":   # a breaker: every free box of Ann's empty sheet
            # 30 boxes that are not breakers (4 krakens also take a tentacle), die 2 -> (5,1),
            # die 3 -> (6,1) a kraken (tentacle or route), and the pass
            assert len(v["legal"]) == 30 + 4 + 1 + 2 + 1, where
            for item in ("die 1: draw at [2, 4] (via [4, 1])", "die 1: floor at [2, 3] (via [4, 1])",
                         "die 1: draw at [6, 6] (via [4, 1])", "die 2: draw at [5, 1]",
                         "die 3: floor at [6, 1]", "die 3: draw at [6, 1]", "pass (cross a bottle)"):
                assert item in v["legal"], (where, item)
            assert not any("[4, 1] (via" in x or "[2, 2] (via" in x for x in v["legal"]), where
        elif legal is not None:
            assert v["legal"] == legal, where


def test_the_rulebook_sentence_is_the_editions_own(cli_reports):
    def first(name, rule):
        js = json.loads(cli_reports[GOLDEN / name][1])
        return next(v["sentence"] for v in js["violations"] if v["rule"] == rule)

    assert "same row as the park" in first("violations-shanghai.json", "park_row")
    assert "third time" in first("violations-shanghai.json", "third_time")
    assert "Tentacles" in first("violations-monsters.json", "third_time")
    assert "Barrel" in first("violations-monsters.json", "park_barrel")
    assert "You must choose a die" in first("violations.json", "must_take")
    assert "house" in first("violations.json", "houses")


def test_illegal_turns_are_skipped_and_the_rest_is_checked_without_them():
    rp = record.replay(record.read(GOLDEN / "violations.json"))
    n = 5
    sq = lambda r, c: (r - 1) * n + c - 1  # noqa: E731
    ann, ben, cat = rp.state.sheets
    # R1: Ann's die 1 at (3,2) was skipped: Ben took die 1, and Ann drew (3,2) legally in R5
    assert ben.pieces[sq(1, 2)] and ann.pieces[sq(3, 2)]
    assert not ann.pieces[sq(1, 2)]
    # Ann's house (1,3): 2 printed + 2 legal crosses; the refused third one left no mark
    assert ann.crossed[sq(1, 3)] == 4
    # Cat's turns in rounds 1-7 were all refused or missing: only R8's (2,1) is on her sheet
    assert [i for i, p in enumerate(cat.pieces) if p and i not in rp.state.game.starts] == [sq(2, 1)]
    assert cat.trees == 0 and cat.crossed == [s.precrossed for s in rp.record.layout.squares]
    assert rp.finished is False

    sh = record.replay(record.read(GOLDEN / "violations-shanghai.json"))
    ann, ben = sh.state.sheets
    assert ann.trees == 12 and sh.state.ending == ["trees"] and sh.finished
    assert ben.trees == 1                       # only the park of round 10; no refused turn cost one
    assert ben.floors[5] == 4                   # (1,6): the refused third floor was not added
    assert [(s.track, s.at, s.worth, s.value) for s in ben.scored] == [("skyscraper", (1, 6), 0, 0),
                                                                       ("hotel", (5, 2), 1, 1)]
    assert sh.state.round == 12                 # round 13 was not played

    mo = record.replay(record.read(GOLDEN / "violations-monsters.json"))
    ann, ben = mo.state.sheets
    assert ben.barrels == 6                     # the refused seventh breaker took no barrel
    assert ann.barrels == 0 and ann.pieces[1 * 6 + 3]   # (2,4) drawn in R6 without a breaker
    assert ann.floors[5] == 4 and not ann.pieces[5]     # (1,6): two tentacles, no third


@pytest.mark.parametrize("rnd,legal", [
    # R6: the turn was written for Ben (P2) while Cat (P3) was to act; column 4, all four dice
    # point to free squares of her sheet
    (6, ["die 1: draw at [1, 4]", "die 2: draw at [2, 4]", "die 3: draw at [3, 4]", "die 4: draw at [5, 4]"]),
    # R7: Cat's turn is missing; dice 1 and 2 were taken, die 3 -> (4,5), die 4 -> (5,5)
    (7, ["die 3: draw at [4, 5]", "die 4: draw at [5, 5]"]),
], ids=["wrong-player", "missing-turn"])
def test_a_turn_order_violation_lists_what_the_player_to_act_could_do(rnd, legal, cli_reports):
    """docs/records.md: each violation has "what would have been legal instead". The player of
    these two violations is Cat, the player to act, and she had options."""
    js = json.loads(cli_reports[GOLDEN / "violations.json"][1])
    v = next(v for v in js["violations"] if v["round"] == rnd)
    assert v["rule"] == "turn" and v["player"] == 2
    assert v["legal"] == legal


# -- the rules no record can reach -------------------------------------------------------------
def _started(edition, players, faces, roll):
    s = Game(layout.load(edition), players).new_state()
    for f in faces:
        s.apply(Action("start", f))
    s.apply(Action("roll", roll[0], whites=tuple(roll[1])))
    return s


@pytest.mark.parametrize("edition,faces,roll,action,rule", [
    # a voluntary pass with every tree crossed out while die 2 -> (2,4) fits
    ("shanghai", [2, 2, 1, 1, 5, 2], (4, [1, 2, 3]), PASS, "no_tree"),
    # a die pointing to the park (1,4) with no tree left (R14)
    ("shanghai", [2, 2, 1, 1, 5, 2], (4, [1, 2, 3]), Action("draw", 1, 1, 5, "EW", via=(1, 4)), "park_tree"),
    # a white 6 with no tree left (R3)
    ("city", [2, 2, 1, 1, 2], (2, [6, 1, 3, 4]), Action("draw", 1, 2, 2, "NS"), "six_tree"),
])
def test_rules_that_need_every_tree_crossed_out(edition, faces, roll, action, rule):
    s = _started(edition, 2 if edition == "shanghai" else 3, faces, roll)
    s.sheets[0].trees = s.game.layout.trees
    with pytest.raises(IllegalAction) as exc:
        s.apply(action)
    assert exc.value.rule == rule and exc.value.reason and exc.value.sentence
    assert exc.value.legal and not any(x.startswith("pass") for x in exc.value.legal)


def test_no_record_reaches_the_tree_rules_the_game_is_over_first():
    """Ann and Ben pass 12 times in Shanghai; Ann's 13th pass would be no_tree, but the game
    ended with the round of the 12th tree: round 13 is "over", and nothing in it is checked."""
    data = {"format": "doodlebox-record/1", "edition": "shanghai", "players": ["Ann", "Ben"],
            "start": [2, 2, 1, 1, 5, 2],
            "rounds": [{"roll": {"column": 4, "white": [1, 2, 3]}, "turns": [{"pass": True}, {"pass": True}]}
                       for _ in range(13)]}
    rp = record.replay(record.parse(data, "passes"))
    assert [(v.round, v.rule) for v in rp.violations] == [(13, "over")]
    assert [sh.trees for sh in rp.state.sheets] == [12, 12]


def test_every_rule_id_is_covered():
    """Each rule id with a rulebook sentence is either reported by a golden record above, or
    reached only through the engine (the tree rules), or refused before the engine sees it."""
    in_records = {e[4] for exp in EXPECTED.values() for e in exp}
    engine_only = {"no_tree", "park_tree", "six_tree"}
    # refused while reading (exit 2) or not a player's turn: an unknown piece, the start roads,
    # the rolls, an unknown action kind; "unfinished" is not raised by the engine
    not_in_records = {"piece", "start", "order", "dice", "action", "unfinished"}
    assert set(sentences._S) == in_records | engine_only | not_in_records
    assert {"taken", "die", "square", "drawn", "house", "houses", "must_take", "six_square", "park_row",
            "park_any", "park_barrel", "floor", "third_time", "turn", "over"} <= in_records


# -- records that cannot be read -----------------------------------------------------------------
BASE = GOLDEN / "violations-shanghai.json"


def _edit(change):
    data = json.loads(BASE.read_text())
    change(data)
    return json.dumps(data)


def _bad_inline_layout(d):
    lay = json.loads(layout.default_path("shanghai").read_text())
    lay["squares"][3]["at"] = [7, 1]
    d["layout"] = lay


def _set(path, value):
    def change(d):
        *head, last = path
        for k in head:
            d = d[k]
        d[last] = value
    return change


UNREADABLE = {
    # name: (file text, place named in the message, words of the message)
    "not-json": (lambda: "this is not a record\n", "(line 1, column 1)", "not JSON"),
    # cut in the middle of a string: the place is where that string starts
    "truncated": (lambda: BASE.read_text()[: len(BASE.read_text()) // 2], "(line 13, column 101)", "cut short"),
    # cut between two rounds
    "truncated-after-a-round": (lambda: BASE.read_text()[: BASE.read_text().index("\n", 400) + 1], "line",
                                "cut short"),
    "players-type": (lambda: _edit(_set(["players"], "Ann")), "players:", "not a list"),
    "die-type": (lambda: _edit(_set(["rounds", 2, "turns", 1, "die"], "1")), "rounds[2].turns[1].die:", "whole number"),
    "off-the-sheet": (lambda: _edit(_set(["rounds", 0, "turns", 1, "at"], [7, 1])), "rounds[0].turns[1].at:",
                      "off the 6x6 sheet"),
    "die-face-7": (lambda: _edit(_set(["rounds", 3, "roll", "white", 2], 7)), "rounds[3].roll.white[2]:",
                   "7 is not a die face"),
    "white-dice": (lambda: _edit(_set(["rounds", 1, "roll", "white"], [1, 2])), "rounds[1].roll.white:",
                   "2 white dice"),
    "unknown-piece": (lambda: _edit(_set(["rounds", 0, "turns", 1, "piece"], "XY")), "rounds[0].turns[1].piece:",
                      "'XY' is not a piece"),
    "unknown-layout": (lambda: _edit(_set(["layout"], "shanghai-2")), "layout:", "'shanghai-2'"),
    "unknown-edition": (lambda: _edit(_set(["edition"], "moon")), "edition:", "'moon'"),
    "broken-inline-layout": (lambda: _edit(_bad_inline_layout), "layout: squares[3].at:", "off the 6x6 grid"),
}


@pytest.fixture(scope="module")
def unreadable_reports(tmp_path_factory):
    d = tmp_path_factory.mktemp("unreadable")
    paths = {}
    for name, (text, _, _) in UNREADABLE.items():
        p = d / f"{name}.json"
        p.write_text(text())
        paths[name] = p
    out = _cli(list(paths.values()))
    return {name: (p, out[p]) for name, p in paths.items()}


@pytest.mark.slow
@pytest.mark.parametrize("name", list(UNREADABLE))
def test_an_unreadable_record_is_one_line_with_the_file_and_the_place(name, unreadable_reports):
    path, (code, stdout, stderr) = unreadable_reports[name]
    _, place, words = UNREADABLE[name]
    assert code == 2, (stdout, stderr)
    assert stdout == ""
    assert "Traceback" not in stderr
    lines = stderr.splitlines()
    assert len(lines) == 1, stderr
    line = lines[0]
    assert line.startswith(f"doodlebox: {path}: "), line
    assert place in line and words in line, line
