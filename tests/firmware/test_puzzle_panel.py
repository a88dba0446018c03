"""Doodle Puzzle on the console's panel (firmware/doodle/puzzle_view.py, drawn by
firmware/board/panel.py): the roles dealt face up, the minute in big digits, every screen within
the panel's room and read back by the screen reader, the Behave verdict and the final table, the
scoreboard between rounds. The games are played as tests/firmware/test_console_puzzle.py plays them
(tests/support/puzzle_duo.py)."""
from __future__ import annotations

import random
import sys
from pathlib import Path

from test_card_faces import image_of, panel  # noqa: F401  (panel: a fixture, board.panel under CPython)

from doodle import puzzle as P
from doodle import puzzle_view as V
from doodlebox.rules.puzzle.sentences import VERDICTS
from doodlebox.virtual import screen

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "guest"))
import panel_frame  # (tests/guest: the whole frame, for the tests)
from puzzle_duo import GAMES, VIEW_ROLE, Duo, a_minute, role_lines, slots


def test_the_roles_are_dealt_face_up_and_the_star_chooses_at_once():
    """The rulebook's deal: "Each player randomly draws 1 Role Card and places it face up in
    front of them." ROLL deals, the panel shows every seat's role at once (two seats a line, as
    the `roles` event has them), and the very next press is the star Drawy's number: no pass
    round. After a subject set aside (MENU) the roles are shown again."""
    for players, var in GAMES:
        duo = Duo(players, var, "standard", seed=players * 3 + len(var), check_replay=False)
        (e,) = duo.press("ROLL", None, 1)
        g = duo.g
        assert e["k"] == "roles" and g.phase == P.NUMBER
        lines = V.game(g, None, None, "PC: offline")
        k = (players + 1) // 2
        assert lines[1] == f"^P{g.star + 1}: choose a number 1-12"   # the action, drawn on top
        assert lines[2:k + 2] == role_lines(e["roles"])
        text = "\n".join(lines)
        for seat, c in enumerate(e["roles"]):             # every seat once, with its role
            assert text.count(f"P{seat + 1} ") == 1, lines
            assert f"P{seat + 1} {VIEW_ROLE[c]}" in text
        assert "PASS" not in text and "look away" not in text
        (s,) = duo.press_number(1 + players % 12)         # the number at once
        assert s["k"] == "subject" and g.phase == P.SUBJECT
        duo.press("MENU")                                 # set aside: the roles again
        assert V.game(g, None, None, "PC: offline")[2:k + 2] == role_lines(e["roles"])
    g = P.Game(8, {"var": ""}, 1, lambda e: None, lambda n: 0, 0)
    g.roles[:] = b"DSDDBDGD"
    g._dealt(1)
    assert V.game(g, None, None, "PC: offline") == [
        "Puzzle R1/5",
        "^P2: choose a number 1-12",
        "P1 Drawy          P2 star Drawy",
        "P3 Drawy          P4 Drawy",
        "P5 Baddy          P6 Drawy",
        "P7 Guessy         P8 Drawy",
        "D1-D6, or D0 then D1-D6: 7-12",
        "PC: offline"]


def test_the_minute_in_big_digits():
    """The drawing minute's time left is an "@" line (three times the size on the panel),
    minutes and seconds; "PAUSED" beside it while paused; the title is the round's; the action
    ("Drawys draw!", "Paused") on top, twice the size: the clock under it stays the largest."""
    g = a_minute(1000)
    for running, want in ((0, "@1:00"), (999, "@1:00"), (1000, "@0:59"), (1001, "@0:59"), (2000, "@0:58"),
                          (18000, "@0:42"), (50500, "@0:10"), (51000, "@0:09"), (59999, "@0:01")):
        g.tick(1000 + running)
        lines = V.game(g, None, None, "PC: offline")
        assert lines[:3] == ["Puzzle R1/5", "^Drawys draw!", want], (running, lines)
        assert sum(s[:1] == "@" for s in lines) == 1 and slots(lines) <= 12
    g.tick(61000)
    assert g.phase == P.PLACE and not [s for s in V.game(g, None, None, "PC: offline") if s[:1] == "@"]
    g = a_minute(1000)
    g.tick(19000)
    g.button("MENU", 19000)                            # 42 s left, paused
    assert V.game(g, "a notice", None, "PC: offline") == [
        "Puzzle R1/5", "^Paused", "@0:42 PAUSED", "Drawing: card 1, number 3", "MENU: go on",
        "Then placing: P2 P5 P6 P1 P2 P5", "!a notice", "PC: offline"]


def test_the_deal_the_mischief_and_the_minute_fit_the_panel(panel):  # noqa: F811
    """Drawn by the real firmware/board/panel.py: the screens read back whole (the "@" line
    as its big digits), 8 players with a notice."""
    g = P.Game(8, {"var": ""}, 1, lambda e: None, random.Random(2).randrange, 0)
    screens = []
    g.button("ROLL", 0)
    screens.append(list(V.game(g, "a notice", None, "PC: offline")))
    g.button("D0", 0)
    g.button("D6", 0)
    g.button("ROLL", 1000)
    g.tick(48000)
    screens.append(list(V.game(g, "a notice", None, "PC: offline")))
    g.button("MENU", 48000)
    screens.append(list(V.game(g, "a notice", None, "PC: offline")))
    g.tick(200000)
    g.button("MENU", 200000)
    g.tick(300000)
    for k in range(6):
        g.button(f"D{k + 1}", 300000)
    screens.append(list(V.game(g, "a notice", None, "PC: offline")))
    g.button("D1", 300000)
    screens.append(list(V.game(g, "a notice", None, "PC: offline")))
    assert [s[1:3] for s in screens[1:3]] == [["^Drawys draw!", "@0:13"], ["^Paused", "@0:13 PAUSED"]]
    for lines in screens:
        assert slots(lines) <= 12
        img = image_of(panel_frame.frame(panel.Panel(None), list(lines)))
        assert screen.lines(img) == list(lines), lines
        assert screen.read_line(img, 0, 2, wide=1 if len(lines[1]) > 19 else None) == lines[1][1:]  # on top
        assert screen.read_line(img, panel.BODY_Y, 1) == lines[0]                   # the title under it
        if lines[2][:1] == "@":    # 24 px high (the largest: the action is 16), the next line 27 px lower
            assert screen.read_line(img, panel.BODY_Y + 9, 3) == lines[2][1:]
            assert screen.read_line(img, panel.BODY_Y + 9 + 27, 1) == lines[3]


def test_behave_verdict_and_final_table():
    """The final screen: Behave shows the shared Scorecard and the rulebook's verdict (word for
    word, wrapped); otherwise every total, highest first, and the winners (ties share)."""
    assert V.VERDICTS == tuple(VERDICTS[k] for k in range(6))
    for seed in range(6):
        duo = Duo(4 + seed % 3, "behave", "standard", seed=50 + seed, check_replay=False)
        duo.play()
        lines = V.final(duo.g, None)
        checks = duo.g.shared.count(P.CHECK)
        assert lines[0] == "Puzzle: game over" and lines[1] == "Ended after round 5"
        assert lines[2] == "Shared card: " + " ".join("v" if m == P.CHECK else "x" for m in duo.g.shared) \
            + f"  {2 * checks} points"
        assert " ".join(lines[3:]).startswith(VERDICTS[checks])
        assert len(lines) <= 13 and all(len(s) <= 37 for s in lines)
    duo = Duo(6, "showdown", "standard", seed=77, check_replay=False)
    end = duo.play()
    lines = V.final(duo.g, None)
    table = [s for s in lines if s[:1].isdigit()]
    assert [int(s.split()[2]) for s in table] == sorted(end["p"], reverse=True)
    best = max(end["p"])
    assert sum("winner" in s for s in table) == end["p"].count(best)
    assert ("Tied: the victory is shared" in lines) == (end["p"].count(best) > 1)
    assert lines[-2] == "Scores by the console"
    pc = (3, 5, [9, 1, 1, 1, 1, 1], 0, "")
    assert V.final(duo.g, pc)[2].startswith("1. P1    9 pts  winner") and V.final(duo.g, pc)[-2] == "Scores by the PC"


def test_the_scoreboard_between_rounds():
    duo = Duo(8, "showdown", "standard", seed=21, check_replay=False)
    duo.deal()
    duo.subject()
    duo.minute()
    duo.place()
    duo.mischief()
    duo.guess()
    lines = duo.look()
    assert lines[0] == "Puzzle R2/5" and lines[1] == "^ROLL deals round 2"   # (ruling V1: the round to come)
    assert lines[2].startswith("Round 1: guess ")
    cards = lines[3:11]
    for p, s in enumerate(cards):
        assert s.startswith(f"P{p + 1}  ") and int(s.split()[-1]) == duo.state.scores()[p]
        mark = duo.state.cards[p].marks[0]
        assert s.split()[1] == {"check": "v", "cross": "x"}[mark]
