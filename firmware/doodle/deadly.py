# doodlebox Deadly Doodles on the console (docs/console-deadly-puzzle.md): the deck, turned up a
# card at a time at random; each round's cards; every player's Traps and, in full capture, their
# path segments, checked as the PC's engine checks them (host/doodlebox/rules/deadly/engine.py,
# rulings D1..D15) with its rule ids; PASS to end a player's round; the eight counts of the
# scoring section in tallies; the totals. Loaded only during a game of Deadly Doodles, with the
# data of the map side played (doodle/deadly_a.py or deadly_b.py, generated).
import sys

from micropython import const

ED = "deadly"
ROUNDS = const(7)
REVEAL = const(4)     # cards turned up a round ...
EXTRA = const(2)      # ... and two more for every Draw 2 (ruling D7)
TRAP = const(16)      # CARDS[c] of a Trap (a path segment's is its sides, 1..15)
DRAW2 = const(32)     # ... of a Draw 2
X = const(16)         # a board byte: bits 0-3 the sides of the player's segment there, X their Trap
N, E, S, W = const(1), const(2), const(4), const(8)
SIZE = const(6)       # columns and rows
ROOMS = const(36)

# what the console asks for
DEAL = const(0)       # ROLL turns up the round's cards
CARD = const(1)       # the current player: a card by its number (D1..D6), or PASS to end the round
COL = const(2)        # ... its room's column (D1..D6 = A..F)
ROW = const(3)        # ... and row
TURN = const(4)       # ... the segment's turn (D1..D4: 0, 90, 180, 270 degrees clockwise)
TALLY = const(5)      # after round 7 in tallies: each player's eight counts
OVER = const(6)

NOTNOW = "notnow"     # a button that means nothing now: ignored, no tone
MENU = "menu"         # MENU: the app asks "End game?" and calls end() on ROLL
DIE = {"D0": 0, "D1": 1, "D2": 2, "D3": 3, "D4": 4, "D5": 5, "D6": 6}
FACES = "0123456789abcdef"   # a segment's picture on the panel: its sides as a hex digit
ENDS = ("", "N", "E", "NE", "S", "NS", "ES", "NES", "W", "NW", "EW", "NEW", "SW", "NSW", "ESW", "NESW")
COLUMNS = "ABCDEF"
# the scoring section's counts, in the order of the `tally` event (docs/protocol.md)
COUNTS = ("Loot rooms entered", "Dragon's room entered", "Weapon rooms entered", "Monsters matched",
          "Monsters not matched", "Entryways not linked", "Segments unused", "Trap hits")
COUNT_MAX = const(36)   # the most a count can be entered as (D0 five times, then D6)
def rotate(m):
    """The sides m opens on, turned a quarter clockwise (N -> E -> S -> W -> N)."""
    return ((m << 1) | (m >> 3)) & 15


def turned(m, k):
    """The sides of a segment printed as m, turned k quarters clockwise."""
    for _ in range(k):
        m = rotate(m)
    return m


def bits(m):
    return (m & 1) + (m >> 1 & 1) + (m >> 2 & 1) + (m >> 3 & 1)


def room_name(i):
    return COLUMNS[i % SIZE] + str(i // SIZE + 1)


def room_index(name):
    c = COLUMNS.find(name[:1])
    r = int(name[1:]) - 1
    if c < 0 or not 0 <= r < SIZE:
        raise ValueError("no room " + name)
    return r * SIZE + c


def ends_mask(text):
    m = 0
    for ch in text:
        m |= 1 << "NESW".index(ch)
    return m


def _data(side):
    """The generated module of a map side, not kept in sys.modules: it goes with the game."""
    name = "deadly_" + side
    mod = __import__("doodle." + name, None, None, ("x",))
    sys.modules.pop("doodle." + name, None)
    pkg = sys.modules.get("doodle")
    if pkg is not None and hasattr(pkg, name):
        delattr(pkg, name)
    return mod


def begin(app, opts, emit):
    """A game of the lobby's choice (doodle/gamestep.py)."""
    return Game(app.players, opts, app.games, emit, app.rand, app.now)


class Game:
    """One game of Deadly Doodles, through the app's interface for a card game
    (docs/console-deadly-puzzle.md, "a game module"). button(name, now) returns None (taken, or
    waiting for more; its tune is in `tones`), "notnow", "menu" (MENU: the app asks "End
    game?"), a rule id of the PC's engine (sent as a `refuse` event) or a short text (shown
    only); every finished step is sent as a protocol event through `emit`."""

    ED = ED
    VIEW = FINAL = "deadly_view"   # the module that draws it, its final table too

    def __init__(self, players, opts, number, emit, rand, now=0):
        side = opts.get("map", "a")
        if side not in ("a", "b"):
            side = "a"
        self.full = opts.get("rec", "full") == "full"   # else tallies ("tally", "tallies")
        d = _data(side)
        self.side = side
        self.passages = d.PASSAGES
        self.entries = d.ENTRIES
        self.contents = d.CONTENTS
        self.pairs = d.PAIRS
        self.cards = d.CARDS
        self.dragon = d.DRAGON
        self.loot = d.LOOT
        self.doors = 0                      # entryway arrows on the map
        for m in d.ENTRIES:
            self.doors += bits(m)
        self.players = players
        self.solo = players == 1
        self.number = number
        self.emit = emit
        self.rand = rand
        self.left = bytearray(len(d.CARDS))   # the face-down deck: 1 per card still in it
        for c in range(1, len(d.CARDS)):
            self.left[c] = 0 if self.solo and d.CARDS[c] == TRAP else 1
        self.boards = [bytearray(ROOMS) for _ in range(players)]
        self.unused = bytearray(players)      # item 6: segments left undrawn
        self.tallies = [bytearray(8) for _ in range(players)]   # tallies: the counts entered
        self.round = 0
        self.revealed = []  # type: list[int]  # this round's cards in order, Draw 2s included
        self.nums = bytearray(6)        # card number - 1 -> its place in revealed
        self.n = 0                      # cards numbered this round (all but the Draw 2s)
        self.segments = 0               # path segments revealed in the game
        self.faces = ""                 # the round's cards as the panel draws them ("%" line)
        self.used = bytearray(players)  # per player: bit k set when card number k+1 is drawn
        self.phase = DEAL
        self.player = 0                 # whose turn it is
        self.card = 0                   # the card number being entered (1..6)
        self.col = 0                    # its column, 1..6
        self.row = 0
        self.room = -1
        self.item = 0                   # tallies: the count being entered (0..7)
        self.num = -1                   # ... the number entered so far (-1: none)
        self.high = 0                   # ... D0 pressed so far: each adds 6 (D0 alone and ROLL: 0)
        self.passed = False             # tallies: PASS was refused for a Trap (PASS again: none, D15)
        self.why = ""                   # the last refusal
        self.ending = ""                # why the game ended: "rounds" or "menu"
        self.tones = []  # type: list[str]
        self.version = 0
        self.scored = 0                 # +1 each time a total changes
        self._points = [0] * players
        self._stale = True
        self.lines = [-1, ""] * 8       # doodle/deadly_view.py's cache: (signature, line) per line
        emit({"k": "game", "g": number, "ed": ED, "n": players, "var": "", "map": side,
              "rec": "full" if self.full else "tally"})

    # -- what the panel and the app read --------------------------------------------------
    def over(self):
        return self.phase == OVER

    def card_id(self, k):
        """The card of number k (1..n) this round."""
        return self.revealed[self.nums[k - 1]]

    def kind(self, k):
        """The sides of card number k as printed, or TRAP."""
        return self.cards[self.card_id(k)]

    def drawn(self, p, k):
        return self.used[p] >> (k - 1) & 1

    def shape(self):
        """The sides of the card being entered, as printed."""
        return self.kind(self.card)

    # -- the buttons ----------------------------------------------------------------------
    def button(self, name, now=0):
        ph = self.phase
        if ph == OVER:
            return NOTNOW
        if name == "MENU":
            return MENU
        if ph == DEAL:
            return self._reveal() if name == "ROLL" else NOTNOW
        if ph == TALLY:
            return self._count(name)
        if name == "PASS":
            if ph == CARD:
                return self._pass()
            self.phase = ph - 1        # back one step: the card, its column, its row
            return self._step()
        self.passed = False
        n = DIE.get(name, -1)
        if n < 1:
            return NOTNOW
        if ph == CARD:
            return self._choose(n)
        if ph == COL:
            self.col = n
            self.phase = ROW
            return self._step()
        if ph == ROW:
            self.row = n
            return self._at((n - 1) * SIZE + self.col - 1)
        if n > 4:
            return NOTNOW
        return self._turn(n)

    def tick(self, now):
        """Time passes: nothing in Deadly Doodles is timed."""

    def _step(self):
        """One more question asked (or one step back)."""
        self.version += 1
        self.tones.append("choose")
        return None

    def _refuse(self, why):
        self.why = why
        self.version += 1
        self.emit({"k": "refuse", "g": self.number, "r": self.round, "p": self.player, "i": 0, "why": why})
        return why

    def _reveal(self):
        """ROLL: the round's cards, four and two more for every Draw 2 (ruling D7)."""
        rv = [0] * REVEAL
        need = REVEAL
        k = 0
        while k < need:
            if k == len(rv):
                rv.append(0)
            c = self._deal()
            rv[k] = c
            k += 1
            if self.cards[c] == DRAW2:
                need += EXTRA
        self.emit({"k": "reveal", "g": self.number, "r": self.round + 1, "cards": rv})
        self._begin(rv)
        self.tones.append("roll")
        self._auto()
        return None

    def _deal(self):
        """A card from the face-down deck, at random: the deck is shuffled as it is turned up."""
        left = self.left
        count = 0
        for f in left:
            count += f
        k = self.rand(count)
        for c in range(1, len(left)):
            if left[c]:
                if k == 0:
                    left[c] = 0
                    return c
                k -= 1
        raise ValueError("the deck is empty")

    def _begin(self, cards):
        """A round begins with these cards turned up."""
        self.round += 1
        self.revealed = cards
        n = 0
        faces = ""
        for i in range(len(cards)):
            c = cards[i]
            self.left[c] = 0
            kind = self.cards[c]
            if kind == DRAW2:
                faces += "+"
                continue
            if kind == TRAP:
                faces += "X"
            else:
                faces += FACES[kind]
                self.segments += 1
            self.nums[n] = i
            n += 1
        self.n = n
        self.faces = faces
        for p in range(self.players):
            self.used[p] = 0
        self.player = 0
        self.phase = CARD
        self.version += 1

    def _choose(self, k):
        """D1..D6 while a card is asked: the card of that number on the panel."""
        if k > self.n:
            return "the cards are 1-%d" % self.n
        if self.drawn(self.player, k):
            return self._refuse("card")
        if self.kind(k) != TRAP and not self.full:
            return "tallies: segments go on paper"
        self.card = k
        self.phase = COL
        return self._step()

    def _at(self, i):
        """The room is entered: a Trap is set there, or a segment's turn is asked next."""
        p = self.player
        b = self.boards[p]
        if self.kind(self.card) == TRAP:
            if self.contents[i] or b[i]:
                self.phase = COL
                return self._refuse("trap_room")
            b[i] = X
            self._drawn()
            self.emit({"k": "trap", "g": self.number, "r": self.round, "p": p, "room": room_name(i)})
            self._auto()
            return None
        if b[i] & 15:
            self.phase = COL
            return self._refuse("one_per_room")
        if b[i] & X:
            self.phase = COL
            return self._refuse("own_trap")
        self.room = i
        self.phase = TURN
        return self._step()

    def _turn(self, k):
        """D1..D4: the segment turned (k - 1) quarters clockwise from its printed sides."""
        i = self.room
        m = turned(self.shape(), k - 1)
        if m & ~self.passages[i]:
            return self._refuse("wall")
        b = self.boards[self.player]
        if not m & self.links(b, i):
            return self._refuse("entry")
        b[i] = m
        c = self.card_id(self.card)
        self._drawn()
        self.emit({"k": "draw", "g": self.number, "r": self.round, "p": self.player, "card": c,
                   "room": room_name(i), "ends": ENDS[m]})
        return None

    def _drawn(self):
        """An entry accepted: the card is drawn, the next one is asked."""
        self.used[self.player] |= 1 << (self.card - 1)
        self.phase = CARD
        self.card = 0
        self._stale = True
        self.version += 1
        self.tones.append("claim")

    def _pass(self):
        """PASS while a card is asked: the player's round ends, unless a card can still be
        drawn (rulings D4, D5; in tallies only the Traps are known: PASS twice, D15)."""
        why = self.left_to_draw(self.player)
        if why and not (self.passed and not self.full):
            self.passed = True
            return self._refuse(why)
        self.passed = False
        self.tones.append("claim")
        self._done()
        self._auto()
        return None

    def left_to_draw(self, p):
        """Why p may not end their round yet: "unused" (a segment can still be drawn),
        "trap_must" (only a Trap can), or "" (nothing can). In tallies only Traps count."""
        why = ""
        for k in range(1, self.n + 1):
            if self.drawn(p, k):
                continue
            trap = self.kind(k) == TRAP
            if (trap or self.full) and self.can_draw(p, k):
                if not trap:
                    return "unused"
                why = "trap_must"
        return why

    def _done(self):
        p = self.player
        if self.full:
            for k in range(1, self.n + 1):
                if not self.drawn(p, k) and self.kind(k) != TRAP:
                    self.unused[p] += 1      # item 6
        self._stale = True
        self.version += 1
        self.emit({"k": "done", "g": self.number, "r": self.round, "p": p})
        self.player += 1
        if self.player < self.players:
            return
        if self.round < ROUNDS:
            self.phase = DEAL
        elif self.full:
            self._end("rounds")
        else:
            self.player = 0
            self.item = 0
            self.num = -1
            self.high = 0
            self.phase = TALLY

    def _auto(self):
        """Tallies: a player with nothing left to enter (no Trap, or no empty room for it)
        has ended their round: the console goes on to the next player by itself."""
        while not self.full and self.phase == CARD and not self.left_to_draw(self.player):
            self._done()

    # -- what the rules allow (as host/doodlebox/rules/deadly/engine.py) ------------------
    def links(self, b, i):
        """The sides of room i a segment would link on: its entryway arrows, and the
        passageways onto which one of the player's segments next door opens (ruling D2)."""
        out = self.entries[i]
        ok = self.passages[i]
        c = i % SIZE
        if ok & N and i >= SIZE and b[i - SIZE] & S:
            out |= N
        if ok & E and c < SIZE - 1 and b[i + 1] & W:
            out |= E
        if ok & S and i < ROOMS - SIZE and b[i + SIZE] & N:
            out |= S
        if ok & W and c and b[i - 1] & E:
            out |= W
        return out

    def fits(self, p, kind, i):
        """Whether a segment printed as `kind` can be drawn in room i now, in some turn."""
        b = self.boards[p]
        if b[i]:
            return False
        link = self.links(b, i)
        if not link:
            return False
        ok = self.passages[i]
        m = kind
        for _ in range(4):
            if not m & ~ok and m & link:
                return True
            m = rotate(m)
        return False

    def can_draw(self, p, k):
        """Whether card number k could be drawn on p's map now (anywhere)."""
        kind = self.kind(k)
        b = self.boards[p]
        for i in range(ROOMS):
            if kind == TRAP:
                if not self.contents[i] and not b[i]:
                    return True
            elif self.fits(p, kind, i):
                return True
        return False

    # -- tallies ----------------------------------------------------------------------------
    def count_range(self, p, k):
        """(least, most) count k can be for player p, as the PC checks the counts (ruling D14):
        the map's Loot, Weapons, Monsters and entryways, the Dragon once, a matched Monster's
        Weapon entered, the segments revealed, the arrows under p's Traps, the Traps' hits (D8)."""
        t = self.tallies[p]
        if k == 0:
            return 0, self.loot
        if k == 1:
            return 0, 1
        if k == 2:
            return 0, 6
        if k == 3:
            return 0, t[2]                # a Monster is matched by a Weapon entered (D9)
        if k == 4:
            return 0, 6 - t[3]
        b = self.boards[p]
        if k == 5:
            under = 0                     # a path never links an arrow in p's Trap room (D13)
            for i in range(ROOMS):
                if b[i] & X:
                    under += bits(self.entries[i])
            return under, self.doors
        if k == 6:                        # rooms entered with something in them hold a segment each
            drawn = self.segments - t[0] - t[1] - t[2] - t[3] - t[4]
            return 0, max(0, drawn)
        same = 0                          # D8: p's own Traps where another player set one too,
        others = 0                        # and every other player's Trap elsewhere
        for i in range(ROOMS):
            owners, mine = self._traps(i, p)
            if owners > 1:
                same += mine
            elif owners == 1 and not mine:
                others += 1
        return same, same + others

    def _count(self, name):
        """A press while the counts are entered: a number (D1..D6; D0 first for 7..12, each
        further D0 six more: D0 D0 D2 is 14; D0 and ROLL for 0), ROLL confirms it, PASS goes
        back (the number being entered, or the count before)."""
        if name == "PASS":
            if self.num >= 0 or self.high:
                self.num = -1
                self.high = 0
            elif self.item:
                self.item -= 1
            else:
                return NOTNOW
            return self._step()
        if name == "ROLL":
            v = self.num
            if v < 0:
                if self.high != 1:
                    return "a number ends with D1-D6" if self.high else NOTNOW
                v = 0
            p = self.player
            least, most = self.count_range(p, self.item)
            self.num = -1
            self.high = 0
            if not least <= v <= most:
                self.version += 1
                return "a number is %d-%d here" % (least, most)
            self.tallies[p][self.item] = v
            self.item += 1
            if self.item < 8:
                return self._step()
            self.emit({"k": "tally", "g": self.number, "p": p, "t": list(self.tallies[p])})
            self._tallied()
            return None
        n = DIE.get(name, -1)
        if n < 0:
            return NOTNOW
        if n == 0:
            if self.num >= 0:
                self.num = -1             # a new number
                self.high = 0
            if 6 * (self.high + 1) >= COUNT_MAX:
                return "a number is 0-%d" % COUNT_MAX
            self.high += 1
        else:
            self.num = 6 * self.high + n
            self.high = 0
        return self._step()

    def _tallied(self):
        """A player's eight counts are in: the next player's, or the end."""
        self._stale = True
        self.version += 1
        self.tones.append("claim")
        self.player += 1
        self.item = 0
        if self.player >= self.players:
            self._end("rounds")

    # -- the end ------------------------------------------------------------------------------
    def _end(self, why):
        """The game is over (the app plays the "end" tune and shows the final table)."""
        self.phase = OVER
        self.ending = why
        self.card = 0
        self.version += 1
        self.emit({"k": "end", "g": self.number, "r": self.round, "why": why, "p": self.points()})

    def end(self):
        """MENU, confirmed: the game ends now (what was being entered is dropped)."""
        if self.phase != OVER:
            self._end("menu")

    # -- scores -------------------------------------------------------------------------------
    def points(self):
        """Every player's total now: full capture as the PC's engine scores it (items 1-7, the
        Traps as if the game ended now, ruling D8); tallies from the counts entered."""
        if self._stale:
            self._stale = False
            pts = self._points
            changed = False
            for p in range(self.players):
                v = self.score(p) if self.full else self.tally_score(self.tallies[p])
                if v != pts[p]:
                    pts[p] = v
                    changed = True
            if changed:
                self.scored += 1
        return self._points

    @staticmethod
    def tally_score(t):
        loot = 2 * t[0] * (2 if t[1] else 1)
        return loot + t[2] + 4 * t[3] - 2 * t[4] + t[5] - 2 * t[6] - 3 * t[7]

    def score(self, p):
        b = self.boards[p]
        contents = self.contents
        pairs = self.pairs
        loot = 0
        weapons = 0                         # bit per letter entered
        for i in range(ROOMS):
            if b[i] & 15:
                what = contents[i]
                if what == 1:
                    loot += 1
                elif what == 3:
                    weapons |= 1 << pairs[i]
        v = 2 * loot * (2 if b[self.dragon] & 15 else 1) + bits(weapons & 15) + bits(weapons >> 4)
        linked = 0
        for i in range(ROOMS):
            if b[i] & 15 and contents[i] == 4:
                v += 4 if weapons >> pairs[i] & 1 else -2
            linked += bits(b[i] & self.entries[i])
        v += self.doors - linked - 2 * self.unused[p]
        return v - 3 * self.hits(p)

    def hits(self, p):
        """The Traps that hit p if the game ended now (ruling D8)."""
        n = 0
        for i in range(ROOMS):
            owners, mine = self._traps(i, p)
            if owners > 1:
                n += mine
            elif owners == 1 and not mine and self.boards[p][i] & 15:
                n += 1
        return n

    def _traps(self, i, p):
        """(how many players set a Trap in room i, 1 if p is one of them)."""
        owners = 0
        mine = 0
        for q in range(self.players):
            if self.boards[q][i] & X:
                owners += 1
                if q == p:
                    mine = 1
        return owners, mine

    # -- after a power cut ---------------------------------------------------------------
    def replay(self, ev):
        """Apply an event this game sent before a power cut (read back from the journal,
        docs/journal.md): the same state as when it was made, nothing sent again. Raises
        ValueError for an event that does not fit the game as replayed so far. The code is
        doodle/deadly_replay.py, loaded only for a game resumed (RAM)."""
        from doodle import deadly_replay

        deadly_replay.replay(self, ev)
