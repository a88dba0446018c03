# doodlebox dice rounds, every dice edition: start roads, ROLL, each player's turn entered with
# the buttons (die, square, piece or floor, value circled), trees, endings. docs/console.md;
# the rules as the PC's engine (host/doodlebox/rules/dice/engine.py) reads them, docs/rulings.md.
from micropython import const

from doodle import score
from doodle.sheet import HOUSE, PARK, SHOP, SIDES, SKYSCRAPER, Sheet

SETUP = const(0)     # rolling the start roads column by column
READY = const(1)     # waiting for the start player to press ROLL
CLAIM = const(2)     # the current player takes a white die (or PASS)
ROW = const(3)       # the die leaves a choice: the row
COL = const(4)       # ... the column
PIECE = const(5)     # what was drawn: a piece by its legend face, or a floor (D0)
VALUE = const(6)     # which value to circle: PASS lower, ROLL yes
OVER = const(7)

# what a refused press returns (rule ids of the PC's engine, docs/protocol.md) besides these
_NOTNOW = const("notnow")  # a button that means nothing now: ignored, no tone


def begin(app, opts, emit):
    """A game of the lobby's choice (doodle/gamestep.py): the edition's data (doodle/ed_<edition>.py)
    loaded with it, the console's dice rolled for it."""
    ed = __import__("doodle.ed_" + app.edition, None, None, ("x",))
    return Game(ed, app.players, app.control, app.games, emit, app.dice_)


class Game:
    """One game of a dice edition, played through the interface every game module offers
    (docs/console-deadly-puzzle.md, "A game module"): button(name, now) returns None (done, or
    waiting for more), "menu" (MENU: the app asks "End game?"), "notnow" (ignored) or why it was
    refused; its tunes are in `tones`, and `version` moves when the screen should. Every
    finished step is sent as a protocol event through `emit`. `dice` is the console's (doodle/
    dice.py): rolled at ROLL, a die taken shown taken; None when only the rules are played
    (a replay, the tests)."""

    VIEW = "view"            # the module that draws it (doodle/view.py) ...
    FINAL = "final"          # ... and its final table (doodle/final.py), loaded in its place

    def __init__(self, ed, players, control, number, emit, dice=None):
        self.ed = ed
        self.dice = dice
        self.tones = []  # type: list[str]  # tunes to play; the app takes and empties them
        self.players = players
        self.solo = players == 1
        self.control = control
        self.number = number
        self.emit = emit
        self.whites = 3 if self.solo else players + 1
        self.can_pass = control or not ed.JOKERS      # R8, R24: More control, and the 6x6 rules
        self.sheets = [Sheet(ed) for _ in range(players)]
        self.shared = [{} if tr[3] else None for tr in ed.TRACKS]  # type: list[dict[int, int] | None]
        # (shared tracks: value -> player who circled it)
        self.bonus_owner = {}                         # first-player bonus -> player
        self.phase = SETUP
        self.setup_col = 1
        self.round = 0
        self.start_player = 0
        self.turn = 0                                 # players who have acted this round
        self.column = 0
        self.white = bytearray(self.whites + 1)       # index 1..whites
        self.taken = [-1] * (self.whites + 1)         # who took each white die
        self.endings = []
        nn = ed.SIZE * ed.SIZE
        self.scratch = (bytearray(nn), bytearray(nn), bytearray(nn + 1))  # score.label's buffers
        self._points = [0] * players   # the totals (score.totals), kept up to date
        self._was = [0] * players      # the totals before the last count
        self._stale = True             # a turn changed something since they were counted
        self.scored = 0                # +1 each time a total changes (the panel's score line)
        self.version = 0       # +1 at every roll and finished turn: what the screen caches by
        self.lines = [-1, ""] * 9       # doodle/view.py's cache: (signature, line) per line
        self.pc = None                  # the PC's scores being shown (doodle/view.py)
        self.legend = ""       # the legend as the panel shows it (built once)
        self.pass_hint = "  (PASS: %s)" % ed.WORDS["tree"] if self.can_pass else ""
        self._clear()
        var = "control" if control else ""
        if self.solo:
            var = "solo+control" if control else "solo"
        emit({"k": "game", "g": number, "ed": ed.EDITION, "n": players, "var": var})

    def _clear(self):
        """The turn being entered: die, choices, square, park, piece, values."""
        self.die = 0
        self.choices = []  # type: list[int]  # squares the die leaves to choose from
        self.row = 0           # the row chosen (or fixed) while the column is asked
        self.square = -1
        self.via = -1          # the park (breaker) square the die pointed to
        self.values = []  # type: list[int]  # values the player may circle, highest first
        self.shown = 0         # the one shown (index into values)

    # -- who and what -------------------------------------------------------------------
    def current(self):
        return (self.start_player + self.turn) % self.players

    def _refuse(self, why, i=0):
        self.emit({"k": "refuse", "g": self.number, "r": self.round, "p": self.current(), "i": i, "why": why})
        return why

    def targets(self, sheet, die):
        """(squares die points to on this sheet, the park it went through or -1, or None and
        what the die costs that the sheet cannot pay): R2-R4, R14, R15."""
        ed = self.ed
        n = ed.SIZE
        w = self.white[die]
        b = self.column
        if ed.JOKERS:
            if w == 6 and sheet.trees >= ed.TREES:
                return None, "six_tree"
            out = []
            for r in range(1, n + 1):
                if w == 6 or r == w:
                    for c in range(1, n + 1):
                        if b == 6 or c == b:
                            out.append((r - 1) * n + c - 1)
            return out, -1
        i = (w - 1) * n + b - 1
        if ed.PARK and ed.KINDS[i] == PARK:
            if ed.PARK == 1:
                if sheet.trees >= ed.TREES:
                    return None, "park_tree"
                return [(w - 1) * n + c for c in range(n)], i
            if sheet.barrels >= ed.BARRELS:
                return None, "park_barrel"
            return list(range(n * n)), i
        return [i], -1

    def why_not(self, player, die):
        """Why `player` cannot take white die `die` now, or None."""
        if self.taken[die] >= 0:
            return "taken"
        sheet = self.sheets[player]
        squares, via = self.targets(sheet, die)
        return via if squares is None else self._blocked(sheet, squares)

    def _blocked(self, sheet, squares):
        """Why none of `squares` can take a drawing on this sheet, or None."""
        for i in squares:
            if sheet.usable(i):
                return None
        for i in squares:
            if self.ed.KINDS[i] != HOUSE:
                return "drawn"
        return "houses"

    def forced(self, player):
        """True when no free white die fits this player's sheet (R5)."""
        for d in range(1, self.whites + 1):
            if self.why_not(player, d) is None:
                return False
        return True

    def over(self):
        return self.phase == OVER

    def rolls(self):
        """Whether ROLL now rolls dice (the start roads, or a new round)."""
        return self.phase <= READY

    def claiming(self):
        """Whether the current player is to take a die (or PASS)."""
        return self.phase == CLAIM

    def asking(self):
        """What the console asks the current player for: '' (a die), 'row', 'col', 'piece',
        'value'."""
        return ("", "", "", "row", "col", "piece", "value", "")[self.phase]

    # -- buttons ------------------------------------------------------------------------
    def button(self, name, now=0):
        """A press at the table: ROLL rolls the console's dice when a round (or the start
        roads) is due, MENU asks to end the game, anything else is the turn's entry (enter)."""
        if name == "MENU":
            return "menu"
        dice = self.dice
        dice.settle()  # a press never waits for the tumble to finish
        if name == "ROLL" and self.phase <= READY:
            if self.phase == SETUP:   # the setup: the start road's die only
                column, _ = dice.roll(0, now, column_only=True)
                self.roll(column, ())
            else:
                column, whites = dice.roll(self.whites, now)
                self.roll(column, whites)
            self.tones.append("roll")
            return None
        claiming = self.phase == CLAIM
        turn = self.turn + 10 * self.round
        why = self.enter(name)
        if why is None:
            if name == "PASS" and claiming:
                self.tones.append("tree")
            elif self.turn + 10 * self.round != turn:
                self.tones.append("claim")     # a turn was completed
            else:
                self.tones.append("choose")    # one more question (or a die put back)
            for i in range(1, self.whites + 1):   # the dice taken shown taken
                if self.taken[i] >= 0 and dice.states[i] != 3:
                    dice.take(i)
        return why

    def tick(self, now):
        """Time passing: nothing happens in a dice round until a button is pressed."""

    def resumed(self, roll):
        """After a power cut (doodle/powerup.py): the console's dice show the round's `roll`
        event again, the dice taken since shown taken."""
        if CLAIM <= self.phase < OVER and self.dice is not None:
            self.dice.show(roll["c"], roll["w"], self.taken)

    def enter(self, name):
        """The turn's entry: a die button, PASS or ROLL read as the phase asks."""
        ph = self.phase
        if name == "PASS":
            if ph == CLAIM:
                return self.pass_turn()
            if ROW <= ph <= PIECE:
                self._clear()
                self.phase = CLAIM
                return None
            if ph == VALUE:
                self.shown = (self.shown + 1) % len(self.values)
                return None
            return _NOTNOW
        if name == "ROLL":
            if ph == VALUE:
                return self._finish(self.values[self.shown])
            return _NOTNOW
        if len(name) != 2 or name[0] != "D":   # a die button D0..D6: its number
            return _NOTNOW
        n = ord(name[1]) - 48
        if ph == CLAIM:
            return self.take(n) if 1 <= n <= self.whites else _NOTNOW
        if ph == ROW or ph == COL:
            return self.choose(n)
        if ph == PIECE:
            return self.floor() if n == 0 else self.piece(n)
        return _NOTNOW

    def roll(self, column, whites):
        """ROLL: during setup `column` is the start road's die; otherwise the round's dice."""
        ed = self.ed
        if self.phase == SETUP:
            col = self.setup_col
            i = (ed.START[col - 1] - 1) * ed.SIZE + col - 1
            bits = SIDES[ed.LEGEND[column - 1]]
            for sheet in self.sheets:
                sheet.pieces[i] = bits
            self._stale = True
            self.version += 1
            self.emit({"k": "start", "g": self.number, "col": col, "d": column})
            self.setup_col += 1
            if self.setup_col > ed.SIZE:
                self.phase = READY
            return None
        if self.phase != READY:
            return _NOTNOW
        self.round += 1
        self.turn = 0
        self.column = column
        for d in range(1, self.whites + 1):
            self.white[d] = whites[d - 1]
            self.taken[d] = -1
        self.phase = CLAIM
        self.version += 1
        self.emit({"k": "roll", "g": self.number, "r": self.round, "sp": self.start_player, "c": column,
                  "w": list(whites)})
        return None

    def take(self, die):
        """The current player presses the button under white die `die`."""
        if self.taken[die] >= 0:
            return self._refuse("taken", die)
        sheet = self.sheets[self.current()]
        squares, via = self.targets(sheet, die)
        why = via if squares is None else self._blocked(sheet, squares)
        if why:
            return self._refuse(why, die)
        self.die = die
        self.via = via
        usable = [i for i in squares if sheet.usable(i)]
        if len(usable) == 1:
            return self._at(usable[0])
        n = self.ed.SIZE
        self.choices = usable
        row = usable[0] // n
        for i in usable:
            if i // n != row:
                self.phase = ROW
                return None
        self.row = row + 1
        self.phase = COL
        return None

    def choose(self, n):
        """A die button read as a row or column number while the square is asked (C1)."""
        size = self.ed.SIZE
        if not 1 <= n <= size:
            return _NOTNOW
        if self.phase == ROW:
            mine = [i for i in self.choices if i // size == n - 1]
            if not mine:
                return self._refuse("drawn", self.die)
            if len(mine) == 1:
                return self._at(mine[0])
            self.row = n
            self.phase = COL
            return None
        i = (self.row - 1) * size + n - 1
        if i not in self.choices:
            return self._refuse("drawn", self.die)
        return self._at(i)

    def _at(self, i):
        """The square is known: a house needs nothing more, elsewhere the piece is asked."""
        self.square = i
        if self.ed.KINDS[i] == HOUSE:
            return self._finish(0)
        self.phase = PIECE
        return None

    def floor(self):
        """D0 on a sky scraper (kraken): one more floor (tentacle) instead of a piece (R13)."""
        sheet = self.sheets[self.current()]
        if not sheet.floor_ok(self.square):
            return self._refuse("third_time", self.die) if self.ed.KINDS[self.square] == SKYSCRAPER else _NOTNOW
        return self._finish(0)

    def piece(self, face):
        """D1..D6: the piece of that face on the sheet's legend was drawn (C3)."""
        if not 1 <= face <= 6:
            return _NOTNOW
        p = self.current()
        sheet = self.sheets[p]
        i = self.square
        sheet.pieces[i] = SIDES[self.ed.LEGEND[face - 1]]
        t = self.track_of(self.ed.KINDS[i])
        if t < 0:
            return self._finish(0)
        values = sheet.free(t, sheet.worth(self.ed.KINDS[i], i), self.shared[t])
        if len(values) > 1:
            self.values = values
            self.shown = 0
            self.phase = VALUE
            return None
        return self._finish(values[0] if values else 0)

    def track_of(self, kind):
        tracks = self.ed.TRACKS
        for t in range(len(tracks)):
            if tracks[t][1] == kind:
                return t
        return -1

    def pass_turn(self):
        """PASS: cross out a tree instead of a die (R5, R8, R19, R24)."""
        p = self.current()
        sheet = self.sheets[p]
        fits = not self.forced(p)
        if not fits:
            why = "forced"
        elif not self.can_pass:
            return self._refuse("must_take")
        elif sheet.trees >= self.ed.TREES:
            return self._refuse("no_tree")
        else:
            why = "pass"
        self._tree(sheet)
        self.emit({"k": "tree", "g": self.number, "r": self.round, "p": p, "why": why})
        self._next()
        return None

    def end(self):
        """MENU, confirmed: the game ends now (a value being chosen is circled first)."""
        if self.phase == VALUE:
            self._finish(self.values[self.shown])
        if self.phase != OVER:
            self.phase = OVER
            self.emit({"k": "end", "g": self.number, "r": self.round, "why": "menu", "p": self.points()})

    # -- after a power cut ---------------------------------------------------------------
    def replay(self, ev):
        """Apply an event this game sent before a power cut (read back from the journal,
        docs/journal.md): the same state as when it was made, nothing sent again. Raises
        ValueError for an event that does not fit the game as replayed so far. The code is
        doodle/rounds_replay.py, loaded only for a game resumed (RAM)."""
        from doodle import rounds_replay

        rounds_replay.replay(self, ev)

    # -- the turn, complete ---------------------------------------------------------------
    def _finish(self, v):
        ed = self.ed
        p = self.current()
        sheet = self.sheets[p]
        die, i = self.die, self.square
        kind = ed.KINDS[i]
        self.taken[die] = p
        ev = {"k": "claim", "g": self.number, "r": self.round, "p": p, "i": die, "d": self.white[die],
              "row": i // ed.SIZE + 1, "col": i % ed.SIZE + 1, "v": v, "pc": "", "via": None}
        if self.via >= 0:
            ev["via"] = [self.via // ed.SIZE + 1, self.via % ed.SIZE + 1]
            if ed.PARK == 1:
                self._tree(sheet)
            else:
                sheet.barrels += 1
        else:
            del ev["via"]
            if ed.JOKERS and self.white[die] == 6:
                self._tree(sheet)
        if kind == HOUSE:
            sheet.crossed[i] += 1
            del ev["pc"]
        elif sheet.pieces[i]:
            ev["pc"] = _NAMES[sheet.pieces[i]]
        else:
            sheet.floors[i] += 1
            del ev["pc"]
            ev["fl"] = 1     # in the room "pc" left
        if v:
            self._circle(p, sheet, kind, v)
        self.emit(ev)
        self._clear()
        self._next()
        return None

    def _circle(self, p, sheet, kind, v):
        ed = self.ed
        t = self.track_of(kind)
        sheet.circled[t].append(v)
        taken = self.shared[t]
        if taken is not None:
            taken[v] = p
        if kind == SHOP and ed.BONUSES:      # R11: the highest free bonus the value reaches
            best = 0
            for b in ed.BONUSES:
                if b <= v and b not in self.bonus_owner:
                    best = b
            if best:
                self.bonus_owner[best] = p
                sheet.bonuses.append(best)
        for k, top in ed.END:
            if k == kind and v == top:
                self._ending(ed.TRACKS[t][0])

    def _ending(self, why):
        if why not in self.endings:
            self.endings.append(why)

    def _tree(self, sheet):
        if sheet.trees < self.ed.TREES:
            sheet.trees += 1
            if sheet.trees == self.ed.TREES:
                self._ending("trees")

    def _next(self):
        self._stale = True
        self.version += 1
        self.turn += 1
        if self.turn < self.players:
            self.phase = CLAIM
            return
        if self.endings:
            self.phase = OVER
            self.emit({"k": "end", "g": self.number, "r": self.round, "why": self.endings[0], "p": self.points()})
            return
        self.start_player = (self.start_player + 1) % self.players
        self.phase = READY

    def points(self):
        """Every player's total now (score.totals), counted again only after a turn."""
        if self._stale:
            self._stale = False
            pts, was = self._points, self._was
            for p in range(self.players):
                was[p] = pts[p]
            score.totals(self, pts)
            for p in range(self.players):
                if pts[p] != was[p]:
                    self.scored += 1
                    break
        return self._points


_NAMES = {bits: name for name, bits in SIDES.items()}
