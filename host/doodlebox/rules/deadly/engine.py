"""The rules of Deadly Doodles, in the spirit of OpenSpiel like the dice engine: a state, chance
nodes for the deal (reveal the next card), each player's drawing actions during a round, apply
an action (refused with a reason a person can act on), scores at any time, clone.

A round: chance reveals four cards (two more for every Draw 2), then every player draws on
their own map, in any order and independently of each other: Place(card, room, ends),
Trap(card, room), and DONE to end their round (the revealed segments they did not draw become
unused). When every player is done the next round is revealed; after the seventh the game is
over. The readings of unclear rules are docs/rulings.md (D1...).

A game recorded with tallies (Game(..., tallies=True), ruling D14) has the segments drawn on
paper: only Traps are drawn here, nothing is unused by the engine, and each player's score is
the counts they give at the end (State.set_counts, tallies.py).

Players are 0-based. Rooms in actions are named as printed ("C4"); ends are side letters in
N E S W order ("NE").
"""
from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import NamedTuple

from doodlebox.rules import api
from doodlebox.rules.api import CHANCE, TERMINAL, GameConfigError, IllegalAction
from doodlebox.rules.common import History, Tally
from doodlebox.rules.deadly import deck as decks
from doodlebox.rules.deadly.deck import DRAW2, ROUNDS, TRAP, Deck
from doodlebox.rules.deadly.maps import BIT, OPPOSITE, SIDES, DungeonMap, sides_mask, sides_text
from doodlebox.rules.deadly.sentences import sentence
from doodlebox.rules.deadly.spec import DEADLY
from doodlebox.rules.deadly.tallies import DRAGON_TIMES, POINTS, Counts
from doodlebox.rules.deadly.tallies import items as tally_items

EDITION = DEADLY.edition
REVEAL, DRAW, OVER = "reveal", "draw", "over"
PLAYERS = DEADLY.players   # spec.py: "4 double-sided dungeon map boards"
_SIDE_BITS = tuple(BIT[s] for s in SIDES)
_ENDS = tuple(sides_text(m) for m in range(16))


class Action(NamedTuple):
    """kind: "place" (a path segment: card, room, ends), "trap" (card, room), "done" (end of
    the player's round); chance: "reveal" (card)."""
    kind: str
    card: int = 0
    room: str = ""
    ends: str = ""

    def __str__(self) -> str:
        if self.kind == "place":
            return f"card {self.card} at {self.room} opening {' '.join(self.ends)}"
        if self.kind == "trap":
            return f"card {self.card}: trap at {self.room}"
        if self.kind == "reveal":
            return f"reveal card {self.card}"
        return "end of round"


def Place(card: int, room: str, ends: Iterable[str] | str) -> Action:
    """A path segment; `ends` in any order ("EN", ["N", "E"])."""
    letters = "".join(ends)
    if all(s in BIT for s in letters):
        letters = sides_text(sides_mask(letters)) if len(set(letters)) == len(letters) else letters
    return Action("place", card, room, letters)


def Trap(card: int, room: str) -> Action:
    return Action("trap", card, room)


def Reveal(card: int) -> Action:
    return Action("reveal", card)


DONE = Action("done")


def refused(reason: str, rule: str, legal: list[str] | None = None) -> IllegalAction:
    """The refusal of an action: the reason, the rule (an id of sentences.py) and its sentence."""
    return IllegalAction(reason, rule, sentence(rule), legal)


@dataclass
class Board:
    """One player's map: what they drew on it."""
    paths: list[int]                  # per room: the sides its segment opens on, 0 for none
    cards: list[int]                  # per room: the card drawn there (segment or trap), 0 for none
    rounds: list[int]                 # per room: the round it was drawn in
    trap: list[bool]                  # per room: one of this player's Traps
    unused: list[tuple[int, int]] = field(default_factory=list)  # (round, card) of segments not drawn

    @classmethod
    def empty(cls, rooms: int) -> Board:
        return cls([0] * rooms, [0] * rooms, [0] * rooms, [False] * rooms)

    def copy(self) -> Board:
        return Board(self.paths[:], self.cards[:], self.rounds[:], self.trap[:], self.unused[:])

    def segments(self) -> int:
        return sum(1 for m in self.paths if m)


class Game(api.Game):
    """Deadly Doodles on one map side and deck for 1 to 4 players; `tallies`: the segments are
    drawn on paper and each player's counts are entered at the end (ruling D14)."""

    def __init__(self, dmap: DungeonMap, deck: Deck | None = None, players: int = 1, tallies: bool = False):
        if not PLAYERS[0] <= players <= PLAYERS[1]:
            raise GameConfigError(f"{players} players: {DEADLY.players_text()} (four map boards)")
        self.map = dmap
        self.deck = deck or decks.load()
        self.players = players
        self.solo = players == 1
        self.tallies = tallies
        self.edition = EDITION
        # per room: (side bit, the room across, its side facing back) for each passageway to a room
        self.links = tuple(tuple((b, dmap.neighbours[i][b], OPPOSITE[b]) for b in _SIDE_BITS
                                 if dmap.passages[i] & b and dmap.neighbours[i][b] >= 0)
                           for i in range(dmap.size))
        self.empty_rooms = tuple(i for i in range(dmap.size) if not dmap.contents[i])
        self.names = tuple(dmap.room_name(i) for i in range(dmap.size))

    def new_state(self) -> State:
        return State(self)


class State(api.State[Action]):
    game: Game

    def __init__(self, game: Game):
        self.game = game
        self.phase = REVEAL
        self.round = 0                      # rounds begun (the first reveal of a round begins it)
        self.revealed: list[int] = []       # this round's cards, in the order revealed, Draw 2s included
        self.to_reveal = decks.REVEAL
        self.left = set(game.deck.cards(game.solo))   # the face-down deck
        self.revealed_in: dict[int, int] = {}         # card -> round it was revealed in
        self.boards = [Board.empty(game.map.size) for _ in range(game.players)]
        self.done = [False] * game.players
        self.used: list[set[int]] = [set() for _ in range(game.players)]  # cards each drew this round
        self.counts: list[Counts | None] = [None] * game.players   # with tallies: each player's, once given
        self._log = History()                         # shared by clones

    # -- who acts ------------------------------------------------------------------------------
    def current_player(self) -> int:
        """CHANCE while cards are revealed, TERMINAL at the end; while drawing, the first player
        not yet done (any player not yet done may act: players draw at the same time)."""
        if self.phase == OVER:
            return TERMINAL
        if self.phase == REVEAL:
            return CHANCE
        return self.done.index(False)

    def to_act(self) -> list[int]:
        return [p for p, d in enumerate(self.done) if not d] if self.phase == DRAW else []

    def is_chance_node(self) -> bool:
        return self.phase == REVEAL

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def clone(self) -> State:
        s = State.__new__(State)
        s.__dict__.update(self.__dict__)
        s.revealed = self.revealed[:]
        s.left = set(self.left)
        s.revealed_in = dict(self.revealed_in)
        s.boards = [b.copy() for b in self.boards]
        s.done = self.done[:]
        s.used = [set(u) for u in self.used]
        s.counts = self.counts[:]
        return s

    # -- chance --------------------------------------------------------------------------------
    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """The next card: each card still face down, equally likely."""
        if self.phase != REVEAL:
            return []
        p = 1 / len(self.left)
        return [(Reveal(c), p) for c in sorted(self.left)]

    def sample_chance(self, rng: random.Random) -> Action:
        return Reveal(rng.choice(sorted(self.left)))

    # -- what a player may draw ----------------------------------------------------------------
    def open_cards(self, player: int) -> list[int]:
        """This round's revealed segments and Traps the player has not drawn yet."""
        kinds = self.game.deck.kind_of
        return [c for c in self.revealed if kinds[c] != DRAW2 and c not in self.used[player]]

    def _link_sides(self, b: Board, i: int) -> int:
        """The sides of room i a segment would link on: its entryway arrows, and the passageways
        onto which one of the player's segments next door opens (ruling D2)."""
        out = self.game.map.entries[i]
        paths = b.paths
        for bit, j, back in self.game.links[i]:
            if paths[j] & back:
                out |= bit
        return out

    def _links(self, b: Board, i: int, mask: int) -> bool:
        return bool(mask & self._link_sides(b, i))

    def placements(self, player: int, kind: str, first: bool = False) -> list[tuple[int, int]]:
        """(room, ends mask) where a segment of `kind` may be drawn now (first: stop at one)."""
        g = self.game
        b = self.boards[player]
        passages = g.map.passages
        out = []
        turns = g.deck.turns[kind]
        for i in range(g.map.size):
            if b.paths[i] or b.trap[i]:
                continue
            link = self._link_sides(b, i)
            if not link:
                continue
            ok = passages[i]
            for m in turns:
                if not m & ~ok and m & link:
                    out.append((i, m))
                    if first:
                        return out
        return out

    def trap_rooms(self, player: int) -> list[int]:
        b = self.boards[player]
        return [i for i in self.game.empty_rooms if not b.paths[i] and not b.trap[i]]

    def drawable(self, player: int, card: int) -> bool:
        kind = self.game.deck.kind_of[card]
        if kind == TRAP:
            return bool(self.trap_rooms(player))
        if self.game.tallies:
            return False          # drawn on paper (ruling D14)
        return bool(self.placements(player, kind, first=True))

    def legal_actions(self, player: int | None = None) -> list[Action]:
        """Chance: every card that can be revealed. Drawing: every card, room and orientation
        the player may draw now, and DONE once none of their open cards can be drawn (D4, D5)."""
        if self.phase == REVEAL:
            return [a for a, _ in self.chance_outcomes()] if player is None else []
        if self.phase != DRAW:
            return []
        p = self.current_player() if player is None else player
        if self.done[p]:
            return []
        g = self.game
        name = g.names.__getitem__
        out: list[Action] = []
        seen: dict[str, list[Action]] = {}
        for c in self.open_cards(p):
            kind = g.deck.kind_of[c]
            if kind not in seen:
                if kind == TRAP:
                    seen[kind] = [Action("trap", 0, name(i)) for i in self.trap_rooms(p)]
                elif g.tallies:
                    seen[kind] = []           # drawn on paper (ruling D14)
                else:
                    seen[kind] = [Action("place", 0, name(i), _ENDS[m]) for i, m in self.placements(p, kind)]
            out.extend(Action(a.kind, c, a.room, a.ends) for a in seen[kind])
        if not out:
            out.append(DONE)
        return out

    # -- checking ------------------------------------------------------------------------------
    def check(self, action: Action, player: int | None = None) -> None:
        """Raise IllegalAction (the reason, the rule, what was legal) or return."""
        if self.phase == OVER:
            raise refused(f"the game is over: all {ROUNDS} rounds were played", "over")
        if action.kind == "reveal":
            self._check_reveal(action.card)
            return
        if action.kind not in ("place", "trap", "done"):
            raise refused(f"unknown action {action.kind!r}", "card")
        if self.phase != DRAW:
            raise refused(f"the cards of round {self.round + (not self.revealed)} are still being revealed "
                                f"({self.to_reveal} to go)", "order")
        p = self.current_player() if player is None else player
        if not 0 <= p < self.game.players:
            raise refused(f"there is no player {p + 1} (the game has {self.game.players})", "player")
        if self.done[p]:
            raise refused(f"P{p + 1} has already finished round {self.round}", "done")
        if action.kind == "done":
            self._check_done(p)
            return
        deck = self.game.deck
        c = action.card
        if c not in self.revealed:
            where = (f"it was revealed in round {self.revealed_in[c]}" if c in self.revealed_in
                     else "it was not revealed")
            raise refused(f"card {c} is not one of round {self.round}'s cards ({where}); this round's are "
                                f"{', '.join(map(str, self.revealed))}", "card", legal=self._open_text(p))
        kind = deck.kind_of[c]
        if kind == DRAW2:
            raise refused(f"card {c} is a Draw 2: it reveals two more cards and is discarded, "
                                "nothing is drawn for it", "draw2", legal=self._open_text(p))
        if c in self.used[p]:
            raise refused(f"{deck.label(c)} is already drawn on this map this round", "card",
                                legal=self._open_text(p))
        if action.kind == "trap":
            self._check_trap(p, c, action.room)
        else:
            self._check_place(p, c, action.room, action.ends)

    def _room(self, name: str, card: int, p: int) -> int:
        try:
            return self.game.map.room(name)
        except KeyError:
            m = self.game.map
            raise refused(f"{name!r} is not a room of this map (A1 to {m.room_name(m.size - 1)})", "room",
                                legal=self._card_text(p, card)) from None

    def _check_trap(self, p: int, c: int, room: str) -> None:
        g = self.game
        kind = g.deck.kind_of[c]
        if kind != TRAP:
            raise refused(f"{g.deck.label(c)} is a path segment, not a Trap: draw it with its ends",
                                "segment_card", legal=self._card_text(p, c))
        i = self._room(room, c, p)
        b = self.boards[p]
        why = ""
        if g.map.contents[i]:
            why = f"{room} holds {g.map.describe(i)}"
        elif b.paths[i]:
            why = f"your path is drawn in {room}"
        elif b.trap[i]:
            why = f"you already set a Trap in {room}"
        if why:
            raise refused(f"{why}: a Trap goes in an empty room", "trap_room", legal=self._card_text(p, c))

    def _check_place(self, p: int, c: int, room: str, ends: str) -> None:
        g = self.game
        deck = g.deck
        kind = deck.kind_of[c]
        if g.tallies:
            raise refused(f"{deck.label(c)}: with tallies the path segments are drawn on paper and counted at the "
                          "end; only Traps are entered", "tally", legal=self._open_text(p))
        if kind == TRAP:
            raise refused(f"card {c} is a Trap: draw an X in an empty room (\"trap\": room), not a path",
                                "trap_card", legal=self._card_text(p, c))
        i = self._room(room, c, p)
        if not ends or any(s not in BIT for s in ends) or len(set(ends)) != len(ends):
            raise refused(f"{ends!r} are not the sides a segment opens on (N, E, S, W, each once)", "shape",
                                legal=self._card_text(p, c))
        m = sides_mask(ends)
        if m not in deck.turns[kind]:
            raise refused(f"{deck.label(c)} cannot open on {' '.join(sides_text(m))}: {deck.shape_text(kind)}",
                                "shape", legal=self._card_text(p, c))
        b = self.boards[p]
        if b.paths[i]:
            raise refused(f"a path segment is already drawn in {room} (round {b.rounds[i]})", "one_per_room",
                                legal=self._card_text(p, c))
        if b.trap[i]:
            raise refused(f"{room} holds your Trap (round {b.rounds[i]})", "own_trap",
                                legal=self._card_text(p, c))
        shut = m & ~g.map.passages[i]
        if shut:
            where = []
            for s in sides_text(shut):
                j = g.map.neighbours[i][BIT[s]]
                where.append(f"the {s} side of {room} is " +
                             (f"a wall (to {g.map.room_name(j)})" if j >= 0 else "the dungeon's outer wall"))
            raise refused("; ".join(where) + ": every end must be on a passageway", "wall",
                                legal=self._card_text(p, c))
        if not self._links(b, i, m):
            if not b.segments():
                why = f"your first path segment must link to an entryway, and this one at {room} does not"
            else:
                why = (f"the segment at {room} links neither to one of your path segments nor to an entryway "
                       "(to start a new path)")
            raise refused(why, "entry", legal=self._card_text(p, c))

    def _check_done(self, p: int) -> None:
        deck = self.game.deck
        left = [c for c in self.open_cards(p) if self.drawable(p, c)]
        if not left:
            return
        segs = [c for c in left if deck.is_segment(c)]
        rule = "unused" if segs else "trap_must"
        names = ", ".join(deck.label(c) for c in left)
        raise refused(f"{names} can still be drawn on this map: draw {'it' if len(left) == 1 else 'them'} "
                            "before ending the round", rule, legal=self._open_text(p))

    def _check_reveal(self, c: int) -> None:
        deck = self.game.deck
        if self.phase != REVEAL:
            raise refused(f"all of round {self.round}'s cards are revealed (four and two more per Draw 2); "
                                "the players draw them first", "order")
        if c not in deck.ids:
            raise refused(f"there is no card {c} (the deck has 1 to {len(deck.ids)})", "reveal")
        if c not in self.left:
            if c in self.revealed_in:
                raise refused(f"{deck.label(c)} was already revealed in round {self.revealed_in[c]}", "reveal")
            raise refused(f"{deck.label(c)} is not in the deck: the Traps are removed for a solo game",
                                "reveal")

    # -- what was legal, for a person ----------------------------------------------------------
    def _card_text(self, p: int, c: int) -> list[str]:
        """Where card c could go now, one line per room."""
        g = self.game
        kind = g.deck.kind_of[c]
        if kind == TRAP:
            rooms = [g.map.room_name(i) for i in self.trap_rooms(p)]
            return [f"card {c} (trap) in {r}" for r in rooms] or [f"card {c} (trap): no empty room left"]
        by_room: dict[int, list[str]] = {}
        for i, m in self.placements(p, kind):
            by_room.setdefault(i, []).append(" ".join(sides_text(m)))
        return ([f"{g.deck.label(c)} at {g.map.room_name(i)} opening {' or '.join(ms)}" for i, ms in by_room.items()]
                or [f"{g.deck.label(c)}: nowhere (unused, -2)"])

    def _open_text(self, p: int) -> list[str]:
        out: list[str] = []
        for c in self.open_cards(p):
            out.extend(self._card_text(p, c))
        return out or ["end the round (nothing left to draw)"]

    def legal_text(self, player: int | None = None) -> list[str]:
        if self.phase != DRAW:
            return []
        p = self.current_player() if player is None else player
        return self._open_text(p) if not self.done[p] else []

    @property
    def history(self) -> list[tuple[int, Action]]:
        """(player or CHANCE, action) in the order they happened."""
        return self._log.items()

    def result(self) -> Result:
        """Every map's score, items 1 to 7, as if the game ended now."""
        return score(self)

    # -- applying ------------------------------------------------------------------------------

    def apply_unchecked(self, action: Action, player: int | None = None) -> None:
        """For search: `action` must come from legal_actions(player)."""
        self._apply(action, player)

    def set_counts(self, player: int, counts: Counts | None) -> None:
        """With tallies: the counts `player` gave for their scoring section (None: not yet).
        tallies.problems() says what they cannot be; they are scored as given."""
        if not self.game.tallies:
            raise refused("the game is recorded in full: its scores come from the drawings, not from counts",
                          "tally")
        self.counts[player] = counts

    def force_done(self, player: int) -> None:
        """End a player's round even though cards could still be drawn (after a violation)."""
        self._apply(DONE, player)

    def _apply(self, a: Action, player: int | None) -> None:
        if a.kind == "reveal":
            self._reveal(a.card)
            self._log = self._log.add(CHANCE, a)
            return
        p = self.current_player() if player is None else player
        self._log = self._log.add(p, a)
        b = self.boards[p]
        if a.kind == "done":
            deck = self.game.deck
            for c in self.open_cards(p):
                if deck.is_segment(c) and not self.game.tallies:
                    b.unused.append((self.round, c))
            self.done[p] = True
            if all(self.done):
                self._end_round()
            return
        i = self.game.map.room(a.room)
        self.used[p].add(a.card)
        b.cards[i] = a.card
        b.rounds[i] = self.round
        if a.kind == "trap":
            b.trap[i] = True
        else:
            b.paths[i] = sides_mask(a.ends)

    def _reveal(self, c: int) -> None:
        if not self.revealed:
            self.round += 1
        self.left.discard(c)
        self.revealed.append(c)
        self.revealed_in[c] = self.round
        self.to_reveal -= 1
        if self.game.deck.kind_of[c] == DRAW2:
            self.to_reveal += decks.EXTRA
        if self.to_reveal == 0:
            self.phase = DRAW
            self.done = [False] * self.game.players
            self.used = [set() for _ in range(self.game.players)]

    def _end_round(self) -> None:
        if self.round >= ROUNDS:
            self.phase = OVER
            return
        self.phase = REVEAL
        self.revealed = []
        self.to_reveal = decks.REVEAL


# -- scoring ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Hit:
    """A Trap that hits a player: `owner`'s Trap in `room`. `same`: two or more players set a
    Trap in these coordinates, so each owner is hit by their own and those Traps are erased."""
    victim: int
    owner: int
    room: int
    same: bool


@dataclass
class ScoreSheet(Tally):
    loot: list[int] = field(default_factory=list)          # Loot rooms entered
    dragon: bool = False                                   # the Dragon's room entered
    weapons: list[str] = field(default_factory=list)       # letters of the Weapons entered (item 2)
    killed: list[str] = field(default_factory=list)        # Monsters entered with their Weapon (item 3)
    mauled: list[str] = field(default_factory=list)        # Monsters entered without it (item 4)
    free_entryways: int = 0                                # entryway arrows not linked (item 5)
    unused: int = 0                                        # tally marks of item 6
    hits: list[Hit] = field(default_factory=list)          # item 7
    counts: Counts | None = None                           # with tallies: the counts given (ruling D14)


@dataclass
class Result(api.Result):
    """totals; winners: every player with the top score (ruling D11), [] when solo; each
    player's score sheet, the Trap hits, and the (owner, room) of the Traps erased from all maps."""
    sheets: list[ScoreSheet] = field(default_factory=list)
    hits: list[Hit] = field(default_factory=list)
    erased: set[tuple[int, int]] = field(default_factory=set)


def trap_hits(state: State) -> tuple[list[Hit], set[tuple[int, int]]]:
    """Every Trap hit at the end of the game (ruling D8): Traps in the same coordinates first
    (each owner is hit by their own and they are erased from all maps), then every other
    player with a path in a room where a remaining Trap is."""
    owners: dict[int, list[int]] = {}
    for p, b in enumerate(state.boards):
        for i, t in enumerate(b.trap):
            if t:
                owners.setdefault(i, []).append(p)
    hits: list[Hit] = []
    erased: set[tuple[int, int]] = set()
    for i in sorted(owners):
        if len(owners[i]) > 1:
            for p in owners[i]:
                hits.append(Hit(p, p, i, True))
                erased.add((p, i))
    for i in sorted(owners):
        if len(owners[i]) == 1:
            o = owners[i][0]
            hits.extend(Hit(q, o, i, False) for q, b in enumerate(state.boards) if q != o and b.paths[i])
    return hits, erased


def _rooms(dmap: DungeonMap, rooms: Iterable[int]) -> str:
    return ", ".join(dmap.room_name(i) for i in rooms)


def score(state: State) -> Result:
    """Every map's score, items 1 to 7 as printed (their weights: tallies.POINTS), as if the
    game ended now."""
    P = POINTS
    g = state.game
    m = g.map
    hits, erased = trap_hits(state)
    sheets = []
    for p, b in enumerate(state.boards):
        ss = ScoreSheet(p)
        if g.tallies:
            _tally_sheet(ss, state.counts[p])
            sheets.append(ss)
            continue
        entered = [i for i, e in enumerate(b.paths) if e]
        ss.loot = [i for i in entered if m.contents[i] == "loot"]
        ss.dragon = bool(b.paths[m.dragon])
        loot = P["loot"] * len(ss.loot) * (DRAGON_TIMES if ss.dragon else 1)
        why = (f", doubled: the Dragon ({m.room_name(m.dragon)}) was entered" if ss.dragon
               else f" (not doubled: the Dragon's room {m.room_name(m.dragon)} was not entered)")
        ss.add(f"1. Loot: {len(ss.loot)} entered{_list(m, ss.loot)} x {P['loot']}{why}", loot)
        ss.weapons = sorted(k for k, i in m.weapons.items() if b.paths[i])
        ss.add(f"2. Weapons: {len(ss.weapons)} entered{_pairs(m, m.weapons, ss.weapons)}",
               P["weapons"] * len(ss.weapons))
        monsters = sorted(k for k, i in m.monsters.items() if b.paths[i])
        ss.killed = [k for k in monsters if k in ss.weapons]
        ss.mauled = [k for k in monsters if k not in ss.weapons]
        ss.add(f"3. Monsters with their Weapon: {len(ss.killed)}{_pairs(m, m.monsters, ss.killed)} x {P['matched']}",
               P["matched"] * len(ss.killed))
        ss.add(f"4. Monsters without their Weapon: {len(ss.mauled)}{_pairs(m, m.monsters, ss.mauled)} "
               f"x {P['unmatched']}", P["unmatched"] * len(ss.mauled))
        linked = sum(bin(b.paths[i] & m.entries[i]).count("1") for i in range(m.size))
        total = m.entryway_count()
        ss.free_entryways = total - linked
        ss.add(f"5. Entryways not linked: {ss.free_entryways} of {total}", P["entryways"] * ss.free_entryways)
        ss.unused = len(b.unused)
        ss.add(f"6. Unused path segments: {ss.unused} x {P['unused']}", P["unused"] * ss.unused)
        ss.hits = [h for h in hits if h.victim == p]
        ss.add(f"7. Traps that hit you: {len(ss.hits)} x {P['hits']}{_hits(m, ss.hits)}", P["hits"] * len(ss.hits))
        sheets.append(ss)
    winners: list[int] = []
    if not g.solo:
        top = max(ss.total for ss in sheets)
        winners = [ss.player for ss in sheets if ss.total == top]
    return Result([ss.total for ss in sheets], winners, sheets, hits, erased)


def _tally_sheet(ss: ScoreSheet, counts: Counts | None) -> None:
    """With tallies: the items as the player counted them (ruling D14), or nothing yet."""
    ss.counts = counts
    if counts is None:
        ss.add("the counts of the scoring section are entered after round 7", 0)
        return
    ss.dragon = bool(counts.dragon)
    ss.free_entryways = counts.entryways
    ss.unused = counts.unused
    for what, points in tally_items(counts):
        ss.add(what, points)


def _list(m: DungeonMap, rooms: list[int]) -> str:
    return f" ({_rooms(m, rooms)})" if rooms else ""


def _pairs(m: DungeonMap, where: dict[str, int], letters: list[str]) -> str:
    return f" ({', '.join(f'{k} in {m.room_name(where[k])}' for k in letters)})" if letters else ""


def _hits(m: DungeonMap, hits: list[Hit]) -> str:
    if not hits:
        return ""
    return " (" + ", ".join(f"your own Trap in {m.room_name(h.room)}, set there by another player too" if h.same
                            else f"P{h.owner + 1}'s Trap in {m.room_name(h.room)}" for h in hits) + ")"
