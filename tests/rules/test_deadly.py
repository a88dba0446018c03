"""Deadly Doodles (rules/deadly): the maps and the deck as data with their checkers, the seeded
deal, every rule the engine refuses with its reason, and scoring (the random playouts and record
round trips of every game are test_game_api.py). Records, reports, the map picture, the CLI and
tallies are tests/rules/test_deadly_records.py; golden games scored by hand tests/rules/test_golden_deadly.py."""
from __future__ import annotations

import json
import random
from collections import deque

import pytest
import randomplay
from cli_run import ROOT

from doodlebox.rules.deadly import deck as decks
from doodlebox.rules.deadly import maps, sentences
from doodlebox.rules.deadly.engine import CHANCE, DONE, TERMINAL, Game, IllegalAction, Place, Reveal, State, Trap, score
from doodlebox.rules.deadly.maps import OPPOSITE, E, N, S, W

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
