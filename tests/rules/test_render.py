"""The picture of a play sheet (rules/dice/render.py): render states of the engine, read the PNG back
and check facts from its pixels at the places sheet_geometry() gives."""
import json
import math
import random

import pytest
from PIL import Image

from doodlebox import cli
from doodlebox.drawing.canvas import FILL, LABEL, Canvas, cap_height, font, text_width
from doodlebox.rules.dice import engine, layout, record, render
from doodlebox.rules.dice.render import FLOOR, HOUSE, RING, SQ, STRIKE

EDITIONS = list(layout.DEFAULT_FILES)
N, E, S, W = 1, 2, 4, 8
DARK, LIGHT = 64, 200


class Picture:
    def __init__(self, width, height, rows):
        self.width, self.height, self.rows = width, height, rows

    def __call__(self, x, y):
        return self.rows[int(y)][int(x)]


def read_png(path):
    """A PNG read back by Pillow: a real PNG file, 8-bit greyscale, as the pictures are written."""
    with Image.open(path) as im:
        assert (im.format, im.mode) == ("PNG", "L")
        width, height, data = im.width, im.height, im.tobytes()
    return Picture(width, height, [data[y * width:(y + 1) * width] for y in range(height)])


def play(edition, players=3, seed=1, rounds=None):
    """Random play that likes crossing houses, adding floors and drawing in scoring squares."""
    s = engine.Game(layout.load(edition), players).new_state()
    rng, kinds, n = random.Random(seed), s.game.kind, s.game.n
    wants = (lambda a: a.kind in ("house", "floor"),
             lambda a: a.kind == "draw" and kinds[(a.row - 1) * n + a.col - 1] in ("hotel", "shop", "skyscraper"),
             lambda a: a.kind != "pass", lambda a: True)
    while not s.is_terminal() and (rounds is None or s.round < rounds or s.phase == "turn"):
        if s.is_chance_node():
            s.apply(s.sample_chance(rng))
            continue
        acts = s.legal_actions()
        s.apply(rng.choice(next(best for want in wants if (best := [a for a in acts if want(a)]))))
    return s


@pytest.fixture(scope="module")
def draw(tmp_path_factory):
    out = tmp_path_factory.mktemp("sheets")

    def draw(state, name, player=0):
        path = out / f"{name}.png"
        assert render.render_sheet(state, player, str(path), title="Ann") == path
        return read_png(path), render.sheet_geometry(state.game.layout, solo=state.game.solo)
    return draw


def marked(s):
    """s (a state no one else holds) with player 1's tracks, bonuses, trees and barrels marked in
    a known pattern: every third value circled, the ones after them struck."""
    lay, sheet = s.game.layout, s.sheets[0]
    for name, track in lay.tracks.items():
        sheet.circled[name] = list(track.values[::3])
        sheet.struck[name] = set(track.values[1::3])
    sheet.bonuses, sheet.struck_bonuses = list(lay.bonuses[::3]), set(lay.bonuses[1::3])
    sheet.trees, sheet.barrels = 3, min(2, lay.barrels)
    return s


@pytest.fixture(scope="module")
def midgame(draw):
    """Each edition, 3 players, after round 8: player 1's state (its tracks, trees and barrels
    marked by marked()), picture and geometry."""
    out = {}
    for ed in EDITIONS:
        s = marked(play(ed, 3, seed=1, rounds=8))
        out[ed] = (s, *draw(s, ed))
    return out


@pytest.fixture(scope="module")
def final_shanghai(draw):
    """Shanghai, 3 players, played to the end."""
    s = play("shanghai", 3, seed=1)
    return (s, *draw(s, "shanghai-final"))


def test_the_picture_is_a_png_of_the_size_the_geometry_gives(midgame):
    for ed, (s, pic, geo) in midgame.items():
        assert (pic.width, pic.height) == (geo.width, geo.height), ed
        n = s.game.n
        x, y = geo.squares[-1]
        assert x + SQ < geo.width and y + SQ < geo.height and len(geo.squares) == n * n
        assert geo.squares[1][0] - geo.squares[0][0] == SQ and geo.squares[n][1] - geo.squares[0][1] == SQ
        raw = b"".join(pic.rows)
        dark = len(raw) - len(raw.translate(None, bytes(range(DARK))))
        assert 0.02 < dark / (pic.width * pic.height) < 0.4, ed


def _inside_midpoints(x, y):
    h = SQ // 2
    return {N: (x + h, y + 5), S: (x + h, y + SQ - 6), W: (x + 5, y + h), E: (x + SQ - 6, y + h)}


def test_each_piece_runs_between_the_midpoints_of_its_sides(midgame):
    seen = set()
    for ed, (s, pic, geo) in midgame.items():
        for i, bits in enumerate(s.sheets[0].pieces):
            if not bits:
                continue
            seen.add(bits)
            x, y = geo.squares[i]
            for side, (px, py) in _inside_midpoints(x, y).items():
                if bits & side:
                    assert pic(px, py) < DARK, (ed, i, bits, side)
                else:
                    assert pic(px, py) > LIGHT, (ed, i, bits, side)
            h = SQ // 2
            if bits in (N | S, E | W):
                for k in range(0, SQ, 4):
                    assert pic(*((x + h, y + k) if bits == N | S else (x + k, y + h))) < DARK, (ed, i)
                assert pic(x + h, y + h) < DARK
            else:  # a quarter circle of radius SQ/2 around the corner between its two sides
                cx, cy = x + (SQ if bits & E else 0), y + (SQ if bits & S else 0)
                sx, sy = (-1 if bits & E else 1), (-1 if bits & S else 1)
                for deg in range(5, 90, 10):
                    a = math.radians(deg)
                    assert pic(cx + sx * h * math.cos(a), cy + sy * h * math.sin(a)) < DARK, (ed, i, deg)
                assert pic(x + h, y + h) > LIGHT, (ed, i, bits)  # a curve is not two straight strokes
    assert seen == {N | S, E | W, N | E, E | S, S | W, N | W}


def test_roads_of_neighbouring_squares_meet_at_the_shared_edge(midgame):
    joins = 0
    for ed, (s, pic, geo) in midgame.items():
        n, pieces = s.game.n, s.sheets[0].pieces
        for i, bits in enumerate(pieces):
            x, y = geo.squares[i]
            if i % n < n - 1 and bits & E and pieces[i + 1] & W:
                joins += 1
                assert all(pic(x + SQ + d, y + SQ // 2) < DARK for d in range(-6, 7)), (ed, i)
            if i < n * (n - 1) and bits & S and pieces[i + n] & N:
                joins += 1
                assert all(pic(x + SQ // 2, y + SQ + d) < DARK for d in range(-6, 7)), (ed, i)
    assert joins >= 3


def test_an_empty_square_has_no_road(midgame, draw):
    fresh = engine.Game(layout.load("city"), 1).new_state()  # solo, before the start roads
    pic, geo = draw(fresh, "solo-fresh")
    assert (pic.width, pic.height) == (geo.width, geo.height)
    cases = [(fresh, pic, geo)] + list(midgame.values())
    empty = 0
    for s, pic, geo in cases:
        for i, bits in enumerate(s.sheets[0].pieces):
            if not bits:
                empty += 1
                x, y = geo.squares[i]
                points = [(x + SQ // 2, y + SQ // 2), *_inside_midpoints(x, y).values()]
                assert all(pic(px, py) > LIGHT for px, py in points), i
    assert empty > 25 + 20


def test_houses_show_printed_and_player_crossings(midgame):
    counts = {"print": 0, "player": 0, "open": 0}
    for ed, (s, pic, geo) in midgame.items():
        for i, houses in geo.houses.items():
            sq = s.game.layout.squares[i]
            assert len(houses) == sq.houses
            for k, (hx, hy) in enumerate(houses):
                v = pic(hx + HOUSE // 2, hy + HOUSE // 2)
                if k < sq.precrossed:
                    counts["print"] += 1
                    assert DARK < v < LIGHT, (ed, i, k, v)
                elif k < s.sheets[0].crossed[i]:
                    counts["player"] += 1
                    assert v < DARK, (ed, i, k, v)
                else:
                    counts["open"] += 1
                    assert v > LIGHT, (ed, i, k, v)
    assert min(counts.values()) > 0, counts


def test_floors_printed_added_and_counted(midgame, final_shanghai):
    counts = {"printed": 0, "added": 0, "room": 0, "counted": 0}
    for ed, (s, pic, geo) in (("shanghai", midgame["shanghai"]), ("monsters", midgame["monsters"]),
                              ("shanghai final", final_shanghai)):
        lay, sheet = s.game.layout, s.sheets[0]
        for i, slots in geo.floors.items():
            sq = lay.squares[i]
            assert len(slots) == sq.floors + lay.extra_floors
            counted = any(sc.at == (sq.row, sq.col) for sc in sheet.scored)
            counts["counted"] += counted
            for k, (fx, fy) in enumerate(slots):
                mid, inner, edge = pic(fx + FLOOR[0] // 2, fy + FLOOR[1] // 2), pic(fx + 1, fy + 5), pic(fx, fy + 5)
                if k < sheet.floors[i]:
                    counts["printed" if k < sq.floors else "added"] += 1
                    assert edge < DARK and (inner < DARK) == (k >= sq.floors), (ed, i, k)
                    assert abs(mid - FILL) < 10 if counted else mid > LIGHT, (ed, i, k, mid)
                else:
                    counts["room"] += 1
                    assert mid > LIGHT and inner > LIGHT, (ed, i, k)
    assert min(counts.values()) > 0, counts


def _ring(pic, cx, cy):
    return [pic(cx + RING, cy), pic(cx - RING, cy), pic(cx, cy + RING), pic(cx, cy - RING)]


def _stroke(pic, cx, cy):
    return [pic(cx + 0.9 * STRIKE[0], cy - 0.9 * STRIKE[1]), pic(cx - 0.9 * STRIKE[0], cy + 0.9 * STRIKE[1])]


@pytest.mark.parametrize("edition", EDITIONS)
def test_circled_values_are_ringed_and_taken_ones_struck(midgame, edition):
    s, pic, geo = midgame[edition]
    sheet, lay = s.sheets[0], s.game.layout
    rows = [(geo.tracks[name], sheet.circled[name], sheet.struck[name]) for name in lay.tracks]
    rows.append((geo.bonuses, sheet.bonuses, sheet.struck_bonuses))
    assert [v for v, _, _ in geo.tracks[next(iter(lay.tracks))]] == list(lay.tracks[next(iter(lay.tracks))].values)
    for cells, circled, struck in rows:
        for v, cx, cy in cells:
            ring, stroke = _ring(pic, cx, cy), _stroke(pic, cx, cy)
            if v in circled:
                assert max(ring) < DARK, (v, ring)
            elif v in struck:
                assert max(stroke) < DARK and min(ring) > LIGHT, (v, stroke)
            else:
                assert min(ring) > LIGHT and min(stroke) > LIGHT, (v, ring, stroke)
    for centres, crossed in ((geo.trees, sheet.trees), (geo.barrels, sheet.barrels)):
        for k, (cx, cy) in enumerate(centres):
            assert pic(cx, cy) < DARK if k < crossed else abs(pic(cx, cy) - FILL) < 10, (k, crossed)
    assert len(geo.trees) == lay.trees and len(geo.barrels) == lay.barrels


def test_a_shared_track_after_a_real_game(final_shanghai):
    """What the others circled is struck on player 1's sheet; the trees player 1 crossed, crossed."""
    s, pic, geo = final_shanghai
    sheet = s.sheets[0]
    assert s.is_terminal() and sheet.struck["hotel"]
    for v, cx, cy in geo.tracks["hotel"]:
        assert (max(_stroke(pic, cx, cy)) < DARK) == (v in sheet.struck["hotel"]), v
        assert (max(_ring(pic, cx, cy)) < DARK) == (v in sheet.circled["hotel"]), v
    for k, (cx, cy) in enumerate(geo.trees):
        assert (pic(cx, cy) < DARK) == (k < sheet.trees)


def test_the_command_line_draws_a_recorded_game(tmp_path):
    s = play("treasures", 2, seed=3)
    rec = tmp_path / "game.json"
    rec.write_text(json.dumps(record.from_state(s, ["Ann", "Ben"])))
    out = tmp_path / "ben.png"
    assert cli.main(["render", str(rec), "--player", "2", "-o", str(out)]) == 0
    pic = read_png(out)
    geo = render.sheet_geometry(s.game.layout)
    assert (pic.width, pic.height) == (geo.width, geo.height)
    for i, bits in enumerate(s.sheets[1].pieces):  # Ben's sheet, not Ann's
        x, y = geo.squares[i]
        assert [pic(*p) < DARK for p in _inside_midpoints(x, y).values()] == [bool(bits & d) for d in (N, S, W, E)]


# -- the squares' kinds, spelled out ---------------------------------------------------------------
@pytest.mark.parametrize("edition", EDITIONS)
def test_each_square_names_its_kind_in_full(edition):
    lay = layout.load(edition)
    geo = render.sheet_geometry(lay)
    for i, sq in enumerate(lay.squares):
        lines = [line for line, *_ in geo.kinds.get(i, [])]
        word = lay.word(sq.kind)
        if sq.kind == "plain":
            assert not lines
            continue
        joined = " ".join(lines).replace("- ", "")
        assert joined == word[:1].upper() + word[1:], (i, lines)
    words = {" ".join(line for line, *_ in lines) for lines in geo.kinds.values()}
    assert not words & {"Hot", "Sho", "Hou", "Tax", "Mon", "Arc", "Tre", "Sky", "Sch"}


def test_the_kinds_of_the_paper_sheets():
    def kinds(edition):
        geo = render.sheet_geometry(layout.load(edition))
        return {" ".join(line for line, *_ in lines) for lines in geo.kinds.values()}
    assert kinds("city") == {"Hotel", "Shop", "House square", "Taxi"}
    assert kinds("treasures") == {"Monster", "Ship", "Archi- pelago", "Treasure island"}
    assert kinds("monsters") == {"Monster", "Schooner", "Galleon", "Breaker", "Kraken"}


def test_a_long_kind_stays_in_its_corner():
    assert render.kind_lines("hotel") == (["Hotel"], render.KIND_SCALES[0])
    lines, scale = render.kind_lines("supercalifragilistic expialidocious palace of the dice")
    assert len(lines) == render.KIND_LINES and lines[-1].endswith("...") and scale == render.KIND_SCALES[-1]
    assert all(text_width(line, scale) <= render.KIND_ROOM[k > 0] for k, line in enumerate(lines))


def _box(line, x, y, scale):
    """The pixels a kind's line inks, from Pillow's measure of the text (x0, y0, x1, y1)."""
    base = y + cap_height(scale)
    left, top, right, bottom = font(scale).getbbox(line, anchor="ls")
    return x + left, base + top, x + right, base + bottom


def test_no_road_ever_crosses_a_kind():
    """Every combination of sides a road may open on, drawn in a square: the kind's lines of every
    square of every edition stay clear (they keep to the corner a curve leaves free)."""
    boxes = set()
    for ed in EDITIONS:
        geo = render.sheet_geometry(layout.load(ed))
        for i, lines in geo.kinds.items():
            x0, y0 = geo.squares[i]
            boxes |= {(line, x - x0, y - y0, scale) for line, x, y, scale in lines}
    assert len(boxes) > 15
    for bits in range(1, 16):
        cv = Canvas(SQ, SQ)
        render._road(cv, 0, 0, bits)
        px = cv.image.load()
        assert cv.image.histogram()[0] >= SQ * render.ROAD // 2, bits   # the road is there (a spoke: half a side)
        for line, *at in boxes:
            x0, y0, x1, y1 = _box(line, *at)
            assert all(px[x, y] == 255 for x in range(x0, x1) for y in range(y0, y1)), (bits, line)


def test_the_kinds_are_drawn_where_the_geometry_says(midgame):
    """Each line of each square's kind, in the picture, is exactly that text drawn on the square's
    ground, in grey, unbroken by any road the player drew."""
    checked = 0
    for ed, (s, pic, geo) in midgame.items():
        for i, lines in geo.kinds.items():
            ground = render.START_BG if s.game.layout.squares[i].start else 255
            for line, x, y, scale in lines:
                x0, y0, x1, y1 = _box(line, x, y, scale)
                ref = Canvas(x1 - x0, y1 - y0)
                ref.rect(0, 0, ref.width, ref.height, ground)
                ref.text(x - x0, y - y0, line, LABEL, scale)
                want = ref.image.tobytes()
                assert sum(v < 160 for v in want) > 4 * len(line), line   # ink where the label is
                got = b"".join(pic.rows[yy][x0:x1] for yy in range(y0, y1))
                assert got == want, (ed, i, line)
                checked += 1
    assert checked > 100
