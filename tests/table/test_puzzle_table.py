"""The bot of `doodlebox demo --edition puzzle` (host/doodlebox/puzzle_table.py) on the firmware's
whole core (doodle/app.py: lobby, journal, link, the game) under CPython on a simulated clock:
whole games in every variant, a console whose events disagree with the rules caught, and a
game resumed after a power cut in the middle of its drawing minute. The game's own flow against
the engine is tests/firmware/test_console_puzzle.py (tests/support/puzzle_duo.py)."""
from __future__ import annotations

import random
from collections import Counter

import pytest
from puzzle_duo import snap

from doodle import puzzle as P


class SimConsole:
    """The firmware's App (lobby, journal, link, the game) under CPython on a simulated clock:
    `press` is a button, `get(timeout)` the next event the console sends (the host's side:
    frames decoded and acknowledged), letting simulated time pass until one comes."""

    def __init__(self, seed: int, flash=None, boot: int = 1):
        from doodle.app import App

        rng = random.Random(seed)
        self.app = App(rng.randrange, boot=boot, uid="b0b", store=flash)
        self.now = 0
        self.waiting: list[dict] = []
        self.step(100)

    def step(self, ms: int) -> None:
        from doodle import link

        end = self.now + ms
        while self.now < end:
            self.now += min(10, end - self.now)
            app = self.app
            app.tick(self.now)
            app.tones()
            app.screen()
            if app.collect_wanted:
                app.collected()
            for line in app.serial_out().splitlines():
                msg, why = link.decode(line)
                assert why is None, (why, line)
                if msg["t"] == "ev":
                    self.waiting.append(msg["e"])
                    app.serial_in(link.encode({"t": "ack", "boot": msg["boot"], "s": msg["s"]}), self.now)

    def press(self, name: str) -> None:
        self.step(100)
        self.app.button(name, self.now)
        self.step(80)

    def wait(self, seconds: float) -> None:
        self.step(int(seconds * 1000))

    def get(self, timeout: float) -> dict:
        import queue

        end = self.now + int(timeout * 1000)
        while not self.waiting:
            if self.now >= end:
                raise queue.Empty
            self.step(10)
        return self.waiting.pop(0)


@pytest.mark.parametrize("players,var,subj", [(3, "", "standard"), (5, "showdown", "beginner"),
                                              (7, "behave", "standard"), (8, "showdown", "standard")])
def test_the_bot_plays_a_whole_game_on_the_console_core(players, var, subj):
    from doodlebox.table import puzzle as puzzle_table

    sim = SimConsole(seed=players)
    table = puzzle_table.Table(sim.press, sim, seed=players, wait=sim.wait, pause_s=3.5)
    seen = table.play_game(players, var, subj)
    kinds = Counter(e["k"] for e in seen)
    assert kinds["roles"] == kinds["timer"] == kinds["guess"] == 5 and kinds["end"] == 1
    assert kinds["place"] == 30 and kinds["refuse"] == table.refusals == 1
    assert kinds["mischief"] == (0 if var == "behave" else 5)
    assert table.final is not None and table.final["p"] == table.state.scores()
    assert all(60000 <= m <= 60010 for m in table.minutes)
    assert sum(e["paused"] for e in seen if e["k"] == "timer") >= 3500
    assert sim.app.game is None                   # ROLL: back to the lobby


@pytest.mark.parametrize("kind,field", [("end", "p"), ("place", "p"), ("timer", "end"), ("roles", "roles")])
def test_the_bot_finds_a_console_that_disagrees(kind, field):
    """An event that is not what the rules say is caught (the bot can fail): the console's
    events reach the bot with one field changed."""
    from doodlebox.table import puzzle as puzzle_table
    from doodlebox.table.dice import TableError

    class Lying(SimConsole):
        def get(self, timeout: float) -> dict:
            e = dict(super().get(timeout))
            if e["k"] == kind:
                v = e[field]
                e[field] = [v[0] + 1] + v[1:] if isinstance(v, list) else "SSBGD" if isinstance(v, str) \
                    else (v + 1) % 5 if kind == "place" else v + 1500
            return e

    sim = Lying(seed=3)
    table = puzzle_table.Table(sim.press, sim, seed=3, wait=sim.wait)
    with pytest.raises(TableError):
        table.play_game(5, "showdown", "standard")


def test_a_game_resumed_after_a_power_cut_in_the_minute():
    """Power cut 30 s into round 2's minute: the console on the same flash resumes the game at
    the subject (the minute starts again with ROLL), the roles, the card and the scores as they
    were; the new minute is timed in the new boot and the game goes on."""
    from doodle.flashlog import RamFlash

    flash = RamFlash()
    sim = SimConsole(seed=5, flash=flash)
    for _ in range(6):
        sim.press("D0")
    assert sim.app.edition == "puzzle"
    sim.press("ROLL")
    for _ in range(2):                            # round 1 whole, round 2 to the middle of its minute
        g = sim.app.game
        sim.press("ROLL")                         # the roles face up: the star's number next
        sim.press(f"D{g.round + 1}")
        sim.press("ROLL")
        if g.round == 2:
            break
        sim.wait(61)
        for k in range(6):
            sim.press(f"D{k + 1}")
        for name in ["D0", "ROLL", "D3"]:         # Baddy's Mischief: no seat asked
            sim.press(name)
        sim.press("ROLL")                         # right
    g = sim.app.game
    sim.wait(30)
    assert g.phase == P.MINUTE and g.round == 2 and sorted(g.points()) == [0, 2, 2]   # round 1: right
    before = snap(g)
    cut = SimConsole(seed=6, flash=flash, boot=2)   # powered up again
    again = cut.app.game
    assert again is not None and again is not g
    assert snap(again) == dict(before, phase=P.SUBJECT)
    assert cut.app.notice == "game resumed after power-off"
    cut.step(1000)                                # (the journal writes, then sends)
    resume = [e for e in cut.waiting if e["k"] == "resume"]
    assert resume and resume[0]["r"] == 2
    cut.press("ROLL")                             # a new minute
    assert again.phase == P.MINUTE
    start = cut.now
    cut.wait(61)
    (timer,) = [e for e in cut.waiting if e["k"] == "timer"]
    assert timer["r"] == 2 and timer["start"] >= start - 200 and 60000 <= timer["end"] - timer["start"] <= 60010
    assert again.phase == P.PLACE

