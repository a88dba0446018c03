# Benchmark of the firmware core per button event, for `make bench` (tests/tools/bench.py).
# In the VM: time (ticks_us) and heap allocated by each press, from button to frame out,
# over a whole scripted game of sys.argv[1] (edition) with sys.argv[2] players; sys.argv[3], if
# given, is the flash folder the journal writes to (else RAM).
# Prints "press <us> <bytes> <phase before> <turn after>" per press (the turn: round * 10 +
# players who have acted, -1 outside a game), then "live <bytes after collect>".
import gc
import sys
import time

from table_script import rand, steps

from doodle.app import App

flash = None
if len(sys.argv) > 3:   # the journal on files in this folder (board/flash.py), as on the Pico
    from board.flash import Flash

    flash = Flash(sys.argv[3])
app = App(rand, boot=1, uid="be0c", store=flash)
app.serial_out()
now = [0]


def _turn():
    g = app.game
    return -1 if g is None else g.round * 10 + g.turn


def press(name):
    now[0] += 150
    g = app.game
    phase = -1 if g is None else g.phase
    t = time.ticks_us()
    a = gc.mem_alloc()
    app.button(name, now[0])
    app.tick(now[0])
    app.screen()
    app.dice()
    app.serial_out()
    us = time.ticks_diff(time.ticks_us(), t)
    print("press", us, gc.mem_alloc() - a, phase, _turn())


script = steps(app, now, sys.argv[1], int(sys.argv[2]))
while True:
    gc.collect()  # module level, between presses (docs/virtual-console.md)
    name = next(script, None)
    if name is None:
        break
    press(name)
    if app.collect_wanted:   # the loop's part: a collection at module level, then the step
        gc.collect()
        app.collected()
gc.collect()
print("live", gc.mem_alloc())
