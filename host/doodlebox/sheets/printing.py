"""The blank sheet to print (docs/sheets.md, The blank sheet): a sheet or map side drawn by the
renderer of the players' sheets (rules/dice/render.py, rules/deadly/render.py) at print
resolution, 300 dots per inch, on an A4 or US Letter page, landscape, in a 10 mm margin; written
as a one-page PDF or a PNG that says 300 dpi."""
from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from PIL import Image

from doodlebox.drawing.canvas import Canvas
from doodlebox.rules.deadly import maps
from doodlebox.rules.deadly import render as deadly_render
from doodlebox.rules.dice import layout
from doodlebox.rules.dice import render as dice_render
from doodlebox.sheets.library import Sheet, SheetError

DPI = 300
MM = DPI / 25.4
PAPERS = {"a4": (297 * MM, 210 * MM), "letter": (11 * DPI, 8.5 * DPI)}   # landscape, in dots
MARGIN = 10 * MM
FORMATS = {".pdf": "PDF", ".png": "PNG"}


@dataclass(frozen=True)
class Page:
    """Where the sheet went on the page: a point (x, y) of the sheet's drawing (render's
    geometry, in its units) is the page's dot (left + x * scale, top + y * scale)."""
    width: int
    height: int
    left: float
    top: float
    scale: float


def titles(sheet: Sheet) -> tuple[str, str]:
    """The sheet's two title lines: its name and hash (a game names the sheet by both), then
    what it is."""
    made = ("a reconstruction by doodlebox: the rulebooks print no sheet" if sheet.default
            else "a sheet of the table's own")
    return f"{sheet.name} - hash {sheet.hash}", f"{sheet.title}, {made}. Print at 100% (actual size)."


def drawing(sheet: Sheet, zoom: int = 1) -> Canvas:
    """The blank sheet drawn `zoom` times finer than the sheet pictures."""
    head, sub = titles(sheet)
    if sheet.kind == "map":
        return deadly_render.blank_canvas(maps.parse(sheet.data, sheet.name), head, sub, zoom)
    return dice_render.blank_canvas(layout.parse(sheet.data, sheet.name), head, sub, zoom)


def page(sheet: Sheet, paper: str = "a4") -> tuple[Image.Image, Page]:
    """The page with the blank sheet as large as fits inside the margin, centred."""
    if paper not in PAPERS:
        raise SheetError(f"no paper {paper!r} ({', '.join(PAPERS)})")
    pw, ph = (round(v) for v in PAPERS[paper])
    small = drawing(sheet)
    fit = min((pw - 2 * MARGIN) / small.width, (ph - 2 * MARGIN) / small.height)
    zoom = max(1, math.ceil(fit))                  # drawn at least as fine as it is printed
    fine = drawing(sheet, zoom).image
    w, h = round(small.width * fit), round(small.height * fit)
    fine = fine.resize((w, h), Image.Resampling.LANCZOS) if (w, h) != fine.size else fine
    sheet_page = Image.new("L", (pw, ph), 255)
    left, top = (pw - w) // 2, (ph - h) // 2
    sheet_page.paste(fine, (left, top))
    return sheet_page, Page(pw, ph, left, top, w / small.width)


def print_sheet(sheet: Sheet, out: Path, paper: str = "a4") -> Page:
    """Write the blank sheet to `out`: a PDF of one page for a name ending in .pdf, a PNG at 300
    dpi for .png."""
    kind = FORMATS.get(out.suffix.lower())
    if kind is None:
        raise SheetError(f"{out}: the blank sheet is written as .pdf or .png")
    if not out.parent.is_dir():
        raise SheetError(f"{out}: cannot be written: there is no folder {out.parent}")
    image, placed = page(sheet, paper)
    try:
        if kind == "PDF":
            image.save(out, "PDF", resolution=DPI, title=titles(sheet)[0])
        else:
            image.save(out, "PNG", dpi=(DPI, DPI))
    except OSError as exc:
        raise SheetError(f"{out}: cannot be written ({exc.strerror or exc})") from None
    return placed
