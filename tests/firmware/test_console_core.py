"""The console's game core (firmware/doodle/: app, rounds, sheet, score, view) under CPython, in
simulated time with rigged dice: every console ruling of docs/rulings.md (R1-R9, C1-C5), the
entries of docs/console.md, the lobby and its remembered choice, the PC's scores on the panel.
tests/table/test_console_agrees.py checks the same core against the PC's engine on random games."""
from __future__ import annotations

import json

import pytest

from doodle import rounds, score
from doodle.app import App
from doodle.flashlog import RamFlash

EDITIONS = ("city", "suzhou", "treasures", "shanghai", "monsters")


Flash = RamFlash   # the console's flash as the App sees it (board/flash.py keeps real files)


class Dice:
    """The console's random source, rigged: each rand(6) gives the next face queued."""

    def __init__(self):
        self.faces: list[int] = []

    def __call__(self, n):
        return self.faces.pop(0) - 1 if self.faces else 0


class Console:
    def __init__(self, edition="city", players=3, control=False, flash=None, start=True):
        self.dice = Dice()
        self.flash = Flash() if flash is None else flash
        self.app = App(self.dice, 1, "c0ffee", self.flash)
        self.now = 0
        self.events: list[dict] = []
        add = self.app.journal.add
        self.app.journal.add = lambda e: (self.events.append(e), add(e))[1]
        if start:
            while self.app.edition != edition:
                self.press("D0")
            self.press(f"D{players}")
            if control != self.app.control:
                self.press("PASS")
            self.press("ROLL")

    @property
    def game(self) -> rounds.Game:
        assert self.app.game is not None
        return self.app.game

    def press(self, *names):
        why = None
        for name in names:
            self.now += 200
            why = self.app.button(name, self.now)
            if self.app.collect_wanted:   # the loop's part: a collection, then the step kept for it
                self.app.collected()
            self.app.tick(self.now)
            self.app.journal.ack(1, self.app.journal.next)
        return why

    def turn(self, *names):
        """Press `names`; a value asked at the end is circled (the highest)."""
        why = self.press(*names)
        while why is None and self.app.game is not None and self.game.phase == rounds.VALUE:
            why = self.press("ROLL")
        return why

    def setup(self, *faces):
        for f in faces or (1,) * self.game.ed.SIZE:
            self.dice.faces = [f]
            self.press("ROLL")

    def roll(self, column, *whites):
        self.dice.faces = [column, *whites]
        assert self.press("ROLL") is None
        assert self.events[-1]["k"] == "roll"

    def last(self, kind=None):
        return next(e for e in reversed(self.events) if kind is None or e["k"] == kind)

    def sheet(self, p=0):
        return self.game.sheets[p]

    def square(self, row, col):
        return (row - 1) * self.game.ed.SIZE + col - 1

    def screen(self) -> str:
        return "\n".join(self.app.screen())


# -- the start and the dice (C2, R1, R9) --------------------------------------------------------
@pytest.mark.parametrize("edition", EDITIONS)
def test_setup_rolls_start_roads_column_by_column(edition):  # C2
    c = Console(edition, players=2)
    ed = c.game.ed
    c.setup(*[f % 6 + 1 for f in range(ed.SIZE)])
    starts = [e for e in c.events if e["k"] == "start"]
    assert [(e["col"], e["d"]) for e in starts] == [(k + 1, k % 6 + 1) for k in range(ed.SIZE)]
    for col in range(1, ed.SIZE + 1):
        i = c.square(ed.START[col - 1], col)
        piece = ed.LEGEND[(col - 1) % 6]
        assert all(s.pieces[i] == rounds.SIDES[piece] for s in c.game.sheets)
    assert c.game.phase == rounds.READY


def test_one_white_die_more_than_players_and_three_for_solo():  # R1
    assert Console(players=4).game.whites == 5
    assert Console(players=1).game.whites == 3
    assert Console("monsters", players=5).game.whites == 6


def test_claims_go_clockwise_and_a_taken_die_is_refused():  # R9
    c = Console(players=2)
    c.setup()
    c.roll(4, 1, 1, 5)          # whites 1, 1, 5: the column die 4
    assert c.game.current() == 0
    assert c.press("D1") is None and c.game.phase == rounds.PIECE   # [1, 4] taxi: the piece is asked
    assert c.press("D2") is None                                    # face 2 of City's legend: NS
    assert c.last()["k"] == "claim" and c.last()["pc"] == "NS" and c.game.current() == 1
    assert c.press("D1") == "taken" and c.last()["why"] == "taken"
    assert c.press("D2", "D3") is None                              # P2 takes the other 1: NE
    assert c.game.phase == rounds.READY and c.game.start_player == 1  # the next start player


def test_a_die_pointing_to_a_drawn_square_is_refused():  # R2
    c = Console(players=2)
    c.setup()
    c.roll(4, 1, 1, 5)
    c.turn("D1", "D2")                               # P1 draws at [1, 4]
    c.turn("D2", "D2")
    c.roll(4, 1, 2, 2)
    c.turn("D2", "D1")                               # P2 starts now: [2, 4], a shop
    assert c.game.current() == 0
    assert c.press("D1") == "drawn"                  # [1, 4] has P1's road
    assert "nowhere to draw" in c.screen()


def test_house_square_takes_two_crosses_then_refuses():
    c = Console(players=1)
    c.setup()
    for _ in range(2):
        c.roll(3, 1, 4, 4)                           # [1, 3] is a house square (a start square too)
        assert c.press("D1") is None                 # a house: nothing more is asked
        assert c.last("claim") == {"k": "claim", "g": 1, "r": c.game.round, "p": 0, "i": 1, "d": 1, "row": 1,
                                   "col": 3, "v": 0}
    c.roll(3, 1, 4, 4)
    assert c.press("D1") == "houses"


def test_pass_refused_while_a_die_fits_unless_more_control():  # R8
    c = Console(players=2)
    c.setup()
    c.roll(4, 1, 2, 5)
    assert c.press("PASS") == "must_take" and c.last()["why"] == "must_take"
    m = Console(players=2, control=True)
    m.setup()
    m.roll(4, 1, 2, 5)
    assert m.press("PASS") is None
    assert m.last() == {"k": "tree", "g": 1, "r": 1, "p": 0, "why": "pass"} and m.sheet(0).trees == 1


# -- the sixes (R2-R4, C1) ------------------------------------------------------------------------
def test_white_six_crosses_a_tree_and_asks_for_the_row():  # R2, R3
    c = Console(players=2)
    c.setup()
    c.roll(4, 6, 1, 2)
    assert c.press("D1") is None and c.game.asking() == "row"
    assert "row? D1-D5" in c.screen()
    assert c.press("D1") is None and c.game.phase == rounds.PIECE   # [1, 4]
    assert c.press("D1") is None
    claim = c.last()
    assert (claim["row"], claim["col"], claim["pc"], claim["d"]) == (1, 4, "EW", 6)
    assert c.sheet(0).trees == 1


def test_column_six_asks_for_the_column_and_pass_cancels():  # C1
    c = Console(players=2)
    c.setup()
    c.roll(6, 2, 1, 1)
    n = len(c.events)
    assert c.press("D1") is None and c.game.asking() == "col"
    assert c.press("PASS") is None and c.game.phase == rounds.CLAIM and c.game.taken[1] == -1
    assert len(c.events) == n                       # nothing was sent (C5)
    assert c.press("D1", "D4") is None and c.game.phase == rounds.PIECE
    assert c.press("D6") is None and c.last()["pc"] == "NW" and (c.last()["row"], c.last()["col"]) == (2, 4)


def test_white_six_needs_a_tree_left():  # R3
    c = Console(players=2)
    c.setup()
    c.sheet(0).trees = 10
    c.roll(4, 6, 1, 2)
    assert c.press("D1") == "six_tree"


def test_blue_six_and_white_six_let_the_player_draw_anywhere():  # R4
    c = Console(players=2)
    c.setup()
    c.roll(6, 6, 1, 2)
    assert c.press("D1") is None and c.game.asking() == "row"
    assert c.press("D5") is None and c.game.asking() == "col"
    assert c.press("D3", "D2") is None
    assert (c.last()["row"], c.last()["col"]) == (5, 3) and c.sheet(0).trees == 1


def test_a_row_with_nowhere_to_draw_is_refused_and_asked_again():  # C1
    c = Console(players=2)
    c.setup()
    for r in (4, 5):                     # P1's column 1: [1, 1], [2, 1] and the house [3, 1] are free
        c.sheet(0).pieces[c.square(r, 1)] = 5
    c.roll(1, 6, 2, 3)                   # white 6: any row of column 1
    assert c.press("D1") is None and c.game.asking() == "row"
    assert c.press("D4") == "drawn" and c.last()["why"] == "drawn" and c.game.asking() == "row"
    assert c.press("D2") is None and c.game.phase == rounds.PIECE
    assert c.turn("D3") is None and (c.last("claim")["row"], c.last("claim")["col"]) == (2, 1)


# -- trees and the end (R5, R6, R7) -----------------------------------------------------------------
def test_no_die_fits_so_pass_crosses_a_tree():  # R5
    c = Console(players=2)
    c.setup()
    for die in (1, 2, 3):
        i = c.square(die, 4)
        c.sheet(0).pieces[i] = 5
    c.roll(4, 1, 2, 3)
    assert c.game.forced(0)
    assert c.press("D1") == "drawn"
    assert c.press("PASS") is None and c.last() == {"k": "tree", "g": 1, "r": 1, "p": 0, "why": "forced"}


def test_last_tree_ends_the_game_at_the_end_of_the_round():  # R6
    c = Console(players=2, control=True)
    c.setup()
    c.sheet(0).trees = 9
    c.roll(4, 1, 2, 3)
    c.press("PASS")
    assert c.game.phase == rounds.CLAIM and c.game.endings == ["trees"]
    c.press("D2", "D2")
    assert c.game.phase == rounds.OVER and c.last() == {"k": "end", "g": 1, "r": 1, "why": "trees",
                                                        "p": score.totals(c.game)}


@pytest.mark.parametrize("edition,track,top", [("city", "hotel", 15), ("suzhou", "shop", 10),
                                              ("shanghai", "hotel", 18), ("monsters", "skyscraper", 18)])
def test_every_ending_is_found_by_the_console(edition, track, top):  # R7
    c = Console(edition, players=2)
    c.setup()
    g = c.game
    t = g.track_of(next(tr[1] for tr in g.ed.TRACKS if tr[0] == track))
    g._circle(0, c.sheet(0), g.ed.TRACKS[t][1], top)
    c.roll(4, 1, 2, 3)
    assert g.endings == [track]
    c.turn("PASS") if g.can_pass else c.turn("D1", "D1")
    c.turn("PASS") if g.can_pass else c.turn("D2", "D1")
    assert g.phase == rounds.OVER and c.last()["why"] == track
    assert "over" in c.app.screen()[0] and "ROLL: back to the lobby" in c.screen()
    c.press("ROLL")
    assert c.app.game is None and "doodle.ed_" + edition not in __import__("sys").modules


def test_menu_ends_the_game_after_a_confirmation():
    c = Console(players=2)
    c.setup()
    c.press("MENU")
    assert "End game?" in c.screen()
    c.press("PASS")
    assert c.game.phase == rounds.READY
    c.press("MENU", "ROLL")
    assert c.game.phase == rounds.OVER and c.last()["why"] == "menu"
    lines = c.app.screen()              # ruling G1: ended early, scored as it stands, no winner
    assert lines[0] == "City: ended early" and lines[1] == "MENU in round 0: no winner"
    assert "winner" not in " ".join(lines[2:]) and lines[2].startswith("- P")


# -- what was drawn and the value circled (C3, C4, C5, R10) ------------------------------------------
def test_pieces_are_entered_by_their_legend_face():  # C3
    for edition in ("city", "monsters"):
        for face in range(1, 7):
            c = Console(edition, players=2)
            c.setup()
            legend = c.game.ed.LEGEND
            c.roll(4, 3, 3, 3)             # [3, 4]: a plain square in both
            assert c.press("D1") is None and c.game.phase == rounds.PIECE
            lines = c.app.screen()         # where, what is there, and the legend's pieces drawn
            assert lines[1] == "^P1: row 3, column 4 (square): piece?" and lines[2] == "map: P1"
            assert lines[3] == "%" + "".join("0123456789abcdef"[rounds.SIDES[f]] for f in legend)
            assert lines[-1].startswith("#") and lines[-1].endswith("|" + chr(48 + c.square(3, 4)))
            assert c.press(f"D{face}") is None
            assert c.last("claim")["pc"] == legend[face - 1]
            assert c.sheet(0).pieces[c.square(3, 4)] == rounds.SIDES[legend[face - 1]]


def test_the_value_circled_is_chosen_with_pass_and_roll():  # C4, R10
    c = Console(players=2)
    c.setup(2, 2, 2, 2, 2)             # NS start roads: column 1 from the house at [3, 1]
    s = c.sheet(0)
    for r in (2, 4):                   # a road [1, 1] .. [5, 1] through the hotel at [1, 1]
        s.pieces[c.square(r, 1)] = 5
    s.pieces[c.square(5, 1)] = 5
    c.roll(1, 1, 2, 3)
    n = len(c.events)
    assert c.press("D1", "D2") is None                    # NS in the hotel: a road of 5
    assert c.game.phase == rounds.VALUE and c.game.values == [5, 4, 3]
    assert "^P1: circle 5 (hotel)?\nmap: P1\nROLL: yes  PASS: lower" in c.screen()
    assert len(c.events) == n                             # nothing sent until the value (C5)
    assert c.press("PASS", "PASS") is None and "circle 3 (hotel)?" in c.screen()
    assert c.press("PASS") is None and "circle 5 (hotel)?" in c.screen()    # wraps
    c.press("PASS")
    assert c.press("ROLL") is None
    claim = c.last("claim")
    assert claim["v"] == 4 and s.circled[0] == [4] and claim["pc"] == "NS"


def test_a_shop_takes_the_highest_bonus_its_value_reaches():  # R11
    c = Console(players=2)
    c.setup(1, 1, 1, 1, 1)
    g = c.game
    g.bonus_owner[7] = 1
    g._circle(0, c.sheet(0), 3, 9)
    assert c.sheet(0).bonuses == [5] and g.bonus_owner == {7: 1, 5: 0}
    assert score.totals(g) == [9 + 5, 0]   # equal trees: fewest and most for both, +4 - 4 (R18)


# -- the 6x6 editions: parks, breakers, floors -------------------------------------------------------
def test_shanghai_park_costs_a_tree_then_any_column_of_its_row():  # R14
    c = Console("shanghai", players=2)
    c.setup()
    c.roll(1, 4, 1, 1)                 # [4, 1] is a park
    assert c.press("D1") is None and c.game.asking() == "col"
    assert c.press("D3", "D2") is None
    claim = c.last("claim")
    assert claim["via"] == [4, 1] and (claim["row"], claim["col"]) == (4, 3) and c.sheet(0).trees == 1


def test_monsters_breaker_costs_a_barrel_then_any_square_and_floors_with_d0():  # R13, R15
    c = Console("monsters", players=2)
    c.setup()
    c.roll(1, 4, 1, 1)                 # [4, 1] is a breaker
    assert c.press("D1") is None and c.game.asking() == "row"
    assert c.press("D1", "D6") is None                  # [1, 6]: a kraken with 2 tentacles
    assert "D0: tentacle" in c.screen()
    assert c.press("D0") is None
    claim = c.last("claim")
    assert claim["fl"] == 1 and claim["via"] == [4, 1] and "pc" not in claim
    assert c.sheet(0).barrels == 1 and c.sheet(0).floors[c.square(1, 6)] == 3
    c.sheet(0).floors[c.square(1, 6)] = 4             # both extra tentacles drawn
    c.turn("PASS")                                     # P2 crosses a bottle (6x6: always allowed)
    c.roll(1, 4, 1, 1)                                 # P2 starts; P1 takes the breaker again
    c.turn("PASS")
    assert c.press("D1", "D1", "D6") is None and c.game.phase == rounds.PIECE
    assert "D0: tentacle" not in c.screen()
    assert c.press("D0") == "third_time"
    assert c.press("PASS") is None and c.game.phase == rounds.CLAIM   # the die put back
    c.sheet(0).barrels = 6
    assert c.press("D1") == "park_barrel"


def test_passing_in_6x6_needs_a_tree():  # R24
    c = Console("shanghai", players=2)
    c.setup()
    c.sheet(0).trees = 12
    c.roll(3, 3, 3, 3)
    assert c.press("PASS") == "no_tree"


# -- the lobby, the flash, the PC ---------------------------------------------------------------------
def test_the_lobby_chooses_the_game_and_remembers_it():
    flash = Flash()
    c = Console(start=False, flash=flash)
    assert "Doodle City" in c.screen()
    c.press("D0", "D0", "D0")
    assert c.app.edition == "shanghai" and "Shanghai" in c.screen()
    assert c.press("D1") == "solo" and c.app.players == 3
    c.press("D4", "PASS")
    assert c.app.control is False                      # no More control in the 6x6 editions
    c.press("ROLL")
    assert json.loads(flash.load("settings.json")) == {"game": "shanghai", "players": 4, "control": False,
                                                       "map": "a", "rec": "full", "var": "", "subj": "standard"}
    flash.data = {"settings.json": flash.data["settings.json"]}   # the game's journal gone: no resume
    again = Console(start=False, flash=flash)
    assert (again.app.edition, again.app.players) == ("shanghai", 4)
    flash.save("settings.json", "{not json")
    assert Console(start=False, flash=flash).app.edition == "city"   # a spoiled file: a fresh console


def test_the_lobby_offers_deadly_doodles_and_doodle_puzzle_within_their_rules():
    """docs/console-deadly-puzzle.md, the lobby: players, map side, drawings, variant, subjects."""
    flash = Flash()
    c = Console(start=False, flash=flash)
    c.press(*["D0"] * 5)
    assert c.app.edition == "deadly" and "Game: Deadly Doodles   (D0 next)" in c.screen()
    assert c.press("D5") == "deadly_n" and "!Deadly Doodles: 1-4 players" in c.screen()
    c.press("D4", "PASS", "MENU")
    assert "Players: 4   (D1-D4)" in c.screen() and "Map: B   (PASS)" in c.screen()
    assert "Drawings: tallies   (MENU)" in c.screen()
    c.press("D1")
    assert c.app.players == 1                          # a solo game (no Traps: the deal's business)
    c.press("D0")
    assert c.app.edition == "puzzle" and c.app.players == 3     # Doodle Puzzle: 3 at least
    assert c.press("D2") == "puzzle_n"
    c.press("D6", "D6", "D6")
    assert c.app.players == 8 and "Players: 8   (D3-D6, D6 again: 7, 8)" in c.screen()
    c.press("PASS")                                    # Behave is skipped with 8 players (P9)
    assert c.app.opts["var"] == "showdown" and "Variant: Showdown   (PASS)" in c.screen()
    c.press("PASS", "PASS")                           # base, and Behave skipped again: Showdown
    assert c.app.opts["var"] == "showdown"
    c.press("D5", "PASS", "PASS")
    assert c.app.opts["var"] == "behave" and c.app.players == 5
    c.press("D6", "D6")
    assert c.app.players == 7
    assert c.press("D6") == "behave_8" and c.app.players == 7
    c.press("MENU")
    assert "Subjects: beginner   (MENU)" in c.screen()
    c.app.store.save("settings.json", '{"game": "puzzle", "players": 8, "var": "behave", "subj": "beginner"}')
    c = Console(flash=c.app.store, start=False)        # a file that breaks P9 at power-up: the variant goes
    assert (c.app.edition, c.app.players, c.app.opts["var"], c.app.opts["subj"]) == ("puzzle", 8, "", "beginner")


def test_the_pcs_scores_replace_the_consoles_own():
    c = Console(players=2)
    c.setup()
    c.roll(4, 1, 2, 3)
    assert "If it ended   0   0" in c.screen()
    c.app.serial_in(b"", c.now)
    from doodle import link
    c.app.serial_in(link.encode({"t": "score", "g": 1, "r": 1, "p": [7, 3], "bad": 1,
                                 "why": "R1 P2: die 3 points to [3, 4]"}), c.now)
    text = c.screen()
    assert "PC: if end    7   3" in text and "!PC: 1 violation(s): R1\n!P2: die 3 points to [3," in text
    assert "             P1  P2" in text                 # no store number sent: the head names no game
    c.app.serial_in(link.encode({"t": "score", "g": 9, "r": 1, "p": [1, 1], "bad": 0, "why": ""}), c.now)
    assert "If it ended   0   0" in c.screen()       # another game's scores are not shown
    c.app.serial_in(link.encode({"t": "score", "g": 1, "r": 1, "p": [7, 3], "bad": 0, "why": "", "id": 12}), c.now)
    assert "game 12      P1  P2" in c.screen()          # the number `doodlebox games` gives it
    c.press("MENU", "ROLL")
    assert "Scores by the PC, game 12" in c.screen()


def test_app_refuses_audibly_and_shows_why():
    c = Console(players=2)
    c.setup()
    c.roll(4, 1, 2, 3)
    c.app.tones()
    c.press("PASS")
    assert c.app.tones() == ["refuse"]
    assert "!a die fits: take one" in c.app.screen()


@pytest.mark.parametrize("edition", EDITIONS)
def test_random_presses_always_end_the_game(edition):
    import random

    rng = random.Random(edition)
    c = Console(edition, players=3)
    names = ["D0", "D1", "D2", "D3", "D4", "D5", "D6", "ROLL", "PASS"]
    c.dice = None  # type: ignore[assignment]
    c.app.rand = c.app.dice_.rand = lambda n: rng.randrange(n)
    for _ in range(20000):
        if c.game.phase == rounds.OVER:
            break
        c.press(rng.choice(names))
        assert all(0 <= s.trees <= c.game.ed.TREES for s in c.game.sheets)
    assert c.game.phase == rounds.OVER
