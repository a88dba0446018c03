# A scripted Doodle City game for the firmware core; runs under CPython and in the VM.
# steps(app) yields the buttons to press, one at a time; the caller presses them (and may
# collect garbage in between, at module level: docs/virtual-console.md).
from doodle import city, link

_state = [12345]


def rand(n):  # a tiny LCG: the same sequence under CPython and MicroPython
    _state[0] = (_state[0] * 1103515245 + 12345) & 0x7FFFFFFF
    return (_state[0] >> 8) % n


def steps(app, clock):
    """Buttons for a 3-player game to its end; acks the journal as a host would.

    `clock` is a one-item list holding the time in ms that the caller's presses use.
    """
    yield "D3"
    yield "ROLL"
    for _ in range(5):
        yield "ROLL"
    g = app.game
    n = 0
    while g.phase != city.OVER and n < 3000:
        n += 1
        if g.phase == city.READY:
            yield "ROLL"
        elif g.phase == city.CHOOSE:
            yield "D%d" % (rand(5) + 1)
        elif g.forced(g.current()):
            yield "PASS"
        else:
            yield "D%d" % (rand(g.whites) + 1)
        if app.journal.held() > 8:
            app.serial_in(link.encode({"t": "ack", "boot": 1, "s": app.journal.next - 1}), clock[0])
