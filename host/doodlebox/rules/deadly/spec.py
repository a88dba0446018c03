"""Deadly Doodles declared once: its players and its options (the map side, and how the
drawings are entered: ruling D14). The engine, the command line, the scripted table and the console's lobby
(firmware/doodle/games.py, generated) take them from here."""
from __future__ import annotations

from doodlebox.rules.api import Choice, Edition, GameSpec, Option

MAP = Option(
    name="map", key="map", flag="--map", label="Map",
    description="the side of the dungeon map boards",
    choices=(Choice("a", "A", "side A"), Choice("b", "B", "side B")),
    default="a")

DRAWINGS = Option(
    name="drawings", key="rec", flag="--drawings", label="Drawings",
    description="every drawing entered (full), or each player's counts after round 7 (tally, ruling D14)",
    choices=(Choice("full", "full", "every drawing entered"),
             Choice("tally", "tallies", "each player's counts (ruling D14)")),
    default="full")

DEADLY = Edition(
    edition="deadly", name="Deadly Doodles", lobby="Deadly Doodles", short="Deadly",
    players=(1, 4),                      # "4 double-sided dungeon map boards"
    options=(MAP, DRAWINGS), dice=False)

SPEC = GameSpec(name="Deadly Doodles", package="deadly", editions=(DEADLY,))
