"""One player's Deadly Doodles map as a greyscale PNG, to hold next to the dry-erase board.

The dungeon: rooms with their coordinates (letters along the top, numbers down the left),
heavy walls, diamond passageway markers, the six entryway arrows, Loot, the Dragon, the
Weapons and Monsters with their letters; then the player's path segments (the round each was
drawn in, small, in the bottom-left corner), their Traps (an X; grey when erased because
another player set one in the same coordinates) and "HIT" where another player's Trap hits
them. On the right, the scoring section (items 1 to 7) as engine.score() counts it, with the
tally marks of item 6. A game recorded with tallies (ruling D14) has no paths to draw: the map
shows the Traps, and the scoring section the counts the player gave.

Drawn on doodlebox.drawing's canvas (Pillow, its own font) and written as a PNG.
map_geometry() says where everything is drawn; the tests read the pixels there.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from doodlebox.drawing.canvas import FILL, GRID, INK, LABEL, WHITE, Canvas, text_width, wrap
from doodlebox.rules.deadly.engine import score
from doodlebox.rules.deadly.maps import DungeonMap, E, N, S, W
from doodlebox.rules.deadly.tallies import DRAGON_TIMES, POINTS

SQ = 120            # side of a room
ROAD = 14           # width of a path
PATH = 110          # grey of a path (walls are black)
WALL = 8            # width of a wall
DIAMOND = 7         # half diagonal of a passageway marker
ARROW = 30          # length of an entryway arrow, outside the edge
MARGIN, LINE, PANEL = 24, 22, 640
TOP = MARGIN + 64   # below the title
LIGHT_ROOM = 236    # background of a room with something printed in it
ERASED = 170        # an erased Trap
KEY = 48            # room for a sample in the legend


@dataclass
class Geometry:
    width: int
    height: int
    rooms: list[tuple[int, int]]      # top-left of each room (index order); side SQ
    panel: tuple[int, int]            # top-left of the scoring section
    legend: list[tuple[str, str, int, int]]   # (sample, text, x, y)


def map_geometry(m: DungeonMap, solo: bool = False) -> Geometry:
    """Where render_sheet draws each thing (solo: no Traps in the legend)."""
    gx, gy = MARGIN + 40 + ARROW, TOP + 30 + ARROW
    rooms = [(gx + (i % m.columns) * SQ, gy + (i // m.columns) * SQ) for i in range(m.size)]
    right = gx + m.columns * SQ + ARROW + 30
    bottom = gy + m.rows * SQ + ARROW + 16
    samples = [("loot", "Loot"), ("dragon", "Dragon"), ("weapon", "Weapon and its letter"),
               ("monster", "Monster and its letter"), ("diamond", "passageway"), ("wall", "wall"),
               ("arrow", "entryway"), ("trap", "your Trap"), ("erased", "Trap erased (same coordinates)"),
               ("path", "your path"), ("deadend", "dead end"),
               ("hit", "another player's Trap hits you"), ("round", "round the segment was drawn")]
    if solo:
        samples = [(k, t) for k, t in samples if k not in ("trap", "erased", "hit")]
    legend, lx, ly = [], gx, bottom
    for sample, text in samples:
        w = KEY + text_width(text)
        if lx > gx and lx + w > right - 30:
            lx, ly = gx, ly + 40
        legend.append((sample, text, lx, ly))
        lx += w + 28
    height = max(ly + 40, TOP + 22 * LINE + 120) + MARGIN
    return Geometry(right + PANEL + MARGIN, height, rooms, (right, TOP), legend)


# -- glyphs ---------------------------------------------------------------------------------------
def _diamond(cv: Canvas, cx: float, cy: float) -> None:
    d = DIAMOND
    cv.polygon([(cx, cy - d), (cx + d, cy), (cx, cy + d), (cx - d, cy)], INK)
    cv.polygon([(cx, cy - d + 3), (cx + d - 3, cy), (cx, cy + d - 3), (cx - d + 3, cy)], WHITE)


def _arrow(cv: Canvas, tip_x: float, tip_y: float, side: int) -> None:
    """An arrow pointing into the dungeon, its tip at (tip_x, tip_y) on the edge of `side`."""
    dx, dy = {N: (0, -1), S: (0, 1), E: (1, 0), W: (-1, 0)}[side]
    tail = (tip_x + dx * ARROW, tip_y + dy * ARROW)
    head = (tip_x + dx * 12, tip_y + dy * 12)
    cv.line(tail[0], tail[1], head[0], head[1], INK, 4)
    px, py = -dy, dx
    cv.polygon([(tip_x + dx * 2, tip_y + dy * 2), (head[0] + px * 9, head[1] + py * 9),
                (head[0] - px * 9, head[1] - py * 9)], INK)


def _bag(cv: Canvas, x: int, y: int) -> None:
    """Loot: a money bag, 24 x 26, top-left at (x, y)."""
    cv.ring(x + 12, y + 16, 6, FILL, 12)
    cv.ring(x + 12, y + 16, 10, INK, 2.5)
    cv.polygon([(x + 7, y), (x + 17, y), (x + 14, y + 7), (x + 10, y + 7)], INK)
    cv.text(x + 10, y + 12, "$", INK, 1)


def _dragon(cv: Canvas, x: int, y: int) -> None:
    """The Dragon: a spiked back over a body, 30 x 24."""
    for k in range(3):
        cv.polygon([(x + k * 10, y + 14), (x + k * 10 + 5, y), (x + k * 10 + 10, y + 14)], INK)
    cv.rect(x, y + 13, 30, 9, INK)
    cv.rect(x + 22, y + 15, 3, 3, WHITE)


def _sword(cv: Canvas, x: int, y: int) -> None:
    """A Weapon: a sword, 24 x 24."""
    cv.line(x + 5, y + 19, x + 22, y + 2, INK, 4)
    cv.line(x + 2, y + 12, x + 12, y + 22, INK, 3)
    cv.line(x + 1, y + 23, x + 6, y + 18, INK, 4)


def _monster(cv: Canvas, x: int, y: int) -> None:
    """A Monster: a black head with white eyes and fangs, 24 x 24."""
    cv.ring(x + 12, y + 12, 6, INK, 12)
    cv.rect(x + 6, y + 8, 4, 4, WHITE)
    cv.rect(x + 14, y + 8, 4, 4, WHITE)
    cv.polygon([(x + 7, y + 15), (x + 11, y + 15), (x + 9, y + 20)], WHITE)
    cv.polygon([(x + 13, y + 15), (x + 17, y + 15), (x + 15, y + 20)], WHITE)


def _x(cv: Canvas, x: int, y: int, size: int, v: int, t: float) -> None:
    cv.line(x, y, x + size, y + size, v, t)
    cv.line(x + size, y, x, y + size, v, t)


def _path(cv: Canvas, x: int, y: int, ends: int) -> None:
    """A segment: a grey stroke from the room's centre to each side it opens on; a dead end
    (one side) ends in a round blob at the centre."""
    h = SQ // 2
    cx, cy = x + h, y + h
    for side, (dx, dy) in {N: (0, -1), E: (1, 0), S: (0, 1), W: (-1, 0)}.items():
        if ends & side:
            x0, x1 = sorted((cx, cx + dx * h))
            y0, y1 = sorted((cy, cy + dy * h))
            cv.rect(x0 - ROAD // 2 if dx == 0 else x0, y0 - ROAD // 2 if dy == 0 else y0,
                    ROAD if dx == 0 else x1 - x0, ROAD if dy == 0 else y1 - y0, PATH)
    cv.rect(cx - ROAD // 2, cy - ROAD // 2, ROAD, ROAD, PATH)
    if ends in (N, S, E, W):
        cv.ring(cx, cy, 7, PATH, 14)


def _sample(cv: Canvas, sample: str, x: int, y: int) -> None:
    if sample == "loot":
        _bag(cv, x, y - 4)
    elif sample == "dragon":
        _dragon(cv, x, y - 4)
    elif sample == "weapon":
        _sword(cv, x, y - 4)
    elif sample == "monster":
        _monster(cv, x, y - 4)
    elif sample == "diamond":
        _diamond(cv, x + 12, y + 7)
    elif sample == "wall":
        cv.rect(x, y + 4, 28, WALL, INK)
    elif sample == "arrow":
        _arrow(cv, x + 28, y + 7, W)
    elif sample == "trap":
        _x(cv, x + 4, y - 4, 22, INK, 5)
    elif sample == "erased":
        _x(cv, x + 4, y - 4, 22, ERASED, 5)
    elif sample == "path":
        cv.rect(x, y + 1, 34, ROAD, PATH)
    elif sample == "deadend":
        cv.rect(x, y + 1, 20, ROAD, PATH)
        cv.ring(x + 22, y + 1 + ROAD // 2, 7, PATH, 14)
    elif sample == "hit":
        cv.text(x, y, "HIT", INK, 2)
    elif sample == "round":
        cv.text(x + 8, y, "3", LABEL, 2)


# -- the map --------------------------------------------------------------------------------------------
def render_sheet(state, player: int, path, title: str = "") -> Path:
    """Draw player's map (0-based) of `state` as a PNG at path; returns the path."""
    game = state.game
    m = game.map
    geo = map_geometry(m, game.solo)
    cv = Canvas(geo.width, geo.height)
    head = title or f"Player {player + 1}"
    cv.text(MARGIN, MARGIN, head[:40], INK, 3)
    who = "solo" if game.solo else f"player {player + 1} of {game.players}"
    over = ", game over" if state.is_terminal() else ""
    paper = ", paths on paper (tallies)" if game.tallies else ""
    cv.text(MARGIN, MARGIN + 32, f"{m.name}, {who}, round {state.round} of 7{over}{paper}", LABEL)
    res = score(state)
    _dungeon(cv, geo, m)
    board = state.boards[player]
    hit_rooms = {h.room for h in res.sheets[player].hits if not h.same}
    for i, (x, y) in enumerate(geo.rooms):
        if board.paths[i]:
            _path(cv, x, y, board.paths[i])
            cv.text(x + 6, y + SQ - 20, str(board.rounds[i]), LABEL, 2)
        if board.trap[i]:
            _x(cv, x + 28, y + 28, SQ - 56, ERASED if (player, i) in res.erased else INK, 9)
        if i in hit_rooms:
            cv.text(x + SQ - 42, y + SQ - 20, "HIT", INK, 2)
    for sample, text, x, y in geo.legend:
        _sample(cv, sample, x, y)
        cv.text(x + KEY, y, text, INK, 2)
    _panel(cv, geo, state, player, res)
    path = Path(path)
    cv.save(path)
    return path


# -- the blank map (doodlebox sheets print) ------------------------------------------------------
def blank_canvas(m: DungeonMap, head: str, sub: str, zoom: int = 1) -> Canvas:
    """The map side as printed, nothing drawn on it yet (docs/sheets.md): the dungeon with its
    rooms' contents, walls, passageways and entryways, the legend, and the scoring section's
    items 1 to 7 with an empty box each and the total. `head` and `sub` are its two title lines;
    drawn `zoom` times finer."""
    geo = map_geometry(m)
    cv = Canvas(geo.width, geo.height, zoom)
    cv.text(MARGIN, MARGIN, wrap(head, geo.width - 2 * MARGIN, 1, 3)[0], INK, 3)
    cv.text(MARGIN, MARGIN + 32, wrap(sub, geo.width - 2 * MARGIN, 1)[0], LABEL)
    _dungeon(cv, geo, m)
    for sample, text, x, y in geo.legend:
        _sample(cv, sample, x, y)
        cv.text(x + KEY, y, text, INK, 2)
    x, y = geo.panel
    cv.text(x, y, "Scoring", INK, 3)
    y += 40
    for what in _score_items():
        for k, line in enumerate(wrap(what, PANEL - 130, 2)):
            cv.text(x + (0 if k == 0 else 24), y + 6 + k * LINE, line, INK if k == 0 else LABEL)
        cv.frame(x + PANEL - 90, y, 90, 30, INK, 2)
        y += max(34, 6 + len(wrap(what, PANEL - 130, 2)) * LINE + 4)
    cv.rect(x, y + 4, PANEL, 2, INK)
    cv.text(x, y + 20, "Total", INK, 3)
    cv.frame(x + PANEL - 90, y + 12, 90, 40, INK, 2)
    return cv


def _score_items() -> list[str]:
    """The scoring section's items 1 to 7 as printed, with their weights (engine.POINTS)."""
    p = POINTS
    return [f"1. Loot entered: {p['loot']:+d} each, x {DRAGON_TIMES} when the Dragon's room is entered",
            f"2. Weapons entered: {p['weapons']:+d} each",
            f"3. Monsters with their Weapon: {p['matched']:+d} each",
            f"4. Monsters without their Weapon: {p['unmatched']:+d} each",
            f"5. Entryways not linked: {p['entryways']:+d} each",
            f"6. Unused path segments: {p['unused']:+d} each",
            f"7. Traps that hit you: {p['hits']:+d} each"]


def _dungeon(cv: Canvas, geo: Geometry, m: DungeonMap) -> None:
    gx, gy = geo.rooms[0]
    for i, (x, y) in enumerate(geo.rooms):
        if m.contents[i]:
            cv.rect(x, y, SQ, SQ, LIGHT_ROOM)
    for k in range(m.columns + 1):
        cv.rect(gx + k * SQ - 1, gy, 2, m.rows * SQ, GRID)
    for k in range(m.rows + 1):
        cv.rect(gx, gy + k * SQ - 1, m.columns * SQ, 2, GRID)
    for c in range(m.columns):
        cv.text(gx + c * SQ + SQ // 2 - 7, gy - ARROW - 30, chr(65 + c), INK, 3)
    for r in range(m.rows):
        s = str(r + 1)
        cv.text(gx - ARROW - 18 - text_width(s, 3), gy + r * SQ + SQ // 2 - 10, s, INK, 3)
    h = SQ // 2
    for i, (x, y) in enumerate(geo.rooms):
        kind = m.contents[i]
        if kind == "loot":
            _bag(cv, x + 10, y + 8)
        elif kind == "dragon":
            _dragon(cv, x + 8, y + 10)
        elif kind in ("weapon", "monster"):
            (_sword if kind == "weapon" else _monster)(cv, x + 10, y + 10)
            cv.text(x + SQ - 30, y + 8, m.letters[i], INK, 3)
        for side, (ax, ay, wx, wy, ww, wh) in {
                N: (x + h, y, x - WALL // 2, y - WALL // 2, SQ + WALL, WALL),
                S: (x + h, y + SQ, x - WALL // 2, y + SQ - WALL // 2, SQ + WALL, WALL),
                W: (x, y + h, x - WALL // 2, y - WALL // 2, WALL, SQ + WALL),
                E: (x + SQ, y + h, x + SQ - WALL // 2, y - WALL // 2, WALL, SQ + WALL)}.items():
            if m.walls[i] & side:
                cv.rect(wx, wy, ww, wh, INK)
            elif m.entries[i] & side:
                _arrow(cv, ax, ay, side)
    for i, (x, y) in enumerate(geo.rooms):   # markers last, over the walls' corners
        for side, (ax, ay) in {N: (x + h, y), W: (x, y + h), S: (x + h, y + SQ), E: (x + SQ, y + h)}.items():
            if m.passages[i] & side and (side in (N, W) or m.entries[i] & side):
                _diamond(cv, ax, ay)



def _panel(cv: Canvas, geo: Geometry, state, player: int, res) -> None:
    x, y = geo.panel
    mine = res.sheets[player]
    head = "Scoring (tallies)" if state.game.tallies else "Scoring"
    cv.text(x, y, head + (" (final)" if state.is_terminal() else " so far"), INK, 3)
    y += 40
    room = PANEL - 70   # pixels: the points stand at the right
    for what, points in mine.items:
        for k, line in enumerate(wrap(what, room, 0)):
            cv.text(x + (0 if k == 0 else 24), y, line, INK if k == 0 else LABEL)
            if k == 0:
                cv.text(x + PANEL - text_width(f"{points:+d}"), y, f"{points:+d}")
            y += LINE
        if what.startswith("6.") and mine.unused:
            for t in range(mine.unused):   # tally marks in fives
                tx = x + 24 + (t // 5) * 44 + (t % 5) * 7
                if t % 5 == 4:
                    cv.line(tx - 30, y + 14, tx + 2, y + 2, INK, 2)
                else:
                    cv.rect(tx, y, 2, 16, INK)
            y += LINE
        y += 6
    cv.rect(x, y + 4, PANEL, 2, INK)
    wins = state.is_terminal() and not state.game.solo and player in res.winners
    cv.text(x, y + 14, "Total" + (" (wins)" if wins else ""), INK, 3)
    cv.text(x + PANEL - text_width(str(mine.total), 3), y + 14, str(mine.total), INK, 3)
