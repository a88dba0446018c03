"""A table of players for a whole game of Deadly Doodles on a console (`doodlebox demo --edition
deadly`, the tests), modelled on dice.py: the table chooses the game in the lobby (players, map side,
full capture or tallies), then plays it by pressing the console's buttons as people would
(docs/console-deadly-puzzle.md): ROLL turns up a round's cards, each player in turn enters their
Traps and, in full capture, every segment they draw (the card's number on the panel, the room's
column and row, the turn), and PASS ends their round; in tallies the segments are drawn "on
paper" (the engine's map, not the console's) and each player enters the eight counts of their
scoring section after round 7. The engine plays on the map side the console's `game` event
names: the side chosen in the lobby, or the table's own (`map` "own", `sh`, `sx`: docs/sheets.md).

Every choice is a legal action of the PC's rules engine, chosen at random; the engine takes the
cards the console turns up. Every event the console sends is checked against the engine as it
arrives: the deal must be one a deck can give, each Trap and segment must say what the engine
did, each round must end where the engine ends it, the one refused entry of a game must come
back with the engine's rule, the counts must be the engine's, and the console's final totals
(its `end` event) must be the engine's scores.
"""
from __future__ import annotations

from doodlebox.rules.api import IllegalAction
from doodlebox.rules.deadly import console as deadly_console
from doodlebox.rules.deadly import deck as decks
from doodlebox.rules.deadly import engine as E
from doodlebox.rules.deadly import maps
from doodlebox.rules.deadly.events import OWN
from doodlebox.rules.deadly.maps import BIT, sides_mask
from doodlebox.rules.deadly.spec import DRAWINGS
from doodlebox.table.lobby import Players, TableError, choose_lobby

COUNT_MAX = 36           # the most a count entered with the buttons can be


def number_presses(n: int) -> list[str]:
    """A count as the buttons enter it, ROLL included: D1..D6, a D0 first for each 6 more
    (D0 D3 is 9, D0 D0 D2 is 14), D0 alone for 0."""
    if not 0 <= n <= COUNT_MAX:
        raise ValueError(f"{n} is not a number from 0 to {COUNT_MAX}")
    if n == 0:
        return ["D0", "ROLL"]
    return ["D0"] * ((n - 1) // 6) + [f"D{(n - 1) % 6 + 1}", "ROLL"]


def turn_of(printed: int, mask: int) -> int:
    """The turn (1..4: 0, 90, 180, 270 degrees clockwise) that opens a card printed as `printed`
    on the sides `mask`, or 0."""
    m = printed
    for k in range(1, 5):
        if m == mask:
            return k
        m = ((m << 1) | (m >> 3)) & 15
    return 0


class Table(Players):
    """Deadly Doodles' table (lobby.Players for the arguments)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.state: E.State | None = None
        self.full = True
        self.number = 0                   # the game's number (its `game` event)
        self._refused = False

    # -- events -----------------------------------------------------------------------------
    def _await(self, kind: str, **want) -> dict:
        """The next event: of `kind`, for this game, with the fields `want`; anything else first is
        an error."""
        e = self._next_event()
        if e.get("k") != kind or (kind != "game" and e.get("g") != self.number):
            raise TableError(f"the console sent {e}; the rules expected a {kind}")
        wrong = {k: e.get(k) for k in want if e.get(k) != want[k]}
        if wrong:
            raise TableError(f"the console sent {e}; the rules say {want}")
        return e

    # -- a game -----------------------------------------------------------------------------
    def play_game(self, players: int = 2, map: str = "a", rec: str = "full", refuse_once: bool = True,
                  back_to_lobby: bool = True) -> list[dict]:
        """Play one game to its end; returns the events seen."""
        if rec not in DRAWINGS.values:
            raise TableError(f"{rec!r}: the drawings are recorded in full (full) or counted (tally)")
        self.full = rec == "full"
        self.lobby = choose_lobby(self.press, self.lobby, {"game": "deadly", "players": players, "map": map,
                                                           "rec": rec}, self.read)
        self.sheet_shown("deadly")
        self.press("ROLL")
        g = self._await("game", ed="deadly", n=players, var="", rec=rec)
        state = E.Game(self._map(g, map), decks.load(), players).new_state()   # the engine's maps: on paper too
        self.state = state
        self.number = g["g"]
        self._refused = not refuse_once
        while not state.is_terminal():
            self._reveal(state)
            for p in range(players):
                if self.full:
                    self._full_round(state, p)
                else:
                    self._paper_round(state, p)
        totals = state.result().totals
        if not self.full:
            totals = self._tallies(state)
        end = self._await("end", r=E.ROUNDS, why="rounds")
        self.final = end
        if end.get("p") != totals:
            raise TableError(f"the console's totals {end.get('p')} are not the rules' {totals}")
        if back_to_lobby:
            self.press("ROLL")
        return self.seen

    def _map(self, g: dict, side: str) -> maps.DungeonMap:
        """The map side the `game` event `g` says the game is played on: the table's own (`map`
        "own", with `sh` and `sx`), else the printed side chosen in the lobby."""
        data = self._own_sheet(g)
        if data is None:
            if g.get("map") != side:
                raise TableError(f"the console began {g}; the table chose map side {side}")
            return maps.load(side)
        if g.get("map") != OWN:
            raise TableError(f"the console began {g}: a map side of the table's own is map {OWN!r}")
        said = f"the map side {g['sh']!r} (hash {g['sx']})"
        try:
            return maps.parse(data, said)
        except maps.MapError as exc:
            raise TableError(f"the console plays {said}, which the rules cannot play: {exc}") from None

    def _reveal(self, state: E.State) -> None:
        """ROLL: the round's cards, which the engine takes (a deal no deck can give is refused)."""
        self.press("ROLL")
        e = self._await("reveal", r=state.round + 1)
        try:
            for c in e["cards"]:
                state.apply(E.Reveal(c))
        except (IllegalAction, TypeError) as exc:
            raise TableError(f"the console turned up {e.get('cards')}: {exc}") from None
        if state.is_chance_node():
            raise TableError(f"the console turned up {e['cards']}; the round needs more (ruling D7)")

    # -- full capture -----------------------------------------------------------------------
    def numbered(self, state: E.State) -> list[int]:
        """This round's cards as the panel numbers them (1, 2, ...): all but the Draw 2s."""
        return [c for c in state.revealed if state.game.deck.kind_of[c] != decks.DRAW2]

    def presses(self, state: E.State, a: E.Action) -> list[str]:
        """The buttons for a Trap or a segment: its card's number, the room's column and row,
        and a segment's turn."""
        deck = state.game.deck
        k = self.numbered(state).index(a.card) + 1
        i = state.game.map.room(a.room)
        keys = [f"D{k}", f"D{i % 6 + 1}", f"D{i // 6 + 1}"]
        if a.kind == "place":
            keys.append(f"D{turn_of(deck.shapes[deck.kind_of[a.card]], sides_mask(a.ends))}")
        return keys

    def _full_round(self, state: E.State, p: int) -> None:
        """Player p's round: every segment and Trap they can draw, at random, then PASS."""
        rng = self.rng
        while True:
            legal = state.legal_actions(p)
            if not self._refused and state.round >= 2 and self._refuse(state, p, legal):
                self._refused = True
            if legal == [E.DONE]:
                self.press("PASS")
                state.apply(E.DONE, p)
                self._await("done", r=state.round, p=p)
                return
            self._enter(state, p, rng.choice(legal))

    def _enter(self, state: E.State, p: int, a: E.Action) -> None:
        self._presses(self.presses(state, a))
        state.apply(a, p)
        if a.kind == "trap":
            self._await("trap", r=state.round, p=p, room=a.room)
        else:
            self._await("draw", r=state.round, p=p, card=a.card, room=a.room, ends=a.ends)

    def _refuse(self, state: E.State, p: int, legal: list[E.Action]) -> bool:
        """Once a game: an entry the rules refuse (a card drawn already, a room that cannot take
        it, a turn onto a wall or away from the path) or PASS while a card can still be drawn.
        The console must refuse it with the engine's rule, and nothing is drawn."""
        rng = self.rng
        if legal != [E.DONE] and rng.random() < 0.3:
            try:
                state.check(E.DONE, p)
            except IllegalAction as exc:
                self.press("PASS")
                self._await("refuse", r=state.round, p=p, i=0, why=exc.rule)
                self.refusals += 1
                return True
        g = state.game
        for _ in range(50):
            c = rng.choice(self.numbered(state))
            room = g.map.room_name(rng.randrange(g.map.size))
            kind = g.deck.kind_of[c]
            if kind == decks.TRAP:
                a = E.Trap(c, room)
            else:
                m = g.deck.shapes[kind]
                for _ in range(rng.randrange(4)):
                    m = ((m << 1) | (m >> 3)) & 15
                a = E.Place(c, room, "".join(s for s in "NESW" if m & BIT[s]))
            try:
                state.check(a, p)
            except IllegalAction as exc:
                keys = self.presses(state, a)
                at = 1 if exc.rule == "card" else 4 if exc.rule in ("wall", "entry") else 3
                self._presses(keys[:at])
                self._await("refuse", r=state.round, p=p, i=0, why=exc.rule)
                self._presses({1: [], 3: ["PASS"], 4: ["PASS", "PASS", "PASS"]}[at])   # back to the card
                self.refusals += 1
                return True
        return False

    # -- tallies ------------------------------------------------------------------------------
    def _paper_round(self, state: E.State, p: int) -> None:
        """Player p's round with tallies: the segments drawn on paper (the engine's map only),
        each Trap entered on the console; the console ends the round by itself when p has no
        Trap left to enter, or after PASS twice for a Trap it thinks has a room (ruling D15)."""
        rng = self.rng
        while True:
            legal = state.legal_actions(p)
            if legal == [E.DONE]:
                break
            a = rng.choice(legal)
            if a.kind == "trap":
                self._enter(state, p, a)
            else:
                state.apply(a, p)
        left = [c for c in state.open_cards(p) if state.game.deck.kind_of[c] == decks.TRAP]
        state.apply(E.DONE, p)
        board = state.boards[p]
        if left and any(not state.game.map.contents[i] and not board.trap[i] for i in range(state.game.map.size)):
            self.press("PASS")        # no room on paper (the paths fill them), the console cannot see it
            self._await("refuse", r=state.round, p=p, i=0, why="trap_must")
            self.press("PASS")
        self._await("done", r=state.round, p=p)

    def _tallies(self, state: E.State) -> list[int]:
        """After round 7: each player's eight counts, from their map on paper."""
        totals = []
        for p, sheet in enumerate(state.result().sheets):
            counts = deadly_console.counts(sheet)      # the `tally` event's (rules/deadly/console.py)
            for n in counts:
                self._presses(number_presses(n))
            self._await("tally", p=p, t=counts)
            totals.append(sheet.total)
        return totals
