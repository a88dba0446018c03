"""The Deadly Doodles rulebook's own words for every rule the engine can find broken.

Keys are the rule ids in IllegalAction.rule and in validation reports. Ruling ids (D...) point
to docs/rulings.md, where a sentence needed a reading.
"""
from __future__ import annotations

_S: dict[str, str] = {
    "one_per_room": "Only one path segment may be drawn within a room.",
    "own_trap": "You may not draw a path segment within a room that contains one of your Traps.",
    "wall": "Your path segments must always connect to a passageway and cannot cross or end at a wall. "
            "All ends of a path segment (except for the dead end) must link to passageways.",
    "shape": "Path Segment cards show specific patterns that must be drawn on your map. "
             "You may rotate the path segments as needed.",
    "entry": "At the start of the game, your first path segment must link to an entryway. After that, all "
             "new path segments must either link to a previously drawn path segment OR start a new path "
             "at another entryway. (ruling D3)",
    "trap_room": "When a Trap card is revealed, you must draw an \"X\" within any empty room on your dungeon "
                 "map. You may set a Trap in a room that has an entryway. You may not set a Trap in any room "
                 "containing Loot, Weapons, Monsters, the Dragon, your previously drawn path segments, or "
                 "another Trap you have previously drawn.",
    "trap_card": "When a Trap card is revealed, you must draw an \"X\" within any empty room on your dungeon map.",
    "segment_card": "Path Segment cards show specific patterns that must be drawn on your map.",
    "draw2": "Any time a Draw 2 card is revealed, reveal two additional cards and then discard the Draw 2.",
    "card": "Draw the revealed path segments and Traps in any order you choose on your dungeon map.",
    "room": "Your map board shows the dungeon, divided into squares that represent rooms. These rooms are "
            "marked by coordinates along the top and left edges.",
    "unused": "If a revealed path segment cannot be drawn on your map for any reason, place a tally mark "
              "next to item 6 in the scoring section of your dungeon map. (ruling D4)",
    "trap_must": "When a Trap card is revealed, you must draw an \"X\" within any empty room on your dungeon "
                 "map. (ruling D5)",
    "done": "Once all players have completed drawing their path segments, the revealed cards are discarded "
            "and four new cards are revealed to start the next round.",
    "order": "At the start of the round, reveal the top four cards of the deck (or more if you've revealed "
             "any Draw 2 cards).",
    "reveal": "Shuffle the cards together to form a face-down deck, and then reveal the top four cards so "
              "that all players can see all of them at once. For a solitaire game, remove the two Trap cards.",
    "rounds": "The game consists of seven rounds, followed by a scoring phase.",
    "over": "After the seventh round is completed, the game ends.",
    "player": "Each player takes one map board and a dry-erase marker.",
    "tally": "After the seventh round is completed, the game ends. Calculate your score by following the "
             "instructions in the Scoring section. (ruling D14)",
}


def sentence(rule: str, edition: str = "deadly") -> str:
    """The rulebook sentence for `rule` ("" for an id without one)."""
    return _S.get(rule, "")


RULES = tuple(_S)
