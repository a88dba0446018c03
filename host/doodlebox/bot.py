"""A scripted table of players for `make demo` and the end-to-end tests.

It presses the console's buttons as players would. To choose a legal die it keeps a mirror
of the game built from the events the host stored, using the firmware's own round flow
(firmware/doodle/city.py) under CPython; every event the console sends is checked against
the event the mirror produces for the same action.
"""
from __future__ import annotations

import queue
import random
import sys
import time
from collections.abc import Callable
from typing import Any

from doodlebox import paths
from doodlebox.errors import DoodleboxError


def _core():
    fw = str(paths.firmware())
    if fw not in sys.path:
        sys.path.insert(0, fw)
    from doodle import city  # type: ignore[import-not-found]
    from doodle.layouts import LAYOUTS  # type: ignore[import-not-found]

    return city, LAYOUTS


# How a scripted player presses, like a person: held 150 ms, the next press 300 ms later.
# The firmware counts a level once it has held for 30 ms across two polls, so a press of
# H ms is seen for sure while the loop polls at least every (H - 30) / 2 ms: 60 ms here. In
# the VM the loop polls every 5 ms typically and up to ~40 ms during a collection (make bench
# measures it); the release before the next press needs the same.
PRESS_MS = 150
PRESS_GAP_S = 0.3


class BotError(DoodleboxError):
    pass


class Table:
    def __init__(self, press: Callable[[str], None], events: queue.Queue[dict], seed: int = 7,
                 timeout: float = 20.0, show: Callable[[dict], None] = lambda e: None):
        self.city, self.layouts = _core()
        self.press = press
        self.events = events
        self.rng = random.Random(seed)
        self.timeout = timeout
        self.show = show
        self.mirror: Any = None  # the firmware core's Game, once the console has begun one
        self._expect: list[dict] = []
        self.seen: list[dict] = []
        self.refusals = 0

    def _next_event(self) -> dict:
        try:
            e = self.events.get(timeout=self.timeout)
        except queue.Empty:
            raise BotError(f"no event from the console within {self.timeout:g} s") from None
        self.seen.append(e)
        self.show(e)
        return e

    def _await(self, kind: str) -> dict:
        while True:
            e = self._next_event()
            if self._expect:
                want = self._expect.pop(0)
                if want != e:
                    raise BotError(f"console sent {e}, the rules say {want}")
            if e.get("k") == kind:
                return e

    def play_game(self, players: int = 3, variant: str = "", refuse_once: bool = True,
                  stop_after_round: int | None = None, back_to_lobby: bool = True) -> list[dict]:
        city = self.city
        self.press(f"D{players}")
        if variant == "control":
            self.press("PASS")
        self.press("ROLL")
        g = self._await("game")
        self.mirror = city.Game(self.layouts["city"], players, variant, g["g"], self.rng.randrange, self._expect.append)
        self._expect.clear()
        m = self.mirror
        while m.phase == city.SETUP:
            self.press("ROLL")
            e = self._await("start")
            m.roll(e["d"], ())
            self._check(e)
        refused = not refuse_once
        while m.phase != city.OVER:
            if stop_after_round is not None and m.phase == city.READY and m.round >= stop_after_round:
                return self.seen
            if m.phase == city.READY:
                self.press("ROLL")
                e = self._await("roll")
                m.roll(e["c"], e["w"])
                self._check(e)
                continue
            p = m.current()
            if not refused and m.round >= 2 and m.turn == 1:
                taken = [i for i in range(1, m.whites + 1) if m.taken[i] >= 0]
                self.press(f"D{taken[0]}")
                m.take(taken[0])
                self._await("refuse")
                self.refusals += 1
                refused = True
                continue
            legal = [i for i in range(1, m.whites + 1) if m.fits(p, i) is None]
            if not legal:
                self.press("PASS")
                m.pass_turn()
                self._await("tree")
                continue
            i = self.rng.choice(legal)
            self.press(f"D{i}")
            m.take(i)
            while m.phase == city.CHOOSE:
                n = self._pick(m)
                self.press(f"D{n}")
                m.choose(n)
            self._await("claim")
        self._await("end")
        if back_to_lobby:
            self.press("ROLL")
        return self.seen

    def _check(self, e: dict) -> None:
        want = self._expect.pop() if self._expect else None
        if want != e:
            raise BotError(f"console sent {e}, the rules say {want}")

    def _pick(self, m) -> int:
        sheet = m.sheets[m.current()]
        if m.choosing() == "row":
            if m.column != 6:
                rows = sheet.free_in_col(m.column)
            else:
                rows = [r for r in range(1, sheet.size + 1) if sheet.free_in_row(r)]
            return self.rng.choice(rows)
        return self.rng.choice(sheet.free_in_row(m.pick_row))


def play_on_console(vc, db, players: int = 3, seed: int = 7, show: Callable[[dict], None] = lambda e: None,
                    on_note: Callable[[str], None] = lambda t: None, press_ms: float = PRESS_MS,
                    gap_s: float = PRESS_GAP_S):
    """Log a virtual console into `db` (a LinkThread) and play one whole game on it.

    Returns (table, link counts). Raises BotError when the console misbehaves or goes quiet.
    """
    from doodlebox.runner import LinkThread

    link = LinkThread(vc.port, db, on_note=on_note).start()
    try:
        if not link.wait_ready(30) or link.error:
            raise BotError(link.error or "the virtual console did not answer")

        def press(name: str) -> None:
            vc.press(name, press_ms)
            time.sleep(gap_s)

        table = Table(press, link.events, seed=seed, show=show)
        table.play_game(players=players, back_to_lobby=False)  # the panel keeps the final screen
        time.sleep(1.5)  # the last acks land, and the panel's once-a-second redraw shows them
        assert link.link is not None
        return table, dict(link.link.counts)
    finally:
        link.stop()
