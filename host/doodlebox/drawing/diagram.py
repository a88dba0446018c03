"""A drawing as a list of primitives (lines, rectangles, circles, polygons, text), written as
SVG text or drawn on the canvas (canvas.py) as PNG; the wiring diagram is one.

Both back-ends draw the same primitives at the same pixel positions, so the SVG and the PNG
of a diagram agree. Text uses Pillow's font in the PNG (canvas.py); the SVG asks for a
sans-serif font of the same size fitted to the same width (``textLength``), so nothing that fits
in one overflows in the other.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from xml.sax.saxutils import escape

from doodlebox.drawing.canvas import Canvas, cap_height, text_width

# ink -> (SVG colour, PNG grey)
INKS: dict[str, tuple[str, int]] = {
    "ink": ("#000000", 0),
    "power": ("#c62828", 0),      # +5V
    "ground": ("#000000", 0),
    "data": ("#1565c0", 0),       # signals
    "spi": ("#2e7d32", 0),
    "muted": ("#555555", 80),     # notes
    "pip": ("#fff3b0", 215),
    "box": ("#f4f4f4", 240),
    "white": ("#ffffff", 255),
}

Point = tuple[float, float]


@dataclass(frozen=True)
class Lines:
    points: tuple[Point, ...]
    width: float
    ink: str


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    w: float
    h: float
    width: float
    ink: str
    fill: str | None


@dataclass(frozen=True)
class Circle:
    cx: float
    cy: float
    r: float
    width: float
    ink: str
    fill: str | None


@dataclass(frozen=True)
class Polygon:
    points: tuple[Point, ...]
    ink: str


@dataclass(frozen=True)
class Text:
    x: float          # left edge
    y: float          # top of the capitals
    s: str
    scale: int
    ink: str


@dataclass
class Drawing:
    width: int
    height: int
    items: list = field(default_factory=list)

    # -- building ------------------------------------------------------------------------------
    def lines(self, *points: Point, width: float = 2, ink: str = "ink") -> None:
        self.items.append(Lines(tuple(points), width, ink))

    def rect(self, x, y, w, h, width: float = 2, ink: str = "ink", fill: str | None = None) -> None:
        self.items.append(Rect(x, y, w, h, width, ink, fill))

    def circle(self, cx, cy, r, width: float = 2, ink: str = "ink", fill: str | None = None) -> None:
        self.items.append(Circle(cx, cy, r, width, ink, fill))

    def polygon(self, *points: Point, ink: str = "ink") -> None:
        self.items.append(Polygon(tuple(points), ink))

    def text(self, x, y, s: str, scale: int = 2, ink: str = "ink", anchor: str = "start") -> None:
        """Text with its top at y; anchor 'start', 'middle' or 'end' says what x is."""
        if not s:
            return
        w = text_width(s, scale)
        left = {"start": x, "middle": x - w / 2, "end": x - w}[anchor]
        self.items.append(Text(round(left), y, s, scale, ink))

    def texts(self) -> list[str]:
        return [t.s for t in self.items if isinstance(t, Text)]

    # -- SVG --------------------------------------------------------------------------------------
    def svg(self, title: str = "") -> str:
        out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.width}" height="{self.height}" '
               f'viewBox="0 0 {self.width} {self.height}">\n']
        if title:
            out.append(f"<title>{escape(title)}</title>\n")
        out.append(f'<rect x="0" y="0" width="{self.width}" height="{self.height}" fill="#ffffff"/>\n')
        out.append('<g font-family="Aileron, Helvetica, Arial, sans-serif" stroke-linecap="square">\n')
        for it in self.items:
            out.append(_svg(it))
        out.append("</g>\n</svg>\n")
        return "".join(out)

    # -- PNG --------------------------------------------------------------------------------------
    def canvas(self) -> Canvas:
        cv = Canvas(self.width, self.height)
        for it in self.items:
            _draw(cv, it)
        return cv

    def png(self) -> bytes:
        return self.canvas().png()


def _n(v: float) -> str:
    return f"{v:g}"


def _pts(points) -> str:
    return " ".join(f"{_n(x)},{_n(y)}" for x, y in points)


def _svg(it) -> str:
    if isinstance(it, Lines):
        return (f'<polyline points="{_pts(it.points)}" fill="none" stroke="{INKS[it.ink][0]}" '
                f'stroke-width="{_n(it.width)}"/>\n')
    if isinstance(it, Rect):
        fill = INKS[it.fill][0] if it.fill else "none"
        stroke = f' stroke="{INKS[it.ink][0]}" stroke-width="{_n(it.width)}"' if it.width else ""
        return f'<rect x="{_n(it.x)}" y="{_n(it.y)}" width="{_n(it.w)}" height="{_n(it.h)}" fill="{fill}"{stroke}/>\n'
    if isinstance(it, Circle):
        fill = INKS[it.fill][0] if it.fill else "none"
        stroke = f' stroke="{INKS[it.ink][0]}" stroke-width="{_n(it.width)}"' if it.width else ""
        return f'<circle cx="{_n(it.cx)}" cy="{_n(it.cy)}" r="{_n(it.r)}" fill="{fill}"{stroke}/>\n'
    if isinstance(it, Polygon):
        return f'<polygon points="{_pts(it.points)}" fill="{INKS[it.ink][0]}"/>\n'
    if isinstance(it, Text):
        # as the PNG draws it: a font of 10 x scale pixels, its baseline a capital's height below y
        return (f'<text x="{_n(it.x)}" y="{_n(it.y + cap_height(it.scale))}" font-size="{round(10 * it.scale)}" '
                f'textLength="{text_width(it.s, it.scale)}" lengthAdjust="spacingAndGlyphs" '
                f'fill="{INKS[it.ink][0]}">{escape(it.s)}</text>\n')
    raise TypeError(it)


def _draw(cv: Canvas, it) -> None:
    if isinstance(it, Lines):
        v, t = INKS[it.ink][1], it.width
        for (x0, y0), (x1, y1) in zip(it.points, it.points[1:]):
            if x0 == x1 or y0 == y1:  # crisp: a rectangle of the stroke's width
                xa, xb, ya, yb = min(x0, x1), max(x0, x1), min(y0, y1), max(y0, y1)
                cv.rect(round(xa - t / 2), round(ya - t / 2), round(xb - xa + t), round(yb - ya + t), v)
            else:
                cv.line(x0, y0, x1, y1, v, t)
        for x, y in it.points[1:-1]:  # fill the joints of diagonal strokes
            cv.rect(round(x - t / 2), round(y - t / 2), round(t), round(t), v)
    elif isinstance(it, Rect):
        if it.fill:
            cv.rect(round(it.x), round(it.y), round(it.w), round(it.h), INKS[it.fill][1])
        if it.width:
            t = round(it.width)
            cv.frame(round(it.x - t / 2), round(it.y - t / 2), round(it.w + t), round(it.h + t), INKS[it.ink][1], t)
    elif isinstance(it, Circle):
        if it.fill:
            cv.ring(it.cx, it.cy, it.r / 2, INKS[it.fill][1], it.r)
        if it.width:
            cv.ring(it.cx, it.cy, it.r, INKS[it.ink][1], it.width)
    elif isinstance(it, Polygon):
        cv.polygon(list(it.points), INKS[it.ink][1])
    elif isinstance(it, Text):
        cv.text(round(it.x), round(it.y), it.s, INKS[it.ink][1], it.scale)
    else:
        raise TypeError(it)
