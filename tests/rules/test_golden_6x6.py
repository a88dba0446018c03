"""Golden games of the two 6x6 editions, scored BY HAND from the rulebooks and docs/rulings.md.

Every expected figure below was worked out on paper before the engine was run; the comments
are that working. The records are tests/golden/<edition>-<name>.json; each is replayed with the
engine and, once, through `doodlebox validate --json` in a subprocess.

The sheet (the default reconstruction, the same squares in both editions; H hotel/monster,
S sky scraper/kraken, T taxi/schooner, B bus/galleon, P park/breaker = the start squares):

         c1  c2  c3  c4  c5  c6
    r1   H   T   B   P   .   S
    r2   B   P   S   .   H   T
    r3   T   .   H   .   B   P
    r4   P   .   T   S   .   B
    r5   .   H   .   T   P   .
    r6   S   B   P   .   T   H

Start squares: column 1 (4,1), 2 (2,2), 3 (6,3), 4 (1,4), 5 (5,5), 6 (3,6); legend 1 EW, 2 NS,
3 NE, 4 ES, 5 SW, 6 NW. In 6x6 a die points to [white, column]; a park (breaker) there sends the
drawing to the park's row (Shanghai, a tree) or anywhere (Sea of Monsters, a barrel).
Both tracks run 1..18 and are shared; R10: the highest free value not above the worth.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_run import validate_all

from doodlebox.rules.dice import record, report
from doodlebox.rules.dice.engine import State

GOLDEN = Path(__file__).resolve().parents[1] / "golden"

# ---------------------------------------------------------------------------------------------
# Game 1: shanghai-ring.json - Doodle China: Shanghai, Ann and Ben (3 white dice).
# Start faces [2, 2, 1, 1, 5, 2]: (4,1) NS, (2,2) NS, (6,3) EW, (1,4) EW, (5,5) SW, (3,6) NS.
# Covers: hotel track shared (Frank), sky scrapers floors x parks on the road, parks (a tree,
# then any square of the park's row), voluntary passes, taxis and buses each with its own
# kind, trees +-7, the game ending at the end of the round in which a hotel circles 18.
#
# Rounds (odd: Ann first, even: Ben first):
#  R1  col1 [5,5,4]  Ann d1 (5,1) NS; Ben d2 (5,1) NE (two dice of the same value)
#  R2  col3 [6,5,2]  Ben d2 (5,3) EW; Ann d1 -> park (6,3): a tree, then row 6: (6,5) EW
#  R3  col4 [5,6,1]  Ann d2 (6,4) EW; Ben d1 (5,4) EW
#  R4  col5 [1,6,3]  Ben d2 (6,5) NS; Ann d1 (1,5) EW
#  R5  col6 [4,5,3]  Ann d1 (4,6) NS; Ben passes while dice 2 and 3 fit (tree 1)
#  R6  col2 [5,1,4]  Ben d1 (5,2) EW HOTEL: road (4,1)-(5,1)-(5,2)-(5,3)-(5,4)-(5,5)-(6,5)
#                    = 7 ((4,1) NS ends at the empty (3,1); (5,5) SW turns down to (6,5) NS)
#                    -> circles 7; Ann crosses out 7.   Ann d2 (1,2) EW (alone for now)
#  R7  col6 [5,6,6]  Ann d1 (5,6) NS; Ben d2 (6,6) NW HOTEL: (5,6) empty on Ben's sheet and
#                    his (6,5) NS does not open east -> road 1 -> circles 1; Ann crosses 1.
#  R8  col6 [6,2,1]  Ben passes (tree 2); Ann d1 (6,6) NW HOTEL: road (3,6)-(4,6)-(5,6)-(6,6)
#                    -(6,5)-(6,4)-(6,3) = 7 ((3,6) NS ends at the empty (2,6), (6,3) EW at the
#                    empty (6,2)); 7 is crossed out (Ben) -> THE FRANK EXAMPLE: circles 6;
#                    Ben crosses out 6.
#  R9  col6 [2,1,5]  Ann d1 (2,6) NS; Ben d3 (5,6) NS (joins his hotel (6,6), no rescoring)
#  R10 col6 [1,3,4]  Ben d3 (4,6) NS; Ann d1 (1,6) SW SKY SCRAPER, 2 printed floors: road
#                    (1,4)-(1,5)-(1,6)-(2,6)-(3,6)-(4,6)-(5,6)-(6,6)-(6,5)-(6,4)-(6,3) (11), parks
#                    (1,4),(3,6),(6,3) = 3 ((5,5) is not on it) -> 2 x 3 = 6 -> circles 6
#                    (the sky scraper track is its own track: hotel 6 does not matter).
#  R11 col2 [6,2,3]  Ann d1 (6,2) EW; Ben d2 -> park (2,2): a tree (3), row 2: (2,1) NS
#  R12 col3 [1,4,2]  Ben d2 (4,3) NS (alone: (5,3) EW does not open north); Ann d1 (1,3) EW
#  R13 col1 [6,6,2]  Ann d1 (6,1) FLOOR (3 floors); Ben passes (tree 4)
#  R14 col1 [6,3,4]  Ben d2 (3,1) NS; Ann d1 (6,1) NE SKY SCRAPER: road (4,1)-(5,1)-(6,1)-(6,2)
#                    -...-(6,6)-(5,6)-...-(1,6)-(1,5)-(1,4)-(1,3)-(1,2) = 17 squares, parks
#                    (4,1),(6,3),(3,6),(1,4) = 4 -> 3 x 4 = 12 -> circles 12; Ben crosses 12.
#  R15 col1 [1,1,5]  Ann d1 (1,1) EW HOTEL: the 17 plus (1,1) = 18 -> 18 is free -> circles 18:
#                    the game ends at the END of this round, so Ben still plays:
#                    Ben d2 (1,1) ES HOTEL: (1,1)-(2,1)-(3,1)-(4,1)-(5,1)-(5,2)-(5,3)-(5,4)-(5,5)
#                    -(6,5) = 10 -> circles 10 (6 and 18 are crossed out, 10 is free).
#
# Final. Ann: hotels 6+18 = 24; sky scrapers 6+12 = 18; taxis (1,2),(2,6),(6,5) all on the one
#   road: 3 x 3 = 9; buses (1,3),(4,6),(6,2) on it too: 3 x 5 = 15; trees crossed 1 (the park
#   in R2) = fewest: +7. Total 73.
# Ben: hotels 7+1+10 = 18; no sky scraper; taxis (3,1),(5,4),(6,5) on one road: 3 x 3 = 9,
#   (4,3) alone: 0; buses: (2,1) is on the road of three taxis but no other bus (Shanghai
#   counts buses with buses only), (4,6) is alone on (3,6)-(4,6)-(5,6)-(6,6): 0; trees 4 (three
#   passes and a park) = most: -7. Total 20.  Ann wins; 15 rounds; ended by the hotel.
SHANGHAI_RING = {
    "file": "shanghai-ring.json",
    "rounds": 15, "ending": ["hotel"], "winners": ["Ann"], "tie_break": "",
    "sheets": {
        "Ann": {"total": 73, "trees": 1, "points": [24, 18, 9, 15, 7],
                "circled": {"hotel": [6, 18], "skyscraper": [6, 12]},
                "struck": {"hotel": {7, 1, 10}, "skyscraper": set()},
                "scored": [("hotel", (6, 6), 7, 6, 8), ("skyscraper", (1, 6), 6, 6, 10),
                           ("skyscraper", (6, 1), 12, 12, 14), ("hotel", (1, 1), 18, 18, 15)]},
        "Ben": {"total": 20, "trees": 4, "points": [18, 0, 9, 0, -7],
                "circled": {"hotel": [7, 1, 10], "skyscraper": []},
                "struck": {"hotel": {6, 18}, "skyscraper": {6, 12}},
                "scored": [("hotel", (5, 2), 7, 7, 6), ("hotel", (6, 6), 1, 1, 7),
                           ("hotel", (1, 1), 10, 10, 15)]},
    },
}

# ---------------------------------------------------------------------------------------------
# Game 2: shanghai-floors.json - Shanghai, Ann, Ben and Cat (4 white dice).
# Start faces [2, 1, 1, 1, 5, 2]: (4,1) NS, (2,2) EW, (6,3) EW, (1,4) EW, (5,5) SW, (3,6) NS.
# Covers: floors, the Ani example, the third time forcing the road (R13), a floor taken through
# a park, the 12th tree ending the game at the end of the round, a tie for the fewest trees
# (+7 each), and a tie for the win decided by the fewest crossed trees (R23).
# Two sky scraper shapes, the same for everyone:
#   (2,3) NW + (1,3) ES: road (2,2)-(2,3)-(1,3)-(1,4); (2,2) EW ends at (2,1), (1,4) EW at (1,5):
#         parks (2,2),(1,4) = 2.
#   (6,1) NE + (5,1) NS + (6,2) EW: road (4,1)-(5,1)-(6,1)-(6,2)-(6,3); ends at (3,1), (6,4):
#         parks (4,1),(6,3) = 2.
# Rounds (start player Ann, Ben, Cat in turn):
#  R1  col2 [6,5,2,3] Ann d1 (6,2) EW; Ben d2 (5,2) EW HOTEL: (5,1),(5,3) empty -> 1 -> circles 1;
#                     Cat d3 -> park (2,2): a tree, then a FLOOR at (2,3) in the park's row (3).
#  R2  col3 [2,4,5,1] Ben d1 FLOOR (2,3) (3); Cat passes (tree 2); Ann d3 (5,3) EW
#  R3  col4 [1,1,2,3] Cat d1 -> park (1,4) (tree 3) -> (1,3) ES; Ann d3 (2,4) EW;
#                     Ben d2 -> park (1,4) (tree 1) -> (1,3) ES
#  R4  col2 [3,2,2,4] Ann d1 (3,2) EW; Ben d2 -> park (2,2) (tree 2) -> (2,3) NW SKY SCRAPER:
#                     3 floors x 2 parks = 6 -> circles 6, crossed out for Ann and Cat;
#                     Cat d3 -> park (2,2) (tree 4) -> (2,3) NW SKY SCRAPER: 3 x 2 = 6, crossed
#                     out -> circles 5, crossed out for Ann and Ben.
#  R5  col1 [6,6,1,3] Ben d1 FLOOR (6,1) (3); Cat passes (5); Ann d2 FLOOR (6,1) (3)
#  R6  col2 [2,4,6,1] Cat d1 -> park (6) -> (2,1) NE; Ann d2 (4,2) EW; Ben d3 (6,2) EW
#  R7  col1 [5,5,2,4] Ann d1 (5,1) NS; Ben d2 (5,1) NS; Cat passes (7)
#  R8  col4 [3,1,3,6] Ben d1 (3,4) EW; Cat d2 -> park (1,4) (8) -> (1,1) ES HOTEL: road
#                     (1,1)-(2,1)-(2,2)-(2,3)-(1,3)-(1,4) = 6 ((1,2), (1,5) empty) -> circles 6;
#                     Ann d3 (3,4) EW
#  R9  col4 [1,2,5,6] Cat d1 -> park (9) -> (1,5) SW; Ann passes (tree 1); Ben d2 (2,4) EW
#  R10 col1 [6,6,1,2] Ann d1 (6,1) NE SKY SCRAPER: 3 floors x 2 parks = 6, but 6 (Ben) and 5
#                     (Cat) are taken -> THE ANI EXAMPLE: circles 4, crossed out for Ben and Cat.
#                     Ben d2 FLOOR (6,1): his second extra floor (4 floors); Cat passes (10)
#  R11 col2 [3,2,4,5] Ben d1 (3,2) EW; Cat d2 -> park (11) -> (2,5) NS HOTEL: (1,5) SW opens
#                     south, so the road is (2,5)-(1,5)-(1,4)-(1,3)-(2,3)-(2,2)-(2,1)-(1,1) = 8
#                     -> circles 8; Ann passes (tree 2)
#  R12 col1 [2,6,3,4] Cat passes: her 12th tree -> the game ends at the end of THIS round;
#                     Ann d1 (2,1) NS (alone); Ben d2 (6,1): the third time, no floor is allowed
#                     (R13), he draws NE: 4 floors x 2 parks = 8 -> circles 8 (6 his, 5 and 4
#                     crossed out, 8 free).
# Fillers (2,4),(3,2),(3,4),(4,2),(5,3),(2,1) are EW/NS pieces whose neighbours do not open
# towards them: they join nothing.
# Final. Ann: sky 4; her buses (6,2) and (2,1) are on different roads: 0; trees 2 -> fewest,
#   tied with Ben: both +7 (a tie for trees: all tied players score the full points). 11.
# Ben: hotel 1; sky 6+8 = 14; buses (1,3) and (6,2) on different roads: 0; trees 2: +7. 22.
# Cat: hotels 6+8 = 14; sky 5; buses (2,1) and (1,3) on one road: 2 x 5 = 10; trees 12 -> the
#   most: -7. 22.
# Ben and Cat tie on 22; Ben has crossed 2 trees, Cat 12: Ben wins (R23).
SHANGHAI_FLOORS = {
    "file": "shanghai-floors.json",
    "rounds": 12, "ending": ["trees"], "winners": ["Ben"],
    "sheets": {
        "Ann": {"total": 11, "trees": 2, "points": [0, 4, 0, 0, 7],
                "circled": {"hotel": [], "skyscraper": [4]},
                "struck": {"hotel": {1, 6, 8}, "skyscraper": {6, 5, 8}},
                "scored": [("skyscraper", (6, 1), 6, 4, 10)]},
        "Ben": {"total": 22, "trees": 2, "points": [1, 14, 0, 0, 7],
                "circled": {"hotel": [1], "skyscraper": [6, 8]},
                "struck": {"hotel": {6, 8}, "skyscraper": {5, 4}},
                "scored": [("hotel", (5, 2), 1, 1, 1), ("skyscraper", (2, 3), 6, 6, 4),
                           ("skyscraper", (6, 1), 8, 8, 12)]},
        "Cat": {"total": 22, "trees": 12, "points": [14, 5, 0, 10, -7],
                "circled": {"hotel": [6, 8], "skyscraper": [5]},
                "struck": {"hotel": {1}, "skyscraper": {6, 4, 8}},
                "scored": [("skyscraper", (2, 3), 6, 5, 4), ("hotel", (1, 1), 6, 6, 8),
                           ("hotel", (2, 5), 8, 8, 11)]},
    },
}

# ---------------------------------------------------------------------------------------------
# Game 3: monsters-bottles.json - Doodle Islands: Sea of Monsters, Ann, Ben and Cat.
# Start faces [2, 1, 1, 1, 4, 2]: (4,1) NS, (2,2) EW, (6,3) EW, (1,4) EW, (5,5) ES, (3,6) NS.
# Covers: the monster track shared (Frank), krakens with tentacles and the Ani example,
# breakers (a barrel, then ANY box - also a tentacle), bottles for passing, a schooner joined
# to a galleon scoring for both, the 12th bottle ending at the end of the round, a tie for the
# fewest bottles. Cat passes every turn.
# Rounds:
#  R1  col6 [4,3,1,5] Ann d1 (4,6) NS; Ben d2 -> breaker (3,6): barrel 1, any box: (2,1) NE
#                     (row 2, column 1: neither the breaker's row nor its column); Cat passes.
#  R2  col6 [3,6,5,2] Ben d1 -> breaker (3,6): barrel 2 -> (1,2) EW; Cat passes; Ann d3 (5,6) NS
#  R3  col6 [1,6,2,4] Cat passes; Ann d2 (6,6) NS MONSTER: (6,6)-(5,6)-(4,6)-(3,6) = 4 ((2,6)
#                     empty) -> circles 4, crossed out for Ben and Cat; Ben passes (bottle 1).
#  R4  col1 [4,1,2,6] Ann d1 -> breaker (4,1): barrel 1 -> (1,5) EW; Ben d2 (1,1) ES MONSTER:
#                     (1,1)-(1,2)-(2,1)-(2,2) = 4 ((2,2) EW ends at (2,3), no route there;
#                     (1,2) EW ends at the empty (1,3)); 4 is crossed out -> circles 3 (the
#                     Frank rule); Cat passes.
#  R5  col3 [2,5,1,4] Ben d1 TENTACLE (2,3) (3); Cat passes; Ann passes (bottle 1)
#  R6  col3 [5,1,3,3] Cat passes; Ann d1 (5,3) EW (alone); Ben d2 (1,3) ES (does not open west)
#  R7  col3 [4,2,6,1] Ann d1 (4,3) EW (a schooner, alone); Ben d2 (2,3) NW KRAKEN: route
#                     (2,3)-(1,3)-(1,4) and (2,3)-(2,2)-(2,1)-(1,1)-(1,2) = 7 boxes, breakers
#                     (1,4),(2,2) = 2 -> 3 x 2 = 6 -> circles 6; Cat passes.
#  R8  col1 [6,5,3,2] Ben d1 TENTACLE (6,1) (3); Cat passes; Ann passes (bottle 2)
#  R9  col1 [4,5,1,1] Cat passes; Ann d1 -> breaker (4,1): barrel 2 -> TENTACLE (1,6) (3);
#                     Ben d2 (5,1) NS
#  R10 col2 [2,6,4,3] Ann d1 -> breaker (2,2): barrel 3 -> (2,6) NS; Ben d2 (6,2) EW; Cat passes
#  R11 col1 [6,3,5,1] Ben d1 (6,1) NE KRAKEN: (4,1)-(5,1)-(6,1)-(6,2)-(6,3), breakers 2 ->
#                     3 x 2 = 6; 6 is his own -> circles 5; Cat passes; Ann d2 (3,1) NS (a
#                     schooner on (3,1)-(4,1) only)
#  R12 col6 [1,2,3,4] Cat passes: her 12th bottle, the game ends after this round;
#                     Ann d1 (1,6) SW KRAKEN: (1,4)-(1,5)-(1,6)-(2,6)-(3,6)-(4,6)-(5,6)-(6,6),
#                     breakers (1,4),(3,6) = 2, 3 tentacles -> 6; 6 and 5 are taken -> THE ANI
#                     EXAMPLE: circles 4 (the monster 4 is another track); Ben passes (bottle 2).
# Final. Ann: monster 4, kraken 4; ships: schooner (2,6) and galleon (4,6) on one route: 3 + 5 =
#   8 (in Shanghai a taxi and a bus together score nothing); bottles 2 -> fewest, tied: +7. 23.
# Ben: monster 3, krakens 6+5 = 11; ships on (1,1)..(1,4): schooner (1,2), galleons (2,1),(1,3):
#   3 + 10 = 13; galleon (6,2) alone: 0; bottles 2: +7. 34.
# Cat: nothing drawn; 12 bottles: -7.  Ben wins.
MONSTERS_BOTTLES = {
    "file": "monsters-bottles.json",
    "rounds": 12, "ending": ["trees"], "winners": ["Ben"], "tie_break": "",
    "barrels": {"Ann": 3, "Ben": 2, "Cat": 0},
    "sheets": {
        "Ann": {"total": 23, "trees": 2, "points": [4, 4, 3, 5, 7],
                "circled": {"hotel": [4], "skyscraper": [4]},
                "struck": {"hotel": {3}, "skyscraper": {6, 5}},
                "scored": [("hotel", (6, 6), 4, 4, 3), ("skyscraper", (1, 6), 6, 4, 12)]},
        "Ben": {"total": 34, "trees": 2, "points": [3, 11, 3, 10, 7],
                "circled": {"hotel": [3], "skyscraper": [6, 5]},
                "struck": {"hotel": {4}, "skyscraper": {4}},
                "scored": [("hotel", (1, 1), 4, 3, 4), ("skyscraper", (2, 3), 6, 6, 7),
                           ("skyscraper", (6, 1), 6, 5, 11)]},
        "Cat": {"total": -7, "trees": 12, "points": [0, 0, 0, 0, -7],
                "circled": {"hotel": [], "skyscraper": []},
                "struck": {"hotel": {4, 3}, "skyscraper": {6, 5, 4}},
                "scored": []},
    },
}

# ---------------------------------------------------------------------------------------------
# Game 4: monsters-kraken.json - Sea of Monsters, Ann and Ben.
# Start faces [2, 6, 1, 1, 2, 2]: (4,1) NS, (2,2) NW, (6,3) EW, (1,4) EW, (5,5) NS, (3,6) NS.
# Covers: a kraken of 18 ending the game (4 tentacles x 5 breakers = 20 -> the highest free
# value not above 20 is 18), two tentacles then the forced route, tentacles through a
# breaker, breakers to anywhere, ships of both kinds, bottles +-7.
# Ann's route, built piece by piece:
#   (1,4)P EW - (1,3) EW - (1,2) ES - (2,2)P NW - (2,1) ES - (3,1) NS - (4,1)P NS - (5,1) NS
#   - (6,1) NE - (6,2) EW - (6,3)P EW - (6,4) EW - (6,5) NW - (5,5)P NS (ends at the empty (4,5))
#   = 14 boxes, breakers (1,4),(2,2),(4,1),(6,3),(5,5) = 5.
# Rounds (odd: Ann first):
#  R1  col1 [5,4,2] Ann d1 (5,1) NS; Ben d2 -> breaker (4,1): barrel 1 -> (2,6) NS
#  R2  col6 [4,3,5] Ben d1 (4,6) NS; Ann d2 -> breaker (3,6): barrel 1 -> (1,2) ES
#  R3  col1 [3,6,1] Ann d1 (3,1) NS; Ben passes (bottle 1)
#  R4  col1 [2,4,5] Ben d2 -> breaker (4,1): barrel 2 -> (1,5) EW; Ann d1 (2,1) ES
#  R5  col6 [3,1,2] Ann d1 -> breaker (3,6): barrel 2 -> (1,3) EW; Ben d2 TENTACLE (1,6) (3)
#  R6  col6 [1,3,5] Ben d1 (1,6) SW KRAKEN: (1,4)-(1,5)-(1,6)-(2,6)-(3,6)-(4,6) ((1,3) and (5,6)
#                   empty on his sheet), breakers (1,4),(3,6) -> 3 x 2 = 6 -> circles 6;
#                   Ann d2 -> breaker (3,6): barrel 3 -> TENTACLE (6,1) (3)
#  R7  col2 [6,2,4] Ann d1 (6,2) EW; Ben d2 -> breaker (2,2): barrel 3 -> (5,6) NS
#  R8  col4 [6,2,3] Ben passes (bottle 2); Ann d1 (6,4) EW
#  R9  col5 [6,4,1] Ann d1 (6,5) NW; Ben d2 (4,5) NS (joins only the breaker (5,5))
#  R10 col1 [6,3,2] Ben d2 (3,1) NS (a schooner on (3,1)-(4,1)); Ann d1 TENTACLE (6,1) (4)
#  R11 col1 [6,4,1] Ann d1 (6,1): the third time, the route NE: 4 x 5 = 20 -> circles 18 ->
#                   the game ends after this round; Ben d2 -> breaker (4,1): barrel 4 -> (6,6)
#                   NW MONSTER: (6,6)-(5,6)-(4,6)-(3,6)-(2,6)-(1,6)-(1,5)-(1,4) = 8 -> circles 8.
# Final. Ann: kraken 18; schooners (1,2),(3,1),(6,5): 3 x 3 = 9; galleons (1,3),(2,1),(6,2):
#   3 x 5 = 15; 0 bottles: +7. 49.
# Ben: monster 8, kraken 6; schooner (2,6) + galleon (4,6) on one route: 3 + 5 (the schooner
#   (3,1) is alone); 2 bottles: -7. 15.  Ann wins; 11 rounds; ended by the kraken.
MONSTERS_KRAKEN = {
    "file": "monsters-kraken.json",
    "rounds": 11, "ending": ["skyscraper"], "winners": ["Ann"], "tie_break": "",
    "barrels": {"Ann": 3, "Ben": 4},
    "sheets": {
        "Ann": {"total": 49, "trees": 0, "points": [0, 18, 9, 15, 7],
                "circled": {"hotel": [], "skyscraper": [18]},
                "struck": {"hotel": {8}, "skyscraper": {6}},
                "scored": [("skyscraper", (6, 1), 20, 18, 11)]},
        "Ben": {"total": 15, "trees": 2, "points": [8, 6, 3, 5, -7],
                "circled": {"hotel": [8], "skyscraper": [6]},
                "struck": {"hotel": set(), "skyscraper": {18}},
                "scored": [("skyscraper", (1, 6), 6, 6, 6), ("hotel", (6, 6), 8, 8, 11)]},
    },
}

GAMES = [SHANGHAI_RING, SHANGHAI_FLOORS, MONSTERS_BOTTLES, MONSTERS_KRAKEN]


def _replay(name: str) -> record.Replay:
    return record.replay(record.read(GOLDEN / name))


@pytest.fixture(scope="module")
def cli_reports():
    """`doodlebox validate --json` on every golden file, the processes run side by side."""
    return {path.name: res for path, res in validate_all([GOLDEN / g["file"] for g in GAMES]).items()}


@pytest.mark.parametrize("game", GAMES, ids=[g["file"] for g in GAMES])
def test_golden_game_replays_to_the_hand_score(game):
    rp = _replay(game["file"])
    js = report.as_json(rp)
    assert js["violations"] == [] and js["valid"]
    assert js["finished"] is True
    assert js["rounds"] == game["rounds"]
    assert js["ending"] == game["ending"]
    assert js["winners"] == game["winners"]
    names = rp.record.players
    for p, name in enumerate(names):
        exp = game["sheets"][name]
        got = js["sheets"][p]
        sheet = rp.state.sheets[p]
        assert got["player"] == name
        assert [pts for _, pts in got["items"]] == exp["points"], name
        assert got["total"] == exp["total"] == sum(exp["points"]), name
        assert got["trees_crossed"] == exp["trees"], name
        assert sheet.circled == exp["circled"], name
        assert {t: set(v) for t, v in sheet.struck.items()} == exp["struck"], name
        assert [(s["track"], tuple(s["at"]), s["worth"], s["value"], s["round"]) for s in got["scored"]] \
            == exp["scored"], name
        if "barrels" in game:
            assert sheet.barrels == game["barrels"][name], name


def test_shared_tracks_hold_each_value_once():
    """On a shared track a value is circled by at most one player and crossed out for the rest."""
    for game in GAMES:
        st = _replay(game["file"]).state
        for track in ("hotel", "skyscraper"):
            owners = {}
            for p, sh in enumerate(st.sheets):
                for v in sh.circled[track]:
                    assert v not in owners, (game["file"], track, v)
                    owners[v] = p
            for v, p in owners.items():
                for q, sh in enumerate(st.sheets):
                    assert (v in sh.struck[track]) == (q != p), (game["file"], track, v, q)


def test_tie_breaks_by_fewest_trees():
    js = report.as_json(_replay("shanghai-floors.json"))
    totals = {s["player"]: s["total"] for s in js["sheets"]}
    assert totals["Ben"] == totals["Cat"] == 22 > totals["Ann"]
    assert js["winners"] == ["Ben"]
    assert "fewest" in js["tie_break"] and "(2)" in js["tie_break"] and "shared" not in js["tie_break"]
    # a tie for the fewest trees: both tied players score the full +7
    for s in js["sheets"]:
        if s["player"] in ("Ann", "Ben"):
            assert [pts for what, pts in s["items"] if "tree" in what] == [7]
        else:
            assert [pts for what, pts in s["items"] if "tree" in what] == [-7]


def _state_before(name: str, rounds: int, turns: int) -> State:
    """The state of a golden game after `rounds` whole rounds and `turns` turns of the next."""
    data = json.loads((GOLDEN / name).read_text())
    data["rounds"] = data["rounds"][:rounds + 1]
    data["rounds"][rounds]["turns"] = data["rounds"][rounds]["turns"][:turns]
    rp = record.replay(record.parse(data, name))
    assert rp.violations == []
    return rp.state


@pytest.mark.parametrize("name,rounds,turns,player,at", [
    ("shanghai-floors.json", 11, 2, 1, (6, 1)),   # Ben, R12: his (6,1) has 4 floors
    ("monsters-kraken.json", 10, 0, 0, (6, 1)),   # Ann, R11: her (6,1) has 4 tentacles
])
def test_the_third_time_in_a_sky_scraper_must_be_the_road(name, rounds, turns, player, at):  # R13
    st = _state_before(name, rounds, turns)
    assert st.current_player() == player
    assert st.sheets[player].floors[(at[0] - 1) * 6 + at[1] - 1] == 4
    here = [a for a in st.legal_actions() if (a.row, a.col) == at]
    assert here and {a.kind for a in here} == {"draw"}


def test_the_game_ends_at_the_end_of_the_round():
    # shanghai-floors: Cat crosses her 12th tree as the FIRST player of round 12
    st = _state_before("shanghai-floors.json", 11, 1)
    assert st.sheets[2].trees == 12 and st.ending == ["trees"] and not st.is_terminal()
    # monsters-kraken: Ann circles 18 first in round 11; Ben still plays and scores after her
    st = _state_before("monsters-kraken.json", 10, 1)
    assert st.ending == ["skyscraper"] and not st.is_terminal() and st.current_player() == 1
    rp = _replay("monsters-kraken.json")
    assert ("hotel", (6, 6), 8) in [(s.track, s.at, s.value) for s in rp.state.sheets[1].scored if s.round == 11]


@pytest.mark.slow
def test_cli_validate_agrees(cli_reports):
    for game in GAMES:
        code, stdout, stderr = cli_reports[game["file"]]
        assert code == 0, stderr
        js = json.loads(stdout)
        assert js["valid"] and js["finished"]
        assert {s["player"]: s["total"] for s in js["sheets"]} == {n: e["total"] for n, e in game["sheets"].items()}
        assert js["winners"] == game["winners"]
