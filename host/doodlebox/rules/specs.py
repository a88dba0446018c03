"""Every game's declaration (rules/<game>/spec.py), without its engine: light to import, for the
command line's choices, the bots' lobby and the console's generated lobby
(firmware_data.lobby_module). EDITIONS is in the console lobby's order (D0 steps on)."""
from __future__ import annotations

from doodlebox.rules.api import Edition, GameSpec, Option
from doodlebox.rules.deadly.spec import SPEC as DEADLY
from doodlebox.rules.dice.spec import SPEC as DICE
from doodlebox.rules.puzzle.spec import SPEC as PUZZLE

SPECS: tuple[GameSpec, ...] = (DICE, DEADLY, PUZZLE)
EDITIONS: tuple[Edition, ...] = tuple(e for s in SPECS for e in s.editions)
BY_EDITION: dict[str, Edition] = {e.edition: e for e in EDITIONS}


def options_by_flag() -> dict[str, list[tuple[Edition, Option]]]:
    """{flag: [(edition, option)]}: each option of the command line and the editions that have it."""
    out: dict[str, list[tuple[Edition, Option]]] = {}
    for e in EDITIONS:
        for o in e.options:
            out.setdefault(o.flag, []).append((e, o))
    return out
