# doodlebox app: buttons and serial in; dice, tones, screen and frames out. No hardware here.
from doodle import city, link, view
from doodle.dice import Dice
from doodle.journal import Journal
from doodle.layouts import LAYOUTS

FW_VERSION = "0.1.0"
NOTICE_MS = 3000
LINK_TIMEOUT_MS = 5000

REASONS = {
    city.TAKEN: "die already taken",
    city.NOSQUARE: "no square for you there",
    city.CANPLAY: "a die fits: take one",
    city.SQUARE: "you can't draw there",
    city.NOTREE: "no tree left for a 6",
    "full": "link full: connect the PC",
}


class App:
    """The console's core. Feed it buttons, serial bytes and time; pull what to show."""

    def __init__(self, rand, boot, uid, edition="city"):
        self.rand = rand
        self.uid = uid
        self.layout = LAYOUTS[edition]
        self.journal = Journal(boot)
        self.lines = link.Lines()
        self.dice_ = Dice(rand)
        self.game = None  # type: city.Game | None
        self.games = 0
        self.players = 3
        self.variant = ""
        self.confirm_end = False
        self.notice = ""
        self._notice_until = 0
        self._tones = []
        self._tx = [self._hello()]
        self._host_seen = -LINK_TIMEOUT_MS
        self.now = 0
        self.screen_rev = 1
        self.link_errors = []  # last few (reason) strings, newest last

    # -- inputs -------------------------------------------------------------------------
    def button(self, name, now):
        self.now = now
        self.screen_rev += 1
        if name == "MENU":
            return self._menu()
        g = self.game
        if g is None:
            return self._lobby(name, now)
        if self.confirm_end:
            self.confirm_end = False
            if name == "ROLL":
                g.end()
                self._tones.append("end")
            return None
        if g.phase == city.OVER:
            if name == "ROLL":
                self.game = None
                self.dice_.clear()
            return None
        self.dice_.settle()  # a press never waits for the tumble to finish
        if self.journal.full():
            return self._refuse("full", now)
        if name == "ROLL":
            return self._roll(g, now)
        if name == "PASS":
            return self._result(g.pass_turn(), now, "tree")
        if name[0] == "D" and name != "D0":
            before = g.phase
            why = g.take(int(name[1:]))
            if why is None and before == city.CLAIM and g.phase == city.CHOOSE:
                self._tones.append("choose")
                return None
            return self._result(why, now, "claim")
        return None

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
            else:
                self._tx.append(link.encode({"t": "err", "why": "unexpected " + str(t)}))

    def tick(self, now):
        self.now = now
        self.dice_.tick(now)
        if self._notice_until and now >= self._notice_until:
            self._notice_until = 0
            self.notice = ""
            self.screen_rev += 1
        self._tx.extend(self.journal.pump(now))

    # -- outputs ------------------------------------------------------------------------
    @property
    def dice_rev(self):
        return self.dice_.rev

    def dice(self):
        """[(face, state, is_column_die)] for the 7 dice."""
        return [(f, s, i == 0) for i, (f, s) in enumerate(self.dice_.shown(self.now))]

    def screen(self):
        up = self.now - self._host_seen < LINK_TIMEOUT_MS
        if self.game is None:
            return view.lobby(self.players, self.variant, up)
        lines = view.game(self.game, self.notice, up, self.journal.held())
        if self.confirm_end:
            lines.insert(1, "!End game? ROLL yes, other no")
        return lines

    def tones(self):
        t = self._tones
        if not t:
            return t  # empty: no new list every loop
        self._tones = []
        return t

    def serial_out(self):
        if not self._tx:
            return b""
        out = b"".join(self._tx)
        self._tx = []
        return out

    # -- helpers ------------------------------------------------------------------------
    def _hello(self):
        return link.encode({"t": "hello", "fw": FW_VERSION, "uid": self.uid, "boot": self.journal.boot,
                            "first": self.journal.first(), "next": self.journal.next})

    def _link_error(self, err):
        self.link_errors.append(err)
        if len(self.link_errors) > 8:
            self.link_errors.pop(0)

    def _menu(self):
        if self.game is not None and self.game.phase != city.OVER:
            self.confirm_end = True
        return None

    def _lobby(self, name, now):
        if name[0] == "D" and name != "D0" and int(name[1:]) <= 5:
            self.players = int(name[1:])
        elif name == "PASS" and self.players > 1:
            self.variant = "" if self.variant else "control"
        elif name == "ROLL":
            if self.journal.full():
                return self._refuse("full", now)
            self.games += 1
            self.game = city.Game(self.layout, self.players, self.variant, self.games,
                                  self.rand, self.journal.add)
            self._tones.append("start")
        return None

    def _roll(self, g, now):
        if g.phase == city.SETUP:
            column, _ = self.dice_.roll(0, now, column_only=True)
            g.roll(column, ())
        elif g.phase == city.READY:
            column, whites = self.dice_.roll(g.whites, now)
            g.roll(column, whites)
        else:
            return None
        self._tones.append("roll")
        return None

    def _result(self, why, now, tone):
        if why is None:
            self._tones.append(tone)
            self._sync_taken()
            assert self.game is not None  # removed by mpy-cross -O2 on the Pico
            if self.game.phase == city.OVER:
                self._tones.append("end")
            return None
        if why == "notnow":
            return why
        return self._refuse(why, now)

    def _refuse(self, why, now):
        self._tones.append("refuse")
        self.notice = REASONS.get(why, why)
        self._notice_until = now + NOTICE_MS
        return why

    def _sync_taken(self):
        g = self.game
        assert g is not None
        for i in range(1, g.whites + 1):
            if g.taken[i] >= 0 and self.dice_.states[i] != 3:
                self.dice_.take(i)
