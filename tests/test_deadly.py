"""Deadly Doodles (rules/deadly): the maps and the deck as data with their checkers, the seeded
deal, every rule the engine refuses with its reason (the random playouts and record round trips
of every game are test_game_api.py), unreadable records, the reports, the map picture and the CLI.
Golden games scored by hand are tests/test_golden_deadly.py."""
from __future__ import annotations

import copy
import json
import random
from collections import deque
from pathlib import Path

import pytest

import randomplay
from cli_run import ROOT
from doodlebox import cli
from doodlebox.drawing.png import png_pixels
from doodlebox.rules.common import RecordError, Violation
from doodlebox.rules.deadly import deck as decks
from doodlebox.rules.deadly import maps, record, render, report, sentences
from doodlebox.rules.deadly.engine import CHANCE, DONE, TERMINAL, Game, IllegalAction, Place, Reveal, State, Trap, score
from doodlebox.rules.deadly.maps import OPPOSITE, E, N, S, W
from doodlebox.rules.games import find_game

LAYOUTS = ROOT / "host" / "doodlebox" / "layouts"
GOLDEN = ROOT / "tests" / "golden"
DECK = decks.load()
STRAIGHT, CORNER, TEE, CROSS, DEAD = 1, 9, 19, 25, 29     # the first card of each kind (ids)
TRAP1, TRAP2, D2A, D2B = 33, 34, 35, 36


def state_with(cards, players=2, side="a") -> State:
    """A new game whose first round reveals `cards` (ids; with Draw 2s, as many as they call for)."""
    s = Game(maps.load(side), DECK, players).new_state()
    for c in cards:
        s.apply(Reveal(c))
    return s


def refused(s: State, action, player=0) -> IllegalAction:
    with pytest.raises(IllegalAction) as exc:
        s.apply(action, player)
    assert exc.value.sentence == sentences.sentence(exc.value.rule) != ""
    return exc.value


# -- maps --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("side", ["a", "b"])
def test_both_sides_agree_with_every_fact_the_rulebook_gives(side):
    m = maps.load(side)
    assert "reconstruction" in m.reconstructed and m.spec == side
    assert (m.columns, m.rows) == (6, 6)
    assert m.entryway_count() == 6 and len(m.loot) == 4 and m.contents[m.dragon] == "dragon"
    assert sorted(m.weapons) == sorted(m.monsters) == list("ABCDEF")
    assert sum(1 for k in m.contents if k) == 4 + 1 + 12
    for i in range(m.size):
        for bit in (N, E, S, W):
            j = m.neighbours[i][bit]
            if j < 0:   # the outer edge: a wall unless it is an entryway
                assert bool(m.passages[i] & bit) == bool(m.entries[i] & bit)
            else:       # a wall or a passageway is the same seen from either room
                assert bool(m.passages[i] & bit) == bool(m.passages[j] & OPPOSITE[bit])
    # every room can be reached from an entryway through passageways
    seen = {i for i in range(m.size) if m.entries[i]}
    todo = deque(seen)
    while todo:
        i = todo.popleft()
        for bit in (N, E, S, W):
            j = m.neighbours[i][bit]
            if j >= 0 and m.passages[i] & bit and j not in seen:
                seen.add(j)
                todo.append(j)
    assert len(seen) == m.size


def test_rooms_are_named_as_printed():
    m = maps.load("a")
    assert m.room("A1") == 0 and m.room("F1") == 5 and m.room("A2") == 6 and m.room("C4") == 20
    assert m.room_name(20) == "C4" and m.find("c4") == 20 and m.find("G1") is None and m.find(7) is None
    assert m.describe(m.room("D3")) == "the Dragon" and m.describe(m.room("E4")) == "Monster A"
    assert m.walls[m.room("B1")] & E and m.entries[m.room("B1")] == N


def test_map_checker_names_every_problem_with_its_place():
    data = json.loads((LAYOUTS / "deadly-map-a.json").read_text())
    data["entryways"][0] = {"room": "C3", "side": "N"}
    data["entryways"][1]["side"] = "up"
    data["walls"][0] = ["A1", "C1"]
    data["walls"].append(["D2", "D1"])
    data["loot"][1] = "Z9"
    data["dragon"] = "D1"
    data["weapons"]["G"] = "A2"
    del data["monsters"]["F"]
    data["colour"] = "red"
    problems = dict(maps.check(data))
    assert "C3 is inside the dungeon" in problems["entryways[0]"].replace("N side of ", "")
    assert "'up' is not a side" in problems["entryways[1].side"]
    assert "entryways" not in problems             # still six listed
    assert "not neighbouring" in problems["walls[0]"]
    assert "listed twice" in problems[f"walls[{len(data['walls']) - 1}]"]
    assert "Z9" in problems["loot[1]"]
    assert "already holds Loot" in problems["dragon"]
    assert "pair letter" in problems["weapons.G"]
    assert "no Monster F" in problems["monsters"]
    assert "unknown field" in problems["colour"]
    with pytest.raises(maps.MapError) as exc:
        maps.parse(data, "mine.json")
    assert str(exc.value).startswith("mine.json: ") and "more: doodlebox layout check" in str(exc.value)
    assert maps.check([]) == [("map", "is not a JSON object")]
    data = json.loads((LAYOUTS / "deadly-map-a.json").read_text())
    del data["entryways"][5], data["loot"][0], data["columns"]
    problems = dict(maps.check(data))
    assert problems == {"columns": "missing", "entryways": "5 entryways; the dungeon has 6",
                        "loot": "3 Loot rooms; the dungeon has 4"}


def test_a_map_of_your_own_may_have_another_size():
    data = json.loads((LAYOUTS / "deadly-map-a.json").read_text())
    data.update(columns=7, name="my board")
    data["entryways"][2] = {"room": "G2", "side": "E"}   # F2's east side now leads to G2
    assert maps.check(data) == []
    m = maps.parse(data)
    assert m.size == 42 and m.room("G6") == 41 and m.room_name(7) == "A2"
    assert m.passages[m.room("F2")] & E and not m.entries[m.room("F2")]


# -- the deck and the deal ------------------------------------------------------------------------------
def test_the_deck_is_36_cards_with_ids_in_file_order():
    assert len(DECK.ids) == 36 and "chosen by doodlebox" in DECK.reconstructed
    assert DECK.counts == {"straight": 8, "corner": 10, "tee": 6, "cross": 4, "dead end": 4, "trap": 2, "draw 2": 2}
    assert [DECK.kind_of[c] for c in (STRAIGHT, CORNER, TEE, CROSS, DEAD, TRAP1, D2A)] == \
        ["straight", "corner", "tee", "cross", "dead end", "trap", "draw 2"]
    assert len(DECK.cards(solo=True)) == 34 and TRAP1 not in DECK.cards(solo=True)
    assert DECK.turns["cross"] == (15,) and len(DECK.turns["straight"]) == 2 and len(DECK.turns["dead end"]) == 4


def test_deck_checker_names_every_problem():
    data = json.loads((LAYOUTS / "deadly-deck.json").read_text())
    data["cards"][0]["count"] = 7                    # one straight less
    data["cards"][2]["ends"] = ["N", "N"]
    data["cards"].append({"kind": "bend", "count": 1, "ends": ["E", "S"]})   # a corner turned
    data["cards"][5]["count"] = 3                    # three Traps
    data["cards"][6]["ends"] = ["N"]
    assert decks.check(data) == [
        ("cards[2].ends", "['N', 'N'] is not a list of 1 to 4 different sides (N, E, S, W)"),
        ("cards[6].ends", "a draw 2 card is not a path segment: it has no ends"),
        ("cards[7].ends", "a bend is a corner turned: one kind per shape"),
        ("cards", "37 cards; the game has 36"),
        ("cards", "3 trap cards; the game has 2")]
    assert decks.check(json.loads((LAYOUTS / "deadly-deck.json").read_text())) == []


def test_reveal_round_follows_draw_2_chains():
    order = [D2A, STRAIGHT, CORNER, TEE, D2B, CROSS, DEAD, STRAIGHT + 1, CORNER + 1]
    # the first Draw 2 calls two more (6), the Draw 2 among those two more again (8)
    assert decks.reveal_round(DECK, order, 0) == order[:8]
    assert decks.reveal_round(DECK, [STRAIGHT, CORNER, TEE, CROSS, D2A], 0) == [STRAIGHT, CORNER, TEE, CROSS]


@pytest.mark.parametrize("players", [1, 3])
def test_the_seeded_deal(players):
    for seed in range(40):
        rounds = decks.deal(DECK, seed, players)
        assert len(rounds) == 7
        flat = [c for rd in rounds for c in rd]
        assert len(flat) == len(set(flat))
        for rd in rounds:
            assert len(rd) == 4 + 2 * sum(DECK.kind_of[c] == "draw 2" for c in rd)
        if players == 1:
            assert not any(DECK.kind_of[c] == "trap" for c in flat)
    assert decks.deal(DECK, 5, 2) == decks.deal(DECK, 5, 2) != decks.deal(DECK, 6, 2)


# -- the engine: who acts, chance -------------------------------------------------------------------------
def test_chance_reveals_until_the_round_is_out_then_everyone_draws():
    s = Game(maps.load("a"), DECK, 2).new_state()
    assert s.current_player() == CHANCE and s.is_chance_node() and s.round == 0
    outcomes = s.chance_outcomes()
    assert len(outcomes) == 36 and abs(sum(p for _, p in outcomes) - 1) < 1e-9
    s.apply(Reveal(D2A))
    assert s.round == 1 and s.to_reveal == 5
    for c in (STRAIGHT, CORNER, TEE, CROSS, DEAD):
        assert s.current_player() == CHANCE
        s.apply(Reveal(c))
    assert s.current_player() == 0 and s.to_act() == [0, 1]
    assert s.open_cards(0) == [STRAIGHT, CORNER, TEE, CROSS, DEAD]
    assert refused(s, Reveal(TRAP1)).rule == "order"


def test_reveal_refusals():
    s = state_with([])
    s.apply(Reveal(STRAIGHT))
    assert refused(s, Reveal(STRAIGHT)).rule == "reveal"
    assert "no card 37" in refused(s, Reveal(37)).reason
    solo = Game(maps.load("a"), DECK, 1).new_state()
    assert "removed for a solo game" in refused(solo, Reveal(TRAP1)).reason
    assert refused(s, Place(STRAIGHT, "B1", "NS")).rule == "order"


def test_players_draw_independently_and_the_round_ends_when_all_are_done():
    s = state_with([STRAIGHT, CORNER, TEE, TRAP1])
    s.apply(Place(STRAIGHT, "B1", "NS"), 1)        # player 2 may go first
    s.apply(Trap(TRAP1, "C2"), 1)
    with pytest.raises(IllegalAction) as exc:
        s.apply(DONE, 1)                          # the corner and the tee can still be drawn
    assert exc.value.rule == "unused" and "card 9 (corner)" in exc.value.reason
    s.force_done(1)
    assert [c for _, c in s.boards[1].unused] == [CORNER, TEE]
    assert refused(s, Place(CORNER, "B2", "NE"), 1).rule == "done"
    assert s.current_player() == 0
    s.apply(Place(STRAIGHT, "E1", "NS"), 0)
    s.apply(Place(CORNER, "E2", "NW"), 0)
    s.apply(Trap(TRAP1, "A2"), 0)
    tee = [a for a in s.legal_actions(0) if a.card == TEE]
    assert tee and DONE not in s.legal_actions(0)
    s.apply(tee[0], 0)
    assert s.legal_actions(0) == [DONE]
    s.apply(DONE, 0)
    assert s.is_chance_node() and s.round == 1 and s.revealed == []


def test_seven_rounds_then_the_game_is_over():
    s = Game(maps.load("a"), DECK, 1).new_state()
    rng = random.Random(3)
    randomplay.play_random(s, rng)
    assert s.is_terminal() and s.current_player() == TERMINAL and s.round == 7
    assert refused(s, DONE).rule == "over" and s.legal_actions() == [] and s.chance_outcomes() == []


# -- the engine: the drawing rules ---------------------------------------------------------------------
def test_first_segment_must_link_to_an_entryway():
    s = state_with([STRAIGHT, CORNER, DEAD, CROSS])
    e = refused(s, Place(STRAIGHT, "B2", "NS"))
    assert e.rule == "entry" and "first path segment" in e.reason
    assert "card 1 (straight) at B1 opening N S" in e.legal
    s.apply(Place(STRAIGHT, "B1", "NS"))          # B1's arrow is on its N side
    s.apply(Place(CORNER, "B2", "NE"))            # links: B1 opens S, B2 opens N
    e = refused(s, Place(DEAD, "D5", "E"))
    assert e.rule == "entry" and "neither" in e.reason
    s.apply(Place(DEAD, "F2", "E"))               # a new path at another entryway (F2 E)


def test_ends_must_be_on_passageways_never_on_a_wall():
    s = state_with([STRAIGHT, CORNER, DEAD, CROSS])
    e = refused(s, Place(CORNER, "B1", "NE"))     # B1|C1 is a wall
    assert e.rule == "wall" and "the E side of B1 is a wall (to C1)" in e.reason
    e = refused(s, Place(STRAIGHT, "A4", "NS"))   # A4's N and S are passageways, but it does not link
    assert e.rule == "entry"
    e = refused(s, Place(DEAD, "A1", "N"))        # the dead end's one end on the outer wall
    assert e.rule == "wall" and "outer wall" in e.reason
    s.apply(Place(CROSS, "A4", "NESW"))           # every side of A4 is a passageway or its arrow


def test_the_segment_must_have_its_cards_shape_in_some_rotation():
    s = state_with([STRAIGHT, CORNER, TEE, DEAD])
    e = refused(s, Place(STRAIGHT, "B1", "NW"))
    assert e.rule == "shape" and "a straight opens on 2 opposite sides (N S or E W)" in e.reason
    assert refused(s, Place(CORNER, "B1", "NS")).rule == "shape"
    assert refused(s, Place(TEE, "B1", "NESW")).rule == "shape"
    assert refused(s, Place(DEAD, "B1", "NN")).rule == "shape"
    assert refused(s, Place(DEAD, "B1", "")).rule == "shape"
    for ends in ("NW", "WN", ["W", "N"]):          # the order of the ends does not matter
        assert Place(CORNER, "B1", ends).ends == "NW"
    s.apply(Place(CORNER, "B1", "WN"))


def test_one_segment_per_room_and_none_in_a_room_with_your_trap():
    s = state_with([STRAIGHT, STRAIGHT + 1, TRAP1, CORNER])
    s.apply(Place(STRAIGHT, "B1", "NS"))
    e = refused(s, Place(STRAIGHT + 1, "B1", "NS"))
    assert e.rule == "one_per_room" and "round 1" in e.reason
    s.apply(Place(STRAIGHT + 1, "B2", "NS"))
    s.apply(Trap(TRAP1, "B3"))
    e = refused(s, Place(CORNER, "B3", "NE"))     # B3 NE would link B2, but it holds her Trap
    assert e.rule == "own_trap" and "B3 holds your Trap" in e.reason
    for a in (Place(STRAIGHT, "B1", "NS"), Place(STRAIGHT + 1, "B2", "NS"), Place(CORNER, "B3", "NE")):
        s.apply(a, 1)                             # another player's map: B3 is free there


def test_traps_go_in_empty_rooms_entryway_rooms_included():
    s = state_with([TRAP1, TRAP2, STRAIGHT, CORNER])
    for room, why in (("D1", "Loot"), ("D3", "the Dragon"), ("A1", "Weapon A"), ("E4", "Monster A")):
        e = refused(s, Trap(TRAP1, room))
        assert e.rule == "trap_room" and f"{room} holds {why}" in e.reason
    s.apply(Place(STRAIGHT, "B1", "NS"))
    assert "your path" in refused(s, Trap(TRAP1, "B1")).reason
    s.apply(Trap(TRAP1, "E1"))                    # an entryway room is allowed
    assert "already set a Trap" in refused(s, Trap(TRAP2, "E1")).reason
    assert refused(s, Trap(CORNER, "C2")).rule == "segment_card"
    assert refused(s, Place(TRAP2, "C2", "NS")).rule == "trap_card"


def test_cards_must_be_this_rounds_and_each_drawn_once():
    s = state_with([D2A, STRAIGHT, CORNER, TEE, CROSS, DEAD])
    e = refused(s, Place(D2A, "B1", "NS"))
    assert e.rule == "draw2" and "discarded" in e.reason
    assert refused(s, Place(STRAIGHT + 1, "B1", "NS")).rule == "card"
    s.apply(Place(STRAIGHT, "B1", "NS"))
    e = refused(s, Place(STRAIGHT, "B2", "NS"))
    assert e.rule == "card" and "already drawn" in e.reason
    assert refused(s, Place(CORNER, "Z9", "NE")).rule == "room"
    assert refused(s, DONE, 7).rule == "player"


def test_an_end_may_face_a_segment_that_does_not_open_back():
    """Ruling D2: two segments link when both open onto the passageway between them. An end
    facing a room whose segment does not open there is still on a passageway: allowed, but it
    is no link."""
    s = state_with([STRAIGHT, CORNER, CORNER + 1, CORNER + 2])
    s.apply(Place(STRAIGHT, "B1", "NS"))           # from B1's entryway
    s.apply(Place(CORNER, "B2", "NW"))             # links B1
    s.apply(Place(CORNER + 1, "A2", "NE"))         # links B2
    s.apply(Place(CORNER + 2, "A1", "ES"))         # links A2; its E end faces B1, which opens N S
    assert s.boards[0].paths[s.game.map.room("A1")] == E | S
    s2 = state_with([STRAIGHT, CORNER, CORNER + 1, CORNER + 2])
    s2.apply(Place(STRAIGHT, "B1", "NS"))
    e = refused(s2, Place(CORNER, "A1", "ES"))     # facing B1 alone is no link
    assert e.rule == "entry"


def test_segments_drawn_earlier_in_the_round_count_for_linking():
    s = state_with([STRAIGHT, STRAIGHT + 1, CORNER, DEAD])
    e = refused(s, Place(STRAIGHT + 1, "B2", "NS"))    # nothing in B1 yet
    assert e.rule == "entry"
    s.apply(Place(STRAIGHT, "B1", "NS"))
    s.apply(Place(STRAIGHT + 1, "B2", "NS"))           # links B1, drawn a moment ago
    s.apply(Place(CORNER, "B3", "NE"))                 # links B2
    s.apply(Place(DEAD, "C3", "W"))                    # links B3's E end
    assert s.boards[0].segments() == 4


def test_must_draw_every_card_that_can_still_be_drawn():
    """Ruling D4/D5: DONE is refused while a revealed segment or Trap can still be drawn."""
    s = state_with([TRAP1, STRAIGHT, CORNER, DEAD])
    e = refused(s, DONE)
    assert e.rule == "unused" and "card 33 (trap)" in e.reason and e.legal
    s.apply(Place(STRAIGHT, "B1", "NS"))
    s.apply(Place(CORNER, "B2", "NE"))
    s.apply(Place(DEAD, "C2", "W"))
    e = refused(s, DONE)
    assert e.rule == "trap_must"
    s.apply(Trap(TRAP1, "C1"))
    s.apply(DONE)
    assert s.boards[0].unused == []


def test_a_segment_or_trap_that_fits_nowhere_is_left():
    s = state_with([CROSS, TRAP1, CORNER, STRAIGHT])
    m = s.game.map
    b = s.boards[0]
    for i in range(m.size):                       # a map with a path in every room (set directly)
        b.paths[i] = m.passages[i]
    assert s.trap_rooms(0) == [] and not s.drawable(0, TRAP1) and not s.drawable(0, CROSS)
    s.apply(DONE)                                  # nothing can be drawn: the Trap is just left
    assert [c for _, c in b.unused] == [CROSS, CORNER, STRAIGHT]


def test_legal_actions_are_exactly_what_apply_accepts():
    """Every card, room and set of sides: check() accepts it exactly when legal_actions() lists it."""
    s = state_with([D2A, STRAIGHT, TEE, TRAP1, CROSS, DEAD])
    rng = random.Random(2)
    g = s.game
    for _ in range(2):
        legal = set(s.legal_actions(0))
        for c in s.open_cards(0):
            kind = g.deck.kind_of[c]
            for name in g.map.by_name:
                if kind == "trap":
                    tries = [Trap(c, name)]
                else:
                    tries = [Place(c, name, maps.sides_text(m)) for m in range(1, 16)]
                for a in tries:
                    try:
                        s.check(a, 0)
                        ok = True
                    except IllegalAction:
                        ok = False
                    assert ok == (a in legal), a
        try:
            s.check(DONE, 0)
            assert DONE in legal
        except IllegalAction:
            assert DONE not in legal
        s.apply(rng.choice(sorted(legal)), 0)


def test_clone_is_independent():
    s = state_with([STRAIGHT, CORNER, TEE, TRAP1])
    c = s.clone()
    c.apply(Place(STRAIGHT, "B1", "NS"))
    c.apply(Trap(TRAP1, "C2"), 1)
    assert s.boards[0].segments() == 0 and not any(s.boards[1].trap) and s.used[0] == set()
    assert c.boards[0].segments() == 1 and len(c.history) == len(s.history) + 2


# -- scoring ----------------------------------------------------------------------------------------------
def test_scores_at_any_time_and_winners():
    s = state_with([STRAIGHT, CORNER, TEE, DEAD])
    s.apply(Place(STRAIGHT, "E1", "NS"), 0)        # E1 N linked, E1 plain
    s.apply(Place(TEE, "E2", "NES"), 0)             # Weapon D
    res = score(s)
    assert [p for _, p in res.sheets[0].items] == [0, 1, 0, 0, 5, 0, 0]
    assert [p for _, p in res.sheets[1].items] == [0, 0, 0, 0, 6, 0, 0]
    assert res.winners == [0, 1]                   # 6 each: a tie shares the win (ruling D11)

    solo = state_with([STRAIGHT, CORNER, TEE, DEAD], players=1)
    assert score(solo).winners == []


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
    """In this process (tests/test_golden_deadly.py runs the command as its own process)."""
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
