# The scripted game through the firmware core; runs under CPython and in the VM.
# sys.argv[1:] = edition, players. Prints one JSON line per frame the console sends, then
# "heap <peak alloc> <min free>".
import gc
import sys

from table_script import rand, steps

from doodle import link
from doodle.app import App

mem = getattr(gc, "mem_alloc", None)
peak = [0, 1 << 30]
app = App(rand, boot=1, uid="e2e0")
out = [app.serial_out()]
now = [0]


def press(name):
    now[0] += 150
    app.button(name, now[0])
    app.tick(now[0])
    app.screen()
    app.dice()
    out.append(app.serial_out())
    if mem:
        peak[0] = max(peak[0], mem())
        peak[1] = min(peak[1], gc.mem_free())


# Module-level loop: garbage is collected here, between presses (docs/virtual-console.md).
script = steps(app, now, sys.argv[1], int(sys.argv[2]))
while True:
    name = next(script, None)
    if name is None:
        break
    press(name)
    if mem:
        gc.collect()
    if app.collect_wanted:   # the loop's part: a collection (above, at module level), then the step
        app.collected()
# the last events: sent and acknowledged, eight at a time (the journal's window)
while app.journal.held():
    now[0] += 150
    app.tick(now[0])
    out.append(app.serial_out())
    sent = app.journal.last_sent()
    if sent is not None:
        app.serial_in(link.encode({"t": "ack", "boot": sent[0], "s": sent[1]}), now[0])
for chunk in out:
    sys.stdout.write(chunk.decode())
print("heap", peak[0], peak[1])
