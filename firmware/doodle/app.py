# doodlebox app: buttons and serial in; dice, tones, screen and frames out. No hardware here.
# Three screens, each with the modules it needs loaded only while it is shown (RAM): the lobby
# (doodle/lobby.py), a game and the final table. Every game is played through one interface
# (docs/console-deadly-puzzle.md, "A game module"): a dice edition is doodle/rounds.py, rounds_view.py
# and the edition's data, then doodle/rounds_final.py; Deadly Doodles and Doodle Puzzle are
# doodle/<game>.py and <game>_view.py. The app knows no game by name. The PC's scores; the
# journal on flash (doodle/journal.py), and the game it holds unfinished resumed at power-up
# (doodle/app_powerup.py). The panel's texts are doodle/reasons.py. A game is begun and closed by
# doodle/app_game.py. A hint (MENU+PASS, with hints on) is doodle/app_hint.py. These are loaded when
# needed and let go after.
from micropython import const

from doodle import drop, link, load
from doodle.dice import Dice
from doodle.journal import WINDOW, Journal

FW_VERSION = "0.9.0"
NOTICE_MS = const(3000)
_BOT_PACE_MS = const(2500)   # a PC's seat's move is shown this long before the next one is asked
_LINK_TIMEOUT_MS = const(5000)


class App:
    """The console's core. Feed it buttons, serial bytes and time; pull what to show.

    `store` is the console's flash (board/flash.py: small files and the journal's segments);
    without one everything is kept in RAM (doodle/flashlog.RamFlash) and lost at power-off.
    A game the journal holds unfinished is resumed at the first collection."""

    # its state, made at power-up by doodle/app_begin.py (rand, uid, store, game, edition and
    # _host_seen here)
    journal: Journal
    _boot_damaged: bool       # said once the journal is read
    lines: link.Lines         # the PC's bytes, split into lines
    dice_: Dice
    games: int                # games begun since power-up (a game's number)
    edition: str              # the lobby's choice: the game, its players, More control, its options
    players: int
    control: bool
    opts: dict[str, str | int]  # the lobby's options (lobby.load): the card games', hint, pc
    _game_ver: int            # the game's version the screen was made for
    _base: list[str]          # doodle modules loaded before the game: kept after it
    pc: tuple | None          # the PC's last score message: (g, r, totals, bad, why, the store's id,
                              # the journal's first() when it came: pc_due)
    confirm_end: bool
    notice: str
    _told: str                # the reason the notice says, while _tell() keeps it
    _notice_until: int
    _flash_errors: int        # the journal's write_errors the panel has said
    _tones: list[str]
    _tones_other: list[str]
    _tx: list[bytes]          # frames to send
    _host_seen: int
    _up: bool
    now: int
    screen_rev: int
    _screen: list[str] | None
    _screen_at: int
    _title: str | None        # the title of the game's screen last made (None: no game)
    full_screen: bool         # the panel should refresh fully (the loop clears it)
    _dice: list[list]         # dice()'s lists: [face, state, is_column_die] per die
    _dice_at: int
    _link: list               # (link up, events held, the line): link_line()'s cache
    collect_wanted: bool      # a heavy step waits for a collection at the top level
    _after: str | None        # ... this one ("start", "close", "final", "load" or "resume")
    _bot: list[int]           # the PC's seats (doodle/app_seats.py): the turn asked for, when shown
    _hi: bool                 # a hello is owed: sent once the journal is read
    own: str                  # the hash of the table's sheet the game plays ("": none, its default)

    def __init__(self, rand, boot, uid, store=None, boot_saved=True, boot_damaged=False):
        self.rand = rand
        self.uid = uid
        self.store = store
        self.game = None
        self.edition = "city"                 # the lobby's first choice
        self._host_seen = -_LINK_TIMEOUT_MS   # no PC heard from yet
        load("app_begin").begin(self, boot, boot_saved, boot_damaged)   # (let go after it)
        drop("app_begin")
        self._loaded()

    # -- inputs -------------------------------------------------------------------------
    def button(self, name, now):
        self.now = now
        self.screen_rev += 1
        if self._told == "hint?":       # a press while a hint is awaited: the table goes on without it
            self._told = ""
        elif self._told == "hint" or self._told == "bot":   # the PC's hint (move) is shown until a press
            self._notice_until = now
        g = self.game
        if self._after is not None:
            return "notnow"      # a screen is being changed (until the next collection)
        if g is None:
            why = load("lobby").button(self, name)
            if why == "start":
                if self.journal.full():
                    return self._refuse("full", now)
                return self._later("start")
            return self._refuse(why, now) if why else None
        if self.confirm_end:
            self.confirm_end = False
            if name == "ROLL":
                g.end()
                self._ended()
            elif name == "MENU+PASS":   # the chord (MENU held, then PASS): a hint, if on
                load("app_hint").ask(self, now)
            return None
        if g.over():
            if name == "ROLL":
                self._later("close")
            return None
        if self.journal.blocked():
            return self._refuse("full", now)
        why = g.button(name, now)
        if why == "menu":           # MENU means "end the game?" at this step
            self.confirm_end = True
            return None
        self._heard(g)
        if why is None:             # done: the game may be over
            if g.over():
                self._ended()
        elif why != "notnow":       # refused: shown and toned ("notnow": ignored)
            return self._refuse(why, now)
        return why

    def serial_in(self, data, now):
        self.now = now
        for line, err in self.lines.feed(data):
            msg, err = link.decode(line) if line is not None else (None, err)
            if msg is None:      # (said to the PC when it was a frame; nothing is kept: RAM)
                if line is not None and line.startswith(b"@"):
                    self._tx.append(link.encode({"t": "err", "why": err[:64]}))
                continue
            self._host_seen = now
            t = msg["t"]
            if t == "hi":
                self._hi = True
                self._greet()
                if not self.journal.boot_saved:    # no hello yet: the PC is told why (the panel too)
                    self._tell("boot", now)
                    self._tx.append(link.encode({"t": "err", "why": self.notice}))
            elif t == "ack" or t == "nak":
                boot, s = msg.get("boot"), msg.get("s")
                if not isinstance(boot, int) or not isinstance(s, int) or boot < 1 or s < 0:
                    self._tx.append(link.encode({"t": "err", "why": "bad " + t}))
                elif t == "ack":
                    self.journal.ack(boot, s)
                else:
                    self.journal.rewind(boot, s)
            elif t == "score":
                self._pc_score(msg)
            elif t == "hint":
                load("app_hint").got(self, msg, now)
            elif t == "bot":
                load("app_seats").got(self, msg, now)
            elif t == "sheet" or t == "use" or t == "drop":   # the table's sheets (doodle/app_sheets.py)
                load("app_sheets").got(self, msg)
                drop("app_sheets")
                self.screen_rev += 1        # (the lobby names the sheet each game plays)
            else:
                self._tx.append(link.encode({"t": "err", "why": "unexpected " + str(t)[:32]}))

    def tick(self, now):
        self.now = now
        self.dice_.tick(now)
        if self._notice_until and now >= self._notice_until:
            self._notice_until = 0
            if self._told == "hint?" or self._told == "bot?":   # the PC did not answer in time
                load("app_hint" if self._told == "hint?" else "app_seats").late(self, now)
            else:
                self.notice = self._told = ""
                self.screen_rev += 1
        up = now - self._host_seen < _LINK_TIMEOUT_MS
        if up != self._up:
            self._up = up
            self.screen_rev += 1
        g = self.game
        if g is not None:
            over = g.over()
            g.tick(now)
            self._heard(g)
            if not over and g.over():
                self._ended()
            k = self.opts.get("pc")     # the PC's seats: the last k (doodle/app_seats.py), asked for once the
            j = self.journal            # PC holds the turn before (every event of this boot acknowledged)
            if k and g.claiming() and g.current() >= g.players - k and self._after is None and not self.confirm_end:
                b = self._bot
                if (b[0] != g.version * 2 + (1 if up else 0) and (not up or j.first() == j.next)
                        and (self._told != "bot" or now - b[1] >= _BOT_PACE_MS)):
                    load("app_seats").ask(self, now)
        j = self.journal
        if not j.boot_saved and not j.loading:   # nothing is written or sent meanwhile
            j.save_boot(now)
        if not self._greet():        # a hello owed goes first: nothing is sent before it
            j.pump(now, self._tx)
        if (not j.boot_saved and not j.loading) or j.no_room:   # said while it lasts
            self._tell("boot" if not j.boot_saved else "full", now)
        if j.write_errors != self._flash_errors:   # the flash refused a write (tried again soon):
            self._flash_errors = j.write_errors    # said while it lasts; nothing is sent meanwhile
            self._tell("flash", now)

    def _tell(self, why, now):
        """Say `why` on the panel (its text read once while it stays) for NOTICE_MS more."""
        if self._told != why:
            self._told = why
            self.notice = load("reasons").TEXT.get(why, why)   # (loaded for it and let go)
            drop("reasons")
            self.screen_rev += 1
        self._notice_until = now + NOTICE_MS

    # -- outputs ------------------------------------------------------------------------
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
        if self._told == "hint?":      # a hint awaited (doodle/app_hint.py): its answer is the next picture
            return self._screen
        self._screen_at = self.screen_rev
        g = self.game
        if g is None:
            lines = load("lobby").screen(self, self.link_line())
        elif g.over() and self._after is None:
            lines = load(g.FINAL).final(g, self.pc)
        else:
            lines = load(g.VIEW).game(g, "End game? ROLL: yes, another button: no" if self.confirm_end
                                         else self.notice, self.pc, self.link_line())
        if (g is not None or self._title is not None) and lines[0] != self._title:
            self.full_screen = True   # a game's new title: a round, the game begun or over
            self._title = lines[0] if g is not None else None
        self._screen = lines
        return lines

    def link_line(self):
        """'PC: connected' or 'offline', and the events waiting (with a PC, only a backlog:
        each event waits a moment to be written and acknowledged, and the e-paper would
        flicker with it): the same str while unchanged."""
        c = self._link
        held = self.journal.held()
        up = 1 if self._up else 0
        if up and held <= WINDOW:
            held = 0
        if c[0] != up or c[1] != held:
            c[0], c[1] = up, held
            c[2] = "PC: %s%s" % ("connected" if self._up else "offline", ", %d to send" % held if held else "")
        return c[2]

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

    # -- heavy steps: after a collection ------------------------------------------------
    def _later(self, step):
        """Do `step` (it loads modules: RAM in one piece) after the next collection, which the
        loop makes at the top level when collect_wanted is set (board/loop.py). Collections in
        nested calls are unsafe in the VM (docs/virtual-console.md); on the Pico this keeps a
        module's load from meeting a fragmented heap."""
        self._after = step
        self.collect_wanted = True
        return None

    def collected(self):
        """Called by the loop right after a collection: the step kept for it happens now."""
        step = self._after
        self.collect_wanted = False
        if step is None:             # one heavy step a collection: a hello owed, or the step kept
            self._greet(True)
            return
        self._after = None
        self.screen_rev += 1
        if step == "start":
            load("app_game").start(self)
            drop("app_game")
        elif step == "load":
            self.journal.load_step()
            self._loaded()
        elif step == "resume":
            load("app_powerup").resume(self)
            drop("app_powerup")
            drop("app_game")
        elif step == "close":
            load("app_game").close(self)
            drop("app_game")
        else:                       # "final": the game's screen is done with, its final table in
            g = self.game
            if g is not None and g.FINAL != g.VIEW:
                drop(g.VIEW)
                load(g.FINAL)

    # -- a game: begun, played, ended ---------------------------------------------------
    def _loaded(self):
        """Once the journal has read the flash (a segment after each collection): what it found
        damaged said, the hello owed (once this boot's number is on flash), and the game it
        holds unfinished resumed."""
        j = self.journal
        if j.loading:
            self._later("load")
            return
        if j.damaged or j.odd or self._boot_damaged:
            load("app_powerup").damage(self, j)
            drop("app_powerup")
        self._greet()
        if j.open_game is not None and self.game is None:
            self._later("resume")

    def _pc_score(self, msg):
        """The PC's scores of a game (docs/protocol.md `score`): shown instead of ours."""
        p = msg.get("p")
        g = msg.get("g")
        if not isinstance(p, list) or not isinstance(g, int):
            self._tx.append(link.encode({"t": "err", "why": "bad score"}))
            return
        why = msg.get("why")
        gid = msg.get("id", 0)   # the store's number of the game (0: not sent)
        self.pc = (g, msg.get("r", 0), p, msg.get("bad", 0), why if isinstance(why, str) else "",
                   gid if isinstance(gid, int) else 0, self.journal.first())
        self.screen_rev += 1

    def pc_due(self):
        """The PC is connected and its scores after our newest event have not come: the last
        `score` came before that event was acknowledged (the PC acknowledges an event, then
        sends its scores of it). A game's new title waits for them (board/loop.py)."""
        pc = self.pc
        return self._up and (pc is None or pc[6] < self.journal.next)

    # -- helpers ------------------------------------------------------------------------
    def _ended(self):
        """The game is over: its last records written at once, the final table next."""
        self.journal.game_ended()
        self._tones.append("end")
        self._later("final")

    def _greet(self, collected=False):
        """The hello owed (at power-up, to a hi), once the journal is read and this boot's
        number is on flash; then every event held is sent again. A heavy step (the journal's
        rare steps loaded, its held boots read: 8-18 KB in the 192K VM), so it waits for the
        next collection (`collected`), as a module's load does. True while one waits for it."""
        j = self.journal
        if j.loading or not j.boot_saved or not (self._hi or j.hello_due):
            return False
        if not collected:
            self.collect_wanted = True
            return True
        if self._hi:
            self._hi = False
            self._tx.append(self._hello())
            if self.store is not None and self.store.files("sh/"):   # the table's sheets (docs/protocol.md)
                load("app_sheets").hello(self)
                drop("app_sheets")
            else:                   # none held: nothing loaded for it (RAM: their names)
                self._tx.append(link.encode({"t": "sheets", "held": [], "use": [], "at": 0}))
            j.rewind()
        elif j.hello_due:                  # the next boot to send was not in the last hello
            self._tx.append(self._hello(j.hello_due))
            j.hello_due = 0
        return False

    def _hello(self, since=0):
        j = self.journal
        return link.encode({"t": "hello", "fw": FW_VERSION, "uid": self.uid, "boot": j.boot,
                            "first": j.first(), "next": j.next, "held": j.held_boots(since)})

    def _refuse(self, why, now):
        self._tones.append("refuse")
        self._told = ""
        self._tell(why, now)
        return why

    def _heard(self, g):
        """The game's tunes taken to play, and its screen made again when it changed."""
        if g.tones:
            self._tones.extend(g.tones)
            del g.tones[:]
        if g.version != self._game_ver:
            self._game_ver = g.version
            self.screen_rev += 1
