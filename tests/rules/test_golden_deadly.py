"""Deadly Doodles games scored by hand from the rulebook, item by item, before the engine was run.

tests/golden/deadly-solo.json    solo, map side A; a Draw 2 chain in round 3 (both Draw 2s: 8 cards
                                 revealed, 6 in play); segments no room can take (unused)
tests/golden/deadly-duel.json    2 players, map side B; one Draw 2; each player's Traps hit the other
tests/golden/deadly-traps.json   3 players, map side A, cards by id; two Traps in the same
                                 coordinates (erased before anyone else is hit), a Trap that hits
                                 two players, a Trap that hits nobody
tests/golden/deadly-tie.json     4 players drawing the same map: four Traps in the same coordinates,
                                 twice; a four-way tie shares the win (ruling D11)

Map side A (host/doodlebox/layouts/deadly-map-a.json): Loot D1 A3 F4 B6, Dragon D3, Weapons
A1=A C3=B E5=C E2=D B4=E D6=F, Monsters E4=A F1=B B2=C A5=D F3=E C5=F, entryways B1 N, E1 N,
F2 E, A4 W, C6 S, F6 S.
Map side B: Loot B1 E2 B5 D6, Dragon D3, Weapons C4=A F1=B A2=C C5=D E3=E A6=F, Monsters
D1=A A4=B F4=C C2=D E5=E B3=F, entryways C1 N, F2 E, A3 W, F5 E, B6 S, E6 S.

Scoring (rulebook, "Scoring"): 1 Loot +2 per room entered, doubled with the Dragon's room;
2 Weapons +1; 3 Monsters whose Weapon was scored in 2: +4; 4 the other Monsters entered: -2;
5 +1 per entryway arrow not linked to a segment; 6 -2 per unused segment; 7 -3 per Trap hit.
Each expectation below is [item 1, ..., item 7], then the total.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_run import validate_all

from doodlebox import cli
from doodlebox.rules.deadly import record
from doodlebox.rules.deadly.engine import score

GOLDEN = Path(__file__).resolve().parents[1] / "golden"

# ---------------------------------------------------------------------------------------------
# deadly-solo.json: Sol, map A. Rounds (revealed kinds; what Sol drew):
#  R1 straight corner corner dead-end: C6 NS (from entryway C6 S), C5 ES, D5 SW, D6 N (dead end)
#     -> every end is linked: nothing dangles, so R2 must start at other entryways
#  R2 tee straight corner cross: A4 cross (entryway A4 W), E1 NES (entryway E1 N), F1 SW, E2 NS
#  R3 straight corner tee DRAW2 DRAW2 corner dead-end straight: the 4th card is a Draw 2 (2 more),
#     the 5th is the other Draw 2 (2 more again): 8 revealed, 6 in play.
#     A3 ES, B3 ESW, C3 EW, D3 SW (the Dragon), B4 W (dead end into A4), F2 NS (does not open E)
#  R4 corner tee straight cross: D4 NEW, E3 NE, A5 NS; the cross needs a room open on all four
#     sides that links: the only empty one, B2, has no segment of Sol's opening onto it -> unused
#  R5 corner corner straight tee: E4 SW, C4 EW, F3 NW, E5 NEW
#  R6 straight corner tee dead-end: A6 NE, F5 NSW, B6 EW, F4 S
#  R7 straight corner cross cross: F6 NS (entryway F6 S), B1 NW (entryway B1 N); both crosses:
#     again only B2 is open on four sides, and B1 NW does not open S -> 2 unused
# 27 segments. Rooms entered: C6 C5 D5 D6 A4 E1 F1 E2 A3 B3 C3 D3 B4 F2 D4 E3 A5 E4 C4 F3 E5
# A6 F5 B6 F4 F6 B1.
#  1. Loot A3 B6 F4 (not D1) = 3 x 2 = 6; D3 entered -> doubled = 12
#  2. Weapons B (C3) C (E5) D (E2) E (B4) F (D6); not A (A1) = 5
#  3. Monsters entered: A (E4) B (F1) D (A5) E (F3) F (C5); with their Weapon: B D E F = 4 x 4 = 16
#  4. A without its Weapon = -2
#  5. Entryways: B1 N linked, E1 N linked, F2 E not (F2 is NS), A4 W linked, C6 S linked,
#     F6 S linked = 1
#  6. 3 unused = -6      7. solo: no Traps = 0          total 12+5+16-2+1-6+0 = 26
SOLO = {"Sol": ([12, 5, 16, -2, 1, -6, 0], 26)}

# ---------------------------------------------------------------------------------------------
# deadly-duel.json: Ann (P1) and Ben (P2), map B.
#  R1 straight corner corner tee   Ann: C1 NEW (entry C1 N), B1 ES, D1 SW, D2 NS
#                                  Ben: E6 NS (entry E6 S), E5 ES, F5 NSW, F4 SW
#  R2 TRAP straight dead-end corner Ann: D3 NE, E3 EW, B2 N, Trap E4
#                                  Ben: F6 N, E4 NE, E3 NS, Trap D2
#  R3 corner DRAW2 straight tee + corner cross (5 in play)
#                                  Ann: F3 NW, F2 cross, F1 SW, E2 NES, E1 EW
#                                  Ben: E2 NES, F2 cross, F1 SW, E1 EW, F3 NW
#  R4 corner straight dead-end tee Ann (no end dangles: new path at A3 W): A3 ESW, B3 SW, A4 NS, A5 N
#                                  Ben: D1 ESW, C1 EW (C1's arrow not linked), B1 ES, B2 N
#  R5 TRAP corner straight cross   Ann: B4 cross, B5 NE, C4 EW, Trap E6 (an entryway room)
#                                  Ben: A3 cross (entry A3 W), A2 ES, A4 NS, Trap B4
#  R6 straight corner tee dead-end Ann: C5 NEW, D4 EW, D5 SW, D6 N
#                                  Ben: B3 ESW, A5 NS, A6 NE, C3 W
#  R7 corner straight tee cross    Ann: F5 cross (entry F5 E), E5 ES, B6 NS (entry B6 S); the tee:
#                                  no empty room open on three sides links any more -> unused
#                                  Ben: B6 cross (entry B6 S), B5 NES, C5 NW, C4 NS
# Traps: Ann E4, E6; Ben D2, B4 - no shared coordinates. Ben has paths in E4 and E6 (hit twice);
# Ann has paths in D2 and B4 (hit twice).
# Ann, 26 segments: C1 B1 D1 D2 D3 E3 B2 F3 F2 F1 E2 E1 A3 B3 A4 A5 B4 B5 C4 C5 D4 D5 D6 F5 E5 B6
#  1. Loot B1 E2 B5 D6 = 4 x 2 = 8, Dragon D3 entered -> 16
#  2. Weapons A (C4) B (F1) D (C5) E (E3); not C (A2) F (A6) = 4
#  3. Monsters entered A (D1) B (A4) E (E5) F (B3); with Weapon A B E = 12
#  4. F without its Weapon = -2
#  5. C1 N linked, F2 E linked (cross), A3 W linked, F5 E linked, B6 S linked, E6 S: a Trap, no
#     path = 1 not linked -> 1
#  6. 1 unused (the tee) = -2     7. 2 hits = -6       total 16+4+12-2+1-2-6 = 23
# Ben, 27 segments: E6 E5 F5 F4 F6 E4 E3 E2 F2 F1 E1 D1 C1 B1 B2 A3 A2 A4 B3 A5 A6 C3 B6 B5 C5 C4
#  1. Loot B1 E2 B5, not D6 = 3 x 2 = 6; the Dragon's room D3 not entered -> 6
#  2. Weapons: all six (C4 F1 A2 C5 E3 A6) = 6
#  3. Monsters entered A (D1) B (A4) C (F4) E (E5) F (B3), all with their Weapon = 5 x 4 = 20
#  4. none = 0
#  5. C1 N not linked (C1 is EW), F2 E linked, A3 W linked, F5 E not linked (F5 is NSW),
#     B6 S linked, E6 S linked = 2
#  6. 0       7. 2 hits = -6         total 6+6+20+0+2+0-6 = 28 -> Ben wins
DUEL = {"Ann": ([16, 4, 12, -2, 1, -2, -6], 23), "Ben": ([6, 6, 20, 0, 2, 0, -6], 28)}

# ---------------------------------------------------------------------------------------------
# deadly-traps.json: Ann, Ben, Cat on map A, cards by id (straights 1-8, corners 9-18, tees
# 19-24, crosses 25-28, dead ends 29-32, Traps 33-34). No Draw 2.
# All three draw the same rooms in rounds 1-5:
#  R1 C6 NS, C5 ES, D5 SW, D6 N;   R2 A4 cross, E1 NES, F1 SW (+ Trap 33)
#  R3 A3 ES, B3 ESW, C3 EW, E2 NS; R4 D3 SW, B4 W, F2 NS, D4 NEW;   R5 E3 NE, A5 NS, E4 SW (+ Trap 34)
# Traps: Ann F6 (R2) and C4 (R5); Ben F6 (R2) and A6 (R5); Cat B1 (R2, an entryway room) and B5 (R5).
#  R6 Ann: F3 NS, E5 NEW, F5 NSW, A6 NE       Ben and Cat: C4 EW, F3 NW, E5 NEW, F5 NSW
#  R7 Ann: B6 EW, F4 S, B1 NW                 Ben: B1 NS, B2 NE, C2 W       Cat: A6 NE, F6 NS, F4 S
#     and for everyone the cross (card 26) is unused: B2 is the only empty room open on four
#     sides, and nothing of theirs opens onto it (Ben draws in B2 himself).
# Trap resolution (ruling D8): F6 holds Ann's and Ben's Traps -> each is hit by their own, and both
# are erased from all maps first, so Cat's path in F6 is NOT hit. Then: Ann's C4 hits Ben and Cat
# (paths in C4); Ben's A6 hits Ann and Cat; Cat's B1 hits Ann and Ben (both drew in B1 in R7);
# Cat's B5 hits nobody. Hits: Ann 3 (F6 own, A6, B1), Ben 3 (F6 own, C4, B1), Cat 2 (C4, A6).
# Common to all: Weapons B C D E F (not A1) = 5; Monsters entered A B D E F (+ C for Ben);
# entryways F2 E never linked (F2 is NS).
# Ann, 25 segments (rounds 1-5, F3 E5 F5 A6 B6 F4 B1):
#  1. Loot A3 F4 B6 = 3 x 2 = 6, Dragon D3 -> 12      2. 5
#  3. B D E F with Weapons = 16   4. A = -2
#  5. B1 linked (NW), E1, A4, C6 linked; F2 E no, F6 S: her Trap, no path -> 2
#  6. -2       7. 3 x -3 = -9                           total 12+5+16-2+2-2-9 = 22
# Ben, 25 segments (rounds 1-5, C4 F3 E5 F5 B1 B2 C2):
#  1. Loot A3 only = 2, Dragon -> 4                     2. 5
#  3. B C D E F (C: B2 with Weapon C in E5) = 20   4. A = -2
#  5. B1 linked (NS), F2 and F6 not -> 2     6. -2     7. -9          total 4+5+20-2+2-2-9 = 18
# Cat, 25 segments (rounds 1-5, C4 F3 E5 F5 A6 F6 F4):
#  1. Loot A3 F4 = 4, Dragon -> 8                       2. 5
#  3. B D E F = 16   4. A = -2
#  5. B1 N: her Trap, no path -> not linked; F2 E not; F6 S linked (NS) -> 2
#  6. -2       7. 2 x -3 = -6                           total 8+5+16-2+2-2-6 = 21 -> Ann wins
TRAPS = {"Ann": ([12, 5, 16, -2, 2, -2, -9], 22), "Ben": ([4, 5, 20, -2, 2, -2, -9], 18),
         "Cat": ([8, 5, 16, -2, 2, -2, -6], 21)}

# ---------------------------------------------------------------------------------------------
# deadly-tie.json: Ann, Ben, Cat, Dan on map A, cards by kind; every player draws what Cat drew in
# deadly-traps.json, Traps in B1 and B5. Both rooms hold four Traps in the same coordinates: each
# player is hit by their own, twice, and every Trap is erased (nobody has a path there anyway).
#  1. 8   2. 5   3. 16   4. -2   5. 2 (B1 N under a Trap, F2 E)   6. -2   7. 2 x -3 = -6   = 21
# The rulebook: "the player with the most points wins!" - four players with 21: all four share the
# win (ruling D11).
TIE = {name: ([8, 5, 16, -2, 2, -2, -6], 21) for name in ("Ann", "Ben", "Cat", "Dan")}

GAMES = {"deadly-solo.json": (SOLO, []), "deadly-duel.json": (DUEL, ["Ben"]),
         "deadly-traps.json": (TRAPS, ["Ann"]), "deadly-tie.json": (TIE, ["Ann", "Ben", "Cat", "Dan"])}


def _replay(name):
    return record.replay(record.read(GOLDEN / name))


@pytest.mark.parametrize("name", list(GAMES))
def test_golden_game_scores_every_item_as_worked_out_by_hand(name):
    expected, winners = GAMES[name]
    rp = _replay(name)
    assert rp.violations == [] and rp.finished and rp.state.round == 7
    res = score(rp.state)
    for ss in res.sheets:
        items, total = expected[rp.record.players[ss.player]]
        assert [pts for _, pts in ss.items] == items, rp.record.players[ss.player]
        assert [what[:2] for what, _ in ss.items] == ["1.", "2.", "3.", "4.", "5.", "6.", "7."]
        assert ss.total == total
    assert [rp.record.players[p] for p in res.winners] == winners


def test_solo_details_chain_and_unused_cards():
    rp = _replay("deadly-solo.json")
    st = rp.state
    ss = score(st).sheets[0]
    m = rp.record.map
    assert [m.room_name(i) for i in ss.loot] == ["A3", "F4", "B6"] and ss.dragon
    assert ss.weapons == ["B", "C", "D", "E", "F"] and ss.killed == ["B", "D", "E", "F"] and ss.mauled == ["A"]
    assert [(r, st.game.deck.kind_of[c]) for r, c in st.boards[0].unused] == [(4, "cross"), (7, "cross"), (7, "cross")]
    chain = rp.record.rounds[2].revealed
    kinds = [st.game.deck.kind_of[c] for c in chain]
    assert len(chain) == 8 and kinds.index("draw 2") == 3 and kinds[4] == "draw 2"
    assert st.boards[0].segments() == 27 and not any(st.boards[0].trap)


def test_trap_resolution_in_the_three_player_game():
    rp = _replay("deadly-traps.json")
    m = rp.record.map
    res = score(rp.state)
    hits = sorted((rp.record.players[h.victim], rp.record.players[h.owner], m.room_name(h.room), h.same)
                  for h in res.hits)
    assert hits == [("Ann", "Ann", "F6", True), ("Ann", "Ben", "A6", False), ("Ann", "Cat", "B1", False),
                    ("Ben", "Ann", "C4", False), ("Ben", "Ben", "F6", True), ("Ben", "Cat", "B1", False),
                    ("Cat", "Ann", "C4", False), ("Cat", "Ben", "A6", False)]
    assert res.erased == {(0, m.room("F6")), (1, m.room("F6"))}
    assert rp.state.boards[2].paths[m.room("F6")]      # Cat's path in F6, and she was not hit there


@pytest.mark.slow
def test_golden_games_through_the_command_line(capsys):
    """`doodlebox validate --json` as its own process, side by side; `score` in this process."""
    out = validate_all([GOLDEN / n for n in GAMES])
    for name, (expected, winners) in GAMES.items():
        code, stdout, stderr = out[GOLDEN / name]
        assert code == 0, stderr
        report = json.loads(stdout)
        assert report["valid"] and report["finished"] and report["rounds"] == 7
        assert {s["player"]: s["total"] for s in report["sheets"]} == {k: v[1] for k, v in expected.items()}
        assert report["winners"] == winners
    assert cli.main(["score", str(GOLDEN / "deadly-tie.json")]) == 0
    table = capsys.readouterr().out
    assert table.count("winner") == 4 and "share the win" in table
