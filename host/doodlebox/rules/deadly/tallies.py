"""Deadly Doodles recorded with tallies (docs/deadly-doodles.md, "Tallies"; ruling D14): the
players draw the path segments on paper, only their Traps are entered (Traps act between
players), and after the seventh round each player gives the eight counts of their scoring
section. This module holds the counts, their score as printed, and what can be checked of them
against the map, the cards revealed and the Traps drawn.

It knows the engine's state only by its fields (game.map, game.deck, boards, revealed_in), so
the engine can import it."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import Any

FIELDS = ("loot", "dragon", "weapons", "matched", "unmatched", "entryways", "unused", "hits")
# What one of each count is worth in the scoring section as printed: Loot 2 (doubled once the
# Dragon's room is entered: DRAGON_TIMES), a Weapon 1, a Monster 4 with its Weapon and -2
# without, an entryway not linked 1, an unused path segment -2, a Trap that hits you -3. The
# engine's score, the tallies' and the console's (generated into firmware/doodle/deadly.py by
# `make firmware-data`) are written with these.
POINTS = {"loot": 2, "weapons": 1, "matched": 4, "unmatched": -2, "entryways": 1, "unused": -2, "hits": -3}
DRAGON_TIMES = 2
LABELS = {"loot": "Loot rooms entered", "dragon": "the Dragon's room entered (0 or 1)",
          "weapons": "Weapon rooms entered", "matched": "Monsters matched with a Weapon",
          "unmatched": "Monsters not matched", "entryways": "entryways not linked",
          "unused": "path segments unused", "hits": "Traps that hit you"}


@dataclass(frozen=True)
class Counts:
    """One player's scoring section as they counted it on paper (items 1 to 7)."""
    loot: int = 0
    dragon: int = 0
    weapons: int = 0
    matched: int = 0
    unmatched: int = 0
    entryways: int = 0
    unused: int = 0
    hits: int = 0

    @classmethod
    def of(cls, values: Sequence[int]) -> Counts:
        """The counts in the console's order (docs/protocol.md, `tally.t`): FIELDS."""
        return cls(*values)

    def as_dict(self) -> dict[str, int]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def entered(self) -> int:
        """Rooms entered with an item: each holds one of the player's segments."""
        return self.loot + min(self.dragon, 1) + self.weapons + self.matched + self.unmatched

    def text(self) -> str:
        return ", ".join(f"{k} {v}" for k, v in self.as_dict().items())


def items(c: Counts) -> list[tuple[str, int]]:
    """The seven items of the scoring section, as printed, from the counts."""
    P = POINTS
    loot = P["loot"] * c.loot * (DRAGON_TIMES if c.dragon else 1)
    why = ", doubled: the Dragon was entered" if c.dragon else " (not doubled: the Dragon was not entered)"
    return [(f"1. Loot: {c.loot} entered x {P['loot']}{why}", loot),
            (f"2. Weapons: {c.weapons} entered", P["weapons"] * c.weapons),
            (f"3. Monsters with their Weapon: {c.matched} x {P['matched']}", P["matched"] * c.matched),
            (f"4. Monsters without their Weapon: {c.unmatched} x {P['unmatched']}", P["unmatched"] * c.unmatched),
            (f"5. Entryways not linked: {c.entryways}", P["entryways"] * c.entryways),
            (f"6. Unused path segments: {c.unused} x {P['unused']}", P["unused"] * c.unused),
            (f"7. Traps that hit you: {c.hits} x {P['hits']}", P["hits"] * c.hits)]


def total(c: Counts) -> int:
    return sum(p for _, p in items(c))


def trap_owners(state: Any) -> dict[int, list[int]]:
    """room -> the players with a Trap there."""
    owners: dict[int, list[int]] = {}
    for p, b in enumerate(state.boards):
        for i, t in enumerate(b.trap):
            if t:
                owners.setdefault(i, []).append(p)
    return owners


def problems(state: Any, player: int, c: Counts) -> list[tuple[str, str, str]]:
    """What the counts of `player` cannot be, given the map, the cards revealed so far and the
    Traps drawn: (field, or "" for the counts together; reason; what they could be), every one found."""
    m = state.game.map
    deck = state.game.deck
    out: list[tuple[str, str, str]] = []

    def most(name: str, value: int, high: int, what: str) -> None:
        if value > high:
            out.append((name, f"{value} {LABELS[name]}, but {what}", f"{name} 0 to {high}"))

    loot = sum(1 for k in m.contents if k == "loot")
    most("loot", c.loot, loot, f"the map has {loot} Loot rooms")
    most("dragon", c.dragon, 1, "the map has one Dragon")
    most("weapons", c.weapons, len(m.weapons), f"the map has {len(m.weapons)} Weapons")
    monsters = len(m.monsters)
    if c.matched + c.unmatched > monsters:
        out.append(("unmatched", f"{c.matched} Monsters matched and {c.unmatched} not, but the map has {monsters}",
                    f"matched + unmatched 0 to {monsters}"))
    if c.matched > c.weapons:
        out.append(("matched", f"{c.matched} {LABELS['matched']}, but only {c.weapons} Weapon rooms were entered "
                               "(a Monster matches a Weapon scored in item 2)", f"matched 0 to {c.weapons}"))
    arrows = m.entryway_count()
    most("entryways", c.entryways, arrows, f"the map has {arrows} entryways")
    board = state.boards[player]
    trapped = [i for i, t in enumerate(board.trap) if t and m.entries[i]]
    under = sum(bin(m.entries[i]).count("1") for i in trapped)
    if c.entryways < under:
        rooms = ", ".join(m.room_name(i) for i in trapped)
        out.append(("entryways", f"{c.entryways} {LABELS['entryways']}, but the arrows of your Trap rooms "
                                 f"({rooms}) are {under}: a path never shares a room with your Trap (ruling D13)",
                    f"entryways {under} to {arrows}"))
    revealed = sum(1 for card in state.revealed_in if deck.is_segment(card))
    most("unused", c.unused, revealed, f"{revealed} path segments were revealed")
    drawn = max(revealed - c.unused, 0)
    if c.unused <= revealed and c.entered() > drawn:
        out.append(("", f"{c.entered()} rooms with Loot, the Dragon, Weapons or Monsters entered, but only "
                            f"{drawn} path segments drawn ({revealed} revealed, {c.unused} unused)",
                    f"at most {drawn} such rooms entered"))
    owners = trap_owners(state)
    same = sum(1 for who in owners.values() if len(who) > 1 and player in who)
    others = sum(1 for who in owners.values() if len(who) == 1 and who[0] != player)
    if c.hits > same + others:
        can = (f"the Traps drawn can hit you {same + others} time{'s' if same + others > 1 else ''} at most"
               if same + others else "no Trap drawn can hit you")
        out.append(("hits", f"{c.hits} {LABELS['hits']}, but {can}", f"hits {same} to {same + others}"))
    elif c.hits < same:
        out.append(("hits", f"{c.hits} {LABELS['hits']}, but {same} of your Traps share their room with another "
                            "player's: each hits you (ruling D8)", f"hits {same} to {same + others}"))
    return out
