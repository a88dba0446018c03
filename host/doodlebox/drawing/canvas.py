"""A greyscale canvas: a Pillow image drawn with ImageDraw, text in the sans-serif font that
Pillow carries (``ImageFont.load_default(size)``, FreeType; nothing is fetched), text_width and
wrap measuring that text, and the grey levels the pictures share.

    cv = Canvas(200, 40)
    cv.text(4, 4, "Total", INK, 3)
    cv.save(path)

The font has the printable ASCII characters: other text is drawn in them (plain(): "Zoë" as
"Zoe", a dash as "-", a character with no likeness as "?").

Coordinates are the pixels' edges: the pixel (x, y) covers [x, x + 1) x [y, y + 1), so a shape
fills the pixels whose centres (x + 0.5, y + 0.5) it covers. Text has a `scale`: its font is
10 x scale pixels, its capitals about 7 x scale tall (the sizes of the 5x7 font it replaced:
2 is body text, 3 a heading); `y` is the top of the capitals.
"""
from __future__ import annotations

import math
import unicodedata
from functools import cache

from PIL import Image, ImageDraw, ImageFont

from doodlebox.drawing import png

# -- grey levels (0 black .. 255 white) -----------------------------------------------------------
INK, LABEL, GRID, FILL, WHITE = 0, 90, 150, 170, 255
ELLIPSIS = "..."
_LIKE = {"\u00df": "ss", "\u00e6": "ae", "\u00c6": "AE", "\u0153": "oe", "\u0152": "OE", "\u00f8": "o", "\u00d8": "O",
         "\u0142": "l", "\u0141": "L", "\u0111": "d", "\u0110": "D", "\u00d7": "x", "\u2026": "...",
         "\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u00ab": '"', "\u00bb": '"'}


# -- text ------------------------------------------------------------------------------------------
@cache
def font(scale: float = 2) -> ImageFont.FreeTypeFont:
    """Pillow's own font at 10 x scale pixels."""
    f = ImageFont.load_default(size=round(10 * scale))
    if not isinstance(f, ImageFont.FreeTypeFont):  # a Pillow built without FreeType
        raise RuntimeError("Pillow has no FreeType: the pictures need Pillow >= 10.1 with FreeType")
    return f


@cache
def cap_height(scale: float = 2) -> int:
    """Pixels from the top of a capital to the baseline."""
    return -int(font(scale).getbbox("H", anchor="ls")[1])


def plain(s: str) -> str:
    """s in the font's characters (printable ASCII): an accented letter as the plain one, a dash
    or a space of another width as the ASCII one, a few letters and signs spelled out, "?" for
    any other character."""
    if s.isascii() and s.isprintable():
        return s
    out = []
    for ch in s:
        if " " <= ch <= "~":
            out.append(ch)
        elif ch in _LIKE:
            out.append(_LIKE[ch])
        elif unicodedata.category(ch) in ("Pd", "Zs"):
            out.append("-" if unicodedata.category(ch) == "Pd" else " ")
        else:
            base = "".join(c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c))
            out.append(base if base and all(" " <= c <= "~" for c in base) else "?")
    return "".join(out)


def text_width(s: str, scale: float = 2) -> int:
    """Pixels across s drawn at `scale` (its advance, rounded up)."""
    return math.ceil(font(scale).getlength(plain(s))) if s else 0


def _fit(s: str, width: int, scale: float) -> int:
    """How many leading characters of s fit in width (at least one)."""
    n = 1
    while n < len(s) and text_width(s[:n + 1], scale) <= width:
        n += 1
    return n


def wrap(s: str, width: int, lines: int = 2, scale: float = 2) -> list[str]:
    """s broken at spaces into lines at most `width` pixels wide at `scale` (a word wider than a
    line is cut across lines); with lines > 0 at most that many, the last ending in "..." when s
    does not fit; lines 0: no limit. Nothing is dropped unsaid: every line holds at least one
    character, however narrow the width."""
    out: list[str] = []
    for word in s.split():
        if out and text_width(out[-1] + " " + word, scale) <= width:
            out[-1] += " " + word
            continue
        while text_width(word, scale) > width and len(word) > 1:
            n = _fit(word, width, scale)
            out.append(word[:n])
            word = word[n:]
        out.append(word)
    if len(out) > lines > 0:
        out = out[:lines]
        last = out[-1]
        while last and text_width(last + ELLIPSIS, scale) > width:
            last = last[:-1]
        out[-1] = last + ELLIPSIS if last else ELLIPSIS[:_fit(ELLIPSIS, width, scale)]
    return out


# -- the canvas ------------------------------------------------------------------------------------
SUB = 4   # polygons, strokes and rings are drawn SUB x SUB times finer and averaged: smooth edges


def _inward(pts, sub: int = SUB) -> list[tuple[float, float]]:
    """pts in the fine grid, for Pillow's polygon: it cuts coordinates down to whole numbers and
    fills the pixels on the outline too, so each point moves half a fine pixel towards the middle
    (a shape from 0 to 10 then fills the fine pixels 0 .. 10 x sub - 1, as the canvas means)."""
    mx = sum(x for x, _ in pts) / len(pts)
    my = sum(y for _, y in pts) / len(pts)

    def step(v: float, m: float) -> float:
        return v * sub + (0.5 if v < m else -0.5 if v > m else 0)
    return [(step(x, mx), step(y, my)) for x, y in pts]


class Canvas:
    """A greyscale Pillow image, white at first; everything is clipped to it. Rectangles and
    frames have whole-pixel edges; polygons, strokes and rings are smoothed (each pixel as grey as
    the share of it they cover)."""

    def __init__(self, width: int, height: int, zoom: int = 1):
        """A canvas of width x height in the drawing's units; with zoom > 1 every unit is zoom x
        zoom pixels and everything is drawn that much finer (a sheet at print resolution), the
        drawing's coordinates and sizes unchanged."""
        if zoom < 1:
            raise ValueError("bad zoom")
        self.width, self.height, self.zoom = width, height, zoom
        self.image = Image.new("L", (width * zoom, height * zoom), WHITE)
        self.draw = ImageDraw.Draw(self.image)

    def rect(self, x: int, y: int, w: int, h: int, v: int) -> None:
        if w > 0 and h > 0:
            z = self.zoom
            self.draw.rectangle((x * z, y * z, (x + w) * z - 1, (y + h) * z - 1), fill=v)

    def frame(self, x: int, y: int, w: int, h: int, v: int, t: int = 1) -> None:
        """The outline of a rectangle, t units thick inside it."""
        if w > 0 and h > 0:
            z = self.zoom
            self.draw.rectangle((x * z, y * z, (x + w) * z - 1, (y + h) * z - 1), outline=v, width=t * z)

    def _fine(self, v: int, box, draw) -> None:
        """Paint grey v through a mask drawn SUB times finer over box (x0, y0, x1, y1 in units,
        clipped to the canvas) by draw(ImageDraw of the mask, x0, y0: its corner in pixels)."""
        z = self.zoom
        x0, y0 = max(math.floor(box[0] * z), 0), max(math.floor(box[1] * z), 0)
        x1, y1 = min(math.ceil(box[2] * z), self.image.width), min(math.ceil(box[3] * z), self.image.height)
        if x0 >= x1 or y0 >= y1:
            return
        mask = Image.new("L", ((x1 - x0) * SUB, (y1 - y0) * SUB), 0)
        draw(ImageDraw.Draw(mask), x0, y0)
        self.image.paste(v, (x0, y0, x1, y1), mask.reduce(SUB))

    def polygon(self, pts, v: int) -> None:
        """A convex polygon."""
        z = self.zoom
        pts = [(float(x), float(y)) for x, y in pts]
        box = (min(x for x, _ in pts), min(y for _, y in pts), max(x for x, _ in pts), max(y for _, y in pts))
        self._fine(v, box, lambda d, x0, y0: d.polygon(_inward([(x * z - x0, y * z - y0) for x, y in pts]), fill=255))

    def line(self, x0, y0, x1, y1, v: int, t: float = 2) -> None:
        """A stroke of width t with flat ends."""
        length = math.hypot(x1 - x0, y1 - y0) or 1
        nx, ny = (y0 - y1) / length * t / 2, (x1 - x0) / length * t / 2
        self.polygon([(x0 + nx, y0 + ny), (x1 + nx, y1 + ny), (x1 - nx, y1 - ny), (x0 - nx, y0 - ny)], v)

    def ring(self, cx, cy, r, v: int, t: float = 2, clip=None) -> None:
        """A circle of radius r drawn t wide (a disc when t is 2r); with clip (x0, y0, x1, y1)
        only the part inside the clip (an arc)."""
        out = r + t / 2
        box = (cx - out, cy - out, cx + out, cy + out)
        if clip:
            box = (max(box[0], clip[0]), max(box[1], clip[1]), min(box[2], clip[2]), min(box[3], clip[3]))

        z = self.zoom

        def draw(d, x0, y0):
            fine = [round(((cx - out) * z - x0) * SUB), round(((cy - out) * z - y0) * SUB),
                    round(((cx + out) * z - x0) * SUB) - 1, round(((cy + out) * z - y0) * SUB) - 1]
            d.ellipse(fine, outline=255, width=max(1, round(t * z * SUB)))
        self._fine(v, box, draw)

    def text(self, x: int, y: int, s: str, v: int = INK, scale: float = 2) -> int:
        """Draw s with the top of its capitals at y, starting at x; returns its width."""
        if s:
            z = self.zoom
            self.draw.text((x * z, y * z + cap_height(scale * z)), plain(s), fill=v, font=font(scale * z), anchor="ls")
        return text_width(s, scale)

    # -- as a file -----------------------------------------------------------------------------
    def png(self, scale: int = 1) -> bytes:
        return png.encode(self.image, scale)

    def save(self, path, scale: int = 1) -> None:
        png.save(self.image, path, scale)
