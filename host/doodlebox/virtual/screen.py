"""Reading the virtual console's e-paper picture as text, as a person reads the panel: the
title (drawn twice the size) and every line of the body, in MicroPython's own 8x8 font.

The font is not copied into this project: `font()` has the MicroPython VM draw every printable
character with its `framebuf` once per process and keeps the bitmaps. `lines(image)` then finds
each line of text on the picture (black on white, or white on a black bar) wherever the
firmware's panel layout put it (firmware/board/panel.py), by matching whole glyphs."""
from __future__ import annotations

import binascii
import functools

FIRST, LAST = 32, 126   # the printable characters


@functools.cache
def font() -> dict[bytes, str]:
    """Each glyph's 8 columns (MONO_VLSB: bit r of a column byte is row r) -> its character."""
    from doodlebox.virtual.vm import run_program

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


def _cell(image, x: int, y: int, scale: int, ink: int) -> bytes:
    """The 8x8 cell at (x, y) (each font pixel `scale` pixels) as glyph columns: 1 where `ink`."""
    cols = bytearray(8)
    for c in range(8):
        b = 0
        for r in range(8):
            py, px = y + r * scale, x + c * scale
            if py < len(image) and px < len(image[py]) and image[py][px] == ink:
                b |= 1 << r
        cols[c] = b
    return bytes(cols)


def read_line(image, y: int, scale: int = 1) -> str | None:
    """The text at row y, or None if what is there is not a line of glyphs (black on white,
    or white on black): every cell across the picture a glyph, and no ink in the rows just
    above and below the line (so a line is not read a few rows off)."""
    glyphs = font()
    width = len(image[0]) if image else 0
    h = 8 * scale
    for ink in (0, 1):
        text = []
        for x in range(0, width - h + 1, h):
            ch = glyphs.get(_cell(image, x, y, scale, ink))
            if ch is None:
                break
            text.append(ch)
        else:
            s = "".join(text).rstrip()
            end = len(s) * h
            if s and all(not (0 <= r < len(image)) or ink not in image[r][:end] for r in (y - 1, y + h)):
                return s
    return None


# where firmware/board/panel.py puts the body's lines: from y=19 at a 9 or 8 px pitch, or
# from y=16 at 8 px (14 lines)
_ROWS = sorted({19 + 9 * k for k in range(12)} | {19 + 8 * k for k in range(13)} | {16 + 8 * k for k in range(14)})


def lines(image) -> list[str]:
    """Every line of text on the picture, top to bottom; a line on a black bar starts with "!",
    as the firmware writes it. The first line is the title (twice the size)."""
    out = []
    title = read_line(image, 0, 2)
    if title is not None:
        out.append(title)
    last = -8
    for y in _ROWS:
        if y < last + 8 or y > len(image) - 8 or not any(0 in image[r] for r in range(y, y + 8)):
            continue
        s = read_line(image, y)
        if s is None:
            continue
        bar = y > 0 and all(p == 0 for p in image[y - 1][:8])
        out.append("!" + s if bar else s)
        last = y
    return out


def panel_lines(vc) -> list[str]:
    """What the virtual console's panel shows now."""
    return lines(vc.hardware.epaper.image())
