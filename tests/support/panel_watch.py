"""The PC's scores on the console's panel, watched (issue 9): the firmware in the MicroPython
VM, `doodlebox log`'s link thread storing each event, validating the game so far and pushing
the `score` message, the bot playing; the panel's picture read as text (its own 8x8 font,
host/doodlebox/virtual/screen.py) every 30 ms. tests/table/test_panel_scores.py checks that every
push is shown; `make bench` (tests/tools/bench.py) prints how long each took."""
from __future__ import annotations

import threading
import time
from pathlib import Path

from doodlebox.logger.link_thread import LinkThread
from doodlebox.table.dice import PRESS_GAP_S, PRESS_MS, Table, read_lobby
from doodlebox.virtual.console import VirtualConsole
from doodlebox.virtual.screen import panel_lines


def line(totals: list[int]) -> str:
    return "PC: if end " + "".join(f"{v:>{4 if len(totals) <= 3 else 3}}" for v in totals)


def watch_game(tmp: Path, seed: int = 3, edition: str = "shanghai", players: int = 3, rounds: int = 5,
               roll_pause_s: float = 0.0):
    """Play `rounds` rounds; returns (pushes [(time, totals, round)], pictures [(time, lines)]).
    `roll_pause_s`: the table waits that long before each ROLL (a table's pace: the drawings made,
    the next player reaching for the dice; 0: the bot's, a round in ~1.5 s)."""
    vc = VirtualConsole(mode="vm", seed=seed + 1, flash_dir=tmp / "flash").start()
    pushed: list[tuple[float, list[int], int]] = []
    shown: list[tuple[float, list[str]]] = []
    stop = threading.Event()

    def watch() -> None:
        while not stop.is_set():
            shown.append((time.monotonic(), panel_lines(vc)))
            time.sleep(0.03)

    link = LinkThread(vc.port, tmp / "g.sqlite3", on_note=lambda t: None,
                      on_verdict=lambda v: pushed.append((time.monotonic(), list(v.message["p"]),
                                                          v.message["r"]))).start()
    watcher = threading.Thread(target=watch, daemon=True)
    try:
        assert link.wait_ready(30) and link.error is None, link.error
        lobby = read_lobby(vc)
        watcher.start()

        def press(name: str) -> None:
            if name == "ROLL":
                time.sleep(roll_pause_s)
            vc.press(name, PRESS_MS)
            time.sleep(PRESS_GAP_S)

        Table(press, link.events, seed=seed, timeout=30, lobby=lobby).play_game(edition, players,
                                                                               stop_after_round=rounds)
        time.sleep(2)
    finally:
        stop.set()
        link.stop()
        vc.stop()
    assert vc.error is None, vc.error
    return pushed, shown


def delays(pushed, shown) -> list[float | None]:
    """For each push the panel has to show (made in a round: the scores line appears with round
    1; not followed within 1.5 s by other totals, which the panel shows instead; not on the
    panel already), the seconds until a picture showed it, or None if none did."""
    out: list[float | None] = []
    for k, (t, totals, r) in enumerate(pushed):
        later = [p for p in pushed[k + 1:] if p[1] != totals]
        if r < 1 or (later and later[0][0] - t < 1.5):
            continue
        if any(line(totals) in lines for when, lines in shown if when < t):
            continue
        seen = [when for when, lines in shown if when >= t and line(totals) in lines]
        out.append(seen[0] - t if seen else None)
    return out
