"""Doodle Puzzle declared once: its players, its options (the variants, the subject cards) and
the rulebook's limits on them (ruling P9). The engine, the records, the command line, the scripted table and
the console's lobby (firmware/doodle/games.py, generated) take them from here."""
from __future__ import annotations

from doodlebox.rules.api import Choice, Edition, GameSpec, Limit, Option

VARIANT = Option(
    name="variant", key="var", flag="--variant", label="Variant",
    description="the variant: the base game, Baddy, Please Behave (no Baddy: the table plays together) "
                "or Guessy vs. Baddy Showdown!! (a wrong guess may challenge Baddy)",
    choices=(Choice("", "base", "base game"),
             Choice("behave", "Behave", "Baddy, Please Behave"),
             Choice("showdown", "Showdown", "Guessy vs. Baddy Showdown!!")),
    default="", combine=True)

SUBJECTS = Option(
    name="subjects", key="subj", flag="--subjects", label="Subjects",
    description="the subject cards: standard (16 cards) or beginner (6 cards)",
    choices=(Choice("standard", "standard", "the Standard Subject Cards"),
             Choice("beginner", "beginner", "the Beginner Subject Cards")),
    default="standard")

# "This variant cannot be used in an 8-player game." "This variant cannot be combined with the
# Guessy vs. Baddy Showdown!! variant." (ruling P9)
BEHAVE_PLAYERS = Limit("behave_8", "P9", "variant", "behave", players=(3, 7),
                       why="7 Drawys would need a 7th Drawy card; the box has 6")
BEHAVE_NOT_SHOWDOWN = Limit("behave_showdown", "P9", "variant", "behave", excludes="showdown",
                            why="there is no Baddy to challenge")

PUZZLE = Edition(
    edition="puzzle", name="Doodle Puzzle", lobby="Doodle Puzzle", short="Puzzle",
    players=(3, 8),                      # the box's 8 Role Cards
    options=(VARIANT, SUBJECTS), limits=(BEHAVE_PLAYERS, BEHAVE_NOT_SHOWDOWN), dice=False)

SPEC = GameSpec(name="Doodle Puzzle", package="puzzle", editions=(PUZZLE,))
