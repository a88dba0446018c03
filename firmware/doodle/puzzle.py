# doodlebox Doodle Puzzle: the role dealer, the subject, the one-minute drawing timer, the
# placing order, Baddy's Mischief, the guess and the Showdown challenge, the scoreboard.
# docs/console-deadly-puzzle.md ("Doodle Puzzle", "Inside the firmware: a game module"); the
# rules as the PC's engine reads them (host/doodlebox/rules/puzzle/engine.py, rulings P1-P11).
# Loaded only while a Doodle Puzzle game is played (doodle/app.py).

from micropython import const

DEAL = const(0)       # ROLL deals the next round's roles (the scoreboard is shown)
ROLES = const(1)      # the console passed round: PASS shows a role, PASS hides it
NUMBER = const(2)     # the star Drawy enters a number 1..12
SUBJECT = const(3)    # the card is shown: ROLL starts the minute, MENU sets it aside
MINUTE = const(4)     # the drawing minute runs (MENU pauses and resumes)
PLACE = const(5)      # the Drawys place their boards, the star first
SEAT = const(6)       # Baddy's Mischief: Baddy enters their seat
ERASE = const(7)      # ... the board erased (0: none)
DRAW = const(8)       # ... the board drawn on (0: none)
GUESS = const(9)      # ROLL right, PASS wrong
CHALLENGE = const(10)  # Showdown, after a wrong guess: D1..D6, PASS none
OVER = const(11)

ROUNDS = const(5)
SLOTS = const(6)
MINUTE_MS = const(60000)
BEEPS = const(10)     # a beep at 10, 9, ... 1 s left

STAR = const(83)      # "S": the letters of the `roles` event, one per seat
DRAWY = const(68)     # "D"
BADDY = const(66)     # "B"
GUESSY = const(71)    # "G"

CHECK = const(1)      # a round's mark on a Scorecard
CROSS = const(2)

NOTNOW = "notnow"
MENU = "menu"         # MENU here asks "End game?" (the app asks, and calls end() on ROLL)
# refusals of how a number was entered: shown, not sent (docs/protocol.md)
BAD_NUMBER = "a number is 1-12"
BAD_BOARD = "a board is 1-6"
NOT_BADDY = "only Baddy may sabotage"
# what the panel says for a rule id this game sends
REASONS = {"slot_twice": "that slot is filled"}
CARDS = {"standard": 16, "beginner": 6}
DIGIT = {"D0": 0, "D1": 1, "D2": 2, "D3": 3, "D4": 4, "D5": 5, "D6": 6}


def begin(app, opts, emit):
    """A game of the lobby's choice (doodle/gamestep.py)."""
    return Game(app.players, opts, app.games, emit, app.rand, app.now)


class Game:
    """One game of Doodle Puzzle. button(name, now) returns None (taken, or waiting for more),
    "notnow", "menu" (MENU: ask "End game?"), a rule id (sent as `refuse`) or a short text
    (shown only); every finished step is sent as a protocol event through `emit`."""

    ED = "puzzle"
    VIEW = FINAL = "puzzle_view"   # the module that draws it, its final table too

    def __init__(self, players, opts, number, emit, rand, now):
        self.players = players
        self.number = number
        self.emit = emit
        self.rand = rand
        self.var = opts.get("var", "")
        self.subj = opts.get("subj", "standard")
        self.behave = self.var == "behave"
        self.showdown = self.var == "showdown"
        self.cards = CARDS.get(self.subj, 16)
        self.tones = []  # type: list[str]  # tunes to play; the app takes and empties it every step
        self.version = 0          # +1 whenever what the panel shows changes
        self.lines = []  # type: list[str]  # doodle/puzzle_view.py's: the screen's title and body ...
        self.lines_at = -1        # ... as of this version
        self.lines_pc = None  # type: object  # ... and the PC's scores
        self.out = []  # type: list[str]  # the screen's lines, one list filled again each time
        self.pc = None            # the PC's scores being shown (doodle/puzzle_view.py)
        self.phase = DEAL
        self.round = 0
        self.roles = bytearray(players)   # the round's letters, seat order (STAR, DRAWY, BADDY, GUESSY)
        self.star = self.baddy = self.guessy = -1
        self.placers = bytearray(SLOTS)   # who places the 1st..6th board
        self.slots = bytearray(SLOTS)     # seat + 1 whose board fills slot 1..6 (0: empty)
        self.placed = 0
        self.seat = 0             # the pass round: whose role is asked (ROLES)
        self.shown = False        # ... and shown now
        self.high = False         # D0 pressed: the next D1..D6 is 7..12
        self.num = 0              # the star's number
        self.card = 0             # the subject card
        self.asides = 0           # subjects set aside this round
        self.erase = 0            # Baddy's boards (0: none)
        self.draw = 0
        self.right = False
        self.challenged = 0
        self.won = False          # the challenge named a sabotaged board
        # the minute: its start, the ms paused so far, the pause going on (-1: none), beeps made
        self.t_start = 0
        self.t_paused = 0
        self.t_pause = -1
        self.beeps = 0
        self.left = 0             # whole seconds left, as shown
        # the Scorecards: per seat, per round CHECK / CROSS (0: not scored); Showdown slashes
        self.marks = bytearray(ROUNDS * players)
        self.checks = bytearray(players)
        self.s_right = bytearray(players)   # Guessy-correct box (+1 each)
        self.s_wrong = bytearray(players)   # Guessy-incorrect box (-1 each)
        self.s_baddy = bytearray(players)   # Baddy box (-1 each)
        self.shared = bytearray(ROUNDS)     # Behave: the shared Scorecard's marks
        self._points = [0] * players
        self.ended = ""           # why the game ended ("rounds", "menu")
        self.sent = 0             # events sent
        ev = {"k": "game", "g": number, "ed": "puzzle", "n": players, "var": self.var, "subj": self.subj}
        emit(ev)

    # -- who and what -------------------------------------------------------------------
    def over(self):
        return self.phase == OVER

    def current(self):
        """The seat whose step it is (-1: the table's, or nobody's)."""
        ph = self.phase
        if ph == ROLES:
            return self.seat
        if ph == NUMBER or ph == SUBJECT or ph == MINUTE:
            return self.star
        if ph == PLACE:
            return self.placers[self.placed]
        if ph == GUESS or ph == CHALLENGE:
            return self.guessy
        return -1

    def points(self):
        """Every player's total now (Behave: the shared card's, for everyone): one kept list."""
        return self._points

    def paused(self):
        return self.t_pause >= 0

    def running(self, now):
        """The minute's running time at `now` (ms), pauses left out."""
        t = now - self.t_start - self.t_paused
        if self.t_pause >= 0:
            t -= now - self.t_pause
        return t

    def _changed(self):
        self.version += 1

    # -- buttons ------------------------------------------------------------------------
    def button(self, name, now):
        """A press; an accepted one is heard (the game tones itself): "roll" for the deal,
        "claim" for a step that was sent, "choose" for one more part of it (the minute's own)."""
        tones = len(self.tones)
        sent = self.sent
        why = self._button(name, now)
        if why is None and len(self.tones) == tones:
            self.tones.append("choose" if self.sent == sent else "roll" if self.phase == ROLES else "claim")
        return why

    def _button(self, name, now):
        ph = self.phase
        if ph == MINUTE:
            return self._minute_button(name, now)
        if name == "MENU":
            if ph == SUBJECT:           # the table sets the subject aside (ruling P2)
                self.asides += 1
                self.num = self.card = 0
                self.phase = NUMBER
                self._changed()
                return None
            return MENU if ph != OVER else NOTNOW
        if ph == DEAL:
            if name != "ROLL":
                return NOTNOW
            self._deal()
            return None
        if ph == ROLES:
            if name != "PASS":
                return NOTNOW
            if not self.shown:
                self.shown = True
            else:
                self.shown = False
                self.seat += 1
                if self.seat >= self.players:
                    self.phase = NUMBER
            self._changed()
            return None
        if ph == NUMBER:
            n = self._entry(name, 12)
            if n is None or isinstance(n, str):
                return n
            self._subject(n, self.rand(self.cards) + 1)
            return None
        if ph == SUBJECT:
            if name != "ROLL":
                return NOTNOW
            self.phase = MINUTE
            self.t_start = now
            self.t_paused = 0
            self.t_pause = -1
            self.beeps = 0
            self.left = MINUTE_MS // 1000
            self.tones.append("go")
            self._changed()
            return None
        if ph == PLACE:
            n = DIGIT.get(name, 0)
            if not n:
                return NOTNOW
            if self.slots[n - 1]:
                self._ev({"k": "refuse", "g": self.number, "r": self.round, "p": self.current(), "i": 0,
                          "why": "slot_twice"})
                return "slot_twice"
            self._place(n)
            return None
        if ph == SEAT:
            n = self._entry(name, 12)     # (any seat but Baddy's is refused alike: no hint)
            if n is None or isinstance(n, str):
                return n
            if n != self.baddy + 1:
                return NOT_BADDY
            self.phase = ERASE
            self._changed()
            return None
        if ph == ERASE or ph == DRAW:
            if name == "PASS" and not self.high:     # back one step: the draw to the erase, the erase to the seat
                self.phase = ERASE if ph == DRAW else SEAT
                self._changed()
                return None
            if name == "ROLL" and not self.high:
                return NOTNOW
            n = self._entry(name, SLOTS, True)
            if n is None or isinstance(n, str):
                return n
            if ph == ERASE:
                self.erase = n
                self.phase = DRAW
                self._changed()
                return None
            self._mischief(self.erase, n)
            return None
        if ph == GUESS:
            if name == "ROLL" or name == "PASS":
                self._guess(name == "ROLL")
                return None
            return NOTNOW
        if ph == CHALLENGE:
            n = DIGIT.get(name, 0)
            if name == "PASS" or n:
                self._challenge(n)
                return None
            return NOTNOW
        return NOTNOW

    def _entry(self, name, top, zero=False):
        """A number entered with the buttons (docs/console-deadly-puzzle.md, "Entering numbers"):
        D1..D6, D0 then D1..D6 for 7..12, D0 then ROLL for 0 (where `zero`). Returns the number
        (0..top), None while waiting for more, or why the press is refused / means nothing."""
        if name == "PASS":
            if self.high:
                self.high = False
                self._changed()
                return None
            return NOTNOW
        if name == "ROLL":
            if not self.high:
                return NOTNOW
            if not zero:
                return BAD_NUMBER
            self.high = False
            return 0
        n = DIGIT.get(name, -1)
        if n < 0:
            return NOTNOW
        if n == 0:
            if self.high:
                return BAD_NUMBER
            self.high = True
            self._changed()
            return None
        if self.high:                 # a whole number: entered again from the start if refused
            n += 6
            self.high = False
            self._changed()
        if n > top:
            return BAD_BOARD
        return n

    def _minute_button(self, name, now):
        if name != "MENU":
            return NOTNOW
        self.tick(now)                  # the alarm first, if the minute ran out
        if self.phase != MINUTE:
            return NOTNOW
        if self.t_pause >= 0:
            self.t_paused += now - self.t_pause
            self.t_pause = -1
            self.tones.append("resume")
        else:
            self.t_pause = now
            self.tones.append("pause")
        self._changed()
        return None

    # -- time ---------------------------------------------------------------------------
    def tick(self, now):
        """The drawing minute: a beep at 10, 9, ... 1 s left, the alarm at 60,000 ms of running
        time. Nothing is allocated unless something happens."""
        if self.phase != MINUTE or self.t_pause >= 0:
            return
        t = self.running(now)
        if t >= MINUTE_MS:
            self.tones.append("alarm")
            self._ev({"k": "timer", "g": self.number, "r": self.round, "start": self.t_start, "end": now,
                      "paused": self.t_paused})
            self.phase = PLACE
            self.placed = 0
            self.left = 0
            self._changed()
            return
        if self.beeps < BEEPS and t >= MINUTE_MS - 1000 * (BEEPS - self.beeps):
            self.beeps = (t - MINUTE_MS + 1000 * BEEPS) // 1000 + 1   # (one beep for the second, however late)
            self.tones.append("tick")
        left = (MINUTE_MS - t + 999) // 1000
        if left != self.left:
            self.left = left
            self._changed()

    # -- the steps of a round -----------------------------------------------------------
    def _ev(self, fields):
        self.sent += 1
        self.emit(fields)

    def _deal(self):
        """ROLL: the role cards shuffled and dealt (ruling P1): the star Drawy, Baddy (not in
        Behave), Guessy, Drawys for the rest; every deal equally likely."""
        n = self.players
        roles = self.roles
        roles[0] = STAR
        k = 1
        if not self.behave:
            roles[1] = BADDY
            k = 2
        roles[k] = GUESSY
        for i in range(k + 1, n):
            roles[i] = DRAWY
        for i in range(n - 1, 0, -1):     # Fisher-Yates with the console's random numbers
            j = self.rand(i + 1)
            roles[i], roles[j] = roles[j], roles[i]
        self._dealt(self.round + 1)
        self._ev({"k": "roles", "g": self.number, "r": self.round, "roles": str(bytes(roles), "ascii")})

    def _dealt(self, r):
        """The roles are known (dealt, or replayed): a new round begins."""
        roles = self.roles
        self.round = r
        self.star = self.baddy = self.guessy = -1
        for i in range(self.players):
            c = roles[i]
            if c == STAR:
                self.star = i
            elif c == BADDY:
                self.baddy = i
            elif c == GUESSY:
                self.guessy = i
        # the placing order: the star first, then the Drawys clockwise, round and round (P4)
        n = self.players
        k = 0
        while k < SLOTS:
            for d in range(n):
                s = (self.star + d) % n
                c = roles[s]
                if (c == STAR or c == DRAWY) and k < SLOTS:
                    self.placers[k] = s
                    k += 1
        for i in range(SLOTS):
            self.slots[i] = 0
        self.placed = 0
        self.seat = 0
        self.shown = False
        self.high = False
        self.num = self.card = 0
        self.asides = 0
        self.erase = self.draw = 0
        self.right = False
        self.challenged = 0
        self.won = False
        self.phase = ROLES
        self._changed()

    def _subject(self, num, card):
        self.num = num
        self.card = card
        self.high = False
        self.phase = SUBJECT
        self._changed()
        self._ev({"k": "subject", "g": self.number, "r": self.round, "num": num, "card": card})

    def _place(self, slot):
        p = self.placers[self.placed]
        self.slots[slot - 1] = p + 1
        self.placed += 1
        if self.placed == SLOTS:
            self.phase = GUESS if self.behave else SEAT
        self._changed()
        self._ev({"k": "place", "g": self.number, "r": self.round, "p": p, "slot": slot})

    def _mischief(self, erase, draw):
        self.erase = erase
        self.draw = draw
        self.high = False
        self.phase = GUESS
        self._changed()
        self._ev({"k": "mischief", "g": self.number, "r": self.round, "erase": erase, "draw": draw})

    def _guess(self, right):
        """The table's verdict, and the round's check marks and crosses at once."""
        self.right = right
        base = (self.round - 1) * self.players
        if self.behave:
            self.shared[self.round - 1] = CHECK if right else CROSS
        else:
            for p in range(self.players):
                wins = (not right) if self.roles[p] == BADDY else right
                self.marks[base + p] = CHECK if wins else CROSS
                if wins:
                    self.checks[p] += 1
        self._count()
        self._ev({"k": "guess", "g": self.number, "r": self.round, "res": "right" if right else "wrong"})
        if self.showdown and not right:
            self.phase = CHALLENGE
            self._changed()
            return
        self._round_over()

    def _challenge(self, board):
        """Showdown: a sabotaged board named wins a slash for Guessy (+1) and one in Baddy's box
        (-1); any other board, or any board when Baddy did nothing, one in Guessy's incorrect
        box (-1); 0 declines (ruling P6)."""
        self.challenged = board
        self.won = False
        if board:
            if board == self.erase or board == self.draw:
                self.won = True
                self.s_right[self.guessy] += 1
                self.s_baddy[self.baddy] += 1
            else:
                self.s_wrong[self.guessy] += 1
            self._count()
        self._ev({"k": "challenge", "g": self.number, "r": self.round, "board": board})
        self._round_over()

    def _round_over(self):
        if self.round >= ROUNDS:
            self._end("rounds")
        else:
            self.phase = DEAL
        self._changed()

    def _count(self):
        """The totals: 2 per check mark, Showdown slashes 1 each (ruling P7); Behave: the shared
        card's points for everyone (P8)."""
        pts = self._points
        if self.behave:
            t = 0
            for m in self.shared:
                if m == CHECK:
                    t += 2
            for p in range(self.players):
                pts[p] = t
            return
        for p in range(self.players):
            pts[p] = 2 * self.checks[p] + self.s_right[p] - self.s_wrong[p] - self.s_baddy[p]

    def _end(self, why):
        self.phase = OVER
        self.ended = why
        self.high = False
        self.t_pause = -1
        self._changed()
        self._ev({"k": "end", "g": self.number, "r": self.round, "why": why, "p": self._points})

    def end(self):
        """MENU, confirmed: the game ends now."""
        if self.phase != OVER:
            self._end("menu")

    # -- after a power cut ---------------------------------------------------------------
    def replay(self, ev):
        """Apply an event this game sent before a power cut (read back from the journal): the
        same state as when it was made, nothing sent, no tone. A drawing minute the power cut
        is not resumed: the round is back at the timer's start. Raises ValueError for an event
        that does not fit the game as replayed so far. The code is doodle/puzzle_replay.py,
        loaded only for a game resumed (RAM)."""
        from doodle import puzzle_replay

        puzzle_replay.replay(self, ev)

