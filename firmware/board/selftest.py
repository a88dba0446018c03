# doodlebox self-test: MENU held at power-on runs this instead of the game (firmware/main.py).
#
# Step by step, driven by tick(now_ms) like the rest of the board layer (nothing sleeps or
# waits for the panel):
#   1. pips:    each of the 49 pips alone, die 0 pip 0 ... die 6 pip 6 (pip order TL, TR, ML,
#               C, MR, BL, BR), white at the LED brightness cap, PIP_MS each;
#   2. scale:   the buzzer plays TUNES["scale"];
#   3. panel:   a test pattern (double border, checkerboard, "doodlebox self-test", firmware
#               version, board uid, boot number) with a full refresh; the step ends when the
#               refresh is done, the driver counts an error (BUSY timeout) or PANEL_MS passed;
#   4. buttons: every press lights the die under it (D0..D6 show a 6), names the button on
#               the panel (partial refresh) and clicks; ROLL, PASS and MENU show their names.
# Every step and every press is reported on USB serial as a `test` frame (docs/protocol.md),
# with a summary after step 3. Presses during steps 1-3 are reported and counted too.
# Leaving: hold MENU for EXIT_HOLD_MS (once MENU has been let go after the power-on press)
# and the game starts without a reboot; or a power cycle.
import gc
import time

import framebuf
import machine

from board import loop, pins
from board.buzzer import TUNES
from doodle import link
from doodle.app import FW_VERSION

PIP_MS = 100
SCALE = "scale"
PANEL_MS = 12000  # the driver gives up on BUSY after 5 s; this catches any other hang
EXIT_HOLD_MS = 2000
SLEEP_MS = loop.SLEEP_MS
GC_MARGIN = loop.GC_MARGIN
_mem_free = getattr(gc, "mem_free", None)  # absent under CPython

STEPS = ("pips", "scale", "panel")
_PIPS = 0
_SCALE = 1
_PANEL = 2
_BUTTONS = 3

# test pattern (landscape 296 x 128, 0 = black)
CHECK_X = 216
CHECK_Y = 8
CHECK_SQ = 8
CHECK_N = 8  # squares per side: a 64 x 64 block, black where (column + row) is even
TEXT_X = 8
BUTTON_Y = 58  # "button: D3" (left of the checkerboard), redrawn at each press
SEEN_Y = 78  # the names seen so far (under the checkerboard, up to 35 characters)


def button_pin(name="MENU"):
    """The button's pin as the board sets it up (input, pull-up: 0 while pressed)."""
    for n, gp in pins.BUTTONS:
        if n == name:
            return machine.Pin(gp, machine.Pin.IN, machine.Pin.PULL_UP)
    raise ValueError(name)


def whole(buf):
    """The driver's image() over a whole frame buffer (board/ssd1680.py): show(whole(buf))."""
    mv = memoryview(buf)
    return lambda off, n: mv[off:off + n]


def held_at_boot(name="MENU"):
    """True if the button is down now: its raw level, as the debounce knows nothing yet."""
    return button_pin(name).value() == 0


class SelfTest:
    """run() like board.loop.Loop: returns when the heap runs low so that main.py collects."""

    def __init__(self, board, pip_ms=PIP_MS):
        self.board = board
        panel = board.panel
        # its own whole frame (the panel draws its lines a band at a time): the pattern is
        # drawn once and the buttons into it (RAM: the self-test is not played alongside a game)
        self.buf = bytearray(panel.nbytes)
        self.fb = framebuf.FrameBuffer(self.buf, panel.width, panel.height, framebuf.MONO_VLSB)
        self.pip_ms = pip_ms
        self.step = _PIPS
        self.pip = -1  # the pip lit now (index on the chain)
        self.at = 0  # when the current pip / step began
        self.panel_ok = False
        self.panel_ms = 0
        self.seen = []  # names of the buttons pressed so far, first press order
        self.presses = 0
        self.done = False  # MENU was held EXIT_HOLD_MS: the game takes over
        self.game = None  # type: loop.Loop | None
        self._menu = button_pin("MENU")
        self._armed = False  # MENU let go since power-on: its presses count
        self._menu_at = -1  # when the MENU press being held began
        self._full0 = 0
        self._err0 = 0
        self.last = time.ticks_ms()
        self.now = 0
        self._lines = link.Lines()
        self._send({"step": "start", "fw": FW_VERSION, "uid": board.uid, "boot": board.boot,
                    "pips": board.leds.dice * board.leds.pips, "level": board.leds.max_level})

    # -- loop ------------------------------------------------------------------------------
    def run(self, steps=-1):
        """Tick until the heap runs low (or `steps` ticks). After the exit hold it returns
        once more (a collection), then runs the game loop in its place."""
        if not self.done:
            steps = self._run(steps)
            if not self.done or not steps or _mem_free is not None:
                return
            # under CPython nobody collects: go on into the game at once
        if self.game is None:
            self.game = loop.Loop(self.board)
        self.game.run(steps)

    def _run(self, steps):
        while steps:
            steps -= 1
            t = time.ticks_ms()
            self.now += time.ticks_diff(t, self.last)
            self.last = t
            self.tick(self.now)
            if self.done:
                return steps
            if _mem_free is not None and _mem_free() < GC_MARGIN:
                return steps
            time.sleep_ms(SLEEP_MS)
        return steps

    def tick(self, now):
        if self.done:
            return
        board = self.board
        for name in board.buttons.poll(now):
            self._pressed(name, now)
        self._watch_menu(now)
        self._serial_in(board.usb.read())
        st = self.step
        if st == _PIPS:
            self._pips(now)
        elif st == _SCALE:
            if now - self.at >= self._scale_ms():
                self._start_panel(now)
        elif st == _PANEL:
            self._panel(now)
        board.buzzer.tick(now)
        board.panel.tick(now)

    # -- steps -----------------------------------------------------------------------------
    def _pips(self, now):
        if self.pip >= 0 and now - self.at < self.pip_ms:
            return
        leds = self.board.leds
        strip = leds.strip
        n = leds.dice * leds.pips
        if self.pip >= 0:
            strip[self.pip] = (0, 0, 0)
        self.pip += 1
        self.at = now
        if self.pip >= n:
            strip.write()  # all dark again
            self.step = _SCALE
            self._send({"step": "scale", "hz": self._scale(0), "ms": self._scale_ms()})
            self.board.buzzer.play(SCALE, now)
            return
        if self.pip % leds.pips == 0:
            self._send({"step": "pips", "die": self.pip // leds.pips})
        m = leds.max_level
        strip[self.pip] = (m, m, m)
        strip.write()

    def _scale(self, at):
        """The scale's frequencies (at 0) or its notes' milliseconds (at 1): TUNES' pairs."""
        tune = TUNES[SCALE]
        return [tune[i] for i in range(at, len(tune), 2)]

    def _scale_ms(self):
        return sum(self._scale(1)) + 20  # the last note's end is seen at the next tick

    def _start_panel(self, now):
        self.step = _PANEL
        self.at = now
        drv = self.board.panel.driver
        self._full0 = drv.full_refreshes
        self._err0 = drv.errors
        self.draw_pattern()
        drv.show(whole(self.buf), True)

    def _panel(self, now):
        drv = self.board.panel.driver
        why = ""
        if drv.errors > self._err0:
            why = drv.last_error or "error"
        elif not drv.busy() and drv.full_refreshes > self._full0:
            self.panel_ok = True
        elif now - self.at >= PANEL_MS:
            why = "no refresh in %d ms" % PANEL_MS
        else:
            return
        self.panel_ms = now - self.at
        self.step = _BUTTONS
        self._send({"step": "panel", "ok": self.panel_ok, "ms": self.panel_ms, "kind": drv.last_kind or "",
                    "errors": drv.errors, "why": why})
        self._send({"step": "summary", "ran": list(STEPS), "panel": self.panel_ok, "errors": drv.errors,
                    "why": why, "refreshes": drv.full_refreshes, "buttons": self.seen})

    # -- buttons ---------------------------------------------------------------------------
    def _watch_menu(self, now):
        if not self._armed:
            # the press that started the self-test: MENU counts once it has been let go
            if self._menu.value():
                self._armed = True
            return
        if self._menu_at < 0:
            return
        if not self.board.buttons.held("MENU"):
            self._menu_at = -1
        elif now - self._menu_at >= EXIT_HOLD_MS:
            self._exit()

    def _pressed(self, name, now):
        if name == "MENU":
            if not self._armed:
                return
            self._menu_at = now
        self.presses += 1
        if name not in self.seen:
            self.seen.append(name)
        msg = {"step": "button", "name": name, "n": self.presses}
        die = _die(name)
        if die >= 0:
            msg["die"] = die
        self._send(msg)
        if self.step != _BUTTONS:
            return  # the LEDs, buzzer and panel are busy with steps 1-3
        board = self.board
        board.leds.show([(6, 2, False) if d == die else (0, 0, False) for d in range(board.leds.dice)])
        board.buzzer.play("claim", now)
        self.draw_button(name)
        board.panel.driver.show(whole(self.buf))

    def _exit(self):
        self._send({"step": "exit", "buttons": self.seen})
        self.board.leds.show([])
        self.done = True

    # -- panel -----------------------------------------------------------------------------
    def draw_pattern(self):
        panel = self.board.panel
        fb = self.fb
        w, h = panel.width, panel.height
        fb.fill(1)
        fb.rect(0, 0, w, h, 0)
        fb.rect(2, 2, w - 4, h - 4, 0)
        for j in range(CHECK_N):
            for i in range(CHECK_N):
                if not (i + j) & 1:
                    fb.fill_rect(CHECK_X + i * CHECK_SQ, CHECK_Y + j * CHECK_SQ, CHECK_SQ, CHECK_SQ, 0)
        board = self.board
        fb.text("doodlebox self-test", TEXT_X, 8, 0)
        fb.text("fw " + FW_VERSION, TEXT_X, 20, 0)
        uid = board.uid  # the chip's 16 digits, and under them the flash's 8 (board/pico.py)
        fb.text("uid " + uid[:16], TEXT_X, 32, 0)
        fb.text(("    " + uid[16:] + " " if len(uid) > 16 else "") + "boot %d" % board.boot, TEXT_X, 44, 0)
        fb.text("press every button;", TEXT_X, 96, 0)
        fb.text("hold MENU 2 s to play", TEXT_X, 108, 0)
        self.draw_button("-")

    def draw_button(self, name):
        fb = self.fb
        fb.fill_rect(TEXT_X, BUTTON_Y, CHECK_X - 4 - TEXT_X, 8, 1)
        fb.fill_rect(TEXT_X, SEEN_Y, self.board.panel.width - 2 * TEXT_X, 8, 1)
        fb.text("button: " + name, TEXT_X, BUTTON_Y, 0)
        fb.text(" ".join(self.seen), TEXT_X, SEEN_Y, 0)

    # -- serial ----------------------------------------------------------------------------
    def _serial_in(self, data):
        """The self-test takes no commands, but answers a host's hi, so `doodlebox log` can
        connect and show the test frames (no events: first = next = 1; the journal is not
        read during the self-test, so `held` names this boot only)."""
        if not data:
            return
        for line, _err in self._lines.feed(data):
            msg = link.decode(line)[0] if line is not None else None
            if msg is not None and msg.get("t") == "hi":
                b = self.board
                b.usb.write(link.encode({"t": "hello", "fw": FW_VERSION, "uid": b.uid, "boot": b.boot,
                                         "first": 1, "next": 1, "held": [[b.boot, 1, 1]]}))

    def _send(self, msg):
        msg["t"] = "test"
        self.board.usb.write(link.encode(msg))


def _die(name):
    """D0..D6 -> 0..6; any other button -> -1."""
    if len(name) == 2 and name[0] == "D":
        return int(name[1])
    return -1
