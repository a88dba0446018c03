# doodlebox Doodle City round flow: start roads, ROLL, claims in clockwise turn, trees, game end.
# One rule set for City, Suzhou and Sea of Treasures (the 5x5 editions); see docs/rulings.md.
from doodle.sheet import Sheet

SETUP = 0     # rolling the start roads column by column
READY = 1     # waiting for the start player to press ROLL
CLAIM = 2     # players take white dice in turn
CHOOSE = 3    # a 6 was involved: the player picks the row and/or column
OVER = 4

# Refusal reasons (docs/protocol.md, event "refuse")
TAKEN = "taken"        # the die is already taken this round
NOSQUARE = "nosquare"  # the die points to no square this player may draw in
CANPLAY = "canplay"    # PASS while a die can be used (and More control is off)
SQUARE = "square"      # a chosen row/column where the player may not draw
NOTREE = "notree"      # a white 6 with no tree left to cross


class Game:
    """One Doodle City game. Each action returns None when accepted or a refusal reason.

    Every accepted action appends protocol events (dicts) through `emit`.
    """

    def __init__(self, layout, players, variant, number, rand, emit):
        self.layout = layout
        self.players = players
        self.variant = "solo" if players == 1 else variant
        self.whites = 3 if players == 1 else players + 1
        self.number = number
        self.rand = rand
        self.emit = emit
        self.sheets = [Sheet(layout) for _ in range(players)]
        self.phase = SETUP
        self.setup_col = 1
        self.round = 0
        self.start_player = 0
        self.turn = 0                      # how many players have acted this round
        self.column = 0                    # the column die
        self.white = [0] * (self.whites + 1)   # index 1..whites
        self.taken = [-1] * (self.whites + 1)  # player who took the die, -1 if free
        self.pending = 0                   # die index waiting for a row/column choice
        self.pick_row = 0
        self.ending = ""
        emit({"k": "game", "g": number, "ed": "city", "n": players, "var": self.variant})

    # -- who and what -------------------------------------------------------------------
    def current(self):
        return (self.start_player + self.turn) % self.players

    def _ev(self, kind, **fields):
        fields["k"] = kind
        fields["g"] = self.number
        self.emit(fields)

    def fits(self, player, i):
        """Why die i cannot be taken by player now, or None if it can."""
        if self.taken[i] >= 0:
            return TAKEN
        sheet = self.sheets[player]
        w, c = self.white[i], self.column
        if w == 6:
            if not sheet.trees:
                return NOTREE
            ok = sheet.free_in_col(c) if c != 6 else sheet.any_free()
        elif c == 6:
            ok = sheet.free_in_row(w)
        else:
            ok = sheet.can_draw(w, c)
        return None if ok else NOSQUARE

    def forced(self, player):
        """True when no free white die points to a square this player may draw in."""
        for i in range(1, self.whites + 1):
            if self.fits(player, i) is None:
                return False
        return True

    # -- actions ------------------------------------------------------------------------
    def roll(self, column, whites):
        """ROLL: during setup `column` is the start-road die; otherwise the round's dice."""
        if self.phase == SETUP:
            col = self.setup_col
            row = self.layout[2][col - 1][0]
            for sheet in self.sheets:
                sheet.start(row, col)
            self._ev("start", col=col, d=column)
            self.setup_col += 1
            if self.setup_col > self.layout[0]:
                self.phase = READY
            return None
        if self.phase != READY:
            return "notnow"
        self.round += 1
        self.turn = 0
        self.column = column
        for i in range(1, self.whites + 1):
            self.white[i] = whites[i - 1]
            self.taken[i] = -1
        self.phase = CLAIM
        self._ev("roll", r=self.round, sp=self.start_player, c=column, w=list(whites))
        return None

    def take(self, i):
        """The current player presses the button under white die i."""
        if self.phase == CHOOSE:
            return self.choose(i)
        if self.phase != CLAIM or not 1 <= i <= self.whites:
            return "notnow"
        p = self.current()
        why = self.fits(p, i)
        if why:
            self._ev("refuse", r=self.round, p=p, i=i, why=why)
            return why
        w, c = self.white[i], self.column
        if w != 6 and c != 6:
            self._claim(p, i, w, c)
            return None
        self.pending = i
        self.pick_row = 0 if w == 6 else w
        self.phase = CHOOSE
        return None

    def choosing(self):
        """'row' or 'col' while a 6 asks the player for a square, else ''."""
        if self.phase != CHOOSE:
            return ""
        if not self.pick_row:
            return "row"
        return "col"

    def choose(self, n):
        """A die button pressed as a number 1..size while choosing a row or column."""
        p = self.current()
        sheet = self.sheets[p]
        i = self.pending
        if not 1 <= n <= sheet.size:
            return SQUARE
        if not self.pick_row:
            col_fixed = self.column != 6
            ok = sheet.can_draw(n, self.column) if col_fixed else bool(sheet.free_in_row(n))
            if not ok:
                self._ev("refuse", r=self.round, p=p, i=i, why=SQUARE)
                return SQUARE
            self.pick_row = n
            if col_fixed:
                self._claim(p, i, n, self.column)
            return None
        if not sheet.can_draw(self.pick_row, n):
            self._ev("refuse", r=self.round, p=p, i=i, why=SQUARE)
            return SQUARE
        self._claim(p, i, self.pick_row, n)
        return None

    def cancel(self):
        """PASS while choosing: put the die back, the turn is not over."""
        if self.phase == CHOOSE:
            self.phase = CLAIM
            self.pending = 0
            self.pick_row = 0
            return True
        return False

    def pass_turn(self):
        """PASS: cross out a tree when no die fits (or always, with More control)."""
        if self.cancel():
            return None
        if self.phase != CLAIM:
            return "notnow"
        p = self.current()
        if self.forced(p):
            why = "forced"
        elif self.variant == "control":
            why = "pass"
        else:
            self._ev("refuse", r=self.round, p=p, i=0, why=CANPLAY)
            return CANPLAY
        self._tree(p)
        self._ev("tree", r=self.round, p=p, why=why)
        self._next()
        return None

    def end(self):
        """End the game from the console's menu."""
        if self.phase != OVER:
            self.phase = OVER
            self._ev("end", r=self.round, why="menu")

    # -- bookkeeping --------------------------------------------------------------------
    def _tree(self, p):
        self.sheets[p].cross_tree()
        if not self.sheets[p].trees:
            self.ending = "trees"

    def _claim(self, p, i, row, col):
        self.sheets[p].draw(row, col)
        if self.white[i] == 6:
            self._tree(p)
        self.taken[i] = p
        self.pending = 0
        self.pick_row = 0
        self._ev("claim", r=self.round, p=p, i=i, d=self.white[i], row=row, col=col)
        self._next()

    def _next(self):
        self.turn += 1
        if self.turn < self.players:
            self.phase = CLAIM
            return
        if self.ending:
            self.phase = OVER
            self._ev("end", r=self.round, why=self.ending)
            return
        self.start_player = (self.start_player + 1) % self.players
        self.phase = READY
