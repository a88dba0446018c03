"""A greyscale canvas over a bytearray, with a 5x7 bitmap font of our own, text_width, wrap and
the grey levels the pictures share; standard library only (png.py writes the canvas to a file).

    cv = Canvas(200, 40)
    cv.text(4, 4, "Total", INK, 3)
    write_png(path, cv.width, cv.height, cv.rows())
"""
from __future__ import annotations

import math
import unicodedata

# -- grey levels (0 black .. 255 white) -----------------------------------------------------------
INK, LABEL, GRID, FILL, WHITE = 0, 90, 150, 170, 255

# -- font ------------------------------------------------------------------------------------
# Each entry: the character, then its rows from the top, one base-32 digit per row (5 bits, the
# leftmost pixel is the highest bit). Rows 0-6 hold capitals and digits, rows 7-8 descenders;
# rows left out are blank.
_FONT_DATA = r"""
0ehjlphe 14c4444e 2eh1248v 3v2421he 426aiv22 5vgu11he 668guhhe 7v124888 8ehhehhe 9ehhf12c
Aehhvhhh Buhhuhhu Cehggghe Dsihhhis Evgguggv Fvgguggg Gehgnhhf Hhhhvhhh Ie44444e J72222ic
Khikokih Lggggggv Mhrllhhh Nhhpljhh Oehhhhhe Puhhuggg Qehhhlid Ruhhukih Sfgge11u Tv444444
Uhhhhhhe Vhhhhha4 Whhhllla Xhha4ahh Yhha4444 Zv1248gv a00e1fhf bggmphhu c00egghe d11djhhf
e00ehvge f698s888 g00fhhhf1e hggmphhh i40c444e j2062222ic kggikoki lc44444e m00qllll n00mphhh
o00ehhhe p00uhhhugg q00fhhhf11 r00mpggg s00ege1u t88s8896 u00hhhjd v00hhha4 w00hhlla x00ha4ah
y00hhhhf1e z00v248v !4444404 "aaa #aavavaa $4fke5u4 %op248j3 &cik8lid '448 (2488842 )8422248
*04lel4 +044v44 ,00000c48 -000v .00000cc /01248g :0cc0cc ;0cc0c48 <248g842 =00v0v >8421248
?eh12404 @ehnlngf [e88888e \0g8421 ]e22222e ^4ah _0000000v `842 {2448442 |4444444 }8442448
~008l2
"""
_B32 = "0123456789abcdefghijklmnopqrstuv"
FONT: dict[str, list[int]] = {e[0]: [_B32.index(d) for d in e[1:]] for e in _FONT_DATA.split()}
FONT[" "] = []
_BOX = [31, 17, 17, 17, 17, 17, 31]  # for characters the font does not have


def _glyph(ch: str) -> list[int]:
    if ch in FONT:
        return FONT[ch]
    if unicodedata.category(ch) == "Pd":
        return FONT["-"]
    return FONT.get(unicodedata.normalize("NFKD", ch)[:1], _BOX)  # an accented letter as the plain one


def text_width(s: str, scale: int = 2) -> int:
    """Pixels across s drawn at `scale` (6 * scale a character, less the last one's gap)."""
    return max(0, len(s) * 6 * scale - scale)


def wrap(s: str, chars: int, lines: int = 2) -> list[str]:
    """s broken at spaces into lines of at most `chars` characters (a word longer than a line is
    cut across lines); with lines > 0 at most that many, the last ending in "..." when s does not
    fit; lines 0: no limit. Nothing is dropped unsaid: every line holds at least one character
    (chars below 1 count as 1)."""
    chars = max(chars, 1)
    out: list[str] = []
    for word in s.split():
        if out and len(out[-1]) + 1 + len(word) <= chars:
            out[-1] += " " + word
            continue
        while len(word) > chars:
            out.append(word[:chars])
            word = word[chars:]
        out.append(word)
    if len(out) > lines > 0:
        out = out[:lines]
        out[-1] = (out[-1][:max(chars - 3, 0)] + "...")[:chars]
    return out


class Canvas:
    """Grey pixels (0 black .. 255 white) in a bytearray, row-major; everything is clipped."""

    def __init__(self, width: int, height: int):
        self.width, self.height = width, height
        self.px = bytearray([WHITE]) * (width * height)

    def rect(self, x: int, y: int, w: int, h: int, v: int) -> None:
        x0, y0, x1, y1 = max(x, 0), max(y, 0), min(x + w, self.width), min(y + h, self.height)
        if x0 < x1:
            run = bytes([v]) * (x1 - x0)
            for yy in range(y0, y1):
                self.px[yy * self.width + x0: yy * self.width + x1] = run

    def frame(self, x: int, y: int, w: int, h: int, v: int, t: int = 1) -> None:
        for r in ((x, y, w, t), (x, y + h - t, w, t), (x, y, t, h), (x + w - t, y, t, h)):
            self.rect(*r, v)

    def polygon(self, pts, v: int) -> None:
        """A convex polygon: row by row, the pixels whose centres lie between its edges."""
        edges = [(a, b) for a, b in zip(pts, pts[1:] + pts[:1]) if a[1] != b[1]]
        for yy in range(max(int(min(p[1] for p in pts)), 0), min(math.ceil(max(p[1] for p in pts)), self.height)):
            y = yy + 0.5
            xs = [a[0] + (y - a[1]) * (b[0] - a[0]) / (b[1] - a[1])
                  for a, b in edges if min(a[1], b[1]) <= y <= max(a[1], b[1])]
            if xs:
                xa, xb = math.ceil(min(xs) - 0.5), math.floor(max(xs) - 0.5)
                self.rect(xa, yy, xb - xa + 1, 1, v)

    def line(self, x0, y0, x1, y1, v: int, t: float = 2) -> None:
        """A stroke of width t with flat ends."""
        length = math.hypot(x1 - x0, y1 - y0) or 1
        nx, ny = (y0 - y1) / length * t / 2, (x1 - x0) / length * t / 2
        self.polygon([(x0 + nx, y0 + ny), (x1 + nx, y1 + ny), (x1 - nx, y1 - ny), (x0 - nx, y0 - ny)], v)

    def ring(self, cx, cy, r, v: int, t: float = 2, clip=None) -> None:
        """A circle of width t (pixel centres within t/2 of it); with clip (x0, y0, x1, y1) only
        the part inside the clip (an arc). Row by row: one or two runs."""
        lo, hi = (r - t / 2) ** 2, (r + t / 2) ** 2
        x0, y0, x1, y1 = clip or (-1 << 30, -1 << 30, 1 << 30, 1 << 30)
        for yy in range(max(y0, int(cy - r - t), 0), min(y1, int(cy + r + t) + 1, self.height)):
            dy2 = (yy + 0.5 - cy) ** 2
            if dy2 > hi:
                continue
            out = math.sqrt(hi - dy2)
            inner = math.sqrt(lo - dy2) if dy2 < lo else 0.0
            runs = ((cx - out, cx - inner), (cx + inner, cx + out)) if inner else ((cx - out, cx + out),)
            for a, b in runs:  # pixels whose centres x + 0.5 lie in [a, b]
                xa, xb = max(math.ceil(a - 0.5), x0), min(math.floor(b - 0.5), x1 - 1)
                self.rect(xa, yy, xb - xa + 1, 1, v)

    def text(self, x: int, y: int, s: str, v: int = INK, scale: int = 2) -> int:
        """Draw s with its top-left at (x, y); returns the width."""
        for i, ch in enumerate(s):
            for r, bits in enumerate(_glyph(ch)):
                for c in range(5):
                    if bits >> (4 - c) & 1:
                        self.rect(x + (6 * i + c) * scale, y + r * scale, scale, scale, v)
        return text_width(s, scale)

    def rows(self):
        return (self.px[o:o + self.width] for o in range(0, len(self.px), self.width))
