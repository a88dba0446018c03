# doodlebox app: buttons and serial in; dice, tones, screen and frames out. No hardware here.
# The lobby (game, players, More control: kept in `store`), a game of a dice edition
# (doodle/rounds.py, its edition's data loaded only while it is played), the PC's scores.
import json
import sys

from doodle import link, rounds, view
from doodle.dice import Dice
from doodle.journal import Journal

FW_VERSION = "0.2.0"
NOTICE_MS = 3000
LINK_TIMEOUT_MS = 5000
EDITIONS = ("city", "suzhou", "treasures", "shanghai", "monsters")
SIX_BY_SIX = view.SIX_BY_SIX
SETTINGS = "settings.json"


class App:
    """The console's core. Feed it buttons, serial bytes and time; pull what to show.

    `store` keeps small files on the console's flash (`load(name)` -> str or None,
    `save(name, text)`); without one nothing is remembered."""

    def __init__(self, rand, boot, uid, store=None):
        self.rand = rand
        self.uid = uid
        self.store = store
        self.journal = Journal(boot)
        self.lines = link.Lines()
        self.dice_ = Dice(rand)
        self.game = None
        self.games = 0
        self.edition = "city"
        self.players = 3
        self.control = False
        self._load_settings()
        self.pc = None            # the PC's last score message: (g, r, totals, bad, why)
        self.confirm_end = False
        self.notice = ""
        self._notice_until = 0
        self._tones = []
        self._tones_other = []
        self._tx = [self._hello()]
        self._host_seen = -LINK_TIMEOUT_MS
        self._up = False
        self.now = 0
        self.screen_rev = 1
        self._screen = None
        self._screen_at = -1
        self._dice = [[0, 0, i == 0] for i in range(self.dice_.count)]
        self._dice_at = -1
        self.link_errors = []  # last few (reason) strings, newest last

    # -- inputs -------------------------------------------------------------------------
    def button(self, name, now):
        self.now = now
        self.screen_rev += 1
        g = self.game
        if g is None:
            return self._lobby(name, now)
        if name == "MENU":
            if g.phase != rounds.OVER:
                self.confirm_end = True
            return None
        if self.confirm_end:
            self.confirm_end = False
            if name == "ROLL":
                g.end()
                self._tones.append("end")
            return None
        if g.phase == rounds.OVER:
            if name == "ROLL":
                self._close()
            return None
        self.dice_.settle()  # a press never waits for the tumble to finish
        if self.journal.full():
            return self._refuse("full", now)
        if name == "ROLL" and g.phase <= rounds.READY:      # SETUP or READY: the dice roll
            return self._roll(g, now)
        before = g.phase
        turn = g.turn + 10 * g.round
        why = g.button(name)
        if why is None:
            if name == "PASS" and before == rounds.CLAIM:
                self._tones.append("tree")
            elif g.turn + 10 * g.round != turn:
                self._tones.append("claim")     # a turn was completed
            else:
                self._tones.append("choose")    # one more question (or a die put back)
            self._sync_taken()
            if g.phase == rounds.OVER:
                self._tones.append("end")
            return None
        if why == "notnow":
            return why
        return self._refuse(why, now)

    def serial_in(self, data, now):
        self.now = now
        for line, err in self.lines.feed(data):
            msg, err = link.decode(line) if line is not None else (None, err)
            if msg is None:
                self._link_error(err)
                if line is not None and line.startswith(b"@"):
                    self._tx.append(link.encode({"t": "err", "why": err}))
                continue
            self._host_seen = now
            t = msg["t"]
            if t == "hi":
                self._tx.append(self._hello())
                self.journal.rewind()
            elif t == "ack" and msg.get("boot") == self.journal.boot:
                self.journal.ack(msg.get("s", 0))
            elif t == "nak" and msg.get("boot") == self.journal.boot:
                self.journal.rewind(msg.get("s", 0))
            elif t == "score":
                self._pc_score(msg)
            else:
                self._tx.append(link.encode({"t": "err", "why": "unexpected " + str(t)}))

    def tick(self, now):
        self.now = now
        self.dice_.tick(now)
        if self._notice_until and now >= self._notice_until:
            self._notice_until = 0
            self.notice = ""
            self.screen_rev += 1
        up = now - self._host_seen < LINK_TIMEOUT_MS
        if up != self._up:
            self._up = up
            self.screen_rev += 1
        self.journal.pump(now, self._tx)

    # -- outputs ------------------------------------------------------------------------
    @property
    def dice_rev(self):
        return self.dice_.rev

    def dice(self):
        """[[face, state, is_column_die]] for the 7 dice: one list, updated in place when they
        change (the caller reads it at once and keeps nothing)."""
        if self._dice_at != self.dice_.rev:
            self._dice_at = self.dice_.rev
            self.dice_.shown(self.now, self._dice)
        return self._dice

    def screen(self):
        """The screen's lines; built again only when something on it changed."""
        if self._screen_at == self.screen_rev:
            return self._screen
        self._screen_at = self.screen_rev
        held = self.journal.held()
        if self.game is None:
            lines = view.lobby(self.edition, self.players, self.control, self._up, held)
        else:
            lines = view.game(self.game, self.notice, self.pc, self._up, held)
            if self.confirm_end:
                lines = list(lines)
                lines.insert(1, "!End game? ROLL yes, other no")
        self._screen = lines
        return lines

    def tones(self):
        """The tunes to play since the last call (two lists in turn: nothing allocated)."""
        t = self._tones
        if not t:
            return t
        other = self._tones_other
        del other[:]
        self._tones, self._tones_other = other, t
        return t

    def serial_out(self):
        tx = self._tx
        if not tx:
            return b""
        out = tx[0] if len(tx) == 1 else b"".join(tx)
        del tx[:]
        return out

    # -- the lobby ----------------------------------------------------------------------
    def _lobby(self, name, now):
        six = self.edition in SIX_BY_SIX
        if name == "D0":
            self.edition = EDITIONS[(EDITIONS.index(self.edition) + 1) % len(EDITIONS)]
            if self.edition in SIX_BY_SIX:
                self.control = False
                if self.players < 2:
                    self.players = 2
        elif 1 <= rounds.DIE.get(name, 0) <= 5:
            n = rounds.DIE[name]
            if n == 1 and six:
                return self._refuse("solo", now)
            self.players = n
        elif name == "PASS" and not six:
            self.control = not self.control
        elif name == "ROLL":
            if self.journal.full():
                return self._refuse("full", now)
            self._start()
        return None

    def _start(self):
        self._save_settings()
        self.games += 1
        self.pc = None
        ed = __import__("doodle.ed_" + self.edition, None, None, ("SIZE",))
        self.game = rounds.Game(ed, self.players, self.control, self.games, self.journal.add)
        self._tones.append("start")

    def _close(self):
        """Back to the lobby: the game and its edition's data are let go (RAM)."""
        self.game = None
        self.dice_.clear()
        name = "doodle.ed_" + self.edition
        if name in sys.modules:
            del sys.modules[name]
        pkg = sys.modules.get("doodle")
        if pkg is not None and hasattr(pkg, "ed_" + self.edition):
            delattr(pkg, "ed_" + self.edition)

    def _load_settings(self):
        text = self.store.load(SETTINGS) if self.store is not None else None
        if not text:
            return
        try:
            s = json.loads(text)
            if s.get("game") in EDITIONS:
                self.edition = s["game"]
            if s.get("players") in (1, 2, 3, 4, 5):
                self.players = s["players"]
            self.control = s.get("control") is True
        except (ValueError, AttributeError, TypeError):
            return  # an unreadable file is a fresh console's choice
        if self.edition in SIX_BY_SIX:
            self.control = False
            self.players = max(2, self.players)

    def _save_settings(self):
        if self.store is None:
            return
        text = json.dumps({"game": self.edition, "players": self.players, "control": self.control})
        if text != self.store.load(SETTINGS):
            self.store.save(SETTINGS, text)

    # -- the game -----------------------------------------------------------------------
    def _roll(self, g, now):
        if g.phase == rounds.SETUP:   # the start road's die only
            column, _ = self.dice_.roll(0, now, column_only=True)
            g.roll(column, ())
        else:
            column, whites = self.dice_.roll(g.whites, now)
            g.roll(column, whites)
        self._tones.append("roll")
        return None

    def _pc_score(self, msg):
        """The PC's scores of a game (docs/protocol.md `score`): shown instead of ours."""
        p = msg.get("p")
        g = msg.get("g")
        if not isinstance(p, list) or not isinstance(g, int):
            self._tx.append(link.encode({"t": "err", "why": "bad score"}))
            return
        why = msg.get("why")
        self.pc = (g, msg.get("r", 0), p, msg.get("bad", 0), why if isinstance(why, str) else "")
        self.screen_rev += 1

    # -- helpers ------------------------------------------------------------------------
    def _hello(self):
        return link.encode({"t": "hello", "fw": FW_VERSION, "uid": self.uid, "boot": self.journal.boot,
                            "first": self.journal.first(), "next": self.journal.next})

    def _link_error(self, err):
        self.link_errors.append(err)
        if len(self.link_errors) > 8:
            self.link_errors.pop(0)

    def _refuse(self, why, now):
        self._tones.append("refuse")
        self.notice = view.REASONS.get(why, why)
        self._notice_until = now + NOTICE_MS
        self.screen_rev += 1
        return why

    def _sync_taken(self):
        g = self.game
        if g is None:
            return
        for i in range(1, g.whites + 1):
            if g.taken[i] >= 0 and self.dice_.states[i] != 3:
                self.dice_.take(i)
