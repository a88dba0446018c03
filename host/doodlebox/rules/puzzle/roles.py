"""The role deal of Doodle Puzzle and what follows from it: who places which board.

Role cards: the box holds 8 (the star Drawy, 5 Drawys, Baddy, Guessy). A game takes as many
as there are players: always the star Drawy, Baddy and Guessy, Drawys for the rest. Baddy,
Please Behave takes no Baddy and an extra Drawy instead (ruling P1).

Players are 0-based, in the record's order, which is clockwise round the table: the player
after P(n) clockwise is P(n+1), the one to their left (ruling P4).
"""
from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from functools import cache

STAR, DRAWY, BADDY, GUESSY = "star", "drawy", "baddy", "guessy"
ROLES = (STAR, DRAWY, BADDY, GUESSY)
NAMES = {STAR: "star Drawy", DRAWY: "Drawy", BADDY: "Baddy", GUESSY: "Guessy"}
PLURALS = {STAR: "star Drawys", DRAWY: "Drawys", BADDY: "Baddies", GUESSY: "Guessies"}
SLOTS = 6


def role_cards(players: int, behave: bool = False) -> list[str]:
    """The role cards taken out for a game: star, Baddy (not in Behave), Guessy, then Drawys."""
    special = [STAR, GUESSY] if behave else [STAR, BADDY, GUESSY]
    return special + [DRAWY] * (players - len(special))


def counted(n: int, role: str) -> str:
    return f"{n} {NAMES[role] if n == 1 else PLURALS[role]}"


def deal_text(players: int, behave: bool = False) -> str:
    """What a deal must be, for a person: '1 star Drawy, 1 Baddy, 1 Guessy and 2 Drawys'."""
    c = Counter(role_cards(players, behave))
    parts = [counted(c[r], r) for r in (STAR, BADDY, GUESSY, DRAWY) if c[r]]
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def deal_problems(roles: tuple[str, ...] | list[str], players: int, behave: bool = False) -> list[str]:
    """Why a deal is not one the rulebook allows ([] when it is)."""
    if len(roles) != players:
        return [f"{len(roles)} role cards for {players} players"]
    want = Counter(role_cards(players, behave))
    have = Counter(roles)
    out = []
    for r in (STAR, BADDY, GUESSY, DRAWY):
        if have[r] == want[r]:
            continue
        if r == BADDY and behave:
            out.append(f"{counted(have[r], r)} dealt, but Baddy, Please Behave has no Baddy")
        elif have[r] == 0:
            out.append(f"no {NAMES[r]}")
        else:
            out.append(f"{have[r]} {PLURALS[r] if have[r] != 1 else NAMES[r]} instead of {want[r]}")
    unknown = [r for r in have if r not in ROLES]
    if unknown:
        out.append("unknown roles " + ", ".join(map(repr, unknown)))
    return out


@cache
def all_deals(players: int, behave: bool = False) -> tuple[tuple[str, ...], ...]:
    """Every distinct deal (who gets which role), each equally likely when the cards are shuffled."""
    out = []
    for s in range(players):
        for b in ([-1] if behave else range(players)):
            if b == s:
                continue
            for g in range(players):
                if g in (s, b):
                    continue
                roles = [DRAWY] * players
                roles[s] = STAR
                roles[g] = GUESSY
                if b >= 0:
                    roles[b] = BADDY
                out.append(tuple(roles))
    return tuple(out)


def deal(rng: random.Random, players: int, behave: bool = False) -> tuple[str, ...]:
    """One random deal: the cards shuffled and handed out in player order."""
    cards = role_cards(players, behave)
    rng.shuffle(cards)
    return tuple(cards)


def dealer(seed: int, players: int, behave: bool = False) -> Iterator[tuple[str, ...]]:
    """A fresh random deal for every round, reproducible from the seed (for playouts)."""
    rng = random.Random(seed)
    while True:
        yield deal(rng, players, behave)


def drawys_clockwise(roles: tuple[str, ...] | list[str]) -> list[int]:
    """Every Drawy (the star included), clockwise, starting with the star Drawy."""
    n = len(roles)
    star = list(roles).index(STAR)
    return [(star + k) % n for k in range(n) if roles[(star + k) % n] in (STAR, DRAWY)]


def placing_order(roles: tuple[str, ...] | list[str]) -> list[int]:
    """Who places the 1st, 2nd, ... 6th board: the star Drawy first, then the Drawys in turn
    clockwise, one board each turn, round and round until all 6 slots are filled (ruling P4)."""
    ds = drawys_clockwise(roles)
    return [ds[i % len(ds)] for i in range(SLOTS)]


def boards_each(roles: tuple[str, ...] | list[str]) -> dict[int, int]:
    """How many boards each Drawy places: {player: boards}."""
    return dict(Counter(placing_order(roles)))
