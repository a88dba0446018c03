"""One player's play sheet of a dice edition as a greyscale PNG, to hold next to the paper.

The grid shows each square's kind (the edition's word, abbreviated; a legend below spells it
out), the start squares (grey, with a flag), the roads, the houses (printed crossings in grey,
the player's in black) and the floors of the sky scrapers. The panel on the right shows the
score tracks (circled values ringed, values taken by others struck through), the first-player
bonuses, the trees and barrels, and the score as scoring.score() counts it.

Standard library only: a canvas over a bytearray, a 5x7 font of our own (two more rows for
descenders), and doodlebox.png to write the file. sheet_geometry() says where everything is
drawn; the tests read the pixels there.
"""
from __future__ import annotations

import math
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from doodlebox.png import write_png
from doodlebox.rules.dice import roads, scoring
from doodlebox.rules.dice.layout import Layout

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
    return max(0, len(s) * 6 * scale - scale)


# -- sizes (pixels) and grey levels --------------------------------------------------------------
SQ = 104           # side of a square
ROAD = 8           # width of a road
HOUSE = 16         # a house glyph is HOUSE x HOUSE
FLOOR = (24, 10)   # a floor box
CELL = 40          # a value on a track
RING = 16          # radius of the ring around a circled value
STRIKE = (13, 9)   # half extents of the stroke through a struck value
SYMBOL = 30        # spacing of trees and barrels
MARGIN, LINE, PANEL = 24, 22, 520
TOP = MARGIN + 64  # below the title
INK, LABEL, GRID, PRINTED, FILL, START_BG, WHITE = 0, 90, 150, 120, 170, 222, 255

N, E, S, W = roads.N, roads.E, roads.S, roads.W
_CORNER = {N | E: (SQ, 0), E | S: (SQ, SQ), S | W: (0, SQ), N | W: (0, 0)}  # a curve's centre
# Places inside a square (offsets of the top-left) clear of every road: the label sits top left,
# the start flag top right, houses and floors in the bottom corners.
_HOUSE_SLOTS = [(4, SQ - 20), (24, SQ - 20), (SQ - 20, SQ - 20), (SQ - 40, SQ - 20), (4, SQ - 40), (SQ - 20, SQ - 40)]
_FLOOR_SLOTS = [(x, y - 12 * k) for x, y in ((4, SQ - 14), (SQ - 28, SQ - 14), (SQ - 28, 16)) for k in range(2)]


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


# -- where things go ------------------------------------------------------------------------------
@dataclass
class Geometry:
    """Pixel positions of a sheet picture; they depend on the layout only."""
    width: int
    height: int
    squares: list[tuple[int, int]]                   # top-left of each square (row-major); side SQ
    houses: dict[int, list[tuple[int, int]]]          # house square -> top-left of each printed house
    floors: dict[int, list[tuple[int, int]]]          # sky scraper -> printed floors, then room for added ones
    tracks: dict[str, list[tuple[int, int, int]]]     # track -> (value, centre x, centre y)
    bonuses: list[tuple[int, int, int]]
    trees: list[tuple[int, int]]                      # centres
    barrels: list[tuple[int, int]]
    heads: dict[str, tuple[int, int]]                 # panel headings: track names, bonuses, trees, barrels, score
    score_lines: int                                  # text lines kept for the score items
    legend: list[tuple[str, str, str, int, int]]      # (sample, its argument, text, x, y)


def abbreviations(layout: Layout) -> dict[str, str]:
    """The 3-letter label of each kind on the sheet, from the edition's word ("monster" -> "Mon")."""
    out: dict[str, str] = {}
    for kind in dict.fromkeys(sq.kind for sq in layout.squares if sq.kind != "plain"):
        letters = "".join(ch for ch in layout.word(kind) if ch.isalnum()) or kind
        label = letters[:3].capitalize()
        if label in out.values():
            label = (letters[0] + letters[-2:]).capitalize()
        out[kind] = label
    return out


def _row(count: int, x: int, y: int, step: int) -> tuple[list[tuple[int, int]], int]:
    """Centres of `count` cells in balanced rows across the panel, and the y below them."""
    if not count:
        return [], y
    rows = math.ceil(count / max(1, PANEL // step))
    per = math.ceil(count / rows)
    cells = [(x + step // 2 + (k % per) * step, y + step // 2 + (k // per) * step) for k in range(count)]
    return cells, y + rows * step


def _legend(layout: Layout, solo: bool) -> list[tuple[str, str, str]]:
    kinds = {sq.kind for sq in layout.squares}
    out = [("label", a, layout.word(k)) for k, a in abbreviations(layout).items()]
    out.append(("flag", "", "start square"))
    if "house" in kinds:
        out += [("house", "print", "printed cross"), ("house", "player", "crossed")]
    if "skyscraper" in kinds:
        floors = layout.word("floors")
        out += [("floor", "printed", "printed " + floors), ("floor", "added", "added"),
                ("floor", "room", "may be added"), ("floor", "counted", "counted (scored)")]
    out.append(("ring", "", "circled"))
    if not solo and (layout.bonuses or any(t.shared for t in layout.tracks.values())):
        out.append(("struck", "", "taken by another player"))
    return out


def _sample_width(sample: str, arg: str) -> int:
    return {"label": text_width(arg), "flag": 12, "house": HOUSE, "floor": FLOOR[0]}.get(sample, 2 * RING + 4)


def sheet_geometry(layout: Layout, solo: bool = False) -> Geometry:
    """Where render_sheet draws each thing for this layout (solo: room for rank and achievements)."""
    n = layout.size
    gx, gy = MARGIN + 32, TOP + 28
    squares = [(gx + c * SQ, gy + r * SQ) for r in range(n) for c in range(n)]
    houses = {i: [(x + dx, y + dy) for dx, dy in _HOUSE_SLOTS[:sq.houses]]
              for i, (sq, (x, y)) in enumerate(zip(layout.squares, squares)) if sq.kind == "house"}
    floors = {i: [(x + dx, y + dy) for dx, dy in _FLOOR_SLOTS[:sq.floors + layout.extra_floors]]
              for i, (sq, (x, y)) in enumerate(zip(layout.squares, squares)) if sq.kind == "skyscraper"}
    px, y = gx + n * SQ + 40, TOP
    heads: dict[str, tuple[int, int]] = {}
    tracks: dict[str, list[tuple[int, int, int]]] = {}
    for name, values in [(k, t.values) for k, t in layout.tracks.items()] + [("bonuses", layout.bonuses)]:
        if values:
            heads[name] = (px, y)
            cells, y = _row(len(values), px, y + LINE, CELL)
            tracks[name] = [(v, cx, cy) for v, (cx, cy) in zip(values, cells)]
            y += 10
    symbols = {}
    for key, count in (("trees", layout.trees), ("barrels", layout.barrels)):
        if count:
            heads[key] = (px, y)
            symbols[key], y = _row(count, px, y + LINE, SYMBOL)
            y += 10
    heads["score"] = (px, y)
    items = len(layout.tracks) + bool(layout.bonuses) + sum(len(g.kinds) for g in layout.groups)
    items += 0 if solo else 2 * bool(layout.tree_points)
    lines = 2 * items + (1 + len(layout.solo.achievements) if solo and layout.solo else 0)
    bottom = y + LINE + lines * LINE + 44
    legend, lx, ly = [], gx, gy + n * SQ + 20
    for sample, arg, text in _legend(layout, solo):
        w = _sample_width(sample, arg) + 8 + text_width(text)
        if lx > gx and lx + w > gx + n * SQ:
            lx, ly = gx, ly + 34
        legend.append((sample, arg, text, lx, ly))
        lx += w + 22
    height = max(bottom, ly + 30) + MARGIN
    bonuses = tracks.pop("bonuses", [])
    return Geometry(px + PANEL + MARGIN, height, squares, houses, floors, tracks, bonuses,
                    symbols.get("trees", []), symbols.get("barrels", []), heads, lines, legend)


# -- glyphs ---------------------------------------------------------------------------------------
def _road(cv: Canvas, x: int, y: int, bits: int) -> None:
    h = SQ // 2
    if bits == N | S:
        cv.rect(x + h - ROAD // 2, y, ROAD, SQ, INK)
    elif bits == E | W:
        cv.rect(x, y + h - ROAD // 2, SQ, ROAD, INK)
    elif bits in _CORNER:  # a quarter circle between the two side midpoints
        cx, cy = _CORNER[bits]
        cv.ring(x + cx, y + cy, h, INK, ROAD, clip=(x, y, x + SQ, y + SQ))
    else:  # not a piece of the game: a spoke from the centre to each side it opens on
        for side, (w, hh, dx, dy) in {N: (ROAD, h, -ROAD // 2, -h), S: (ROAD, h, -ROAD // 2, 0),
                                      W: (h, ROAD, -h, -ROAD // 2), E: (h, ROAD, 0, -ROAD // 2)}.items():
            if bits & side:
                cv.rect(x + h + dx, y + h + dy, w, hh, INK)


def _house(cv: Canvas, x: int, y: int, crossed: str = "") -> None:
    """A house at (x, y); crossed "print" (a thin grey X, as printed) or "player" (a black X)."""
    cv.rect(x + 2, y + 7, 12, 9, WHITE)
    cv.frame(x + 2, y + 7, 12, 9, INK)
    cv.line(x + 0.5, y + 8, x + 8, y + 0.5, INK, 2)
    cv.line(x + 8, y + 0.5, x + 15.5, y + 8, INK, 2)
    if crossed:
        v, t = (PRINTED, 2) if crossed == "print" else (INK, 2.5)
        cv.line(x, y, x + HOUSE, y + HOUSE, v, t)
        cv.line(x + HOUSE, y, x, y + HOUSE, v, t)


def _floor(cv: Canvas, x: int, y: int, how: str, counted: bool = False) -> None:
    """A floor: "printed" (thin box), "added" (thick box), "room" (grey: may still be added)."""
    w, h = FLOOR
    cv.rect(x, y, w, h, FILL if counted and how != "room" else WHITE)
    cv.frame(x, y, w, h, GRID if how == "room" else INK, 2 if how == "added" else 1)


def _flag(cv: Canvas, x: int, y: int) -> None:
    cv.rect(x, y, 2, 18, INK)
    cv.polygon([(x + 2, y), (x + 12, y + 5), (x + 2, y + 10)], INK)


def _value(cv: Canvas, v: int, cx: int, cy: int, circled: bool, struck: bool) -> None:
    s = str(v)
    cv.text(cx - text_width(s) // 2, cy - 7, s, GRID if struck else INK)
    if circled:
        cv.ring(cx, cy, RING, INK, 3)
    if struck:
        cv.line(cx - STRIKE[0], cy + STRIKE[1], cx + STRIKE[0], cy - STRIKE[1], INK, 3)


def _tree(cv: Canvas, cx: int, cy: int, crossed: bool) -> None:
    cv.rect(cx - 2, cy + 5, 4, 7, INK)
    cv.polygon([(cx, cy - 12), (cx - 10, cy + 6), (cx + 10, cy + 6)], INK)
    cv.polygon([(cx, cy - 8), (cx - 7, cy + 4), (cx + 7, cy + 4)], FILL)
    _cross(cv, cx, cy, crossed)


def _bottle(cv: Canvas, cx: int, cy: int, crossed: bool) -> None:
    cv.rect(cx - 7, cy - 5, 14, 17, FILL)
    cv.frame(cx - 7, cy - 5, 14, 17, INK, 2)
    cv.frame(cx - 3, cy - 12, 6, 8, INK, 2)
    _cross(cv, cx, cy, crossed)


def _barrel(cv: Canvas, cx: int, cy: int, crossed: bool) -> None:
    cv.rect(cx - 8, cy - 11, 16, 22, FILL)
    cv.frame(cx - 8, cy - 11, 16, 22, INK, 2)
    cv.rect(cx - 8, cy - 5, 16, 2, INK)
    cv.rect(cx - 8, cy + 4, 16, 2, INK)
    _cross(cv, cx, cy, crossed)


def _cross(cv: Canvas, cx: int, cy: int, crossed: bool) -> None:
    if crossed:
        cv.line(cx - 11, cy - 12, cx + 11, cy + 12, INK, 3)
        cv.line(cx + 11, cy - 12, cx - 11, cy + 12, INK, 3)


def wrap(s: str, chars: int, lines: int = 2) -> list[str]:
    """s in at most `lines` lines of `chars` characters ("..." when it does not fit; 0: no limit)."""
    out: list[str] = []
    for word in s.split():
        if out and len(out[-1]) + 1 + len(word) <= chars:
            out[-1] += " " + word
        else:
            out.append(word)
    if len(out) > lines > 0:
        out = out[:lines]
        out[-1] = out[-1][:chars - 3] + "..."
    return [line[:chars] for line in out[:lines]]


# -- the sheet ----------------------------------------------------------------------------------------
def render_sheet(state, player: int, path, title: str = "") -> Path:
    """Draw player's sheet (0-based) of `state` as a PNG at path; returns the path."""
    game, lay = state.game, state.game.layout
    geo = sheet_geometry(lay, solo=game.solo)
    cv = Canvas(geo.width, geo.height)
    room = (geo.width - 2 * MARGIN) // 18
    head = title or f"Player {player + 1}"
    cv.text(MARGIN, MARGIN, head if len(head) <= room else head[:room - 3] + "...", INK, 3)
    who = "solo" if game.solo else f"player {player + 1} of {game.players}"
    over = ", game over" if state.is_terminal() else ""
    cv.text(MARGIN, MARGIN + 32, f"{lay.name}, {who}, round {state.round}{over}", LABEL)
    _grid(cv, geo, lay, state.sheets[player])
    _legend_key(cv, geo)
    _panel(cv, geo, state, player)
    path = Path(path)
    write_png(path, cv.width, cv.height, cv.rows())
    return path


def _grid(cv: Canvas, geo: Geometry, lay: Layout, sheet) -> None:
    n = lay.size
    gx, gy = geo.squares[0]
    for (x, y), sq in zip(geo.squares, lay.squares):
        if sq.start:
            cv.rect(x, y, SQ, SQ, START_BG)
    for k in range(n + 1):
        cv.rect(gx + k * SQ - 1, gy, 2, n * SQ, GRID)
        cv.rect(gx, gy + k * SQ - 1, n * SQ, 2, GRID)
    cv.frame(gx - 3, gy - 3, n * SQ + 6, n * SQ + 6, INK, 3)
    for k in range(n):
        cv.text(gx + k * SQ + SQ // 2 - 5, gy - 26, str(k + 1), LABEL)
        cv.text(gx - 24, gy + k * SQ + SQ // 2 - 7, str(k + 1), LABEL)
    labels = abbreviations(lay)
    scored = {s.at for s in sheet.scored}
    for i, sq in enumerate(lay.squares):
        x, y = geo.squares[i]
        if sq.kind != "plain":
            cv.text(x + 4, y + 4, labels[sq.kind], LABEL)
        if sq.start:
            _flag(cv, x + SQ - 18, y + 5)
        for k, (hx, hy) in enumerate(geo.houses.get(i, [])):
            _house(cv, hx, hy, "print" if k < sq.precrossed else "player" if k < sheet.crossed[i] else "")
        for k, (fx, fy) in enumerate(geo.floors.get(i, [])):
            how = "printed" if k < sq.floors else "added" if k < sheet.floors[i] else "room"
            _floor(cv, fx, fy, how, (sq.row, sq.col) in scored)
        if sq.houses > len(_HOUSE_SLOTS) or sq.floors + lay.extra_floors > len(_FLOOR_SLOTS):  # as numbers
            cv.text(x + 4, y + SQ - 60, f"{sheet.crossed[i]}/{sq.houses}" if sq.houses else f"{sheet.floors[i]}", INK)
        if sheet.pieces[i]:
            _road(cv, x, y, sheet.pieces[i])


def _legend_key(cv: Canvas, geo: Geometry) -> None:
    for sample, arg, text, x, y in geo.legend:
        if sample == "label":
            cv.text(x, y, arg, LABEL)
        elif sample == "flag":
            _flag(cv, x, y - 2)
        elif sample == "house":
            _house(cv, x, y, arg)
        elif sample == "floor":
            _floor(cv, x, y + 2, arg, arg == "counted")
        else:
            _value(cv, 5, x + RING + 2, y + 7, sample == "ring", sample == "struck")
        cv.text(x + _sample_width(sample, arg) + 8, y, text)


def _panel(cv: Canvas, geo: Geometry, state, player: int) -> None:
    """The tracks, the bonuses, the trees and barrels, and the score."""
    game, lay, sheet = state.game, state.game.layout, state.sheets[player]
    for name, cells in geo.tracks.items():
        cv.text(*geo.heads[name], _cap(lay.word(name)) + (" (shared)" if lay.tracks[name].shared else ""))
        for v, cx, cy in cells:
            _value(cv, v, cx, cy, v in sheet.circled[name], v in sheet.struck[name])
    if geo.bonuses:
        cv.text(*geo.heads["bonuses"], f"First-player bonuses ({lay.word('shop')})")
        for v, cx, cy in geo.bonuses:
            _value(cv, v, cx, cy, v in sheet.bonuses, v in sheet.struck_bonuses)
    tree = _bottle if lay.word("tree") == "bottle" else _tree
    for key, centres, crossed, draw in (("trees", geo.trees, sheet.trees, tree),
                                         ("barrels", geo.barrels, sheet.barrels, _barrel)):
        if centres:
            cv.text(*geo.heads[key], f"{_cap(lay.word(key))}: {crossed} of {len(centres)} crossed")
            for k, (cx, cy) in enumerate(centres):
                draw(cv, cx, cy, k < crossed)
    score = scoring.score(state)
    mine = score.sheets[player]
    x, y = geo.heads["score"]
    cv.text(x, y, "Score" + (" (final)" if state.is_terminal() else " so far"))
    y += LINE + 4
    lines_left = geo.score_lines
    for what, points in mine.items:
        for k, line in enumerate(wrap(_cap(what), (PANEL - 60) // 12, min(2, lines_left))):
            cv.text(x + 8, y, line, LABEL if k else INK)
            if k == 0:
                cv.text(x + PANEL - text_width(str(points)), y, str(points))
            y, lines_left = y + LINE, lines_left - 1
    if game.solo and lay.solo:
        cv.text(x + 8, y, "Rank: " + (mine.rank or "-"))
        for a in lay.solo.achievements:
            y += LINE
            cv.frame(x + 10, y, 14, 14, INK, 2)
            if a.name in mine.achievements:
                cv.line(x + 12, y + 7, x + 16, y + 12, INK, 3)
                cv.line(x + 16, y + 12, x + 23, y + 1, INK, 3)
            cv.text(x + 32, y, a.name, INK if a.name in mine.achievements else LABEL)
        y += LINE
    cv.rect(x, y + 8, PANEL, 2, INK)
    wins = state.is_terminal() and not game.solo and player in score.winners
    cv.text(x, y + 18, "Total" + (" (wins)" if wins else ""), INK, 3)
    cv.text(x + PANEL - text_width(str(mine.total), 3), y + 18, str(mine.total), INK, 3)


def _cap(s: str) -> str:
    return s[:1].upper() + s[1:]
