"""Deadly Doodles' records (rules/deadly/record.py): unreadable records named by their place,
violations reported and skipped, the reports, the map picture and the command line, and the
records of games recorded with tallies (ruling D14). The maps, the deck and the engine's rules
are tests/rules/test_deadly.py; golden games scored by hand tests/rules/test_golden_deadly.py."""
from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
import randomplay
from cli_run import ROOT
from test_deadly import CORNER, DEAD, DECK, GOLDEN, LAYOUTS, STRAIGHT, TEE, TRAP1, refused, state_with

from doodlebox import cli
from doodlebox.drawing.png import png_pixels
from doodlebox.rules.common import RecordError, Violation
from doodlebox.rules.deadly import deck as decks
from doodlebox.rules.deadly import maps, record, render, report, sentences
from doodlebox.rules.deadly.engine import DONE, Game, IllegalAction, Place, Reveal, State, Trap, score
from doodlebox.rules.games import find_game


# -- records ------------------------------------------------------------------------------------------------
def minimal(**over) -> dict:
    data = {"format": "doodlebox-record/1", "edition": "deadly", "map": "a", "players": ["Ann"],
            "rounds": [{"revealed": ["straight", "corner", "tee", "dead end"],
                        "drawings": [[{"card": "straight", "room": "B1", "ends": ["N", "S"]},
                                      {"card": 9, "room": "B2", "ends": ["N", "E"]}]]}]}
    data.update(over)
    return data


@pytest.mark.parametrize("change,place,what", [
    (lambda d: d.update(format="x"), "format", "is not"),
    (lambda d: d.update(players=["a"] * 5), "players", "1 to 4"),
    (lambda d: d.update(map="c"), "map", "not a side"),
    (lambda d: d.update(seed="x"), "seed", "not a whole number"),
    (lambda d: d.update(colour=1), "colour", "unknown field"),
    (lambda d: d["rounds"][0].update(revealed=["straight", "corner", "tee"]), "rounds[0].revealed", "3 cards"),
    (lambda d: d["rounds"][0].update(revealed=["draw 2", "corner", "tee", "cross", "straight"]),
     "rounds[0].revealed", "with 1 Draw 2 card the round reveals 6"),
    (lambda d: d["rounds"][0].update(revealed=[1, 2, 3, 4, 5]), "rounds[0].revealed[4]", "one card too many"),
    (lambda d: d["rounds"][0].update(revealed=[1, 2, 3, 1]), "rounds[0].revealed[3]",
     "already revealed at rounds[0].revealed[0]"),
    (lambda d: d["rounds"][0].update(revealed=[1, 2, 3, 40]), "rounds[0].revealed[3]", "no card 40"),
    (lambda d: d["rounds"][0].update(revealed=[1, 2, 3, "trap"]), "rounds[0].revealed[3]", "solo game"),
    (lambda d: d["rounds"][0].update(revealed=[1, 2, 3, 33]), "rounds[0].revealed[3]", "solo game"),
    (lambda d: d["rounds"][0].update(revealed=["spiral", 2, 3, 4]), "rounds[0].revealed[0]", "not a kind of card"),
    (lambda d: d["rounds"][0].update(drawings=[]), "rounds[0].drawings", "1 lists"),
    (lambda d: d["rounds"][0]["drawings"][0][0].update(room="Z9"), "rounds[0].drawings[0][0].room", "'Z9'"),
    (lambda d: d["rounds"][0]["drawings"][0][0].update(ends=["N", "N"]), "rounds[0].drawings[0][0].ends", "each once"),
    (lambda d: d["rounds"][0]["drawings"][0][0].update(card=99), "rounds[0].drawings[0][0].card", "no card 99"),
    (lambda d: d["rounds"][0]["drawings"][0][0].update(trap="C2"), "rounds[0].drawings[0][0]", "without"),
    (lambda d: d["rounds"][0]["drawings"][0][0].update(x=1), "rounds[0].drawings[0][0].x", "unknown field"),
])
def test_unreadable_records_are_one_line_with_the_place(change, place, what):
    data = minimal()
    change(data)
    with pytest.raises(RecordError) as exc:
        record.parse(data, "game.json")
    assert str(exc.value).startswith(f"game.json: {place}: ") and what in str(exc.value)
    assert "\n" not in str(exc.value)


def test_more_of_a_kind_than_the_deck_holds_is_unreadable():
    data = minimal(players=["Ann", "Ben"])
    data["rounds"] = [{"revealed": ["cross"] * 4, "drawings": [[], []]},
                      {"revealed": ["cross", "tee", "tee", "tee"], "drawings": [[], []]}]
    with pytest.raises(RecordError, match=r"rounds\[1\].revealed\[0\]: one cross too many: the deck has 4"):
        record.parse(data)


def test_an_inline_map_with_problems_is_unreadable():
    m = json.loads((LAYOUTS / "deadly-map-b.json").read_text())
    m["dragon"] = "B1"
    with pytest.raises(RecordError, match=r"game.json: map: dragon: B1 already holds Loot"):
        record.parse(minimal(map=m), "game.json")
    m["dragon"] = "D3"
    assert record.parse(minimal(map=m)).map.spec == m


def test_a_seed_deals_the_cards_and_kinds_name_cards():
    data = minimal(seed=11, players=["Ann", "Ben"])
    deal = decks.deal(DECK, 11, 2)
    data["rounds"] = [{"drawings": [[], []]}, {"revealed": deal[1], "drawings": [[], []]}]
    rec = record.parse(data)
    assert [rd.revealed for rd in rec.rounds] == deal[:2]
    data["rounds"][1]["revealed"] = deal[2]
    with pytest.raises(RecordError, match="is not what seed 11 deals in round 2"):
        record.parse(data)


def test_violations_are_reported_and_skipped():
    data = minimal()
    data["rounds"][0]["drawings"][0] = [
        {"card": "straight", "room": "A1", "ends": ["N", "S"]},      # the outer wall: skipped
        {"card": "straight", "room": "B1", "ends": ["N", "S"]},      # the straight is still free
        {"card": "cross", "room": "B2", "ends": ["N", "E", "S", "W"]},   # no cross this round
        {"card": "corner", "room": "B2", "ends": ["N", "E"]},
    ]                                                                # the tee and dead end can go on
    rp = record.replay(record.parse(data, "g"))
    got = [(v.round, v.player, v.turn, v.place, v.rule) for v in rp.violations]
    assert got == [(1, 0, 1, "rounds[0].drawings[0][0]", "wall"), (1, 0, 3, "rounds[0].drawings[0][2]", "card"),
                   (1, 0, 5, "rounds[0].drawings[0]", "unused")]
    v = rp.violations[0]
    assert isinstance(v, Violation) and v.action == "straight at A1 opening N S"
    assert v.sentence.startswith("Your path segments must always connect to a passageway")
    assert "card 1 (straight) at B1 opening N S" in v.legal
    assert "no cross is left" in rp.violations[1].reason
    assert [c for _, c in rp.state.boards[0].unused] == [19, 29] and not rp.finished


def test_an_eighth_round_is_a_violation():
    data = randomplay.random_record(find_game("deadly"), 8, 2)
    extra = copy.deepcopy(data["rounds"][-1])
    used = {c for rd in data["rounds"] for c in rd["revealed"]}
    extra["revealed"] = [c for c in DECK.ids if c not in used and DECK.kind_of[c] != "draw 2"][:4]
    extra["drawings"] = [[], []]
    data["rounds"].append(extra)
    rp = record.replay(record.parse(data))
    assert [(v.round, v.player, v.rule) for v in rp.violations] == [(8, -1, "rounds")]
    assert rp.violations[0].sentence == "The game consists of seven rounds, followed by a scoring phase."
    assert rp.finished and rp.state.round == 7


# -- reports, the picture and the command line ------------------------------------------------------------
def test_reports():
    rp = record.replay(record.read(GOLDEN / "deadly-traps.json"))
    text = report.sheets_text(rp)
    assert "P1 Ann: 25 path segments, Traps in C4, F6" in text
    assert "+12  1. Loot: 3 entered (A3, F4, B6) x 2, doubled: the Dragon (D3) was entered" in text
    assert "erased from all maps: F6" in text
    table = report.table_text(rp).splitlines()
    assert table[0] == "Deadly Doodles, map side A, 3 players: 7 of 7 rounds"
    assert table[1].split() == ["Ann", "22", "winner"] and table[2].split() == ["Cat", "21"]
    js = report.as_json(rp)
    assert js["winners"] == ["Ann"] and js["sheets"][2]["trap_hits"] == [
        {"room": "C4", "by": "Ann", "same_coordinates": False}, {"room": "A6", "by": "Ben", "same_coordinates": False}]
    assert js["sheets"][0]["traps"] == ["C4", "F6"] and js["sheets"][0]["unused_cards"] == [
        {"round": 7, "card": 26, "kind": "cross"}]
    solo = record.replay(record.read(GOLDEN / "deadly-solo.json"))
    assert "solo: try to beat your best score" in report.table_text(solo)


def read_png(path: Path):
    width, height, raw = png_pixels(path.read_bytes())   # read back by Pillow
    return width, height, lambda x, y: raw[y * width + x]


def test_the_map_picture(tmp_path):
    rp = record.replay(record.read(GOLDEN / "deadly-traps.json"))
    m = rp.record.map
    geo = render.map_geometry(m)
    path = render.render_sheet(rp.state, 0, tmp_path / "ann.png", "Ann")
    w, h, px = read_png(path)
    assert (w, h) == (geo.width, geo.height)
    sq, half = render.SQ, render.SQ // 2

    def room(name):
        return geo.rooms[m.room(name)]
    x, y = room("B1")                      # the wall B1|C1 on B1's east side: black
    assert px(x + sq, y + half + 20) == 0
    x, y = room("C6")                      # Ann's C6 NS: grey path through the centre, both halves
    assert px(x + half, y + 10) == render.PATH and px(x + half, y + sq - 10) == render.PATH
    x, y = room("C4")                      # Ann's own Trap: a black X through the centre
    assert px(x + half, y + half) == 0
    x, y = room("F6")                      # Ann's Trap in F6 was erased (Ben's is there too): grey
    assert px(x + half, y + half) == render.ERASED
    x, y = room("D2")                      # an empty room, no path of Ann's: white at the centre
    assert px(x + half, y + half) == 255


def test_command_line(tmp_path, capsys):
    """In this process (tests/rules/test_golden_deadly.py runs the command as its own process)."""
    def run(*args):
        code = cli.main(list(args))
        out = capsys.readouterr()
        return code, out.out, out.err

    bad_map = json.loads((LAYOUTS / "deadly-map-a.json").read_text())
    bad_map["loot"] = ["A1"]
    (tmp_path / "map.json").write_text(json.dumps(bad_map))
    code, out, _ = run("layout", "check", str(tmp_path / "map.json"))
    assert code == 2 and f"{tmp_path / 'map.json'}: weapons.A: A1 already holds Loot" in out
    code, out, _ = run("layout", "check", str(LAYOUTS / "deadly-deck.json"))
    assert code == 0 and "usable Deadly Doodles deck" in out
    data = minimal()
    data["rounds"][0]["drawings"][0][0]["room"] = "A1"
    (tmp_path / "bad.json").write_text(json.dumps(data))
    code, out, _ = run("validate", str(tmp_path / "bad.json"))
    assert code == 1 and "[rule wall]" in out and "rulebook:" in out
    data["rounds"][0]["drawings"][0][0]["room"] = "Q1"
    (tmp_path / "unreadable.json").write_text(json.dumps(data))
    code, _, err = run("validate", str(tmp_path / "unreadable.json"))
    assert code == 2 and err.strip().count("\n") == 0 and "drawings[0][0].room" in err
    png = tmp_path / "map.png"
    code, out, _ = run("render", str(GOLDEN / "deadly-duel.json"), "--player", "2", "-o", str(png))
    assert code == 0 and png.read_bytes()[:4] == b"\x89PNG" and "Ben" in out


def test_the_record_in_the_docs_is_valid():
    text = (ROOT / "docs" / "deadly-doodles.md").read_text()
    blocks = [b.split("```")[0] for b in text.split("```json\n")[1:]]
    block = next(b for b in blocks if '"edition": "deadly"' in b)
    rp = record.replay(record.parse(json.loads(block), "docs/deadly-doodles.md"))
    assert rp.violations == [] and rp.state.round == 1


# -- tallies (ruling D14) -------------------------------------------------------------------------------------
def tallies_of(state: State) -> list[dict]:
    """Each player's counts as their drawn map scores them (what a player counting right gives)."""
    return [{"loot": len(ss.loot), "dragon": int(ss.dragon), "weapons": len(ss.weapons), "matched": len(ss.killed),
             "unmatched": len(ss.mauled), "entryways": ss.free_entryways, "unused": ss.unused, "hits": len(ss.hits)}
            for ss in score(state).sheets]


def as_tallies(data: dict, counts: list) -> dict:
    """The record with its segments left on paper: Traps only, and the counts."""
    out = copy.deepcopy(data)
    for rd in out["rounds"]:
        rd["drawings"] = [[d for d in drawn if "trap" in d] for drawn in rd["drawings"]]
    out["tallies"] = counts
    return out


def test_tallies_of_a_drawn_map_score_as_the_map_and_are_never_refused():
    """The counts a drawn map gives score what the map scores, and none is a violation (the golden
    games, scored by hand, and random games on both sides with 1 to 4 players)."""
    games = [record.read(GOLDEN / f"deadly-{name}.json") for name in ("solo", "duel", "traps", "tie")]
    states = [record.replay(rec).state for rec in games]
    for seed in range(40):
        states.append(randomplay.random_game(find_game("deadly"), seed, 1 + seed % 4, map="ab"[seed % 2]))
    for state in states:
        data = record.from_state(state)
        tally = record.parse(as_tallies(data, tallies_of(state)), "t.json")
        assert tally.game().tallies and all(a.kind == "trap" for rd in tally.rounds for d in rd.drawings for a in d)
        rp = record.replay(tally)
        assert rp.violations == [] and rp.finished
        assert rp.state.scores() == state.scores()
        assert score(rp.state).winners == score(state).winners


def impossible() -> dict:
    """Three players, one round: P1's Trap in A4 (an entryway room), P2's and P3's both in C2."""
    return {"format": "doodlebox-record/1", "edition": "deadly", "map": "a", "players": ["Ann", "Ben", "Cat"],
            "rounds": [{"revealed": [STRAIGHT, CORNER, TRAP1, TEE],
                        "drawings": [[{"card": "trap", "trap": "A4"}], [{"card": TRAP1, "trap": "C2"}],
                                     [{"card": "trap", "trap": "C2"}]]}],
            "tallies": [
                {"loot": 5, "dragon": 2, "weapons": 7, "matched": 4, "unmatched": 3, "entryways": 0, "unused": 4,
                 "hits": 2},
                {"loot": 1, "dragon": 1, "weapons": 1, "matched": 2, "unmatched": 0, "entryways": 6, "unused": 0,
                 "hits": 0},
                {"loot": 0, "dragon": 0, "weapons": 0, "matched": 0, "unmatched": 0, "entryways": 6, "unused": 3,
                 "hits": 2}]}


def test_impossible_tallies_are_violations_and_score_as_given():
    rp = record.replay(record.parse(impossible(), "t.json"))
    found = [(v.player, v.place, v.rule) for v in rp.violations]
    assert found == [(0, "tallies[0].loot", "tally"), (0, "tallies[0].dragon", "tally"),
                     (0, "tallies[0].weapons", "tally"), (0, "tallies[0].unmatched", "tally"),
                     (0, "tallies[0].entryways", "tally"), (0, "tallies[0].unused", "tally"),
                     (0, "tallies[0].hits", "tally"),
                     (1, "tallies[1].matched", "tally"), (1, "tallies[1]", "tally"), (1, "tallies[1].hits", "tally")]
    why = {v.place: v.reason for v in rp.violations}
    assert why["tallies[0].loot"] == "5 Loot rooms entered, but the map has 4 Loot rooms"
    assert why["tallies[0].unmatched"] == "4 Monsters matched and 3 not, but the map has 6"
    assert why["tallies[0].entryways"].startswith(
        "0 entryways not linked, but the arrows of your Trap rooms (A4) are 1")
    assert why["tallies[0].unused"] == "4 path segments unused, but 3 path segments were revealed"
    assert why["tallies[0].hits"] == "2 Traps that hit you, but no Trap drawn can hit you"   # C2's are erased
    assert why["tallies[1].matched"].startswith("2 Monsters matched with a Weapon, but only 1 Weapon rooms")
    assert why["tallies[1]"] == ("5 rooms with Loot, the Dragon, Weapons or Monsters entered, but only 3 path "
                                 "segments drawn (3 revealed, 0 unused)")
    assert why["tallies[1].hits"].startswith("0 Traps that hit you, but 1 of your Traps share their room")
    v = rp.violations[0]
    assert (v.round, v.turn, v.sentence) == (1, 0, sentences.sentence("tally")) and v.legal == ["loot 0 to 4"]
    assert "loot 5, dragon 2" in v.action
    # scored as given: 5 x 2 x 2 + 7 + 4 x 4 - 2 x 3 + 0 - 2 x 4 - 3 x 2; 4 + 1 + 8 + 6 - 0; 6 - 6 - 6
    assert rp.state.scores() == [23, 19, -6]
    sheet = score(rp.state).sheets[0]
    assert [p for _, p in sheet.items] == [20, 7, 16, -6, 0, -8, -6] and sheet.counts is not None
    assert sheet.items[0][0] == "1. Loot: 5 entered x 2, doubled: the Dragon was entered"


def test_a_tally_record_holds_only_traps():
    data = impossible()
    data["rounds"][0]["drawings"][1].append({"card": STRAIGHT, "room": "E1", "ends": ["N", "S"]})
    with pytest.raises(RecordError, match=r"^t.json: rounds\[0\].drawings\[1\]\[1\]: a path segment in a record "
                                          r"with \"tallies\""):
        record.parse(data, "t.json")
    for change, place, what in [
            (lambda d: d.update(tallies=[None, None]), "tallies", "is not a list of 3 tallies"),
            (lambda d: d.update(tallies={}), "tallies", "is not a list of 3 tallies"),
            (lambda d: d["tallies"].__setitem__(1, [1, 2]), "tallies[1]", "is not an object with the counts"),
            (lambda d: d["tallies"][0].pop("hits"), "tallies[0].hits", "missing"),
            (lambda d: d["tallies"][0].update(hits=-1), "tallies[0].hits", "-1 is not a count (0 or more)"),
            (lambda d: d["tallies"][0].update(hits="2"), "tallies[0].hits", "'2' is not a whole number"),
            (lambda d: d["tallies"][0].update(gold=1), "tallies[0].gold", "unknown field")]:
        data = impossible()
        change(data)
        with pytest.raises(RecordError) as exc:
            record.parse(data, "t.json")
        assert str(exc.value).startswith(f"t.json: {place}: {what}"), str(exc.value)
    s = Game(maps.load("a"), DECK, 2, tallies=True).new_state()
    for c in (STRAIGHT, CORNER, TRAP1, TEE):
        s.apply(Reveal(c))
    assert refused(s, Place(STRAIGHT, "E1", "NS")).rule == "tally"      # segments are drawn on paper
    assert s.legal_actions(0) == [a for a in s.legal_actions(0) if a.kind == "trap"]
    assert refused(s, DONE).rule == "trap_must"                          # a Trap is still entered
    s.apply(Trap(TRAP1, "A4"), 0)
    s.apply(DONE, 0)
    assert s.boards[0].unused == []                                      # nothing unused by the engine
    assert score(s).sheets[1].items == [("the counts of the scoring section are entered after round 7", 0)]
    with pytest.raises(IllegalAction) as exc:
        state_with([STRAIGHT, CORNER, TEE, DEAD]).set_counts(0, None)
    assert exc.value.rule == "tally"


def test_a_player_still_drawing_leaves_nothing_unused():
    """The last round may name the players still drawing ("unfinished": a game in progress)."""
    data = minimal()
    assert [v.rule for v in record.replay(record.parse(data, "m.json")).violations] == ["unused"]
    data["rounds"][0]["unfinished"] = [0]
    rp = record.replay(record.parse(data, "m.json"))
    assert rp.violations == [] and rp.state.boards[0].unused == [] and rp.state.to_act() == [0]
    assert record.from_state(rp.state)["rounds"][0]["unfinished"] == [0]
    for value, what in (([1], "1 is not between 0 and 0"), ([0, 0], "player 0 twice"), (0, "is not a list")):
        data["rounds"][0]["unfinished"] = value
        with pytest.raises(RecordError, match=what):
            record.parse(data, "m.json")
    two = minimal(rounds=[minimal()["rounds"][0], {"revealed": ["straight", "corner", "cross", "dead end"],
                                                    "drawings": [[]]}])
    two["rounds"][0]["unfinished"] = [0]
    with pytest.raises(RecordError, match=r"rounds\[0\].unfinished: only the last round"):
        record.parse(two, "m.json")


def test_reports_and_the_picture_of_a_tally_record(tmp_path):
    rp = record.replay(record.read(GOLDEN / "deadly-traps.json"))
    data = as_tallies(record.from_state(rp.state, rp.record.players), tallies_of(rp.state))
    tally = record.replay(record.parse(data, "t.json"))
    text = report.sheets_text(tally)
    assert "P1 Ann: path segments on paper, counted by the player, Traps in C4, F6" in text
    assert "+12  1. Loot: 3 entered x 2, doubled: the Dragon was entered" in text
    assert report.table_text(tally).splitlines()[1:] == report.table_text(rp).splitlines()[1:]
    js = report.as_json(tally)
    assert js["drawings"] == "tallies" and js["sheets"][0]["tallies"] == tallies_of(rp.state)[0]
    m = rp.record.map
    geo = render.map_geometry(m)
    path = render.render_sheet(tally.state, 0, tmp_path / "ann.png", "Ann")
    _, _, px = read_png(path)
    sq, half = render.SQ, render.SQ // 2
    x, y = geo.rooms[m.room("C6")]         # Ann's path in C6 is on paper: nothing drawn there
    assert px(x + half, y + 10) == 255 and px(x + half, y + sq - 10) == 255
    x, y = geo.rooms[m.room("C4")]         # her Trap: a black X
    assert px(x + half, y + half) == 0
    x, y = geo.rooms[m.room("F6")]         # erased, Ben's is there too: grey
    assert px(x + half, y + half) == render.ERASED
