"""Reading the virtual console's e-paper picture as text, as a person reads the panel: the
title (drawn twice the size) and every line of the body, in MicroPython's own 8x8 font.

The font is not copied into this project: `font()` has the MicroPython VM draw every printable
character with its `framebuf` once per process and keeps the bitmaps. `lines(image)` then finds
each line of text on the picture (black on white, or white on a black bar) wherever the
firmware's panel layout put it (firmware/board/panel.py), by matching whole glyphs. A row of
card pictures (a "%" line: Deadly Doodles' cards, a dice edition's legend) is read back as the "%"
line that drew it, and the map of a sheet at the right edge (a dice edition) as its "#" line,
last; the lines beside a map are read only as far as the map leaves them room. A line three
times the size (a timer's digits) is read as the "@" line that drew it."""
from __future__ import annotations

import binascii
import functools

from doodlebox.virtual.vm import run_program

FIRST, LAST = 32, 126   # the printable characters


@functools.cache
def font() -> dict[bytes, str]:
    """Each glyph's 8 columns (MONO_VLSB: bit r of a column byte is row r) -> its character."""
    n = LAST - FIRST + 1
    code = ("import framebuf, binascii\n"
            f"buf = bytearray({8 * n})\n"
            f"fb = framebuf.FrameBuffer(buf, {8 * n}, 8, framebuf.MONO_VLSB)\n"
            "fb.fill(0)\n"
            f"fb.text(''.join(chr(c) for c in range({FIRST}, {LAST + 1})), 0, 0, 1)\n"
            "print('FONT', binascii.hexlify(buf).decode())\n")
    out = run_program(code, None, heap="192K").stdout
    data = binascii.unhexlify(next(w for w in out.split() if len(w) == 16 * n))
    glyphs: dict[bytes, str] = {}
    for k in range(n):
        glyphs.setdefault(data[8 * k:8 * k + 8], chr(FIRST + k))
    return glyphs


def _cell(image, x: int, y: int, scale: int, ink: int, wide: int | None = None) -> bytes:
    """The 8x8 cell at (x, y) (each font pixel `scale` pixels high, `wide` wide: `scale` unless
    said) as glyph columns: 1 where `ink`."""
    wide = scale if wide is None else wide
    cols = bytearray(8)
    for c in range(8):
        b = 0
        for r in range(8):
            py, px = y + r * scale, x + c * wide
            if py < len(image) and px < len(image[py]) and image[py][px] == ink:
                b |= 1 << r
        cols[c] = b
    return bytes(cols)


def _clear(image, r: int, end: int, ink: int) -> bool:
    """Row r (next to a line) has none of the line's ink, or is one colour all along: a black
    bar's edge (the line on it, or the next one) is not a glyph cut a few rows off."""
    if not 0 <= r < len(image):
        return True
    row = image[r][:end]
    return ink not in row or row.count(row[0]) == len(row)


def read_line(image, y: int, scale: int = 1, width: int | None = None, wide: int | None = None) -> str | None:
    """The text at row y, or None if what is there is not a line of glyphs (black on white,
    or white on black): every cell across the picture a glyph, and no ink in the rows just
    above and below the line but a bar's edge (so a line is not read a few rows off; a line
    next to a black bar, or on one, is read)."""
    glyphs = font()
    if width is None:
        width = len(image[0]) if image else 0
    h = 8 * scale
    step = 8 * (scale if wide is None else wide)
    for ink in (0, 1):
        text = []
        for x in range(0, width - step + 1, step):
            ch = glyphs.get(_cell(image, x, y, scale, ink, wide))
            if ch is None:
                break
            text.append(ch)
        else:
            s = "".join(text).rstrip()
            end = len(s) * step
            if s and all(_clear(image, r, end, ink) for r in (y - 1, y + h)):
                return s
    return None


BIG = 3   # an "@" line's scale (firmware/board/panel.py _BIG)

# a row of card pictures as firmware/board/panel.py draws it (CARD, CARD_STEP, CARD_X, CARD_SLOTS;
# CARD_STEP_MAP beside a map)
CARD, CARD_STEP, CARD_X, CARD_STEP_MAP = 23, 36, 4, 30
FACES = "0123456789abcdef"


def _black(image, x: int, y: int) -> bool:
    return 0 <= y < len(image) and 0 <= x < len(image[y]) and image[y][x] == 0


def _outline(image, x: int, y: int) -> bool:
    """A card's room outline with its top left corner at (x, y), white just outside."""
    if _black(image, x - 1, y) or _black(image, x + CARD, y) or _black(image, x, y - 1):
        return False
    for t in range(CARD):
        if not (_black(image, x + t, y) and _black(image, x + t, y + CARD - 1) and _black(image, x, y + t)
                and _black(image, x + CARD - 1, y + t)):
            return False
    return True


def card_at(image, x: int, y: int) -> str:
    """The character of the card picture at (x, y): a hex digit (its open sides), "X" a Trap,
    "+" a Draw 2, "?" a picture that is none of them."""
    c = CARD // 2
    if _black(image, x + 5, y + 5) and _black(image, x + CARD - 6, y + 5) and _black(image, x + c, y + c):
        return "X"                  # the diagonals (a path's lines never reach a room's corner)
    if _black(image, x + 7, y + c - 3) and _black(image, x + 4, y + c):
        return "+"                  # the plus's upright, left of where a path's lines run
    arms = ((c, 4), (CARD - 5, c), (c, CARD - 5), (4, c))     # the middle of each side's line: N E S W
    m = sum(1 << k for k, (dx, dy) in enumerate(arms) if _black(image, x + dx, y + dy))
    if m:
        return FACES[m]
    return "?"


def card_row(image, y: int, width: int | None = None) -> str | None:
    """The "%" line of the card pictures whose tops are at row y, or None if there are none
    (beside a map, `width` px left of it: the cards are closer)."""
    if width is None:
        width = len(image[0]) if image else 0
    step = CARD_STEP if width >= len(image[0]) else CARD_STEP_MAP
    out = []
    x = CARD_X
    while x + CARD <= width and _outline(image, x, y):
        out.append(card_at(image, x, y))
        x += step
    return "%" + "".join(out) if out else None


# the map of a sheet as firmware/board/panel.py draws it (MAP_TOP, map_cell, map_chars)
MAP_TOP = 19


def map_cell(n: int) -> int:
    return 19 if n < 6 else 16


def map_box(image) -> tuple[int, int, int] | None:
    """(N, a square's side, the grid's left edge) of the map at the picture's right edge, or None."""
    if not image:
        return None
    right = len(image[0]) - 1
    top = MAP_TOP + 9
    for n in (5, 6):
        c = map_cell(n)
        x0 = right - n * c
        if (all(_black(image, right, y) and _black(image, x0, y) for y in range(top, top + n * c + 1))
                and all(_black(image, x, top) and _black(image, x, top + n * c) for x in range(x0, right + 1))
                and not _black(image, x0 - 1, top + 1)):
            return n, c, x0
    return None


def read_map(image, n: int, c: int, x0: int) -> str:
    """The "#" line that drew the map: each square's piece (its sides, "a".."p") or character,
    then "|" and the marked squares (drawn black)."""
    glyphs = font()
    side = c + 1
    h = side // 2
    top = MAP_TOP + 9
    cells, marks = [], []
    for i in range(n * n):
        x, y = x0 + (i % n) * c, top + (i // n) * c
        marked = _black(image, x + 2, y + 2)      # black inside a white ring
        ink = 1 if marked else 0
        if marked:
            marks.append(chr(48 + i))
            inner = c - 3                          # the path drawn in the black square, white
            k = inner // 2
            arms = ((2 + k, 3), (2 + inner - 2, 2 + k), (2 + k, 2 + inner - 2), (3, 2 + k))
        else:
            arms = ((h, 3), (side - 3, h), (h, side - 3), (3, h))     # N E S W
        m = sum(1 << k for k, (dx, dy) in enumerate(arms) if (image[y + dy][x + dx] == ink))
        if m:
            cells.append(chr(97 + m))
        else:
            cells.append(glyphs.get(_cell(image, x + (c - 7) // 2, y + (c - 7) // 2, 1, ink), "?"))
    return "#" + str(n) + "".join(cells) + "|" + "".join(marks)


def map_chars(n: int, width: int = 296) -> int:
    return (width - 1 - n * map_cell(n) - 11) // 8


# where firmware/board/panel.py puts the body's lines: from y=19 at a 9 or 8 px pitch, or
# from y=16 at 8 px (14 lines)
_ROWS = sorted({19 + 9 * k for k in range(12)} | {19 + 8 * k for k in range(13)} | {16 + 8 * k for k in range(14)})


def _action(top: str | None, tall: bool) -> bool:
    """Whether the line on top is a game's action (the firmware's "^" line: the player to act,
    then what to do; the title is then the body's first line): a line too long for double width
    (drawn double height only), or one that names the player ("P2: take a die", "P2 starts: press
    ROLL", "P3 (Guessy) guesses aloud") or the button ("ROLL deals round 2"), or "Game over",
    or Doodle Puzzle's minute ("Drawys draw!", "Paused")."""
    if top is None or top.endswith((": game over", ": ended early")):   # a final table's title, long or not
        return False
    return (tall or top in ("Game over", "Drawys draw!", "Paused") or top.startswith("ROLL")
            or (len(top) > 2 and top[0] == "P" and top[1].isdigit() and top[2] in ": "))


def lines(image) -> list[str]:
    """Every line of text on the picture, top to bottom; a line on a black bar starts with "!",
    as the firmware writes it. The first line is the title (twice the size); when the top of the
    panel holds the action (a dice edition's game: double size, or double height only when long),
    it is given back second, as "^" and its text, after the title read from the body's first line."""
    out = []
    title = read_line(image, 0, 2)
    tall = False
    if title is None:
        title = read_line(image, 0, 2, wide=1)
        tall = title is not None
    if title is not None:
        out.append(title)
    action = _action(title, tall)
    box = map_box(image)
    width = map_chars(box[0], len(image[0])) * 8 if box else None
    last = -8
    for y in _ROWS:
        if y < last + 8 or y > len(image) - 8 or not any(0 in image[r] for r in range(y, y + 8)):
            continue
        cards = card_row(image, y, width)
        if cards is not None:
            out.append(cards)
            last = y + CARD + 1      # the cards' numbers are under them: the next line is below
            continue
        big = read_line(image, y, BIG, width)
        if big is not None:              # an "@" line: three times the size (a timer)
            out.append("@" + big)
            last = y + 8 * BIG - 5       # it takes three lines' room: the next is below it
            continue
        s = read_line(image, y, 1, width)
        if s is None:
            continue
        bar = y > 0 and all(p == 0 for p in image[y - 1][:8])
        out.append("!" + s if bar else s)
        last = y
    if action and len(out) > 1:
        out[0:2] = [out[1], "^" + out[0]]
    if box:
        out.append(read_map(image, *box))
    return out


def panel_lines(vc) -> list[str]:
    """What the virtual console's panel shows now."""
    return lines(vc.hardware.epaper.image())
