"""A `framebuf` for running the firmware under CPython (`doodlebox sim --cpython`) only.

MONO_VLSB with fill, pixel, fill_rect, hline, vline, line, rect and text. The letters are
MicroPython's own 8x8 font, as the VM's framebuf draws them (virtual/screen.py `font()` has the
VM draw each printable character once per process), so the panel reads the same in both modes.
The MicroPython VM mode uses the real framebuf.
"""
from __future__ import annotations

import functools

from doodlebox.virtual.screen import font

MONO_VLSB = 0


class FrameBuffer:
    def __init__(self, buf, width: int, height: int, fmt: int = MONO_VLSB, stride: int | None = None):
        if fmt != MONO_VLSB:
            raise ValueError("only MONO_VLSB in the CPython stand-in")
        self.buf, self.width, self.height = buf, width, height

    def pixel(self, x: int, y: int, c: int | None = None):
        if not (0 <= x < self.width and 0 <= y < self.height):
            return None
        i, bit = (y >> 3) * self.width + x, 1 << (y & 7)
        if c is None:
            return 1 if self.buf[i] & bit else 0
        if c:
            self.buf[i] |= bit
        else:
            self.buf[i] &= ~bit & 0xFF
        return None

    def fill(self, c: int) -> None:
        v = 0xFF if c else 0
        for i in range(len(self.buf)):
            self.buf[i] = v

    def fill_rect(self, x: int, y: int, w: int, h: int, c: int) -> None:
        for yy in range(max(0, y), min(self.height, y + h)):
            for xx in range(max(0, x), min(self.width, x + w)):
                self.pixel(xx, yy, c)

    def hline(self, x: int, y: int, w: int, c: int) -> None:
        self.fill_rect(x, y, w, 1, c)

    def vline(self, x: int, y: int, h: int, c: int) -> None:
        self.fill_rect(x, y, 1, h, c)

    def rect(self, x: int, y: int, w: int, h: int, c: int, f: bool = False) -> None:
        if f:
            self.fill_rect(x, y, w, h, c)
            return
        self.hline(x, y, w, c)
        self.hline(x, y + h - 1, w, c)
        self.vline(x, y, h, c)
        self.vline(x + w - 1, y, h, c)

    def line(self, x0: int, y0: int, x1: int, y1: int, c: int) -> None:
        dx, dy = abs(x1 - x0), -abs(y1 - y0)
        sx, sy = (1 if x0 < x1 else -1), (1 if y0 < y1 else -1)
        err = dx + dy
        while True:
            self.pixel(x0, y0, c)
            if x0 == x1 and y0 == y1:
                return
            e2 = 2 * err
            if e2 >= dy:
                err += dy
                x0 += sx
            if e2 <= dx:
                err += dx
                y0 += sy

    def text(self, s: str, x: int, y: int, c: int = 1) -> None:
        glyphs = _glyphs()
        for k, ch in enumerate(s):
            cols = glyphs.get(ch)
            if cols is None:
                continue
            for cx, col in enumerate(cols):
                for r in range(8):
                    if col >> r & 1:
                        self.pixel(x + 8 * k + cx, y + r, c)


@functools.cache
def _glyphs() -> dict[str, bytes]:
    """Each printable character's 8 columns (bit r of a column is row r), from the VM's font."""
    return {ch: cols for cols, ch in font().items()}
