# Benchmark of the firmware core per button event, for `make bench` (tests/bench.py).
# In the VM: time (ticks_us) and heap allocated by each press, from button to frame out,
# over a whole scripted game of sys.argv[1] (edition) with sys.argv[2] players; sys.argv[3], if
# given, is the flash folder the journal writes to (else RAM).
# Prints "press <us> <bytes>" per press, then "live <bytes after collect>".
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


def press(name):
    now[0] += 150
    t = time.ticks_us()
    a = gc.mem_alloc()
    app.button(name, now[0])
    app.tick(now[0])
    app.screen()
    app.dice()
    app.serial_out()
    print("press", time.ticks_diff(time.ticks_us(), t), gc.mem_alloc() - a)


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
