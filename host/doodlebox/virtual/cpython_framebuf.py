"""A `framebuf` for running the firmware under CPython (`doodlebox sim --cpython`) only.

MONO_VLSB with fill, pixel, fill_rect, hline, vline, rect and text. CPython has no 8x8 font,
so text() draws each character as a 6x7 block: the layout is right, the letters are not.
The MicroPython VM mode uses the real framebuf.
"""
from __future__ import annotations

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

    def text(self, s: str, x: int, y: int, c: int = 1) -> None:
        for k, ch in enumerate(s):
            if ch != " ":
                self.fill_rect(x + 8 * k + 1, y, 6, 7, c)
