"""One player's play sheet of a dice edition as a greyscale PNG, to hold next to the paper.

The grid shows each square's kind (the edition's word, spelled out), the start squares
(grey, with a flag), the roads, the houses (printed crossings in grey, the player's in black)
and the floors of the sky scrapers. The panel on the right shows the score tracks (circled
values ringed, values taken by others struck through), the first-player bonuses, the trees and
barrels, and the score as scoring.score() counts it.

Drawn on doodlebox.drawing's canvas (Pillow, its own font) and written as a PNG.
sheet_geometry() says where everything is drawn; the tests read the pixels there.
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from pathlib import Path

from doodlebox.drawing.canvas import FILL, GRID, INK, LABEL, WHITE, Canvas, text_width, wrap
from doodlebox.rules.dice import engine, roads, scoring
from doodlebox.rules.dice.layout import Layout

# -- sizes (pixels) and grey levels --------------------------------------------------------------
SQ = 120           # side of a square
ROAD = 8           # width of a road
HOUSE = 16         # a house glyph is HOUSE x HOUSE
FLOOR = (24, 10)   # a floor box
CELL = 40          # a value on a track
RING = 16          # radius of the ring around a circled value
STRIKE = (13, 9)   # half extents of the stroke through a struck value
SYMBOL = 30        # spacing of trees and barrels
MARGIN, LINE, PANEL = 24, 22, 520
TOP = MARGIN + 64  # below the title
PRINTED, START_BG = 120, 222   # the other grey levels are the canvas's
KIND_SCALES = (1.2, 1.1, 1.0)   # text scales of a square's kind (a 12-pixel font, smaller for a long word)
KIND_LINE, KIND_LINES = 13, 3   # its line spacing, and at most 3 lines
KIND_ROOM = (48, 42)            # the widths of its first and further lines: in the top-left corner, clear
                                # of every road (a curve's inner edge is SQ/2 - ROAD/2 from the corner)

N, E, S, W = roads.N, roads.E, roads.S, roads.W
_CORNER = {N | E: (SQ, 0), E | S: (SQ, SQ), S | W: (0, SQ), N | W: (0, 0)}  # a curve's centre
# Places inside a square (offsets of the top-left) clear of every road: the kind sits top left,
# the start flag top right, houses and floors in the bottom corners.
_HOUSE_SLOTS = [(4, SQ - 20), (24, SQ - 20), (SQ - 20, SQ - 20), (SQ - 40, SQ - 20), (4, SQ - 40), (SQ - 20, SQ - 40)]
_FLOOR_SLOTS = [(x, y - 12 * k) for x, y in ((4, SQ - 14), (SQ - 28, SQ - 14), (SQ - 28, 16)) for k in range(2)]


# -- where things go ------------------------------------------------------------------------------
@dataclass
class Geometry:
    """Pixel positions of a sheet picture; they depend on the layout only."""
    width: int
    height: int
    squares: list[tuple[int, int]]                   # top-left of each square (row-major); side SQ
    kinds: dict[int, list[tuple[str, int, int, float]]]   # square -> its kind's lines (text, left, top, scale)
    houses: dict[int, list[tuple[int, int]]]          # house square -> top-left of each printed house
    floors: dict[int, list[tuple[int, int]]]          # sky scraper -> printed floors, then room for added ones
    tracks: dict[str, list[tuple[int, int, int]]]     # track -> (value, centre x, centre y)
    bonuses: list[tuple[int, int, int]]
    trees: list[tuple[int, int]]                      # centres
    barrels: list[tuple[int, int]]
    heads: dict[str, tuple[int, int]]                 # panel headings: track names, bonuses, trees, barrels, score
    score_lines: int                                  # text lines kept for the score items
    legend: list[tuple[str, str, str, int, int]]      # (sample, its argument, text, x, y)


def kind_lines(word: str) -> tuple[list[str], float]:
    """A square's kind as printed in its corner, and its text scale: the word capitalised, broken
    at spaces into lines of KIND_ROOM, at the largest of KIND_SCALES where every word fits; a word
    too wide even at the smallest is broken with hyphens into pieces of equal length."""
    def lines_at(scale: float, hyphens: bool) -> list[str] | None:
        out: list[str] = []
        for w in _cap(word).split():
            if out and text_width(out[-1] + " " + w, scale) <= KIND_ROOM[0 if len(out) == 1 else 1]:
                out[-1] += " " + w
            elif text_width(w, scale) <= KIND_ROOM[0 if not out else 1]:
                out.append(w)
            elif not hyphens:
                return None
            else:
                pieces = [w]
                for k in range(2, len(w) + 1):
                    cuts = [len(w) * j // k for j in range(k + 1)]
                    pieces = [w[a:b] + ("-" if b < len(w) else "") for a, b in itertools.pairwise(cuts)]
                    if all(text_width(p, scale) <= KIND_ROOM[1] for p in pieces):
                        break
                out += pieces
        return out
    for scale in KIND_SCALES:
        if (got := lines_at(scale, False)) is not None and len(got) <= KIND_LINES:
            return got, scale
    got = lines_at(KIND_SCALES[-1], True) or []
    if len(got) > KIND_LINES:  # above the houses and floors: the last line says there is more
        got = got[:KIND_LINES - 1] + wrap(got[KIND_LINES - 1] + " " + " ".join(got[KIND_LINES:]), KIND_ROOM[1], 1,
                                          KIND_SCALES[-1])
    return got, KIND_SCALES[-1]


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
    out = [("flag", "", "start square")]
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
    return {"flag": 12, "house": HOUSE, "floor": FLOOR[0]}.get(sample, 2 * RING + 4)


def sheet_geometry(layout: Layout, solo: bool = False) -> Geometry:
    """Where render_sheet draws each thing for this layout (solo: room for rank and achievements)."""
    n = layout.size
    gx, gy = MARGIN + 32, TOP + 28
    squares = [(gx + c * SQ, gy + r * SQ) for r in range(n) for c in range(n)]
    kinds = {}
    for i, (sq, (x, y)) in enumerate(zip(layout.squares, squares)):
        if sq.kind != "plain":
            words, scale = kind_lines(layout.word(sq.kind))
            kinds[i] = [(line, x + 4, y + 4 + k * KIND_LINE, scale) for k, line in enumerate(words)]
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
    return Geometry(px + PANEL + MARGIN, height, squares, kinds, houses, floors, tracks, bonuses,
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


# -- the sheet ----------------------------------------------------------------------------------------
def render_sheet(state, player: int, path, title: str = "") -> Path:
    """Draw player's sheet (0-based) of `state` as a PNG at path; returns the path."""
    game, lay = state.game, state.game.layout
    geo = sheet_geometry(lay, solo=game.solo)
    cv = Canvas(geo.width, geo.height)
    cv.text(MARGIN, MARGIN, wrap(title or f"Player {player + 1}", geo.width - 2 * MARGIN, 1, 3)[0], INK, 3)
    who = "solo" if game.solo else f"player {player + 1} of {game.players}"
    over = ", game over" if state.is_terminal() else ""
    cv.text(MARGIN, MARGIN + 32, f"{lay.name}, {who}, round {state.round}{over}", LABEL)
    _grid(cv, geo, lay, state.sheets[player])
    _legend_key(cv, geo)
    _panel(cv, geo, state, player)
    path = Path(path)
    cv.save(path)
    return path


# -- the blank sheet (doodlebox sheets print) -----------------------------------------------------
FACE = SQ + 24     # a die face's cell in the legend of road pieces: its number above the piece


def blank_canvas(lay: Layout, head: str, sub: str, zoom: int = 1) -> Canvas:
    """The sheet as printed, nothing drawn on it yet (docs/sheets.md): the grid with every
    square's kind, start squares, printed houses and floors; the tracks, the bonuses, the trees
    and barrels; the road pieces by the column die's faces; an empty box for each score and the
    total (and a solo game's achievements to tick). `head` and `sub` are its two title lines;
    drawn `zoom` times finer."""
    state = engine.Game(lay, 2).new_state()
    geo = sheet_geometry(lay)
    px, y = geo.heads["score"]
    faces = [(f, px + (k % 3) * (FACE + 20), y + LINE + 8 + (k // 3) * (FACE + 10))
             for k, f in enumerate(sorted(lay.legend))]
    y += LINE + 8 + 2 * (FACE + 10) + 10
    items = _score_items(lay)
    achievements = [a.name for a in lay.solo.achievements] if lay.solo else []
    height = max(geo.height, y + LINE + 4 + (len(items) + 1) * 34 + 40 + (LINE + len(achievements) * LINE) + MARGIN)
    cv = Canvas(geo.width, height, zoom)
    cv.text(MARGIN, MARGIN, wrap(head, geo.width - 2 * MARGIN, 1, 3)[0], INK, 3)
    cv.text(MARGIN, MARGIN + 32, wrap(sub, geo.width - 2 * MARGIN, 1)[0], LABEL)
    _grid(cv, geo, lay, state.sheets[0])
    _legend_key(cv, geo)
    _tracks(cv, geo, lay, state.sheets[0], blank=True)
    cv.text(px, geo.heads["score"][1], f"Road pieces by the {lay.word('column_die')}")
    for face, x, fy in faces:
        cv.text(x, fy, str(face), INK)
        cv.frame(x + 16, fy, SQ, SQ, GRID, 2)
        _road(cv, x + 16, fy, roads.SIDES[lay.legend[face]])
    cv.text(px, y, "Score")
    y += LINE + 4
    for what in items + ["Total"]:
        big = what == "Total"
        if big:
            cv.rect(px, y, PANEL, 2, INK)
            y += 10
        cv.text(px + 8, y + 6, wrap(_cap(what), PANEL - 120, 1, 3 if big else 2)[0], INK, 3 if big else 2)
        cv.frame(px + PANEL - 90, y, 90, 30 if not big else 40, INK, 2)
        y += 34 if not big else 46
    if achievements:
        cv.text(px, y + 4, "Solo: rank from the total; achievements")
        for name in achievements:
            y += LINE
            cv.frame(px + 10, y + 4, 14, 14, INK, 2)
            cv.text(px + 32, y + 4, name, INK)
    return cv


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
        s = str(k + 1)
        cv.text(gx + k * SQ + (SQ - text_width(s)) // 2, gy - 26, s, LABEL)
        cv.text(gx - 14 - text_width(s), gy + k * SQ + SQ // 2 - 7, s, LABEL)
    scored = {s.at for s in sheet.scored}
    for i, sq in enumerate(lay.squares):
        x, y = geo.squares[i]
        for line, lx, ly, scale in geo.kinds.get(i, []):
            cv.text(lx, ly, line, LABEL, scale)
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
        if sample == "flag":
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
    _tracks(cv, geo, lay, sheet)
    score = scoring.score(state)
    mine = score.sheets[player]
    x, y = geo.heads["score"]
    cv.text(x, y, "Score" + (" (final)" if state.is_terminal() else " so far"))
    y += LINE + 4
    lines_left = geo.score_lines
    for what, points in mine.items:
        if lines_left <= 0:  # wrap's 0 would mean no limit
            break
        for k, line in enumerate(wrap(_cap(what), PANEL - 60, min(2, lines_left))):
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


def _score_items(lay: Layout) -> list[str]:
    """The score's lines of a blank sheet, in scoring.score()'s order."""
    out = [f"{lay.word(t)} values circled" for t in lay.tracks]
    out += ["first-player bonuses"] if lay.bonuses else []
    out += [f"connected {scoring.plural(lay.word(k))} x {g.points[k]}" for g in lay.groups for k in g.kinds]
    if lay.tree_points:
        trees = lay.word("trees")
        out += [f"fewest {trees} crossed: +{lay.tree_points}", f"most {trees} crossed: -{lay.tree_points}"]
    return out


def _tracks(cv: Canvas, geo: Geometry, lay: Layout, sheet, blank: bool = False) -> None:
    """The tracks, the bonuses, the trees and the barrels, with what the sheet holds (blank: as
    printed, the trees and barrels not counted)."""
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
            cv.text(*geo.heads[key], _cap(lay.word(key)) + ("" if blank else f": {crossed} of {len(centres)} crossed"))
            for k, (cx, cy) in enumerate(centres):
                draw(cv, cx, cy, k < crossed)


def _cap(s: str) -> str:
    return s[:1].upper() + s[1:]
