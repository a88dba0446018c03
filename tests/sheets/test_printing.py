"""`sheets print`'s blank sheet, opened and read as a printer would take it: the page's size and
resolution, the grid where the geometry says, and at every square the mark the sheet prints there
(its kind, its start flag, its printed houses, a Deadly Doodles room's walls and contents), and
nothing of a player's."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from PIL import Image

from doodlebox.rules.deadly import maps
from doodlebox.rules.deadly import render as deadly_render
from doodlebox.rules.dice import layout
from doodlebox.rules.dice import render as dice_render
from doodlebox.sheets import library, printing


@pytest.fixture(autouse=True)
def data_home(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))


def printed(tmp_path: Path, name: str, paper: str = "a4") -> tuple[Image.Image, printing.Page]:
    out = tmp_path / f"{name}-{paper}.png"
    page = printing.print_sheet(library.find(name), out, paper)
    image = Image.open(out)
    image.load()
    return image, page


def ink(image: Image.Image, page: printing.Page, box: tuple[float, float, float, float]) -> int:
    """The darkest grey on the page inside a box given in the drawing's units."""
    x0, y0, x1, y1 = (page.left + box[0] * page.scale, page.top + box[1] * page.scale,
                      page.left + box[2] * page.scale, page.top + box[3] * page.scale)
    return image.crop((round(x0), round(y0), round(x1), round(y1))).getextrema()[0]


@pytest.mark.parametrize("paper, size", [("a4", (3508, 2480)), ("letter", (3300, 2550))])
def test_the_page_is_the_paper_at_300_dpi_landscape_inside_the_margin(tmp_path, paper, size):
    image, page = printed(tmp_path, "city", paper)
    assert image.size == size and (page.width, page.height) == size
    assert round(image.info["dpi"][0]) == 300 and image.mode == "L"
    margin = 10 / 25.4 * 300
    grey = image.load()
    blank = [grey[x, y] for x in range(0, size[0], 7) for y in range(0, size[1], 7)
             if x < margin - 2 or y < margin - 2 or x > size[0] - margin + 2 or y > size[1] - margin + 2]
    assert min(blank) == 255                                # nothing printed in the margin
    assert page.scale > 1.8                                 # a square near 19 mm: room to draw in it
    assert dice_render.SQ * page.scale / 300 * 25.4 > 18


@pytest.mark.parametrize("name", ["city", "suzhou", "treasures", "shanghai", "monsters"])
def test_every_square_of_a_dice_sheet_carries_its_print(tmp_path, name):
    image, page = printed(tmp_path, name)
    lay = layout.parse(library.find(name).data, name)
    geo = dice_render.sheet_geometry(lay)
    sq = dice_render.SQ
    for i, (square, (x, y)) in enumerate(zip(lay.squares, geo.squares)):
        where = f"{name} square {square.row},{square.col}"
        assert ink(image, page, (x - 1, y + 30, x + 1, y + 90)) < 200, where + ": no grid line on the left"
        corner = ink(image, page, (x + 3, y + 3, x + 60, y + 16))
        assert (corner < 160) == (square.kind != "plain"), where + f": its kind ({square.kind}) as printed"
        flag = ink(image, page, (x + sq - 18, y + 5, x + sq - 6, y + 15))
        assert (flag < 100) == square.start, where + ": the start flag"
        for k, (hx, hy) in enumerate(geo.houses.get(i, [])):
            assert ink(image, page, (hx + 2, hy + 7, hx + 14, hy + 16)) < 100, where + f": printed house {k + 1}"
        middle = ink(image, page, (x + 40, y + 40, x + sq - 40, y + sq - 40))
        assert middle > 200, where + ": a road drawn on a blank sheet"


def test_a_sheet_of_ones_own_prints_its_own_squares(tmp_path):
    data = json.loads(layout.default_path("city").read_text())
    assert data["squares"][0] == {"at": [1, 1], "kind": "hotel"}
    assert [1, 5] not in [s["at"] for s in data["squares"]]            # a plain square
    data["squares"][0]["at"] = [1, 5]                                   # the hotel moved along row 1
    data["name"] = "Our City"
    src = tmp_path / "ours.json"
    src.write_text(json.dumps(data))
    library.add(src)
    ours, page = printed(tmp_path, "ours")
    default, _ = printed(tmp_path, "city")
    squares = dice_render.sheet_geometry(layout.parse(data, "ours")).squares
    for (x, y), default_has, ours_has in ((squares[0], True, False), (squares[4], False, True)):
        assert (ink(default, page, (x + 3, y + 3, x + 60, y + 16)) < 160) == default_has
        assert (ink(ours, page, (x + 3, y + 3, x + 60, y + 16)) < 160) == ours_has


@pytest.mark.parametrize("name", ["deadly-a", "deadly-b"])
def test_every_room_of_a_map_side_carries_its_print(tmp_path, name):
    image, page = printed(tmp_path, name)
    m = maps.parse(library.find(name).data, name)
    geo = deadly_render.map_geometry(m)
    sq = deadly_render.SQ
    for i, (x, y) in enumerate(geo.rooms):
        where = f"{name} room {m.room_name(i)}"
        background = ink(image, page, (x + 60, y + 60, x + 100, y + 100))
        assert background < 255 if m.contents[i] else background == 255, where + ": its shade"
        if m.contents[i]:
            assert ink(image, page, (x + 10, y + 8, x + 34, y + 34)) < 100, where + f": the {m.contents[i]}"
        if m.walls[i] & maps.N:
            assert ink(image, page, (x + 20, y - 2, x + sq - 20, y + 2)) < 60, where + ": its wall on the north"


def test_a_pdf_is_one_page_of_the_paper(tmp_path):
    out = tmp_path / "city.pdf"
    printing.print_sheet(library.find("city"), out, "letter")
    data = out.read_bytes()
    assert data.startswith(b"%PDF-")
    boxes = re.findall(rb"/MediaBox \[ ?0 0 ([\d.]+) ([\d.]+) ?\]", data)
    assert len(boxes) == 1 and data.count(b"/Type /Page\n") + data.count(b"/Type /Page ") <= 1
    w, h = (float(v) for v in boxes[0])
    assert (round(w), round(h)) == (792, 612)               # 11 x 8.5 inches in points


@pytest.mark.parametrize("out, says", [("x.jpg", "as .pdf or .png"), ("nowhere/x.png", "no folder")])
def test_a_file_that_cannot_be_written_is_one_line(tmp_path, out, says):
    with pytest.raises(library.SheetError, match=says):
        printing.print_sheet(library.find("city"), tmp_path / out)
