"""The drawing package (host/doodlebox/drawing): the font, text_width, wrap, the PNG writer and
reader, that it and hardware/ import no game, and wrap at work in the Deadly Doodles map's panel."""
import ast
import string
from pathlib import Path

import pytest

from doodlebox.drawing.canvas import FONT, INK, LABEL, Canvas, text_width, wrap
from doodlebox.drawing.png import png_bytes, png_pixels, write_png
from doodlebox.rules.deadly import record as deadly_record
from doodlebox.rules.deadly import render as deadly_render
from doodlebox.rules.deadly.engine import score as deadly_score

ROOT = Path(__file__).resolve().parent.parent
HOST = ROOT / "host" / "doodlebox"
GOLDEN = ROOT / "tests" / "golden"


# -- the font --------------------------------------------------------------------------------------
def test_the_font_has_every_printable_character_once():
    assert set(string.printable[:95]) <= set(FONT)
    shapes = [tuple(FONT[c]) for c in string.printable[:94]]
    assert len(set(shapes)) == 94
    assert all(len(rows) <= 9 and all(0 <= r < 32 for r in rows) for rows in FONT.values())
    assert text_width("Total", 3) == 5 * 18 - 3
    assert text_width("") == 0


# -- wrap ------------------------------------------------------------------------------------------
def test_wrap_breaks_at_spaces_and_marks_what_does_not_fit():
    assert wrap("one two three four", 9) == ["one two", "three..."]
    assert wrap("one two three four", 9, 3) == ["one two", "three", "four"]
    assert wrap("one two", 7) == ["one two"]
    assert wrap("  ", 10) == [] and wrap("", 0) == []


def test_wrap_without_a_line_limit_keeps_every_line():
    s = "7. Traps that hit you: 3 x -3 (your own Trap in F6, set there by another player too)"
    got = wrap(s, 20, 0)
    assert len(got) > 2 and all(0 < len(line) <= 20 for line in got)
    assert " ".join(got).split() == s.split()


@pytest.mark.parametrize("chars", [-5, 0, 1, 2, 3])
def test_wrap_never_drops_text_however_narrow(chars):
    """wrap(s, 0) used to return empty lines, and lines=0 no lines at all."""
    got = wrap("ab cde", chars, 0)
    assert "".join(got).replace(" ", "") == "abcde"
    assert all(1 <= len(line) <= max(chars, 1) for line in got)
    limited = wrap("ab cde", chars, 2)
    assert len(limited) == 2 and all(1 <= len(line) <= max(chars, 1) for line in limited)
    assert wrap("ab cde", chars, 9) == got


def test_wrap_cuts_a_word_longer_than_a_line_across_lines():
    assert wrap("abcdefghij kl", 4, 0) == ["abcd", "efgh", "ij", "kl"]
    assert wrap("abcdefghij kl", 4) == ["abcd", "e..."]


# -- PNG -------------------------------------------------------------------------------------------
def test_png_reader_reads_what_the_writer_writes(tmp_path):
    rows = [bytes((x * 40 + y * 7) & 0xFF for x in range(5)) for y in range(3)]
    assert png_pixels(png_bytes(5, 3, rows)) == (5, 3, b"".join(rows))
    w, h, px = png_pixels(png_bytes(5, 3, rows, scale=2))
    assert (w, h) == (10, 6) and px[:10] == bytes(v for v in rows[0] for _ in range(2))
    write_png(tmp_path / "a.png", 5, 3, rows)
    assert png_pixels((tmp_path / "a.png").read_bytes()) == (5, 3, b"".join(rows))
    with pytest.raises(ValueError, match="not a PNG"):
        png_pixels(b"GIF89a")


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
        assert not [m for m in mods if not m.startswith("doodlebox.drawing.")]


# -- wrap at work: the Deadly Doodles map's scoring panel ------------------------------------------
def _drawn(picture, x: int, y: int, s: str, v: int) -> bool:
    """Whether the picture holds exactly s in grey v (scale 2) with its top-left at (x, y)."""
    width, _, px = picture
    cv = Canvas(text_width(s), 18)
    cv.text(0, 0, s, v)
    return all(px[(y + r) * width + x:(y + r) * width + x + cv.width] == row for r, row in enumerate(cv.rows()))


@pytest.mark.parametrize("player", [0, 1, 2])
def test_the_deadly_doodles_panel_lists_items_1_to_7_in_full(tmp_path, player):
    rp = deadly_record.replay(deadly_record.read(GOLDEN / "deadly-traps.json"))
    path = deadly_render.render_sheet(rp.state, player, tmp_path / "map.png")
    _width, height, _px = picture = png_pixels(path.read_bytes())
    x, top = deadly_render.map_geometry(rp.record.map).panel
    items = deadly_score(rp.state).sheets[player].items
    assert [what.split(".")[0] for what, _ in items] == list("1234567")
    y = top
    for what, points in items:
        while y < height - 18 and not _drawn(picture, x, y, what.split()[0], INK):
            y += 1
        lines = wrap(what, (deadly_render.PANEL - 70) // 12, 0)
        assert lines and _drawn(picture, x, y, lines[0], INK), f"no item {what[:2]} in the panel"
        assert _drawn(picture, x + deadly_render.PANEL - text_width(f"{points:+d}"), y, f"{points:+d}", INK)
        for k, line in enumerate(lines[1:], 1):
            assert _drawn(picture, x + 24, y + k * deadly_render.LINE, line, LABEL)
        assert " ".join(lines).split() == what.split()
        y += len(lines) * deadly_render.LINE
    assert y < height - 60  # room below for the total
