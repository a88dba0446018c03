"""Golden games for the three 5x5 editions (Doodle City, Doodle China: Suzhou, Doodle Islands:
Sea of Treasures), scored BY HAND from the rulebooks (../shared/rulebooks/) and the readings in
docs/rulings.md, then replayed through the rules engine.

Every expected figure below was worked out on paper from the record before the engine was run;
the comments give the reasoning: each road, its squares, its length, the houses on it, the value
circled, each bonus, the taxis (boats, ships) connected, the trees, the totals and the winner.

Conventions (docs/records.md, docs/layouts.md): squares are [row, col], 1-based, row 1 at the
top. Pieces: NS, EW, NE, ES, SW, NW (N = top). Two neighbouring squares are on one road when both
pieces open on their shared side. Start roads: legend 1 EW, 2 NS, 3 NE, 4 ES, 5 SW, 6 NW, drawn
in each column's house square. "X" below = cross a house (no piece). Track values: hotel
3 4 5 6 7 8 9 10 12 15, shop 1..10, bonuses 3 5 7 10; the engine circles the highest free value
not above the worth (R10); one bonus per shop, the highest free one not above the value circled
(R11). Taxis/boats/ships: 4 each when their road reaches another one (R22). Trees: fewest +4,
most -4, all tied players get the full points; everyone tied gets both (R18). Solo: no trees.

Sheets (H hotel, S shop, T taxi/boat/ship, h(n/p) house square with n houses, p pre-crossed,
all h are start squares):

  Doodle City                  Suzhou                       Sea of Treasures
     1    2    3    4    5        1    2    3    4    5        1    2    3    4    5
  1  H    S    h4/2 T    .     1  .    T    h4/2 S    H     1  H    T    h4/2 .    T
  2  T    S    H    S    h4/2  2  h4/2 S    H    S    T     2  S    S    T    H    h3/1
  3  h4/2 T    S    .    S     3  S    .    S    T    h4/2  3  h4/2 H    S    S    .
  4  .    H    S    h3/1 T     4  T    h3/1 S    H    .     4  T    S    .    h3/1 S
  5  T    h3/1 .    S    H     5  H    S    .    h3/1 T     5  .    h4/2 S    T    H

What the six games cover:
  city-hotel15     hotels by road length; a loop road (hotel closes an 8-square loop -> 8);
                   shops by houses incl. pre-crossed; exact value taken so a lower one is
                   circled (Ann 8 -> 7, Ben 2 -> 1, Cat 5 -> 4); hotel with no value (length 1)
                   and shop with no value free (worth 2 with 1 and 2 circled); bonus 3 taken by
                   Ann so Cat's 4 gets none; connected / unconnected taxis; trees +4 for two
                   tied players and -4; blue 6, white 6, both 6, a forced tree; ends on hotel 15
                   circled by the round's first player (the two others still play).
  city-solo        solo (3 white dice): no tree scoring, rank Landlord, Environmentalist; two
                   hotels, four shops, bonuses 3 and 10; blue 6 without a tree; ends on shop 10.
  suzhou-bonuses   the rulebook's bonus example (Li 8 -> 7-bonus, then Mei 9 -> only the
                   5-bonus), Tao's 3-bonus, Li's 10-bonus; shop worth 11 -> 10; every player
                   crossed one tree (white 6, both 6, forced) -> each +4 and -4 (R18); ends on
                   shop 10 circled by the round's second player (the third still plays).
  suzhou-control   More control: passing while a die fits costs a tree (both players); Wen's
                   10th tree ends the game (Wen first in the round, Xi still plays); tie on 20
                   decided by fewest trees.
  treasures-shared a tie for the win left shared (same total, same bottles); two endings in one
                   round (monster 15 by Bea, treasure island 10 by Cal, Ana still plays);
                   blue 6, white 6, forced bottle; two tied players +4.
  treasures-solo   solo ending on the last bottle (R16) in the same action that circles the
                   treasure-island 10 with 16 forts (The Builder); rank Sea Wolf; both 6;
                   monster worth 13 -> 12.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from doodlebox.rules.dice.record import read, replay
from doodlebox.rules.dice.scoring import score

GOLDEN = Path(__file__).resolve().parents[1] / "golden"

# Per game: the players acting in the last round, in order ("last_round"), the number of
# rounds, why the game ended, the winners (and whether a tie was broken or left shared).
# Per player: total; the score sheet's points in order (hotel track, shop track, bonuses,
# connected taxis, then the tree lines: +4 fewest and/or -4 most; none in solo); trees crossed;
# every scored item as (round, track, square, worth, value circled, bonus).

GAMES = {
    # =========================================================================================
    # city-hotel15 — Doodle City, 3 players (Ann, Ben, Cat), no variant.
    # Start faces [5,1,1,4,2]: (3,1) SW, (5,2) EW, (1,3) EW, (4,4) ES, (2,5) NS on every sheet.
    # Start player: R1 Ann, R2 Ben, R3 Cat, R4 Ann, ... (R10 Ann).
    #
    # Ann builds one 15-square road:
    #   (1,1)EW H - (1,2)EW S - (1,3)start - (1,4)EW T - (1,5)SW - (2,5)start NS - (3,5)NS S
    #   - (4,5)NW T - (4,4)start ES - (5,4)NW S - (5,3)EW - (5,2)start EW - (5,1)NE T
    #   - (4,1)NS - (3,1)start SW (its W side is the edge).
    #   R1 (1,5), R2 (4,1), R3 (1,4): no score.
    #   R4 (3,5) shop: road (1,3)(1,4)(1,5)(2,5)(3,5) ((4,5) not drawn). Houses: (1,3) 2
    #      pre-crossed + (2,5) 2 pre-crossed = 4 -> circle 4. First shop >= 3 in the game:
    #      bonus 3 (R11: highest free bonus <= 4).
    #   R5 (blue 6) (5,3) with a white 5 in column 3. R6 (5,1). R7 (4,5): no score.
    #   R8 (5,4) shop: road = all but (1,2),(1,1): 13 squares with every house square:
    #      (1,3) 2 + (2,5) 2 + (4,4) 1 + (5,2) 1 + (3,1) 2 = 8 -> circle 8. Bonuses taken so
    #      far: 3 (Ann), 5 (Cat, R5) -> highest free <= 8 is 7 -> bonus 7.
    #   R9 (1,2) shop: same road + (1,2), still 8 houses; 8 is circled -> 7 (lower value);
    #      bonuses 3, 5, 7 all taken -> no bonus.
    #   R10 (blue 6) (1,1) hotel, white 1, column 1: the road is complete, 15 squares ->
    #      circle 15 -> the game ends at the end of round 10. Ann is round 10's first player;
    #      Ben and Cat still play (and score) in round 10.
    #   Taxis (1,4),(4,5),(5,1) on the one road: 3 x 4 = 12. Trees: 0.
    #   Ann: 15 + (4+8+7) + (3+7) + 12 = 56, fewest trees +4 -> 60.
    #
    # Ben builds an 8-square loop: (1,1)ES H, (1,2)EW S, (1,3)start EW, (1,4)SW T, (2,4)NW S,
    #   (2,3)EW H, (2,2)EW S, (2,1)NE T. Ben never crosses (1,3): it keeps its 2 houses.
    #   R1, R4: X at (2,5) (not on his loop). R7: (1,5) NS (plain, joins only (2,5)).
    #   R2 (1,1) hotel: its neighbours are empty, road length 1 -> no hotel value <= 1: nothing.
    #   R3 (1,4) taxi.
    #   R5 (blue 6) (1,2) shop, white 1 in column 2: road (1,1)(1,2)(1,3)(1,4) ((2,1),(2,4) not
    #      drawn), houses 2 -> circle 2. No bonus (< 3).
    #   R6 (2,1) taxi.
    #   R8 (2,4) shop: road (2,4)(1,4)(1,3)(1,2)(1,1)(2,1), houses 2; 2 is circled -> 1.
    #   R9 (2,2) shop: road adds (2,2) ((2,3) still empty), houses 2; 2 and 1 both circled ->
    #      no value free: nothing circled.
    #   R10 (blue 6) (2,3) hotel, white 2, column 3: closes the loop; 8 squares, each counted
    #      once (R12) -> circle 8.
    #   Taxis (2,1),(1,4) on the loop: 2 x 4 = 8. Trees: 0.
    #   Ben: 8 + (2+1) + 0 + 8 = 19, fewest trees (tied with Ann at 0) +4 -> 23.
    #
    # Cat: road (1,2)EW - (1,3) - (1,4)EW T - (1,5)SW - (2,5)NS - (3,5)NS S - (4,5)NS T.
    #   R1 X(2,5) -> 3 crossed. R2 X(3,1) (not on a scored road). R3 (1,4). R4 (1,5).
    #   R5 (blue 6 + white 6: any square, one tree) (3,5) shop: road (1,3)(1,4)(1,5)(2,5)(3,5),
    #      houses (1,3) 2 + (2,5) 3 = 5 -> circle 5; bonus 3 is Ann's -> bonus 5.
    #   R6 (5,1) taxi NE: joins only (5,2) -> never connected to another taxi.
    #   R7 forced tree: Ann took the 4 ((4,5)), Ben a 1 ((1,5)); the dice left are 1 and 3,
    #      pointing to Cat's drawn (1,5) and (3,5). No 6 left -> pass, cross a tree (R5).
    #   R8 white 6 (column 4, any row, one tree) (5,4) shop NW: road (5,4)(4,4) ((4,5),(5,3)
    #      empty), houses (4,4) 1 -> circle 1.
    #   R9 (1,2) shop: road (1,2)(1,3)(1,4)(1,5)(2,5)(3,5), houses 2 + 3 = 5; 5 is circled ->
    #      4; bonus <= 4: only 3, taken by Ann -> none (one player's bonus closed to another).
    #   R10 (blue 6) (4,5) taxi with a white 4: joins (3,5) -> taxis (1,4),(4,5) connected.
    #   Taxis 2 x 4 = 8 ((5,1) alone: 0). Trees: 3 (both 6, forced, white 6).
    #   Cat: 0 + (5+1+4) + 5 + 8 = 23, most trees -4 -> 19.
    # Winner: Ann (60).
    # =========================================================================================
    "city-hotel15": {
        "last_round": ["Ann", "Ben", "Cat"],
        "rounds": 10, "ending": ["hotel"], "winners": ["Ann"], "shared": False,
        "players": {
            "Ann": {"total": 60, "points": [15, 19, 10, 12, 4], "trees": 0, "scored": [
                (4, "shop", (3, 5), 4, 4, 3),
                (8, "shop", (5, 4), 8, 8, 7),
                (9, "shop", (1, 2), 8, 7, 0),
                (10, "hotel", (1, 1), 15, 15, 0),
            ]},
            "Ben": {"total": 23, "points": [8, 3, 0, 8, 4], "trees": 0, "scored": [
                (2, "hotel", (1, 1), 1, 0, 0),
                (5, "shop", (1, 2), 2, 2, 0),
                (8, "shop", (2, 4), 2, 1, 0),
                (9, "shop", (2, 2), 2, 0, 0),
                (10, "hotel", (2, 3), 8, 8, 0),
            ]},
            "Cat": {"total": 19, "points": [0, 10, 5, 8, -4], "trees": 3, "scored": [
                (5, "shop", (3, 5), 5, 5, 5),
                (8, "shop", (5, 4), 1, 1, 0),
                (9, "shop", (1, 2), 5, 4, 0),
            ]},
        },
    },
    # =========================================================================================
    # city-solo — Doodle City, solo (Sol), 3 white dice, no tree ever crossed.
    # Start faces [4,1,5,4,2]: (3,1) ES, (5,2) EW, (1,3) SW, (4,4) ES, (2,5) NS.
    # Target road (18 squares): (1,1)EW H - (1,2)EW S - (1,3)SW - (2,3)NS H - (3,3)NW S
    #   - (3,2)EW T - (3,1)ES - (4,1)NS - (5,1)NE T - (5,2)EW - (5,3)EW - (5,4)NW S - (4,4)ES
    #   - (4,5)NW T - (3,5)NS S - (2,5)NS - (1,5)SW - (1,4)EW T ((1,4)'s W side meets (1,3)'s
    #   closed E side: the road ends there).
    #   R1 (4,1), R2 (5,1), R3 (3,2): road (3,1)(3,2)(4,1)(5,1)(5,2).
    #   R4 X(1,3) -> 3 crossed.
    #   R5 (3,3) shop: road (3,3)(3,2)(3,1)(4,1)(5,1)(5,2) ((2,3),(5,3) empty): houses
    #      (3,1) 2 + (5,2) 1 = 3 -> circle 3, bonus 3.
    #   R6 (1,2) shop: road (1,2)(1,3) ((1,1),(2,3) empty), houses 3; 3 circled -> 2. No bonus.
    #   R7 (2,3) hotel: joins both: (1,2)(1,3)(2,3)(3,3)(3,2)(3,1)(4,1)(5,1)(5,2) = 9 -> 9.
    #   R8 (1,1) hotel: the same road + (1,1) = 10 -> 10.
    #   R9 (blue 6, no tree) (5,3) with a white 5 in column 3: road 11.
    #   R10 (4,5): road (4,4)(4,5). R11 X(2,5) -> 3. R12 (1,5): road (1,5)(2,5).
    #   R13 (3,5) shop: road (1,5)(2,5)(3,5)(4,5)(4,4), houses (2,5) 3 + (4,4) 1 = 4 -> 4;
    #      bonus <= 4: 3 already taken -> none.
    #   R14 (blue 6) (1,4) with a white 1 in column 4: road (1,4)(1,5)(2,5)(3,5)(4,5)(4,4).
    #   R15 (5,4) shop: joins the two roads: 18 squares, all five house squares:
    #      (1,3) 3 + (3,1) 2 + (5,2) 1 + (4,4) 1 + (2,5) 3 = 10 -> circle 10, bonus 10 (free):
    #      top shop score -> the game ends after this round.
    #   Taxis (3,2),(5,1),(4,5),(1,4) on the one road: 4 x 4 = 16. No tree scoring (solo).
    #   Total: (9+10) + (3+2+4+10) + (3+10) + 16 = 19 + 19 + 13 + 16 = 67 -> Landlord (50-69).
    #   Achievements: Environmentalist (0 trees). Not City Planner (18 of 25 squares), not
    #   Hotel Magnate (19 < 42), not Capitalist (19 + 13 = 32 < 74), not Shopping Spree (10).
    # =========================================================================================
    "city-solo": {
        "last_round": ["Sol"],
        "rounds": 15, "ending": ["shop"], "winners": ["Sol"], "shared": False,
        "rank": "Landlord", "achievements": ["Environmentalist"],
        "players": {
            "Sol": {"total": 67, "points": [19, 19, 13, 16], "trees": 0, "scored": [
                (5, "shop", (3, 3), 3, 3, 3),
                (6, "shop", (1, 2), 3, 2, 0),
                (7, "hotel", (2, 3), 9, 9, 0),
                (8, "hotel", (1, 1), 10, 10, 0),
                (13, "shop", (3, 5), 4, 4, 0),
                (15, "shop", (5, 4), 10, 10, 10),
            ]},
        },
    },
    # =========================================================================================
    # suzhou-bonuses — Doodle China: Suzhou, 3 players (Li, Mei, Tao), no variant.
    # Start faces [2,1,1,1,2]: (2,1) NS, (4,2) EW, (1,3) EW, (5,4) EW, (3,5) NS.
    # Start player: R1 Li, R2 Mei, R3 Tao, R4 Li, ... R12 Tao, R13 Li, R14 Mei, R15 Tao.
    #
    # Li: road (3,1)NS S - (2,1)start NS - (1,1)ES - (1,2)EW boat - (1,3)start - (1,4)EW S
    #   - (1,5)SW H - (2,5)NS boat - (3,5)start NS ((3,5)'s S side meets Li's (4,5) EW: closed).
    #   Crosses: (1,3) R3, R4 -> 4; (3,5) R5, R6 -> 4; (2,1) R11 -> 3. (4,2) R2, (5,4) R14:
    #   not on Li's scored roads.
    #   R8 (1,5) hotel: road (1,5)(2,5)(3,5) ((1,4),(4,5) empty) = 3 -> circle 3.
    #   R9 white 6 (column 5, one tree): (5,5) boat NW, joins only (5,4): not connected.
    #   R12 (1,4) shop (Li plays before Mei this round): road (1,2)(1,3)(1,4)(1,5)(2,5)(3,5)
    #      ((1,1) empty), houses (1,3) 4 + (3,5) 4 = 8 -> circle 8. Bonus 3 is Tao's (R4),
    #      so the highest free <= 8 is 7 -> bonus 7 (rulebook example 1).
    #   R13 (1,1): joins (2,1).
    #   R15 (3,1) shop (Li second this round): road (3,1)(2,1)(1,1)(1,2)(1,3)(1,4)(1,5)(2,5)(3,5),
    #      houses (2,1) 3 + (1,3) 4 + (3,5) 4 = 11 -> highest value <= 11 is 10 -> circle 10,
    #      bonus 10 (free). Top shop score: the game ends after round 15; Mei still plays.
    #   Boats (1,2),(2,5) on one road: 8. Trees 1.
    #   Li: 3 + (8+10) + (7+10) + 8 = 46; trees all tied -> +4 -4 -> 46.
    #
    # Mei: road (1,2)EW boat - (1,3) - (1,4)EW S - (1,5)SW H - (2,5)NS boat - (3,5) - (4,5)NS
    #   - (5,5)NW boat - (5,4)start EW ((5,4)'s W side meets the empty (5,3)).
    #   Crosses: (4,2) R1, R2; (1,3) R3, R4 -> 4; (3,5) R5, R6 -> 4; (2,1) R11, R13.
    #   R10 (1,5) hotel: road (1,5)(2,5)(3,5)(4,5)(5,5)(5,4) ((1,4) empty) = 6 -> circle 6.
    #   R12 (1,4) shop, right after Li: road (1,3)(1,4)(1,5)(2,5)(3,5)(4,5)(5,5)(5,4) ((1,2)
    #      empty), houses (1,3) 4 + (3,5) 4 + (5,4) 1 pre-crossed = 9 -> circle 9. The 7-bonus
    #      has just been taken by Li -> only the 5-bonus (rulebook example 2).
    #   R14 (blue 6 + white 6: any square, one tree) (1,2) boat: joins (1,3).
    #   R15 (5,1) hotel EW: (5,2) empty -> length 1 -> nothing.
    #   Boats (1,2),(2,5),(5,5) on one road: 3 x 4 = 12. Trees 1.
    #   Mei: 6 + 9 + 5 + 12 = 32 (+4 -4) -> 32.
    #
    # Tao: road (4,1)EW boat - (4,2)start - (4,3)EW S - (4,4)EW H - (4,5)NW - (3,5) - (2,5)NS
    #   boat - (1,5)SW H. Crosses: (4,2) R1, R2 -> 3; (1,3) R3; (3,5) R9, R10; (2,1) R13, R15.
    #   R4 (4,3) shop: road (4,2)(4,3) ((4,1),(4,4) empty), houses 3 (1 pre-crossed + 2) ->
    #      circle 3, bonus 3 (the game's first shop).
    #   R7 forced tree: Li took a 2 ((2,5)), Mei a 2 ((2,5)); the dice left, 4 and 2, point to
    #      Tao's drawn (4,5) and (2,5) -> pass.
    #   R8 (1,5) hotel: road (1,5)(2,5)(3,5)(4,5) ((4,4) empty) = 4 -> circle 4.
    #   R11 (4,1) boat. R12 (4,4) hotel: road (4,1)(4,2)(4,3)(4,4)(4,5)(3,5)(2,5)(1,5) = 8 -> 8.
    #   R14 (blue 6) (5,5) boat NW: joins only (5,4).
    #   Boats (4,1),(2,5) connected: 8; (5,5) alone. Trees 1.
    #   Tao: (4+8) + 3 + 3 + 8 = 26 (+4 -4) -> 26.
    # Every player crossed 1 tree: each is the fewest and the most -> +4 and -4 (R18).
    # Winner: Li (46).
    # =========================================================================================
    "suzhou-bonuses": {
        "last_round": ["Tao", "Li", "Mei"],
        "rounds": 15, "ending": ["shop"], "winners": ["Li"], "shared": False,
        "players": {
            "Li": {"total": 46, "points": [3, 18, 17, 8, 4, -4], "trees": 1, "scored": [
                (8, "hotel", (1, 5), 3, 3, 0),
                (12, "shop", (1, 4), 8, 8, 7),
                (15, "shop", (3, 1), 11, 10, 10),
            ]},
            "Mei": {"total": 32, "points": [6, 9, 5, 12, 4, -4], "trees": 1, "scored": [
                (10, "hotel", (1, 5), 6, 6, 0),
                (12, "shop", (1, 4), 9, 9, 5),
                (15, "hotel", (5, 1), 1, 0, 0),
            ]},
            "Tao": {"total": 26, "points": [12, 3, 3, 8, 4, -4], "trees": 1, "scored": [
                (4, "shop", (4, 3), 3, 3, 3),
                (8, "hotel", (1, 5), 4, 4, 0),
                (12, "hotel", (4, 4), 8, 8, 0),
            ]},
        },
    },
    # =========================================================================================
    # suzhou-control — Doodle China: Suzhou, 2 players (Wen, Xi), More control.
    # Start faces [2,1,1,2,1]: (2,1) NS, (4,2) EW, (1,3) EW, (5,4) NS, (3,5) EW.
    # Start player: odd rounds Wen, even rounds Xi.
    #
    # Wen: road (4,1)NS boat - (3,1)NS S - (2,1)start NS - (1,1)ES - (1,2)EW boat - (1,3)start
    #   - (1,4)EW S - (1,5)EW H. Wen never crosses a house.
    #   R1 (1,2), R2 (1,1).
    #   R3 (1,4) shop: road (2,1)(1,1)(1,2)(1,3)(1,4) ((3,1),(1,5) empty), houses (2,1) 2 +
    #      (1,3) 2 = 4 -> circle 4, bonus 3.
    #   R4 pass although the 2 ((2,3)) fits: More control, one tree.
    #   R5 white 6 (column 5, tree 2): (1,5) hotel: road (2,1)(1,1)(1,2)(1,3)(1,4)(1,5) = 6 -> 6.
    #   R6 pass (tree 3). R7 white 6 (column 1, tree 4): (3,1) shop: road of 7, houses 4;
    #      4 circled -> 3; bonus 3 already Wen's, no other <= 3 -> none.
    #   R8 pass (5). R9 white 6 (column 1, tree 6): (4,1) boat, joins (3,1).
    #   R10..R13 pass: trees 7, 8, 9, 10. The 10th tree (R13, Wen first) ends the game at the end
    #      of round 13; Xi still plays round 13.
    #   Boats (1,2),(4,1) on one road: 8. Wen: 6 + (4+3) + 3 + 8 = 24, most trees -4 -> 20.
    #
    # Xi: road (4,1)EW boat - (4,2)start EW - (4,3)EW S - (4,4)EW H - (4,5)SW - (5,5)NW boat
    #   ((5,5)'s W side meets (5,4) NS: closed).
    #   R1 X(4,2) -> 2 crossed. R2 (4,1). R3 X(5,4).
    #   R4 (4,3) shop: road (4,1)(4,2)(4,3), houses 2 -> circle 2 (no bonus).
    #   R5 (4,5), R6 (5,5).
    #   R8 (4,4) hotel: road (4,1)(4,2)(4,3)(4,4)(4,5)(5,5) = 6 -> circle 6.
    #   R7, R9 X(2,1); R11, R12 X(1,3); R13 X(3,5) (none on Xi's scored roads).
    #   R10 pass although a die fits (More control): 1 tree.
    #   Boats (4,1),(5,5) connected: 8. Xi: 6 + 2 + 0 + 8 = 16, fewest trees +4 -> 20.
    # Tie on 20: the tied player with fewest crossed trees wins -> Xi (1 tree against 10).
    # =========================================================================================
    "suzhou-control": {
        "last_round": ["Wen", "Xi"],
        "rounds": 13, "ending": ["trees"], "winners": ["Xi"], "shared": False, "tie": True,
        "players": {
            "Wen": {"total": 20, "points": [6, 7, 3, 8, -4], "trees": 10, "scored": [
                (3, "shop", (1, 4), 4, 4, 3),
                (5, "hotel", (1, 5), 6, 6, 0),
                (7, "shop", (3, 1), 4, 3, 0),
            ]},
            "Xi": {"total": 20, "points": [6, 2, 0, 8, 4], "trees": 1, "scored": [
                (4, "shop", (4, 3), 2, 2, 0),
                (8, "hotel", (4, 4), 6, 6, 0),
            ]},
        },
    },
    # =========================================================================================
    # treasures-shared — Doodle Islands: Sea of Treasures, 3 players (Ana, Bea, Cal).
    # Start faces [2,1,1,4,2]: (3,1) NS, (5,2) EW, (1,3) EW, (4,4) ES, (2,5) NS.
    # Start player: R1 Ana, R2 Bea, R3 Cal, ... R13 Ana, R14 Bea.
    #
    # Ana and Bea play the same squares every round (same die faces). Their route (15 boxes):
    #   (1,1)ES monster - (1,2)EW ship - (1,3)start - (1,4)EW - (1,5)SW ship - (2,5)start NS
    #   - (3,5)NS - (4,5)NW island - (4,4)start ES - (5,4)NW ship - (5,3)EW island
    #   - (5,2)start EW - (5,1)NE - (4,1)NS ship - (3,1)start NS ((1,1)'s S side and (3,1)'s
    #   N side meet the empty (2,1)).
    #   R1 (5,3) island: route (5,2)(5,3) ((5,1),(5,4) empty), forts (5,2) 2 pre-checked ->
    #      circle 2 (no bonus).
    #   R4 (4,5) island: route (4,5)(4,4) ((3,5),(5,4) empty), forts (4,4) 1 -> circle 1.
    #   R2 (1,2), R5 (blue 6) (1,5) with a white 1 in column 5, R6 (5,4), R7 (1,4),
    #   R9 (3,5), R10 (5,1), R11 (4,1). Forts checked after their islands: R3 (5,2),
    #   R8 (4,4), R12 + R13 (3,1) (they count for nothing later).
    #   R14 (1,1) monster: the route is complete, 15 boxes -> circle 15. Bea is round 14's
    #      first player: the game ends after round 14; Cal and Ana still play (Ana also 15).
    #   Ships (1,2),(1,5),(5,4),(4,1) on one route: 4 x 4 = 16. Bottles 0.
    #   Each: 15 + (2+1) + 0 + 16 = 34, fewest bottles (tied at 0) +4 -> 38.
    #
    # Cal: route (2,1)NS island - (3,1)start - (4,1)NS ship - (5,1)NE - (5,2)start - (5,3)EW
    #   island - (5,4)NW ship - (4,4)start ES ((4,4)'s E side meets the empty (4,5)).
    #   R1 X(1,3), R4 X(2,5): not on this route. R2, R3 X(5,2) -> 4.
    #   R5 (blue 6) (5,3) island with a white 5 in column 3: route (5,2)(5,3) ((5,1),(5,4)
    #      empty), forts 4 -> circle 4, bonus 3 (the first island >= 3).
    #   R6 (5,4). R7, R8 X(4,4) -> 3.
    #   R9 white 6 (column 5, bottle 1): (1,5) ship NS: joins only (2,5), not connected.
    #   R10 (4,1), R11 (5,1), R12 X(3,1) -> 3.
    #   R13 forced bottle: Ana and Bea took the two 3s; the 4 and 5 left point to Cal's drawn
    #      (4,1) and (5,1) -> pass (bottle 2).
    #   R14 (2,1) island, after Bea's 15: route (2,1)(3,1)(4,1)(5,1)(5,2)(5,3)(5,4)(4,4),
    #      forts (3,1) 3 + (5,2) 4 + (4,4) 3 = 10 -> circle 10, bonus 10: also a game end.
    #   Ships (4,1),(5,4) connected: 8; (1,5) alone. Bottles 2.
    #   Cal: 0 + (4+10) + (3+10) + 8 = 35, most bottles -4 -> 31.
    # Ana and Bea tie on 38 with 0 bottles each: still tied, they share the victory.
    # =========================================================================================
    "treasures-shared": {
        "last_round": ["Bea", "Cal", "Ana"],
        "rounds": 14, "ending": ["hotel", "shop"], "winners": ["Ana", "Bea"], "shared": True,
        "tie": True,
        "players": {
            name: {"total": 38, "points": [15, 3, 0, 16, 4], "trees": 0, "scored": [
                (1, "shop", (5, 3), 2, 2, 0),
                (4, "shop", (4, 5), 1, 1, 0),
                (14, "hotel", (1, 1), 15, 15, 0),
            ]} for name in ("Ana", "Bea")
        } | {
            "Cal": {"total": 31, "points": [0, 14, 13, 8, -4], "trees": 2, "scored": [
                (5, "shop", (5, 3), 4, 4, 3),
                (14, "shop", (2, 1), 10, 10, 10),
            ]},
        },
    },
    # =========================================================================================
    # treasures-solo — Doodle Islands: Sea of Treasures, solo (Pia), 3 white dice.
    # Start faces [2,1,1,4,2]: (3,1) NS, (5,2) EW, (1,3) EW, (4,4) ES, (2,5) NS.
    # Target: a 16-box loop through all five archipelagos: (1,1)ES monster - (1,2)EW ship
    #   - (1,3) - (1,4)EW - (1,5)SW ship - (2,5) - (3,5)NS - (4,5)NW island - (4,4)
    #   - (5,4)NW ship - (5,3)EW island - (5,2) - (5,1)NE - (4,1)NS ship - (3,1)
    #   - (2,1)NS island - back to (1,1).
    # Bottles: a white 6 in rounds 2, 4, 6, 8, 10, 12, 14 (blue 6 too: any box), 16, 18, 19.
    #   R1, R2 X(5,2) -> 4. R3 (5,1).
    #   R4 (5,3) island: route (5,1)(5,2)(5,3) ((4,1),(5,4) empty), forts 4 -> circle 4, bonus 3.
    #   R5, R6 X(4,4) -> 3. R7, R8 X(2,5) -> 3. R9 (3,5).
    #   R10 (4,5) island: route (2,5)(3,5)(4,5)(4,4) ((1,5),(5,4) empty), forts 3 + 3 = 6 ->
    #      circle 6, bonus 5 (highest free <= 6).
    #   R11 (5,4), R12 (1,5), R13 (blue 6) (1,4) with a white 1 in column 4, R14 (1,2).
    #   R15 (1,1) monster: route (1,1)(1,2)(1,3)(1,4)(1,5)(2,5)(3,5)(4,5)(4,4)(5,4)(5,3)(5,2)(5,1)
    #      ((2,1),(4,1) empty) = 13 -> the highest value <= 13 is 12 -> circle 12.
    #   R16, R17 X(3,1) -> 4. R18 (4,1).
    #   R19 white 6 (the 10th bottle: game end) (2,1) island: closes the loop, forts
    #      (3,1) 4 + (5,2) 4 + (1,3) 2 + (4,4) 3 + (2,5) 3 = 16 -> circle 10, bonus 10 (free):
    #      top island score, a second reason to end.
    #   Ships (1,2),(1,5),(5,4),(4,1) on the loop: 16. No bottle scoring (solo).
    #   Total: 12 + (4+6+10) + (3+5+10) + 16 = 12 + 20 + 18 + 16 = 66 -> Sea Wolf (50-69).
    #   Achievements: The Builder (an island scored with 16 forts). Not the Teetotaler
    #   (10 bottles), not the Prince of Navigators (16 of 25 boxes), not the Monster Slayer
    #   (12 < 42), not Golden Beard (20 + 18 = 38 < 74).
    # =========================================================================================
    "treasures-solo": {
        "last_round": ["Pia"],
        "rounds": 19, "ending": ["shop", "trees"], "winners": ["Pia"], "shared": False,
        "rank": "Sea Wolf", "achievements": ["The Builder"],
        "players": {
            "Pia": {"total": 66, "points": [12, 20, 18, 16], "trees": 10, "scored": [
                (4, "shop", (5, 3), 4, 4, 3),
                (10, "shop", (4, 5), 6, 6, 5),
                (15, "hotel", (1, 1), 13, 12, 0),
                (19, "shop", (2, 1), 16, 10, 10),
            ]},
        },
    },
}


@pytest.fixture(scope="module")
def replays():
    cache = {}

    def get(name):
        if name not in cache:
            rp = replay(read(GOLDEN / f"{name}.json"))
            cache[name] = (rp, score(rp.state))
        return cache[name]
    return get


@pytest.mark.parametrize("name", sorted(GAMES))
def test_golden_game(name, replays):
    want = GAMES[name]
    rp, res = replays(name)
    rec = rp.record
    assert [v.as_dict() for v in rp.violations] == []
    assert rp.finished
    assert rp.state.round == want["rounds"]
    assert sorted(rp.state.ending) == sorted(want["ending"])
    # The game ends at the END of the round: everyone acts in the last round, in turn order
    # from that round's start player (the one who triggered the end is not the last to act).
    hist = rp.state.history
    last_roll = max(i for i, (_, a) in enumerate(hist) if a.kind == "roll")
    turns = [p for p, a in hist[last_roll + 1:] if a.kind != "circle"]   # (a value circled is part of its turn)
    assert [rec.players[p] for p in turns] == want["last_round"]
    assert list(want["players"]) == rec.players
    for p, pname in enumerate(rec.players):
        exp = want["players"][pname]
        ss = res.sheets[p]
        sheet = rp.state.sheets[p]
        got_scored = [(s.round, s.track, tuple(s.at), s.worth, s.value, s.bonus) for s in sheet.scored]
        assert got_scored == exp["scored"], pname
        for s in sheet.scored:  # a shop's worth is the number of crossed houses on its road
            if s.track == "shop":
                assert s.houses == s.worth, (pname, s)
        assert ss.trees_crossed == exp["trees"], pname
        assert [pts for _, pts in ss.items] == exp["points"], (pname, ss.items)
        assert ss.total == exp["total"], pname
    assert [rec.players[p] for p in res.winners] == want["winners"]
    if want.get("tie"):
        assert res.tie_break, "a tie on the total is broken by trees"
        assert ("shared" in res.tie_break) == want["shared"], res.tie_break
    else:
        assert res.tie_break == ""
    if "rank" in want:
        assert res.sheets[0].rank == want["rank"]
        assert res.sheets[0].achievements == want["achievements"]
