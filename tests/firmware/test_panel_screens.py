"""A dice edition's screen on the e-paper (docs/console.md, "The panel"): what to do now in words
(the square by row, column and the sheet's own word for it), the map of the current player's
sheet at the right edge with the square (or the squares to choose from) marked, the legend's
pieces drawn as pieces, the players' table with labelled rows; and a line three times the size
(a timer's digits). Drawn by the real firmware/board/panel.py, under CPython for every edition
and every phase of random games (the screen reader must give back every line that drew the
picture: nothing cut, nothing under the map), and in the MicroPython VM (the real framebuf)."""
from __future__ import annotations

import random
import sys
from pathlib import Path

import make_panel_pictures
import pytest
from test_card_faces import image_of, panel, vm_picture  # noqa: F401  (panel: a fixture)
from test_console_core import EDITIONS, Console

from doodle import rounds
from doodle.sheet import SIDES
from doodlebox.virtual import screen

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "guest"))
import panel_frame  # (tests/guest: the whole frame, for the tests)

ROOT = Path(__file__).resolve().parents[2]
BUTTONS = ("D0", "D1", "D2", "D3", "D4", "D5", "D6", "ROLL", "PASS")


def picture(module, lines: list[str]) -> list[bytearray]:
    return image_of(panel_frame.frame(module.Panel(None), lines))


def screens(edition: str, seed: int, presses: int = 260):
    """Every new screen of a random game on the console (CPython) of 1 to 5 players (by the seed),
    with its phase."""
    rng = random.Random(seed)
    c = Console(edition, players=1 + seed % 5)
    c.dice.faces = [rng.randint(1, 6) for _ in range(4000)]
    seen = None
    for _ in range(presses):
        g = c.app.game
        if g is None:
            return
        lines = list(c.app.screen())
        if lines != seen:
            seen = lines
            yield g.phase, lines
        if g.phase <= rounds.READY:
            c.press("ROLL")
        else:
            c.press(rng.choice(BUTTONS[:7] if g.phase != rounds.VALUE else ("PASS", "ROLL")))


@pytest.mark.parametrize("edition", EDITIONS)
def test_every_screen_of_a_game_reads_back_whole(panel, edition):  # noqa: F811
    phases = set()
    for seed in range(5):
        for phase, lines in screens(edition, seed, presses=160):
            img = picture(panel, lines)
            assert screen.lines(img) == lines, (edition, phase)
            assert all(len(s.lstrip("!")) <= 23 for s in lines[1:] if s[:1] not in "#%^"), lines   # beside the map
            assert lines[1].startswith("^") and len(lines[1]) <= 38, lines    # the action, on top
            phases.add(phase)
    assert {rounds.SETUP, rounds.READY, rounds.CLAIM, rounds.PIECE} <= phases, phases


def test_the_square_is_named_and_marked_and_the_legend_drawn(panel):  # noqa: F811
    c = Console("city", players=2)
    c.setup()
    c.roll(4, 2, 3, 3)                      # white 2, column 4: row 2, column 4, a shop in City
    assert c.press("D1") is None and c.game.phase == rounds.PIECE
    lines = c.app.screen()
    assert lines[1:3] == ["^P1: row 2, column 4 (shop): piece?", "map: P1"]
    img = picture(panel, lines)
    n, side, x0 = screen.map_box(img)
    assert (n, side) == (5, 19)
    top = panel.MAP_TOP + 9
    x, y = x0 + 3 * side, top + 1 * side            # row 2, column 4: black, its letter white
    inner = ((2, 2), (side - 2, 2), (2, side - 2), (side - 2, side - 2))       # black inside a white ring
    assert all(img[y + dy][x + dx] == 0 for dx, dy in inner)
    assert all(img[y + dy][x + dx] == 1 for dx, dy in ((1, 1), (side - 1, 1), (1, side - 1), (side - 1, side - 1)))
    assert screen.read_map(img, n, side, x0).endswith("|" + chr(48 + 5 + 3))
    glyph = screen._cell(img, x + (side - 7) // 2, y + (side - 7) // 2, 1, 1)
    assert screen.font()[glyph] == "S"
    # the start roads (drawn in every column) are pieces on the map: their sides as a card's path
    ed = c.game.ed
    for col in range(5):
        i = (ed.START[col] - 1) * 5 + col
        assert screen.read_map(img, n, side, x0)[2 + i] == chr(97 + c.sheet(0).pieces[i])
    # the legend: six pieces numbered 1-6 beside the map, each its face's sides
    legend = "".join("0123456789abcdef"[SIDES[f]] for f in ed.LEGEND)
    assert screen.card_row(img, panel.BODY_Y + 2 * 9, screen.map_chars(5) * 8) == "%" + legend


def test_a_six_on_the_column_die_marks_the_row_and_asks_the_column(panel):  # noqa: F811
    c = Console("city", players=2)
    c.setup()
    c.roll(6, 2, 3, 3)                      # blue 6 (any column), white 2: a square of row 2
    assert "Blue die 6: any column" in c.app.screen() and "White 2 3 3" in c.app.screen()
    assert c.press("D1") is None and c.game.phase == rounds.COL
    lines = c.app.screen()
    assert lines[1:4] == ["^P1: column? D1-D5", "map: P1", "in row 2   PASS: back"]
    marked = lines[-1].split("|")[1]
    assert marked and all(5 <= ord(ch) - 48 < 10 for ch in marked)     # every free square of row 2
    img = picture(panel, lines)
    assert screen.read_map(img, *screen.map_box(img)) == lines[-1]


def test_the_players_table_is_labelled_and_aligned():
    c = Console("city", players=3, control=True)
    c.setup()
    c.roll(4, 1, 2, 3)
    lines = c.app.screen()
    assert lines[1:4] == ["^P1: take a die", "map: P1", "or PASS: cross a tree"]
    head = lines.index("             P1  P2  P3")
    assert lines[head + 1] == "If it ended   0   0   0" and lines[head + 2] == "Trees out     0   0   0"
    c.turn("PASS")                          # More control: P1 crosses a tree instead of a die
    lines = c.app.screen()
    head = lines.index("             P1  P2  P3")
    assert lines[head + 2] == "Trees out     1   0   0"
    assert lines[head + 1] == "If it ended  -4   4   4"       # most trees -4, fewest +4 (R18), as if over now


def test_a_big_line_is_the_font_three_times_the_size(panel):  # noqa: F811
    lines = ["Puzzle R2/5", "@0:42 PAUSED", "Drawing: card 3, number 7", "PC: offline"]
    img = picture(panel, lines)
    assert screen.lines(img) == lines
    glyphs = {v: k for k, v in screen.font().items()}
    cols = glyphs["4"]                                    # the third character: "4", each pixel 3x3
    for cx in range(8):
        for r in range(8):
            ink = (cols[cx] >> r) & 1
            for dx in range(3):
                for dy in range(3):
                    assert (img[panel.BODY_Y + 3 * r + dy][2 * 24 + 3 * cx + dx] == 0) == bool(ink)


def test_in_the_vm_the_map_the_legend_and_a_big_line_read_back():
    c = Console("monsters", players=2)
    c.setup()
    c.roll(3, 3, 3, 3)
    c.press("D1")
    lines = list(c.app.screen())
    assert lines[-1].startswith("#6")
    assert screen.lines(vm_picture(lines)) == lines
    big = ["Puzzle R1/5", "@0:07", "Drawys draw!   (MENU: pause)", "PC: connected"]
    assert screen.lines(vm_picture(big)) == big


class Driver:
    """The e-paper driver as the panel sees it: never busy here; what each refresh was."""

    def __init__(self):
        self.refreshes: list[bool] = []
        self.partials = 0
        self.chunk = 0

    def busy(self):
        return False

    def tick(self, now):
        pass

    def show(self, image, full):
        self.refreshes.append(bool(full))
        self.partials = 0 if full else self.partials + 1


def test_a_new_round_is_a_full_refresh_and_a_turn_partial(panel):  # noqa: F811
    """Partial refreshes (0.3 s) within a round and while the lobby is browsed; a full one (2 s)
    when a game's title changes: the round's end (the title already names the round to be
    rolled), a game begun or over. The loop hands the app's wish to the panel (board/loop.py)."""
    drv = Driver()
    p = panel.Panel(drv)
    c = Console("city", players=2, start=False)

    def step(*names):
        c.turn(*names)
        lines = c.app.screen()
        p.show(lines, c.now, c.app.full_screen)       # as board/loop.py does
        c.app.full_screen = False
        return lines[0], drv.refreshes[-1]

    assert [step("D0")[1] for _ in range(3)] == [False] * 3      # the lobby: the next game, partial
    while c.app.edition != "city":
        step("D0")
    step("D2")
    assert step("ROLL") == ("City setup", True)                 # a game begun
    for _ in range(5):
        c.dice.faces = [1]
        step("ROLL")
    c.roll(4, 1, 2, 3)
    c.app.screen()
    c.app.full_screen = False
    got = [step("D1"), step("D1"), step("D2"), step("D1")]      # P1 and P2 draw: the round ends
    assert got[:3] == [("City round 1", False)] * 3
    assert got[3] == ("City round 2", True) and c.game.phase == rounds.READY
    c.dice.faces = [4, 1, 2, 3]
    assert step("ROLL") == ("City round 2", False)              # the roll itself: partial
    step("MENU")
    assert step("ROLL")[1] is True                              # the game over: full


@pytest.mark.parametrize("name", sorted(make_panel_pictures.PICTURES))
def test_the_docs_pictures_are_what_the_firmware_draws(panel, name):  # noqa: F811
    """docs/img/panel-*.png (README.md, docs/console.md): drawn again by `python
    tests/tools/make_panel_pictures.py` whenever the screen changes."""
    lines = make_panel_pictures.PICTURES[name]()
    assert make_panel_pictures.read_png(ROOT / "docs" / "img" / name) == picture(panel, lines), \
        f"docs/img/{name} is not what the firmware draws now: run python tests/tools/make_panel_pictures.py"


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_screen_is_built_after_every_press_of_a_whole_game(edition):
    """As the loop does (and `make bench`'s core game): the screen after every press, before
    the collection the app asks for, the game's end included (the game's view is asked once
    more while its final table waits for that collection: it crashed there once)."""
    import table_script

    from doodle.app import App
    from doodle.flashlog import RamFlash

    app = App(table_script.rand, boot=1, uid="be0c", store=RamFlash())
    now = [0]
    ended = False
    for name in table_script.steps(app, now, edition, 3):
        now[0] += 150
        app.button(name, now[0])
        app.tick(now[0])
        lines = app.screen()
        assert lines and all(isinstance(s, str) for s in lines)
        ended = ended or (app.game is not None and app.game.over())
        if app.collect_wanted:
            app.collected()
            app.screen()
    assert ended and app.screen()[0].endswith("game over")


def test_a_screen_always_fits_the_panels_twelve_lines():
    """Sea of Monsters, 5 players, a notice on two bars and the PC's violations: the tracks, then
    the barrels' row, then the table give way; the action, the map's owner, the dice, the notice
    and the link stay."""
    from doodle import link

    c = Console("monsters", players=5)
    c.setup()
    c.roll(4, 1, 2, 3, 4, 5, 6)
    c.app.serial_in(link.encode({"t": "score", "g": 1, "r": 1, "p": [1, 2, 3, 4, 5], "bad": 2,
                                 "why": "R1 P2: die 3 points to a square drawn"}), c.now)
    c.app.notice = "flash refused the boot number: nothing saved or sent"     # the longest notice
    c.app.screen_rev += 1
    lines = c.app.screen()
    body = [lines[0]] + [s for s in lines[2:] if not s.startswith("#")]    # the title a body line
    slots = sum(4 if s.startswith("%") else 1 for s in body)
    assert slots <= 12, lines
    assert lines[1] == "^P1: take a die" and any(s.startswith("Black die") for s in lines)
    assert lines[-2].startswith("PC: ") and sum(s.startswith("!") for s in lines) == 4
    assert not any(" out: " in s for s in lines)             # the tracks gave way first
    assert lines[2] == "map: P1"
    # the table (its head, the totals, the trees) gives way only when it has no room
    assert any(s.startswith("If it ended") or s.startswith("PC: if end") for s in lines) or slots + 3 > 12


# -- the action on top (issue 36) ----------------------------------------------------------------
def test_the_action_is_drawn_on_top_in_the_largest_type_and_the_title_under_it(panel):  # noqa: F811
    c = Console("city", players=3)
    c.setup(2, 3, 1, 4, 5)
    c.roll(4, 2, 5, 3, 6)
    lines = c.app.screen()
    assert lines[:3] == ["City round 1", "^P1: take a die", "map: P1"]    # line 0: the round's title
    img = picture(panel, lines)
    assert screen.read_line(img, 0, 2) == "P1: take a die"               # double size, on top
    width = screen.map_chars(5) * 8
    assert screen.read_line(img, panel.BODY_Y, 1, width) == "City round 1"
    assert screen.read_line(img, panel.BODY_Y + 9, 1, width) == "map: P1"
    c.press("D1")                               # too long for double width: double height
    lines = c.app.screen()
    assert lines[1] == "^P1: row 2, column 4 (shop): piece?"
    img = picture(panel, lines)
    assert screen.read_line(img, 0, 2) is None
    assert screen.read_line(img, 0, 2, wide=1) == "P1: row 2, column 4 (shop): piece?"
    assert screen.lines(img) == lines


def test_a_value_circled_as_the_only_one_is_said_until_the_next_press():
    c = Console("city", players=3)
    c.setup(2, 3, 1, 4, 5)
    c.roll(4, 5, 5, 3, 6)                       # white 5, blue 4: row 5, column 4, a shop
    assert c.press("D1", "D2") is None and c.last("claim")["v"] == 1   # 1 the only value: circled
    lines = c.app.screen()
    assert lines[1:4] == ["^P1: circled 1 (shop)", "map: P2", "P2: take a die"]
    assert c.press("D2") is None                # the next press: P2's action again
    assert c.app.screen()[1] == "^P2: row 5, column 4 (shop): piece?"


def test_a_white_six_says_cross_out_a_tree():
    c = Console("city", players=3)
    c.setup(2, 3, 1, 4, 5)
    c.roll(1, 2, 5, 3, 6)                       # white 6 (any row: a tree), blue 1
    assert c.press("D4", "D1", "D2") is None    # row 1, column 1: a hotel on no road, nothing circled
    assert c.sheet(0).trees == 1
    lines = c.app.screen()
    assert lines[1:4] == ["^P1: cross out a tree", "map: P2", "P2: take a die"]
    c = Console("city", players=3)
    c.setup(2, 3, 1, 4, 5)
    c.roll(4, 6, 5, 3, 2)                       # white 6, blue 4: row 5 a shop, its only value 1
    assert c.press("D1", "D5", "D2") is None
    assert c.app.screen()[1] == "^P1: circled 1, cross out a tree"
    assert c.press("PASS") == "must_take" and c.app.screen()[1] == "^P2: take a die"


def test_a_tree_crossed_with_pass_is_said_until_the_next_press():
    # the console crosses the tree itself: the panel says it as it says a tree a white 6 costs
    c = Console("city", players=3, control=True)
    c.setup(2, 3, 1, 4, 5)
    c.roll(4, 2, 5, 3, 6)
    assert c.press("PASS") is None and c.sheet(0).trees == 1 and c.last("tree")["why"] == "pass"
    lines = c.app.screen()
    assert lines[1:4] == ["^P1: cross out a tree", "map: P2", "P2: take a die"]
    assert c.press("D1") is None                # the next press: P2's action again
    assert c.app.screen()[1].startswith("^P2: ")
    c = Console("monsters", players=2, control=True)   # Sea of Monsters' word
    c.setup()
    c.roll(3, 3, 3, 3)
    assert c.press("PASS") is None
    tree = c.game.ed.WORDS["tree"]
    assert c.app.screen()[1] == "^P1: cross out a " + tree


def test_the_map_names_its_sheet_and_between_rounds_shows_the_start_players():
    c = Console("city", players=3)
    c.setup(2, 3, 1, 4, 5)
    c.roll(4, 2, 5, 3, 6)
    c.turn("D1", "D2")
    c.turn("D2", "D1")
    assert "map: P3" in c.app.screen()
    c.turn("D3", "D4")
    lines = c.app.screen()
    assert lines[:3] == ["City round 2", "^P2 starts: press ROLL", "map: P2"]
    drawn = lines[-1]
    assert drawn.startswith("#5")
    mine = c.sheet(1).pieces
    assert any(p != q for p, q in zip(mine, c.sheet(0).pieces))
    assert all(drawn[2 + i] == chr(97 + p) for i, p in enumerate(mine) if p)    # P2's sheet
