# Draws the app's screen (a list of short strings) for the e-paper driver (board/ssd1680.py)
# a band at a time: the 296x128 MONO_VLSB frame is four bands of BAND rows (1184 bytes, a
# quarter of the 4736 a whole frame takes: RAM), each drawn from the lines when the driver
# asks for its bytes (image()). The lines being shown are kept as they were given until the
# driver is done with them (it reads the frame again after a partial refresh); newer lines
# wait, the newest only.
#
# Pixels: 1 = white, 0 = black (the SSD1680 RAM convention; the driver sends the buffer
# as is). Black text on white.
#
# Layout: line 0 is the title, drawn at double size (16 px high, up to 18 characters)
# from y=0, with a 1 px rule at y=17; a longer one is drawn double height only (up to 37). When
# line 1 starts with "^" it is the action (what the player to act is to do now): it is drawn
# there in the title's place and size, and the title as the first line of the body (the app
# keys the full refresh on line 0, the title: it stays the round's). The other lines (up to
# 14, 37 characters each) start at y=19 with a 9 px pitch when they fit (up to 12 lines), else an 8 px pitch (13 lines);
# 14 lines are packed at an 8 px pitch from y=16 with no rule. A line starting with "!" is
# drawn white on a black bar (the "!" is not shown).
#
# A line starting with "%" is a row of card pictures (Deadly Doodles' cards, docs/console-deadly-
# puzzle.md; a dice edition's legend) and takes the room of _CARD_SLOTS lines: each character one
# card, a CARD x CARD px room outline from the line's top, CARD_STEP px apart from x=CARD_X
# (CARD_STEP_MAP beside a map). A hex digit is a path segment: a 3 px line from the centre to
# each open side (its bits: N 1, E 2, S 4, W 8), a dead end (one side) with a square stop at the
# centre; "X" a Trap (the two diagonals), "+" a Draw 2 (a plus and
# "2"). Every card but a Draw 2 has its number (1, 2, ... in order) under it, from y+CARD+1.
#
# A line starting with "@" is drawn three times the size (24 px high, up to 12 characters: a
# timer's digits) and takes the room of _BIG_SLOTS lines.
#
# A line starting with "#" is a map of a sheet (the dice editions): not a line of the body but a
# grid at the right edge (MAP_TOP down), and the body's lines are cut to the room left of it
# (map_chars()). Character 1 is the side N ("5" or "6"), then N*N characters, the squares row by
# row: "a".."p" a drawn piece (97 + its sides, drawn as a card's path: N 1, E 2, S 4, W 8), any
# other character drawn in the square; then, after a "|", the marked squares (chr(48 + square)),
# drawn black inside a 1 px white ring, with what is in them white. The columns' numbers are
# above the grid, the rows' to its left.

import framebuf
from micropython import const

_W = const(296)
_H = const(128)
_TITLE_CHARS = const(18)
_LINE_CHARS = const(37)
_RULE_Y = const(17)
BODY_Y = const(19)
CARD = const(23)          # a card picture's side (odd: a centre pixel)
CARD_STEP = const(36)     # from one card to the next
CARD_STEP_MAP = const(30)  # ... beside a map
CARD_X = const(4)         # the first card's left edge
_CARD_SLOTS = const(4)    # lines a row of cards takes (31 px: the card, a gap, its number)
_NUMBERS = const("0123456789")
BAND = const(32)          # rows drawn at a time (4 pages of the VLSB frame)
_BIG = const(3)           # an "@" line's scale
_BIG_SLOTS = const(3)     # lines an "@" line takes (27 px at a 9 px pitch)
_BIG_CHARS = const(12)
MAP_TOP = const(19)       # the map's column numbers; its grid from MAP_TOP + 9

# 4 bits -> 8 bits, every bit doubled (bit i -> bits 2i and 2i+1):
# bytes(sum(((n >> i) & 1) * (3 << (2 * i)) for i in range(4)) for n in range(16))
_DOUBLE = const(b"\x00\x03\x0c\x0f\x30\x33\x3c\x3f\xc0\xc3\xcc\xcf\xf0\xf3\xfc\xff")


# A full refresh (~2 s on the panel) clears the ghosts partial ones (~0.3 s) leave. It is made
# when the app asks for one (show(..., full=True): a new round, a game begun or over, when the
# table is rolling or reading, not waiting for the panel) and when the screen has not changed for
# CLEAN_IDLE_MS after CLEAN_AFTER partial ones (players drawing on paper), so that a new screen
# within a turn (a die taken, the PC's scores) never waits behind one. The
# driver still forces one after its own, larger count (board/ssd1680.py full_every).
CLEAN_AFTER = 20
CLEAN_IDLE_MS = 4000


def map_cell(n):
    """The side of a square of an n x n map (px, its outline's 1 px shared with the next)."""
    return 19 if n < 6 else 16


def map_chars(n):
    """The characters a body line keeps beside an n x n map."""
    return (_W - 1 - n * map_cell(n) - 11) // 8


class Panel:
    """show(lines) hands the lines to the driver, which reads the frame band by band through
    image() until its refresh is over (board/ssd1680.py): while it is busy new lines wait, the
    newest only, and tick() hands them over when it is free."""

    def __init__(self, driver, width=_W, height=_H):
        self.driver = driver
        self.width = width
        self.height = height
        self.buf = bytearray(width * BAND // 8)   # one band of the frame
        self.fb = framebuf.FrameBuffer(self.buf, width, BAND, framebuf.MONO_VLSB)
        self.nbytes = width * ((height + 7) // 8)  # the whole frame's
        self._band = -1    # the band in buf (-1: none)
        self._shown = None  # the lines the driver is showing (its frame is drawn from them)
        if driver is not None:
            driver.chunk = len(self.buf)           # a band a step: each drawn once per RAM written
        self._tbuf = bytearray(_TITLE_CHARS * 8)
        self._tfb = framebuf.FrameBuffer(self._tbuf, _TITLE_CHARS * 8, 8, framebuf.MONO_VLSB)
        self._last = None  # the newest lines asked for (drawn, or waiting for the driver)
        self._waiting = False  # _last is not drawn yet: the driver was busy
        self._full = False  # the waiting lines want a full refresh
        self._shown_at = None  # when the newest lines were asked for (ms)
        self.draws = 0  # times the screen was redrawn (and handed to the driver)

    def show(self, lines, now_ms=None, full=False):
        """Show `lines` (title first) unless they equal the newest lines asked for: drawn
        now if the driver is free, else when it is (tick). Returns True if they were new."""
        if not full and self._same(lines):
            return False
        self._last = list(lines)
        self._waiting = True
        self._shown_at = now_ms
        if full:
            self._full = True
        self._draw_if_free()   # the driver starts at the next tick(): the loop's, in the same step
        return True

    def tick(self, now_ms):
        drv = self.driver
        drv.tick(now_ms)
        if self._waiting:
            self._draw_if_free()
        elif (drv.partials >= CLEAN_AFTER and self._last is not None and self._shown_at is not None
              and now_ms - self._shown_at >= CLEAN_IDLE_MS and not drv.busy()):
            self._waiting = True   # the same screen again, as a full refresh: the ghosts go
            self._full = True
            self._draw_if_free()

    def _draw_if_free(self):
        drv = self.driver
        if drv.busy():
            return
        self._waiting = False
        self._shown = self._last
        self._band = -1
        self.draws += 1
        drv.show(self.image, self._full)
        self._full = False

    def _same(self, lines):
        last = self._last
        if last is None or len(lines) != len(last):
            return False
        for i in range(len(last)):
            if lines[i] != last[i]:
                return False
        return True

    def busy(self):
        return self._waiting or self.driver.busy()

    # -- drawing -------------------------------------------------------------------
    def image(self, off, n):
        """Bytes [off, off + n) of the frame being shown (at most to the end of a band), the
        band drawn first if it is not the one in buf: what the driver writes to the panel's RAM."""
        bb = len(self.buf)
        k = off // bb
        if k != self._band:
            self._band = k
            self.draw(self._shown, k)
        off -= k * bb
        if n > bb - off:
            n = bb - off
        return memoryview(self.buf)[off:off + n]

    def draw(self, lines, k=0):
        """Band k of the screen of `lines` into buf: the rows from BAND * k (what falls
        outside is clipped by the frame buffer)."""
        fb = self.fb
        fb.fill(1)
        if not lines:
            return
        y0 = k * BAND
        body = lines[1:]
        top = lines[0]
        if body and body[0].startswith("^"):   # the action: drawn on top, the title as a line
            top = body[0][1:]
            body[0] = lines[0]
        if k == 0:
            self._title(top)
        n = 0
        chars = _LINE_CHARS
        for s in body:
            if s.startswith("#"):
                n_ = ord(s[1]) - 48
                self._map(s, n_, y0)
                chars = map_chars(n_)
                continue
            n += _CARD_SLOTS if s.startswith("%") else _BIG_SLOTS if s.startswith("@") else 1
        y = BODY_Y
        h = self.height
        if y + n * 9 <= h + 1:  # the last 1 px gap may fall off the bottom
            pitch = 9
            fb.hline(0, _RULE_Y - y0, self.width, 0)
        elif y + n * 8 <= h:
            pitch = 8
            fb.hline(0, _RULE_Y - y0, self.width, 0)
        else:  # 14 lines: no rule, lines packed right under the title
            pitch = 8
            y = 16
        for s in body:
            if y >= self.height or y - 1 >= y0 + BAND:
                break
            if s.startswith("#"):
                continue
            if s.startswith("%"):
                if y + _CARD_SLOTS * pitch > y0:
                    self._cards(s, y - y0, CARD_STEP if chars == _LINE_CHARS else CARD_STEP_MAP, chars * 8)
                y += _CARD_SLOTS * pitch
                continue
            if s.startswith("@"):
                if y + _BIG_SLOTS * pitch > y0:
                    self._big(s, y - y0)
                y += _BIG_SLOTS * pitch
                continue
            if y + pitch <= y0:         # above this band
                y += pitch
                continue
            if s.startswith("!"):
                fb.fill_rect(0, y - 1 - y0, chars * 8 if chars < _LINE_CHARS else self.width, pitch, 0)
                fb.text(s[1:chars + 1], 0, y - y0, 1)
            else:
                fb.text(s[:chars], 0, y - y0, 0)
            y += pitch

    def _big(self, s, y):
        """An "@" line: its text three times the size, each pixel of the 8x8 font a 3x3 block."""
        tfb = self._tfb
        tfb.fill(1)
        s = s[1:_BIG_CHARS + 1]
        tfb.text(s, 0, 0, 0)
        fb = self.fb
        for cx in range(len(s) * 8):
            for r in range(8):
                if not tfb.pixel(cx, r):
                    fb.fill_rect(cx * _BIG, y + r * _BIG, _BIG, _BIG, 0)

    def _map(self, s, n, y0):
        """A "#" line: the sheet's grid at the right edge, its numbers, its squares."""
        fb = self.fb
        c = map_cell(n)
        x0 = self.width - 1 - n * c
        top = MAP_TOP + 9 - y0
        if top + n * c < 0 or MAP_TOP - y0 >= BAND:
            return
        if MAP_TOP + 8 > y0:                  # the columns' numbers are in this band
            for i in range(n):
                fb.text(_NUMBERS[i + 1], x0 + i * c + (c - 7) // 2, MAP_TOP - y0, 0)
        marks = s[3 + n * n:]
        r0 = max(0, -top // c)                # the rows of squares this band shows
        r1 = min(n, (BAND - top) // c + 1)
        for i in range(r0 * n, r1 * n):
            if i % n == 0:
                fb.text(_NUMBERS[i // n + 1], x0 - 9, top + (i // n) * c + (c - 7) // 2, 0)
            ch = s[2 + i]
            x = x0 + (i % n) * c
            y = top + (i // n) * c
            ink = 0
            fb.rect(x, y, c + 1, c + 1, 0)
            if chr(48 + i) in marks:      # black inside a white ring: marked squares side by side stay apart
                fb.fill_rect(x + 2, y + 2, c - 3, c - 3, 0)
                ink = 1
            b = ord(ch)
            if 97 <= b < 113:
                if ink:
                    self._path(b - 97, x + 2, y + 2, c - 3, 1)
                else:
                    self._path(b - 97, x, y, c + 1, 0)
            elif b != 32:
                fb.text(ch, x + (c - 7) // 2, y + (c - 7) // 2, ink)

    def _path(self, m, x, y, side, ink):
        """A piece's (or a card's) path: a 3 px line from the centre of the side x side square at
        (x, y) to each open side in m (N 1, E 2, S 4, W 8)."""
        fb = self.fb
        c = side // 2
        if m & 1:
            fb.fill_rect(x + c - 1, y, 3, c + 2, ink)
        if m & 2:
            fb.fill_rect(x + c - 1, y + c - 1, side - c + 1, 3, ink)
        if m & 4:
            fb.fill_rect(x + c - 1, y + c - 1, 3, side - c + 1, ink)
        if m & 8:
            fb.fill_rect(x, y + c - 1, c + 2, 3, ink)

    def _cards(self, s, y, step, width):
        """A "%" line: its cards side by side from the line's top, `step` px apart within
        `width`, numbered under."""
        x = CARD_X
        num = 0
        for k in range(1, len(s)):
            if x + CARD > width:
                break
            ch = s[k]
            if ch != "+":
                num += 1
            self._card(ch, x, y, num if ch != "+" else 0)
            x += step

    def _card(self, ch, x, y, num):
        fb = self.fb
        c = CARD // 2
        fb.rect(x, y, CARD, CARD, 0)
        if ch == "X":                       # a Trap: the two diagonals, 2 px thick
            for t in range(3, CARD - 3):
                fb.fill_rect(x + t, y + t, 2, 1, 0)
                fb.fill_rect(x + CARD - 2 - t, y + t, 2, 1, 0)
        elif ch == "+":                     # a Draw 2: "+2"
            fb.fill_rect(x + 3, y + c - 1, 9, 3, 0)
            fb.fill_rect(x + 6, y + c - 4, 3, 9, 0)
            fb.text("2", x + 13, y + c - 3, 0)
        else:
            m = "0123456789abcdef".find(ch)
            if m > 0:
                self._path(m, x, y, CARD, 0)
                if m in (1, 2, 4, 8):       # a dead end: a stop at the centre
                    fb.fill_rect(x + c - 3, y + c - 3, 7, 7, 0)
        if 0 < num < 10:
            fb.text(_NUMBERS[num], x + c - 3, y + CARD + 1, 0)

    def _title(self, s):
        # draw at 1x into the scratch buffer, then double: each scratch byte is one column
        # of 8 pixels (VLSB) -> two bytes (pages 0 and 1) in two adjacent columns (one column:
        # a line too long for double width is drawn double height only, up to _LINE_CHARS).
        s = str(s)
        inv = s.startswith("!")
        if inv:
            s = s[1:]
        wide = 2 if len(s) <= _TITLE_CHARS else 1
        s = s[:_LINE_CHARS]
        tfb = self._tfb
        buf = self.buf
        w = self.width
        d = _DOUBLE
        if inv:
            self.fb.fill_rect(0, 0, w, 16, 0)
        tb = self._tbuf
        x = 0
        for at in range(0, len(s), _TITLE_CHARS):   # the scratch buffer holds _TITLE_CHARS
            part = s[at:at + _TITLE_CHARS]
            tfb.fill(0 if inv else 1)
            tfb.text(part, 0, 0, 1 if inv else 0)
            for cx in range(len(part) * 8):
                b = tb[cx]
                lo = d[b & 15]
                hi = d[b >> 4]
                buf[x] = lo
                buf[w + x] = hi
                if wide == 2:
                    buf[x + 1] = lo
                    buf[w + x + 1] = hi
                x += wide
