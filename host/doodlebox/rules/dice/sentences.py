"""The rulebook's own words for every rule the engine can find broken, per edition.

Keys are the rule ids in IllegalAction.rule and in validation reports; each maps to the
sentence for City (the 5x5 wording), Islands (Sea of Treasures/Monsters) and China
(Suzhou/Shanghai). Ruling ids (R...) point to docs/rulings.md.
"""
from __future__ import annotations

FAMILY = {"city": "city", "suzhou": "china", "shanghai": "china", "treasures": "islands", "monsters": "islands"}

_S: dict[str, dict[str, str]] = {
    "taken": {
        "city": "When you have chosen a die, place it in front of you. No other player may choose this die during this round.",
        "islands": "No other player may use that white die during this round.",
    },
    "die": {
        "city": "Use the blue die and one white die more than the number of players (e.g. 4 white dice in a 3 player game).",
        "islands": "Take one black die and one white die per player, then take one additional white die.",
    },
    "square": {
        "city": "All players must draw in the column given by the blue die. The white die you take indicates a row.",
        "china": "All players must draw in the column given by the blue die. The white die you take indicates a row.",
        "islands": "All players must draw on their sheet in the column indicated by the black die. The white die indicates a row.",
    },
    "drawn": {
        "city": "You cannot choose a white die that points to a square where you have already drawn a road!",
        "islands": "You cannot choose a white die that indicates a box on which you have already drawn a Route.",
    },
    "house": {
        "city": "House squares: In house squares you cannot draw roads, but must instead cross out one house.",
        "china": "House squares: In house squares you cannot draw riverways, but must instead cross out one house.",
        "islands": "Archipelago: You cannot draw a Route on an Archipelago box. Instead, you must draw a cross on one of the Forts that is not yet checked off.",
    },
    "houses": {
        "city": "Since each house square has two available houses, you can draw up to two times in each house square.",
        "islands": "Note that 1 to 2 Forts are already checked off on each Archipelago box.",
    },
    "must_take": {
        "city": "Important: You must choose a die that points to a square in which you can draw.",
        "islands": "You must choose a white die that indicates a box on which you can draw.",
    },
    "no_tree": {
        "city": "More control: Instead of taking a die, players may choose to pass and cross out one tree.",
        "china": "Passing: Instead of taking a die, you may choose to cross out a tree.",
        "islands": "Bottles: ... they may check off a Bottle instead of taking a die.",
    },
    "six_tree": {
        "city": "If you choose a white 6, cross out one tree at the bottom of your sheet. (ruling R3)",
        "islands": "If you choose a white 6, check off a Bottle at the bottom of your sheet. (ruling R3)",
    },
    "six_square": {
        "city": "If the blue die shows a 6, each player may freely choose in which column they would like to draw (the row is still determined by the white die). If you choose a white 6 ... you may then draw in any square in the column indicated by the blue die. If the blue die is also a 6, you may choose any square on your sheet!",
        "islands": "If the black die result is a 6, each player may choose which column to draw in (but the row is still indicated by the white die). If you choose a white 6 ... you may draw in any box in the column indicated by the black die. If the black die is also a 6, you may choose any box on your Sheet.",
    },
    "park_row": {
        "china": "When you take a die that points to a park, you must cross out a tree, and then you must draw in any one space in the same row as the park.",
    },
    "park_tree": {
        "china": "When you take a die that points to a park, you must cross out a tree ... (ruling R14: not without a tree)",
    },
    "park_any": {
        "islands": "When a player takes a die that indicates a Breaker box, they may not draw on that Breaker box. Instead, they must check off a Barrel and then draw on any available box on their sheet.",
    },
    "park_barrel": {
        "islands": "Instead, they must check off a Barrel and then draw on any available box on their sheet. (ruling R15: not without a barrel)",
    },
    "floor": {
        "city": "House squares: In house squares you cannot draw roads, but must instead cross out one house. "
                "(There are no sky scrapers to add floors to in this edition.)",
        "suzhou": "House squares: In house squares you cannot draw riverways, but must instead cross out one house. "
                  "(There are no sky scrapers to add floors to in this edition.)",
        "treasures": "Archipelago: ... you must draw a cross on one of the Forts that is not yet checked off. "
                     "(There are no Krakens to add Tentacles to in this edition.)",
        "china": "When you draw in a sky scraper space, you must choose to EITHER build another floor in the sky scraper (cross out a box), OR draw a road in the space and score the sky scraper.",
        "islands": "Every time a player draws on a Kraken box, they may choose either to check off an available Tentacle, or to draw a Route.",
    },
    "third_time": {
        "china": "The third time you draw in a sky scraper space, you have to draw a road and score it. (ruling R13)",
        "islands": "All Krakens have two Tentacles already checked off, so you can check off a maximum of two additional Tentacles.",
    },
    "piece": {
        "city": "The road can be a straight line (vertical or horizontal) or a curve, connecting two sides of the square.",
        "islands": "This Route can be a straight line, horizontal or vertical, or a curved line connecting two sides of the box.",
    },
    "turn": {
        "city": "Beginning with the starting player, now go clockwise around the table. Each player in turn takes one of the white dice.",
        "islands": "Starting with the first player, and clockwise, each player takes a white die and places it in front of them.",
    },
    "over": {
        "city": "When one of the following things happen, the game ends at the end of the round.",
        "islands": "When one of the following situations occurs, the game ends at the end of the round.",
    },
    "unfinished": {
        "city": "When one of the following things happen, the game ends at the end of the round.",
        "islands": "When one of the following situations occurs, the game ends at the end of the round.",
    },
    "start": {
        "city": "Repeat for columns 3-5. Now, all players should have the same five starting roads.",
        "islands": "Repeat this process for columns 3, 4 and 5. Now all players have the same five starting Routes.",
    },
    "order": {
        "city": "At the beginning of each round, the starting player rolls all the dice.",
        "islands": "At the start of the round, the first player rolls all the dice.",
    },
    "dice": {
        "city": "Use the blue die and one white die more than the number of players.",
        "islands": "Take one black die and one white die per player, then take one additional white die.",
    },
    "action": {
        "city": "Each player in turn takes one of the white dice and draws in the indicated square on their sheet.",
    },
}


# The decision after a drawing that reaches several values (ruling R10: Action "circle"). Kept
# apart from _S because tests/rules/test_golden_violations.py ties every id of _S to its hand-worked
# golden records, which were written before this rule; the rule is tested in tests/rules/test_rules.py
# (test_a_lower_value_may_be_circled_and_the_record_says_so).
_DECISIONS: dict[str, dict[str, str]] = {
    "circle": {
        "city": "If this number is equal to, or above, an available hotel score, circle that score ... "
                "each score may only be used once. ... Circle this number (or an available lower number) in the "
                "shop scoring section. (ruling R10)",
        "suzhou": "If this number is equal to, or above, an available hotel score, circle that score ... "
                  "each score may only be used once. ... Circle this number (or an available lower number) in "
                  "the shop scoring section. (ruling R10)",
        "shanghai": "Count the number of road segments of the road passing through the hotel, and circle this value "
                    "(or any lower available number) in the hotel scoring section ... All other players must "
                    "cross out this value on their sheets. (ruling R10)",
        "treasures": "If this number is equal to or greater than one of the available numbers (i.e., not yet "
                     "circled) in the Monster Score zone, circle that number ... Circle that number (or a lower "
                     "available number) in the Treasure Islands Score zone of your Sheet. (ruling R10)",
        "monsters": "If this number is equal to or greater than one of the available numbers (i.e., neither "
                    "checked off nor circled) in the Monster Score zone, circle that number ... Each value can "
                    "earn Gold Coins only once, across all players combined. (ruling R10)",
    },
}


def sentence(rule: str, edition: str) -> str:
    """The rulebook sentence for `rule` in `edition`: the edition's own, else its rulebook's
    (china, islands), else City's wording."""
    texts = _S.get(rule) or _DECISIONS.get(rule, {})
    fam = FAMILY.get(edition, "city")
    return texts.get(edition) or texts.get(fam) or texts.get("city") or next(iter(texts.values()), "")
