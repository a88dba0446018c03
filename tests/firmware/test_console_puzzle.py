"""Doodle Puzzle on the console (firmware/doodle/puzzle.py, puzzle_view.py) against the PC's
rules engine (host/doodlebox/rules/puzzle/engine.py): random games pressed button by button on
the firmware's Game under CPython, every event it sends applied to the engine as it comes, every
refused press refused by the engine too (or, for how a number is entered, by the console alone,
with nothing sent), the totals equal after every step and at the end, every variant and 3 to 8
players. The journal's events played again through replay() give the same game. One scripted
game runs in the real MicroPython VM (192K) and sends the same events as under CPython."""
from __future__ import annotations

import json
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from doodle import puzzle as P
from doodle import puzzle_view as V
from doodlebox.rules.puzzle import engine as E
from doodlebox.virtual.vm import run_program

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "guest"))
from puzzle_duo import GAMES, ROLE, ROOT, Duo, a_minute, replayed

# -- the tests --------------------------------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("players,var", GAMES)
def test_random_games_agree_with_the_engine(players, var):
    whys: Counter[str] = Counter()
    for seed in range(3):
        subj = ("standard", "beginner")[(players + seed) % 2]
        duo = Duo(players, var, subj, seed=1000 * players + 10 * seed + len(var))
        end = duo.play()
        whys += duo.whys
        assert end["p"] == duo.state.scores()
        if var == "behave":
            assert len(set(end["p"])) == 1 and end["p"][0] == 2 * duo.g.shared.count(P.CHECK)
        assert duo.replays > 5 * (2 + 6)
    want = {"None", "notnow", "menu", "slot_twice", P.BAD_NUMBER}
    if var != "behave":
        want |= {P.BAD_BOARD}
    assert want <= set(whys), whys


def test_games_ended_with_menu_agree_with_the_engine():
    ended = 0
    for seed in range(12):
        players, var = GAMES[seed * 5 % len(GAMES)]
        duo = Duo(players, var, "standard", seed=seed)
        end = duo.play(stop_at=0.3)
        ended += end["why"] == "menu"
        assert end["p"] == duo.state.scores()
    assert ended >= 3


def test_every_deal_is_legal_and_every_role_is_dealt_to_every_seat():
    """The role cards shuffled with the console's rand (ruling P1): 1 star Drawy, 1 Baddy (none
    in Behave), 1 Guessy, Drawys for the rest; each role reaches each seat."""
    for players, var in GAMES:
        rng = random.Random(players)
        g = P.Game(players, {"var": var}, 1, lambda e: None, rng.randrange, 0)
        state = E.Game(players, var).new_state()
        seen: Counter[tuple[int, str]] = Counter()
        for _ in range(60 * players):
            g.phase = P.DEAL
            g.round = 0
            g._deal()
            roles = tuple(ROLE[chr(c)] for c in g.roles)
            state.check(E.deal(roles))
            for seat, role in enumerate(roles):
                seen[seat, role] += 1
        kinds = {"star", "guessy", "drawy"} | (set() if var == "behave" else {"baddy"})
        if players == 3 and var != "behave":
            kinds.discard("drawy")
        assert {(s, r) for s in range(players) for r in kinds} <= set(seen)


def test_the_placing_order_is_the_engines():
    rng = random.Random(5)
    for players, var in GAMES:
        g = P.Game(players, {"var": var}, 1, lambda e: None, rng.randrange, 0)
        for _ in range(20):
            g.phase = P.DEAL
            g.round = 0
            g._deal()
            roles = [ROLE[chr(c)] for c in g.roles]
            from doodlebox.rules.puzzle.roles import placing_order
            assert list(g.placers) == placing_order(roles)


def test_number_entry():
    """D1..D6; D0 then D1..D6 for 7..12; D0 twice and D0 then ROLL refused; PASS undoes D0."""
    for n in range(1, 13):
        duo = Duo(4, "", "beginner", seed=n, check_replay=False)
        duo.press("ROLL", None, 1)
        if n > 6:
            duo.press("D0")
            duo.press("D0", P.BAD_NUMBER)
            assert duo.g.high                     # the first D0 stands
            duo.press("ROLL", P.BAD_NUMBER)
            duo.press("PASS")
            assert not duo.g.high
        (e,) = duo.press_number(n)
        assert e["num"] == n and 1 <= e["card"] <= 6


def test_the_mischief_begins_at_the_erase_with_no_seat_entry():
    """The roles are face up, so the console knows Baddy: after the last board, the panel
    names Baddy and asks for the erase; PASS there means nothing (no step before it), PASS at
    the draw goes back to the erase; the boards chosen are never shown. (The random games above
    play it against the engine.)"""
    g = a_minute(1000)
    sent: list[dict] = []
    g.emit = sent.append
    g.tick(61000)
    for k in range(P.SLOTS):
        assert g.phase == P.PLACE and g.button(f"D{k + 1}", 62000) is None
    assert g.phase == P.ERASE and [e["k"] for e in sent] == ["timer"] + ["place"] * 6
    assert V.game(g, None, None, "PC: offline")[1:] == [
        "^P3 (Baddy): erase on a board?", "Baddy's Mischief: Guessy, eyes shut!", "D1-D6, or D0 then ROLL: none",
        "PC: offline"]
    assert g.button("PASS", 63000) == P.NOTNOW and g.phase == P.ERASE
    assert g.button("D5", 63000) is None and g.phase == P.DRAW          # the erase, at the first press
    assert V.game(g, None, None, "PC: offline")[1:] == [
        "^P3 (Baddy): draw on a board?", "Baddy's Mischief: Guessy, eyes shut!", "D1-D6, or D0 then ROLL: none",
        "PASS: back to the erase", "PC: offline"]
    assert g.button("PASS", 63000) is None and g.phase == P.ERASE
    g.button("D2", 63000)
    g.button("D0", 63000)
    assert V.game(g, None, None, "PC: offline")[3] == "D0: ROLL for none   (PASS: back)"
    assert g.button("ROLL", 63000) is None and g.phase == P.GUESS
    assert sent[-1] == {"k": "mischief", "g": 1, "r": 1, "erase": 2, "draw": 0}


def test_a_minute_cut_by_power_starts_again_and_events_out_of_turn_are_refused():
    duo = Duo(5, "showdown", "standard", seed=9, check_replay=False)
    duo.deal()
    duo.subject()
    duo.press("ROLL")
    for _ in range(300):
        duo.step(100)                             # 30 s of the minute
    assert duo.g.phase == P.MINUTE
    again = replayed(duo.g, duo.events)
    assert again.phase == P.SUBJECT and again.card == duo.g.card
    n = len(again.tones)
    assert again.button("ROLL", 50) is None and again.phase == P.MINUTE   # a new minute
    assert again.t_start == 50 and again.tones[n:] == ["go"]
    for bad in ({"k": "place", "g": 3, "r": 1, "p": 0, "slot": 1},          # before the timer
                {"k": "roles", "g": 3, "r": 2, "roles": "SDBGD"},            # a round too early
                {"k": "guess", "g": 3, "r": 1, "res": "right"}):
        with pytest.raises(ValueError):
            replayed(duo.g, duo.events).replay(bad)
    with pytest.raises(ValueError):               # not a deal: two stars
        replayed(duo.g, duo.events[:1]).replay({"k": "roles", "g": 3, "r": 1, "roles": "SSBGD"})



GUEST = r"""
import gc
import sys
from doodle import link, puzzle
gc.disable()   # collections at the top level only (docs/virtual-console.md)

seed = [12345]
def rand(n):
    seed[0] = (seed[0] * 1103515245 + 12345) % 65536
    return seed[0] % n

out = []
opts = {"var": sys.argv[2], "subj": "standard"}
g = puzzle.Game(int(sys.argv[1]), opts, 1, lambda e: out.append(link.dump(e)), rand, 0)
now = [0]
def press(name):
    now[0] += 150
    g.tick(now[0])
    g.button(name, now[0])
    del g.tones[:]

tick_alloc = -1
while not g.over():
    ph = g.phase
    if ph == puzzle.DEAL or ph == puzzle.SUBJECT:
        press("ROLL")
    elif ph == puzzle.NUMBER:
        press("D0"); press("D" + str(1 + g.round % 6))
    elif ph == puzzle.MINUTE:
        if tick_alloc < 0 and g.running(now[0]) > 20500:
            f = gc.mem_alloc() if hasattr(gc, "mem_alloc") else 0
            for k in range(400):
                g.tick(now[0] + k)          # within one second: nothing happens, nothing allocated
            tick_alloc = (gc.mem_alloc() if hasattr(gc, "mem_alloc") else 0) - f
        now[0] += 7
        g.tick(now[0])
        del g.tones[:]
    elif ph == puzzle.PLACE:
        press("D" + str(1 + (g.placed * 5 + g.round) % 6))
    elif ph == puzzle.ERASE:
        press("D" + str(g.round))
    elif ph == puzzle.DRAW:
        press("D0"); press("ROLL")
    elif ph == puzzle.GUESS:
        press("ROLL" if g.round % 2 else "PASS")
    elif ph == puzzle.CHALLENGE:
        press("D" + str(g.round))
    if now[0] % 64 < 8:
        gc.collect()
for line in out:
    print(line)
print("tick_alloc", tick_alloc)
"""


@pytest.mark.slow
@pytest.mark.parametrize("players,var", [(8, "showdown"), (5, "behave")])
def test_the_same_game_in_the_vm(players, var):
    cp = subprocess.run([sys.executable, "-c", GUEST, str(players), var], capture_output=True, text=True,
                        env={"PYTHONPATH": f"{ROOT / 'firmware'}:{ROOT / 'tests' / 'guest'}"})
    assert cp.returncode == 0, cp.stderr
    boot = ("import sys\nsys.path.insert(0, '/input/firmware')\n"
            f"sys.argv[:] = ['guest', '{players}', '{var}']\n" + GUEST)
    vm = run_program(boot, ROOT, heap="192K")
    want = cp.stdout.splitlines()
    got = vm.stdout.splitlines()
    assert got[:-1] == want[:-1] and len(want) > 40
    assert got[-1] == "tick_alloc 0"
    events = [json.loads(s) for s in want[:-1]]
    assert events[-1]["k"] == "end" and events[-1]["why"] == "rounds"
    assert sum(e["k"] == "timer" for e in events) == 5
