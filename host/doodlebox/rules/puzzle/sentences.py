"""The Doodle Puzzle rulebook's own words (../shared/rulebooks/doodle-puzzle.txt) for every rule
the engine can find broken, keyed by the rule id in IllegalAction.rule and in validation
reports. "(ruling Pn)" points to docs/rulings.md, where the rulebook leaves a question open.
"""
from __future__ import annotations

_S: dict[str, str] = {
    "players": "Take out Role Cards equal to the number of players (the box holds 8 Role Cards: 3 to 8 players).",
    "behave_8": "This variant cannot be used in an 8-player game.",
    "behave_showdown": "This variant cannot be combined with the Guessy vs. Baddy Showdown!! variant.",
    "roles": "Take out Role Cards equal to the number of players, ensuring they include the following 3 roles: "
             "Drawy, Baddy, and Guessy. Each player randomly draws 1 Role Card and places it face up in front "
             "of them. (ruling P1)",
    "behave_roles": "Do not take the Baddy card. Instead, take an extra Drawy card. (ruling P1)",
    "order": "Each round follows these steps, then Scoring & Round Reset: 1. Draw Roles 2. Choose a Subject, "
             "Start Drawing!, Rearrange the Boards 3. Baddy's Mischief! 4. Guess the Subject!",
    "turn": "Drawy with the star icon chooses a number from 1 to 12, then randomly draws 1 Subject Card and "
            "reveals it.",
    "number": "Drawy with the star icon chooses a number from 1 to 12, then randomly draws 1 Subject Card and "
              "reveals it. The number corresponds to the subject for this round.",
    "card": "Take either the Beginner Subject Cards (6 cards) or Standard Subject Cards (16 cards) based on "
            "preference.",
    "again": "Q. If no one understands the chosen subject, can we choose a new one? A. Yes! As long as most "
             "players agree, Drawy with the star icon can repeat Choose a Subject. (ruling P2)",
    "minute": "Use any timing device (cell phone, hourglass, timer...) to count down 1 minute. (ruling P3)",
    "place_turn": "Starting with the Drawy icon (pencil), all Drawys take turns in a clockwise order, moving one "
                  "of their boards from their personal frames to the central frame. (ruling P4)",
    "slot": "... ensuring each board is placed in the same numbered slot as it was originally, until all 6 slots "
            "of the central frame are filled.",
    "slot_twice": "... until all 6 slots of the central frame are filled. Do not overlap or rotate the boards.",
    "slots_empty": "Starting with the Drawy icon (pencil), all Drawys take turns in a clockwise order ... until "
                   "all 6 slots of the central frame are filled.",
    "board": "Erase: Choose 1 board and erase part or all of the drawing. Draw: Choose 1 board and draw on it. "
             "(the central frame holds boards 1 to 6)",
    "baddy_once": "You may perform both actions once each at most.",
    "behave_sabotage": "There is no Baddy in this variant. ... Skip Baddy's Mischief!",
    "guess": "After examining the artwork, Guessy announces their guess (a word or a phrase).",
    "challenge_right": "If Guessy is incorrect, they may attempt to identify which board was sabotaged and "
                       "challenge Baddy!",
    "challenge_variant": "Guessy vs. Baddy Showdown!! ... If Guessy is incorrect, they may attempt to identify "
                         "which board was sabotaged and challenge Baddy!",
    "over": "After the 5th round of scoring, the game ends.",
    "incomplete": "Each round follows these steps, then Scoring & Round Reset ... The Game Flow diagram loops "
                  "from Scoring & Round Reset back to Draw Roles. (ruling P11)",
}

# Baddy, Please Behave: the evaluation of the shared Scorecard, by its check marks.
VERDICTS = {
    0: "Good effort! But it seems like you might have painted yourselves into a corner... Don't lose heart! "
       "The goal is fun and learning, so keep those markers moving!",
    1: "There might be a need for some imagination to connect the drawings with the subject, but at least you "
       "reached a basic consensus. Future rounds look promising!",
    2: "It seems like you're starting to grasp the abstract essence of art! The reasoning process might be a "
       "bit... unique, but your teamwork is getting better!",
    3: "You've completed half the journey! This is the perfect blend of Picasso and detective stories! Keep up "
       "the teamwork!",
    4: "You're almost dual champions of art and logic! Your team dynamics are simply impressive!",
    5: "Master level unlocked! You've reached the pinnacle of art and intuition! Are you sure you weren't "
       "secretly using telepathy to solve the puzzles?",
}


def sentence(rule: str, edition: str = "puzzle") -> str:
    """The rulebook sentence for `rule` ("" for an id it does not know)."""
    return _S.get(rule, "")


RULES = tuple(_S)
