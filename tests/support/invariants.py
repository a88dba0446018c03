"""The rules-specific invariants of each game, checked after every action of the random
playouts in test_game_api.py (the interface's own invariants are there): each game's state
checked against the rulebook, and its scores worked out afresh (not by the engine)."""
from __future__ import annotations

from collections import Counter

from doodlebox.rules.deadly.maps import OPPOSITE, E, N, S, W
from doodlebox.rules.puzzle import engine as P
from doodlebox.rules.puzzle import roles as R


def dice(s) -> None:
    """The dice editions: tracks, shared values, bonuses, trees, barrels, houses, floors."""
    lay = s.game.layout
    for t, track in lay.tracks.items():
        held = [v for sh in s.sheets for v in sh.circled[t]]
        for sh in s.sheets:
            assert len(set(sh.circled[t])) == len(sh.circled[t]), "a value circled twice"
            assert not set(sh.circled[t]) & sh.struck[t]
            assert set(sh.circled[t]) <= set(track.values)
        if track.shared:
            assert len(set(held)) == len(held), "a shared value held by two players"
    bonuses = [b for sh in s.sheets for b in sh.bonuses]
    assert len(set(bonuses)) == len(bonuses)
    for sh in s.sheets:
        assert 0 <= sh.trees <= lay.trees and 0 <= sh.barrels <= lay.barrels
        for i, sq in enumerate(lay.squares):
            assert sq.precrossed <= sh.crossed[i] <= max(sq.houses, sq.precrossed)
            assert sq.floors <= sh.floors[i] <= sq.floors + (lay.extra_floors if sq.kind == "skyscraper" else 0)
    for sh in s.sheets:  # the scored items add up to the values circled
        for t in lay.tracks:
            assert sorted(x.value for x in sh.scored if x.track == t and x.value) == sorted(sh.circled[t])


def deadly_score(s) -> list[list[int]]:
    """Items 1-7 for every player, counted again from the rulebook's words (not engine.score)."""
    m, boards = s.game.map, s.boards
    traps = [(p, i) for p, b in enumerate(boards) for i in range(m.size) if b.trap[i]]
    shared = {i for p, i in traps if sum(1 for q, j in traps if j == i) > 1}
    out = []
    for p, b in enumerate(boards):
        entered = {i for i in range(m.size) if b.paths[i]}
        loot = 2 * len(entered & set(m.loot)) * (2 if m.dragon in entered else 1)
        weapons = {k for k, i in m.weapons.items() if i in entered}
        monsters = {k for k, i in m.monsters.items() if i in entered}
        free = sum(1 for i in range(m.size) for bit in (N, E, S, W) if m.entries[i] & bit and not b.paths[i] & bit)
        hits = sum(1 for q, i in traps if (q == p and i in shared) or (q != p and i not in shared and i in entered))
        out.append([loot, len(weapons), 4 * len(monsters & weapons), -2 * len(monsters - weapons), free,
                    -2 * len(b.unused), -3 * hits])
    return out


def deadly(s) -> None:
    """Deadly Doodles: paths on passageways and reaching an entryway, the deck, fresh scores."""
    g, m = s.game, s.game.map
    for b in s.boards:
        for i in range(m.size):
            assert not (b.paths[i] and b.trap[i])                      # a path and an own Trap never share
            assert not b.paths[i] & ~m.passages[i]                     # every end on a passageway
            if b.paths[i]:
                assert b.paths[i] in g.deck.turns[g.deck.kind_of[b.cards[i]]]   # the card's shape
            if b.trap[i]:
                assert not m.contents[i] and g.deck.kind_of[b.cards[i]] == "trap"
        # every path (set of linked segments) reaches an entryway
        rooms = {i for i in range(m.size) if b.paths[i]}
        while rooms:
            todo, comp = [rooms.pop()], set()
            while todo:
                i = todo.pop()
                comp.add(i)
                for _, j, back in g.links[i]:
                    if j in rooms and b.paths[j] & back and b.paths[i] & OPPOSITE[back]:
                        rooms.discard(j)
                        todo.append(j)
            assert any(b.paths[i] & m.entries[i] for i in comp)
        drawn = [c for c in b.cards if c]
        assert len(drawn) == len(set(drawn))                         # each card drawn once per map
    # the deck: every card is face down or revealed once, the solo deck has no Traps
    assert set(s.revealed_in) | s.left == set(g.deck.cards(g.solo)) and not set(s.revealed_in) & s.left
    assert s.round <= 7
    res = s.result()
    assert [[pts for _, pts in ss.items] for ss in res.sheets] == deadly_score(s)
    assert all(ss.total == sum(p for _, p in ss.items) for ss in res.sheets)


def puzzle_score(state) -> list[int]:
    """The scores worked out afresh from the history alone (not from the engine's cards)."""
    g = state.game
    pts = [0] * g.players
    roles = ()
    sabotage: set[int] = set()
    for _who, a in state.history:
        if a.kind == "deal":
            roles, sabotage = a.roles, set()
        elif a.kind in ("erase", "draw"):
            sabotage.add(a.value)
        elif a.kind == "guess":
            right = bool(a.value)
            for p, r in enumerate(roles):
                if g.behave:
                    pts[p] += 2 if right else 0  # the shared card is everyone's
                elif (r == R.BADDY) != right:
                    pts[p] += 2
        elif a.kind == "challenge":
            gp, bp = roles.index(R.GUESSY), roles.index(R.BADDY)
            if a.value in sabotage:
                pts[gp] += 1
                pts[bp] -= 1
            else:
                pts[gp] -= 1
    return pts


def puzzle(s) -> None:
    """Doodle Puzzle: the deal, the placing order, Baddy's actions, the slashes, fresh scores."""
    g = s.game
    hist = s.history
    start = max(i for i, (_w, a) in enumerate(hist) if a.kind == "deal") if s.round else 0
    this = [(w, a) for w, a in hist[start:]]
    if s.roles:
        assert Counter(s.roles) == Counter(R.role_cards(g.players, g.behave))  # each role exactly as dealt
        assert s.roles == this[0][1].roles
    placed = [(w, a.value) for w, a in this if a.kind == "place"]
    assert [w for w, _ in placed] == s.placers[:len(placed)]           # placements in turn order
    assert all(s.roles[w] in (R.STAR, R.DRAWY) for w, _ in placed)
    slots = [v for _, v in placed]
    assert len(slots) == len(set(slots)) and all(1 <= v <= 6 for v in slots)  # each slot at most once
    if s.phase not in (P.DEAL, P.OVER):
        assert [s.slots[v - 1] for v in slots] == [w for w, _ in placed]
        assert sum(x >= 0 for x in s.slots) == s.placed == len(placed)
    kinds = Counter(a.kind for _, a in this)
    assert kinds["erase"] <= 1 and kinds["draw"] <= 1                    # at most one erase and one draw
    assert kinds["challenge"] + kinds["decline"] <= 1
    if g.behave:
        assert not (kinds["erase"] or kinds["draw"] or kinds["challenge"])
    assert s.scores() == puzzle_score(s)                                       # scores = fresh recomputation
    done = len(s.results)
    marked = done + (s.phase == P.CHALLENGE)  # Showdown: the round is scored before the challenge
    assert all(len(c.marks) == marked for c in s.cards)
    assert s.round <= P.ROUNDS and done <= P.ROUNDS
    for c in s.cards:  # one slash at most per round, and only in the Showdown
        assert c.correct + c.incorrect + c.baddy <= done
        assert g.showdown or c.correct + c.incorrect + c.baddy == 0
    if s.is_terminal():
        assert done == P.ROUNDS and s.legal_actions() == []


def of(edition: str):
    """The invariants of an edition's game."""
    return {"deadly": deadly, "puzzle": puzzle}.get(edition, dice)
