"""The drawing package (host/doodlebox/drawing): the canvas's shapes pixel by pixel, Pillow's font,
text_width and wrap measuring real text, PNG files written and read back by Pillow, that it and
hardware/ import no game, and the Deadly Doodles map's scoring panel drawn in full."""
import ast
import io
import math
import string
from pathlib import Path

import pytest
from PIL import Image, ImageFont

from doodlebox.drawing import png
from doodlebox.drawing.canvas import INK, LABEL, Canvas, cap_height, font, plain, text_width, wrap
from doodlebox.drawing.png import alike, png_pixels, write_png
from doodlebox.rules.deadly import record as deadly_record
from doodlebox.rules.deadly import render as deadly_render
from doodlebox.rules.deadly.engine import score as deadly_score

ROOT = Path(__file__).resolve().parents[2]
HOST = ROOT / "host" / "doodlebox"
GOLDEN = ROOT / "tests" / "golden"


def inked(cv: Canvas, below: int = 128) -> set[tuple[int, int]]:
    px = cv.image.load()
    return {(x, y) for y in range(cv.height) for x in range(cv.width) if px[x, y] < below}


# -- shapes ------------------------------------------------------------------------------------------
def test_rectangles_and_frames_cover_exactly_their_pixels():
    cv = Canvas(20, 20)
    cv.rect(2, 3, 4, 5, 0)
    assert inked(cv) == {(x, y) for x in range(2, 6) for y in range(3, 8)}
    cv = Canvas(20, 20)
    cv.frame(2, 3, 8, 6, 0, 2)
    inside = {(x, y) for x in range(4, 8) for y in range(5, 7)}
    assert inked(cv) == {(x, y) for x in range(2, 10) for y in range(3, 9)} - inside
    cv = Canvas(10, 10)
    cv.rect(-5, -5, 8, 30, 90)         # clipped
    cv.rect(4, 4, 0, 5, 0)             # nothing
    assert inked(cv, 100) == {(x, y) for x in range(3) for y in range(10)}


def test_a_polygon_fills_the_pixels_whose_centres_it_covers():
    cv = Canvas(12, 12)
    cv.polygon([(0, 0), (10, 0), (0, 10)], INK)
    got = inked(cv)
    assert all((x + 0.5) + (y + 0.5) <= 10 + 1 for x, y in got)           # nothing beyond the hypotenuse
    assert {(x, y) for x in range(10) for y in range(10) if x + y <= 8} <= got
    assert (0, 0) in got and (4, 4) in got and (5, 5) not in got and (9, 9) not in got


def test_a_stroke_has_its_width_and_flat_ends():
    cv = Canvas(60, 40)
    cv.line(10, 20, 50, 20, INK, 4)
    assert inked(cv) == {(x, y) for x in range(10, 50) for y in range(18, 22)}
    cv = Canvas(60, 60)
    cv.line(5, 5, 55, 55, INK, 3)
    got = inked(cv)
    assert all(abs(x - y) <= 2 for x, y in got) and {(k, k) for k in range(6, 54)} <= got


def test_a_ring_is_a_circle_of_its_radius_and_width():
    cv = Canvas(100, 100)
    cv.ring(50, 50, 20, INK, 4)
    px = cv.image.load()
    for deg in range(0, 360, 15):
        a = math.radians(deg)
        assert px[int(50 + 20 * math.cos(a)), int(50 + 20 * math.sin(a))] == INK, deg
        assert px[int(50 + 26 * math.cos(a)), int(50 + 26 * math.sin(a))] == 255, deg
        assert px[int(50 + 14 * math.cos(a)), int(50 + 14 * math.sin(a))] == 255, deg
    assert all(17 <= math.hypot(x + 0.5 - 50, y + 0.5 - 50) <= 23 for x, y in inked(cv))


def test_a_ring_as_wide_as_its_diameter_is_a_disc_and_a_clip_makes_an_arc():
    cv = Canvas(40, 40)
    cv.ring(20, 20, 6, LABEL, 12)
    got = inked(cv, 255)
    assert all(math.hypot(x + 0.5 - 20, y + 0.5 - 20) < 13 for x, y in got)          # nothing beyond its edge
    assert {(x, y) for x in range(40) for y in range(40) if math.hypot(x + 0.5 - 20, y + 0.5 - 20) < 11} <= got
    assert cv.image.getpixel((20, 20)) == LABEL and cv.image.getpixel((20, 35)) == 255
    cv = Canvas(120, 120)
    cv.ring(0, 0, 60, INK, 8, clip=(0, 0, 60, 60))  # a quarter circle, the road's curve
    got = inked(cv)
    assert got and all(x < 60 and y < 60 and 55 <= math.hypot(x + 0.5, y + 0.5) <= 65 for x, y in got)
    assert (0, 59) in got and (59, 0) in got and (42, 42) in got


# -- the font --------------------------------------------------------------------------------------
def test_the_font_is_pillows_own_and_has_every_printable_ascii_character():
    f = font(2)
    assert isinstance(f, ImageFont.FreeTypeFont) and f.size == 20 and font(3).size == 30
    assert f.getname() == ImageFont.load_default(size=20).getname()

    def glyph(ch):
        return bytes(f.getmask(ch))
    missing = glyph("\u4e1c")      # a character the font does not have: its empty-box glyph
    assert [c for c in string.printable[:94] if glyph(c) == missing] == []
    assert 12 <= cap_height(2) <= 16 and 18 <= cap_height(3) <= 23     # the sizes of the 5x7 font


def test_text_width_measures_the_real_text():
    assert text_width("Total", 3) == math.ceil(font(3).getlength("Total"))
    assert text_width("") == 0 and text_width("iiii") < text_width("MMMM")
    assert text_width("Hotel", 3) > text_width("Hotel") > text_width("Hotel", 1)
    assert text_width("10") == text_width("88") == 2 * text_width("0")  # figures are all as wide: numbers line up


def test_text_is_drawn_with_the_top_of_its_capitals_at_y():
    cv = Canvas(200, 60)
    w = cv.text(10, 20, "HEX", INK, 2)
    got = inked(cv)
    assert w == text_width("HEX")
    assert min(y for _, y in got) == 20 and max(y for _, y in got) == 20 + cap_height(2) - 1
    assert 10 <= min(x for x, _ in got) <= 12 and max(x for x, _ in got) < 10 + w
    cv = Canvas(200, 60)
    cv.text(10, 20, "gyp", INK, 2)
    assert max(y for _, y in inked(cv)) > 20 + cap_height(2)           # descenders below the baseline


def test_other_characters_are_drawn_as_their_plain_likeness():
    assert plain("Zo\u00eb \u2013 Stra\u00dfe \u201cna\u00efve\u201d \u00d72\u2026") == 'Zoe - Strasse "naive" x2...'
    assert plain("\u4e1c\u00bd\t") == "???" and plain("Ann") == "Ann"
    a, b = Canvas(120, 30), Canvas(120, 30)
    a.text(2, 5, "Zo\u00eb")
    b.text(2, 5, "Zoe")
    assert a.image.tobytes() == b.image.tobytes() and text_width("Zo\u00eb") == text_width("Zoe")


# -- wrap ------------------------------------------------------------------------------------------
def test_wrap_breaks_at_spaces_within_the_width_and_marks_what_does_not_fit():
    s = "one two three four"
    w = text_width("one two")
    assert wrap(s, w) == ["one two", "three..."]
    assert wrap(s, w, 3) == ["one two", "three", "four"]
    assert wrap("one two", w) == ["one two"] and wrap("one two", w - 1) == ["one", "two"]
    assert wrap("  ", 100) == [] and wrap("", 0) == []
    assert wrap(s, text_width(s, 3), 0, 3) == [s] and len(wrap(s, text_width(s, 3) - 1, 0, 3)) == 2


def test_wrap_without_a_line_limit_keeps_every_line():
    s = "7. Traps that hit you: 3 x -3 (your own Trap in F6, set there by another player too)"
    got = wrap(s, 200, 0)
    assert len(got) > 2 and all(0 < text_width(line) <= 200 for line in got)
    assert " ".join(got).split() == s.split()


@pytest.mark.parametrize("width", [-5, 0, 1, 8, 15])
def test_wrap_never_drops_text_however_narrow(width):
    """wrap(s, 0) used to return empty lines, and lines=0 no lines at all."""
    got = wrap("ab cde", width, 0)
    assert "".join(got).replace(" ", "") == "abcde"
    assert all(len(line) >= 1 and (len(line) == 1 or text_width(line) <= width) for line in got)
    limited = wrap("ab cde", width, 2)
    assert len(limited) == 2 and all(len(line) >= 1 for line in limited)
    assert wrap("ab cde", width, 9) == got


def test_wrap_cuts_a_word_wider_than_a_line_across_lines():
    w = text_width("abcd")
    got = wrap("abcdefghij kl", w, 0)
    assert got[0] == "abcd" and "".join(got).replace(" ", "") == "abcdefghijkl"
    assert all(text_width(line) <= w for line in got)
    two = wrap("abcdefghij kl", w)
    assert len(two) == 2 and two[0] == "abcd" and two[1].endswith("...") and text_width(two[1]) <= w


# -- PNG -------------------------------------------------------------------------------------------
def test_png_files_are_written_and_read_back_by_pillow(tmp_path):
    rows = [bytes((x * 40 + y * 7) & 0xFF for x in range(5)) for y in range(3)]
    write_png(tmp_path / "a.png", 5, 3, rows)
    with Image.open(tmp_path / "a.png") as im:
        assert (im.format, im.mode, im.size) == ("PNG", "L", (5, 3)) and im.tobytes() == b"".join(rows)
    assert png_pixels((tmp_path / "a.png").read_bytes()) == (5, 3, b"".join(rows))
    write_png(tmp_path / "b.png", 5, 3, rows, scale=2)
    w, h, px = png_pixels((tmp_path / "b.png").read_bytes())
    assert (w, h) == (10, 6) and px[:10] == px[10:20] == bytes(v for v in rows[0] for _ in range(2))
    for bad in (rows[:2], [*rows[:2], rows[2][:4]]):
        with pytest.raises(ValueError):
            write_png(tmp_path / "c.png", 5, 3, bad)
    cv = Canvas(7, 4)
    cv.rect(1, 1, 2, 2, 90)
    cv.save(tmp_path / "d.png", scale=3)
    assert png_pixels(cv.png()) == (7, 4, cv.image.tobytes())
    assert png_pixels((tmp_path / "d.png").read_bytes())[:2] == (21, 12)


def test_png_pixels_refuses_what_is_not_a_png():
    gif = io.BytesIO()
    Image.new("L", (3, 3), 0).save(gif, "GIF")
    for data in (b"GIF89a", gif.getvalue(), b"\x89PNG\r\n\x1a\n" + b"\0" * 20, b""):
        with pytest.raises(ValueError, match="not a PNG"):
            png_pixels(data)
    rgb = io.BytesIO()
    Image.new("RGB", (2, 1), (255, 255, 255)).save(rgb, "PNG")
    assert png_pixels(rgb.getvalue()) == (2, 1, b"\xff\xff")   # any PNG, as grey


def test_alike_pictures_differ_by_the_edges_of_letters_at_most():
    a = Canvas(300, 100)
    a.text(10, 10, "GP16 21", INK)
    b = Canvas(300, 100)
    b.image.paste(a.image)
    b.image.putpixel((150, 50), 0)                        # one pixel
    c = Canvas(300, 100)
    c.text(10, 10, "GP16 21", INK)
    c.rect(0, 60, 300, 4, INK)                            # a line more
    assert alike(a.png(), a.png()) and alike(a.png(), b.png())
    assert not alike(a.png(), c.png()) and not alike(a.png(), Canvas(300, 101).png())
    assert not alike(a.png(), b"not a png")


# -- what imports what -----------------------------------------------------------------------------
def _imports(folder: Path) -> set[str]:
    names = set()
    for path in folder.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names |= {a.name for a in node.names}
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:  # relative: resolve against the package
                    parts = ["doodlebox", *folder.relative_to(HOST).parts]
                    base = ".".join(parts[:len(parts) - node.level + 1] + ([base] if base else []))
                names |= {base} | {f"{base}.{a.name}" for a in node.names}
    return names


@pytest.mark.parametrize("folder", ["drawing", "hardware"])
def test_drawing_and_hardware_import_no_game(folder):
    mods = {m for m in _imports(HOST / folder) if m == "doodlebox" or m.startswith("doodlebox.")}
    assert mods and not [m for m in mods if m.startswith("doodlebox.rules")]
    if folder == "drawing":  # nothing of the project but itself
        assert not [m for m in mods if not m.startswith("doodlebox.drawing")]
        assert png.__name__ in mods


# -- the Deadly Doodles map's scoring panel ----------------------------------------------------------
def _drawn(picture, x: int, y: int, s: str, v: int) -> bool:
    """Whether the picture holds exactly s in grey v (scale 2) on white with its top-left at (x, y)."""
    width, _, px = picture
    cv = Canvas(text_width(s) + 2, cap_height(2) + font(2).getmetrics()[1])   # down to the descenders
    cv.text(0, 0, s, v)
    ref = cv.image.tobytes()
    return all(px[(y + r) * width + x:(y + r) * width + x + cv.width] == ref[r * cv.width:(r + 1) * cv.width]
               for r in range(cv.height))


@pytest.mark.parametrize("golden,player", [("deadly-traps", 0), ("deadly-traps", 1), ("deadly-traps", 2),
                                           ("deadly-solo", 0), ("deadly-duel", 1)])
def test_the_deadly_doodles_panel_lists_items_1_to_7_in_full(tmp_path, golden, player):
    """Each item, its first line in black and the rest in grey below, its points at the right:
    the panel was once empty but for item 6 and the total."""
    rp = deadly_record.replay(deadly_record.read(GOLDEN / f"{golden}.json"))
    path = deadly_render.render_sheet(rp.state, player, tmp_path / "map.png")
    width, height, px = picture = png_pixels(path.read_bytes())
    geo = deadly_render.map_geometry(rp.record.map, rp.state.game.solo)
    assert (width, height) == (geo.width, geo.height)
    x, top = geo.panel
    items = deadly_score(rp.state).sheets[player].items
    assert [what.split(".")[0] for what, _ in items] == list("1234567")
    y = top + 40
    for what, points in items:
        while y < height - 18 and not _drawn(picture, x, y, what.split()[0], INK):
            y += 1
        lines = wrap(what, deadly_render.PANEL - 70, 0)
        assert len(lines) >= 1 and _drawn(picture, x, y, lines[0], INK), f"no item {what[:2]} in the panel"
        assert _drawn(picture, x + deadly_render.PANEL - text_width(f"{points:+d}"), y, f"{points:+d}", INK)
        for k, line in enumerate(lines[1:], 1):
            assert _drawn(picture, x + 24, y + k * deadly_render.LINE, line, LABEL), line
        assert " ".join(lines).split() == what.split()
        y += len(lines) * deadly_render.LINE
    assert y < height - 60  # room below for the total
    # ink all down the panel's items: none of them left blank
    rows_with_ink = [r for r in range(top + 40, y) if min(px[r * width + x:r * width + x + 300]) < 128]
    assert len(rows_with_ink) > 7 * cap_height(2)
