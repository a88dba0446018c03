"""The terminal a player reads (issue 36): `doodlebox log` (`make run`) and `doodlebox sim` on a
terminal draw the virtual console once it has settled after a press, in one box (the tune on its
top edge, the LED dice on its bottom edge); with the logger its line for the press's event is
the one line outside the box. The map and the legend's pieces are drawn in the same line-drawing
characters; a house square (a start square of the 5x5 sheets), which the e-paper writes as its
houses left, is a mark no one reads as a die's face, named in the key beside the map; the path of
the panel's PNG is said once.

The quick tests draw given panel lines; the slow one is `doodlebox log --cpython` itself (the
firmware under CPython, the logger, SQLite) with its terminal panel pressed by a script, and
reads the transcript press by press."""
from __future__ import annotations

import io
import itertools
import json
import re
import sys
import threading
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from doodlebox import paths
from doodlebox.virtual import panel
from doodlebox.virtual.panel import TerminalPanel, card_art, map_art

DIE_FACES = set("123456")
HOUSE = "\u2302"                 # a house square's mark
SIDES = {1: "\u2575", 2: "\u2576", 3: "\u2514", 4: "\u2577", 5: "\u2502", 6: "\u250c", 7: "\u251c", 8: "\u2574",
         9: "\u2518", 10: "\u2500", 11: "\u2534", 12: "\u2510", 13: "\u2524", 14: "\u252c", 15: "\u253c"}
CITY = json.loads((paths.layouts() / "doodle-city.json").read_text())
STARTS = {tuple(s["at"]) for s in CITY["squares"] if s.get("start")}       # (row, column)

# Doodle City before the start roads, as the firmware writes its map (firmware/doodle/rounds_view.py
# _map): a house square's houses left (2 on every start square), each kind's letter
SETUP_MAP = "#5HS2T TSHS22TS S HS2TT2 SH|"


def _grid(rows: list[str]) -> dict[tuple[int, int], str]:
    """The squares of map_art's rows (its first row the columns' numbers): (row, column) -> character."""
    out = {}
    for r, row in enumerate(rows[1:6], start=1):
        for c in range(1, 6):
            out[(r, c)] = row[3 + 3 * (c - 1) + 1]
    return out


def test_no_start_square_is_a_digit_and_the_key_says_what_its_mark_is():
    grid = _grid(map_art(SETUP_MAP))
    assert {grid[s] for s in STARTS} == {HOUSE}
    assert not DIE_FACES & set(grid.values())
    rows = map_art(SETUP_MAP, "City setup")              # the title names the edition: the key in its words
    assert _grid(rows) == grid
    assert any(r.rstrip().endswith(f"{HOUSE} start square") for r in rows), rows
    assert any(r.rstrip().endswith("H hotel") for r in rows) and any(r.rstrip().endswith("T taxi") for r in rows)
    suzhou = map_art(SETUP_MAP, "Suzhou setup")          # not Suzhou's start squares: house squares
    assert any(r.rstrip().endswith(f"{HOUSE} house square") for r in suzhou), suzhou
    treasures = map_art("#52" + " " * 24 + "|", "Treasures round 2")  # Sea of Treasures' house squares are archipelagos
    assert any(r.rstrip().endswith(f"{HOUSE} archipelago") for r in treasures), treasures


def test_the_legends_pieces_are_the_maps_characters():
    """A dice edition's legend ("%" and each piece's sides in hex) is drawn with the very character
    the map draws the same piece with; nothing of the old ASCII art (-+-, |)."""
    legend = "%" + "".join("%x" % m for m in (10, 5, 3, 6, 12, 9))     # City's EW NS NE ES SW NW
    art = card_art(legend)
    drawn = art[0].split()
    on_map = [map_art("#5" + chr(97 + m) * 25 + "|")[1][4] for m in (10, 5, 3, 6, 12, 9)]
    assert drawn == on_map == ["\u2500", "\u2502", "\u2514", "\u250c", "\u2510", "\u2518"]
    assert art[1].split() == ["1", "2", "3", "4", "5", "6"]
    assert [art[0].index(ch) for ch in drawn] == [art[1].index(n) for n in "123456"]     # each over its number
    assert not set("-+|") & set("".join(art))
    cards = card_art("%3X+f1")                            # Deadly Doodles: a Trap, a Draw 2, a dead end
    assert cards[0].split() == ["\u2514", "X", "+2", "\u253c", "\u2575"] and cards[1].split() == list("1234")


def test_tunes_are_named_as_the_firmware_names_them():
    tune_names = panel.tune_names
    assert tune_names([1200, 1400, 1600]) == ["roll"]
    assert tune_names([1175, 1175, 196]) == ["choose", "refuse"]
    assert tune_names([784, 659, 196]) == ["end", "refuse"]          # a tune cut short by a refusal: still named
    assert tune_names([440]) == ["440Hz"]


class _Fake:
    """A console as TerminalPanel reads it: its panel's lines (set by the test), its e-paper's
    refresh count, its LED dice (all off) and its buzzer's notes."""

    def __init__(self) -> None:
        self.text = ["Doodle City", "ROLL to start"]
        self.notes: list[tuple[float, int, float]] = []
        self.saved = 0
        epaper = SimpleNamespace(full_refreshes=0, partial_refreshes=0)
        leds = SimpleNamespace(dice=lambda: [[(0, 0, 0)] * 7] * 7, max_level=24)
        self.hardware = SimpleNamespace(epaper=epaper, leds=leds, buzzer=SimpleNamespace(tones=lambda: self.notes))

    def save_panel(self, path):
        self.saved += 1
        return path


def test_the_console_is_printed_once_it_settles_and_the_pictures_path_once(monkeypatch, tmp_path):
    vc = _Fake()
    monkeypatch.setattr(panel, "panel_lines", lambda _vc: list(vc.text))
    out = io.StringIO()
    tp = TerminalPanel(vc, tmp_path, out=out, settle_s=0.4)
    assert not tp.show(0.0)                               # new: not yet settled
    assert tp.show(0.5)
    for k in range(1, 6):                                 # the picture redrawn, the same text: nothing more
        vc.hardware.epaper.partial_refreshes += 1
        assert not tp.show(0.5 + k)
    vc.text = ["Doodle City", "Players: 2"]
    vc.notes = [(9.0, 1175, 0.04), (9.1, 1175, 0.04)]
    assert not tp.show(10.0) and not tp.show(10.2)
    assert tp.show(10.5)
    text = out.getvalue()
    assert text.count(str(tmp_path / "panel.png")) == 1 and vc.saved == 6
    boxes = text.split("the panel's picture:")[1].split("\n", 1)[1]
    assert boxes.count("| Doodle City") == 2 and boxes.count("+- tone: choose -") == 1
    assert "Hz" not in text


# -- `doodlebox log --cpython` on a terminal, pressed by a script --------------------------------------
MARK = "@@ press "
MAP_ROW = r"\|  \d [ \[].[ \]][ \[].[ \]]"    # a row of the map in a box: its number, then squares " x " or "[x]"


class _Transcript:
    """What the terminal shows: the logger's lines and the panel's boxes, in the order written."""

    def __init__(self) -> None:
        self.chunks: list[str] = []
        self.lock = threading.Lock()

    def write(self, text: str) -> int:
        with self.lock:
            self.chunks.append(text)
        return len(text)

    def flush(self) -> None:
        pass

    def say(self, line: str) -> None:
        self.write(line + "\n")

    def text(self) -> str:
        with self.lock:
            return "".join(self.chunks)


def _quiet(tp: TerminalPanel, out: _Transcript, least: float = 1.0, most: float = 8.0) -> None:
    """Look at the console as the terminal does until nothing new was written for `least` s."""
    start = time.monotonic()
    seen, since = len(out.text()), time.monotonic()
    while time.monotonic() - start < most:
        tp.show()
        time.sleep(0.05)
        now = len(out.text())
        if now != seen:
            seen, since = now, time.monotonic()
        elif time.monotonic() - since >= least:
            return


def _scripted(out: _Transcript, presses: list[str]):
    """TerminalPanel whose run() presses `presses` (each said in the transcript with MARK), then
    answers the panel's questions for a turn, then takes a die already taken (refused)."""

    class Scripted(TerminalPanel):
        def __init__(self, vc, png_dir: Path):
            super().__init__(vc, png_dir, out=out)

        def press(self, name: str) -> None:
            out.write(f"{MARK}{name}\n")
            self.vc.press(name)
            _quiet(self, out)

        def run(self, keep_going=lambda: True) -> None:
            _quiet(self, out, least=1.5)
            for name in presses:
                self.press(name)
            for _ in range(8):                         # P1's turn: whatever the panel asks
                shown = " ".join(panel.panel_lines(self.vc))
                if "take a die" in shown and "P1" not in shown.split("take a die")[0][-6:]:
                    break
                self.press("D3" if "piece?" in shown else "ROLL" if "circle" in shown
                           else "D1" if "row?" in shown or "column?" in shown else "D2")
            self.press("D2")                           # P2 takes the die P1 took: refused
            out.write(f"{MARK}(none: the end)\n")      # the logger's summary after it

    return Scripted


def _segments(text: str) -> list[tuple[str, list[str], list[list[str]]]]:
    """The transcript press by press: (the press, the lines outside boxes, the boxes)."""
    out = []
    for part in text.split(MARK)[1:-1]:
        name, _, rest = part.partition("\n")
        lines, boxes, box = [], [], None
        for line in rest.splitlines():
            if box is None and line.startswith("+"):
                box = [line]
            elif box is not None:
                box.append(line)
                if line.startswith("+"):
                    boxes.append(box)
                    box = None
            elif line.strip():
                lines.append(line)
        out.append((name, lines, boxes))
    return out


@pytest.mark.slow
def test_doodlebox_log_on_a_terminal_prints_one_line_per_press(tmp_path, monkeypatch):
    from doodlebox.cli import console as cli_console
    from doodlebox.cli import parser
    from doodlebox.logger import run as logger_run

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    out = _Transcript()
    monkeypatch.setattr(cli_console, "say", out.say)
    monkeypatch.setattr(logger_run, "TerminalPanel", _scripted(out, ["D2", "ROLL"] + ["ROLL"] * 5 + ["ROLL"]))
    monkeypatch.setattr(sys, "stdin", SimpleNamespace(isatty=lambda: True))
    db = tmp_path / "games.sqlite3"
    args = parser().parse_args(["log", "--cpython", "--seed", "3", "--db", str(db), "--wait", "30"])
    assert args.run(args) == 0
    text = out.text()
    segments = _segments(text)
    assert len(segments) >= 11, text
    said = [line for _, lines, _ in segments for line in lines]
    assert "  start road, column 5: " in "\n".join(said) and re.search(r"^round 1: P1 rolls", text, re.M), text
    assert any("refused" in line for line in said), text
    for name, lines, boxes in segments:
        assert len(lines) <= 1, (name, lines)            # what happened, once (the logger's line)
        assert boxes, (name, text)                       # the console as it settled
        assert all(a != b for a, b in itertools.pairwise(boxes)), name
    assert text.count(str(tmp_path / "data" / "doodlebox" / "panel.png")) == 1
    assert "Hz/" not in text and "| panel " not in text

    setup = next(b for _, _, boxes in segments for b in boxes if "setup" in b[1])      # no start road yet
    grid_rows = [r[2:-1] for r in setup if re.match(MAP_ROW, r)]
    grid = {(r, c): row[3 + 3 * (c - 1) + 1] for r, row in enumerate(grid_rows, start=1) for c in range(1, 6)}
    assert {grid[s] for s in STARTS} == {HOUSE}, setup       # no die face: nothing rolled there yet
    assert any(f"{HOUSE} start square" in r for r in setup), setup

    legend = next((b for _, _, boxes in segments for b in boxes if any("piece?" in r for r in b)), None)
    assert legend is not None, text
    k = next(i for i, r in enumerate(legend) if r[1:-1].split() == list("123456"))     # the buttons' numbers
    pieces = set(legend[k - 1][1:-1].split())                                          # ... under the pieces
    assert pieces == {SIDES[m] for m in (10, 5, 3, 6, 12, 9)}, legend      # the map's characters
    on_maps = {ch for b in (setup, legend) for r in b if re.match(MAP_ROW, r) for ch in r[5:20]}
    assert on_maps - {" ", "[", "]", HOUSE} <= set(SIDES.values()) | set("HST"), on_maps
