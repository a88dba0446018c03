# A scripted game of any dice edition for the firmware core; runs under CPython and in the VM.
# steps(app, clock, edition, players) yields the buttons to press, one at a time, always a
# press the console accepts (chosen from its own state); the caller presses them (and may
# collect garbage in between, at module level: docs/virtual-console.md).
from doodle import link

_state = [12345]


def rand(n):  # a tiny LCG: the same sequence under CPython and MicroPython
    _state[0] = (_state[0] * 1103515245 + 12345) & 0x7FFFFFFF
    return (_state[0] >> 8) % n


def _choice(g, rounds):
    """The row or column to press while the console asks for one."""
    n = g.ed.SIZE
    if g.phase == rounds.ROW:
        rows = []
        for i in g.choices:
            if i // n + 1 not in rows:
                rows.append(i // n + 1)
        return rows[rand(len(rows))]
    cols = [i % n + 1 for i in g.choices if i // n + 1 == g.row]
    return cols[rand(len(cols))]


def steps(app, clock, edition="city", players=3, ack=True):
    """Buttons for a whole game; acks the journal as a host would (unless not `ack`: no PC)."""
    while app.edition != edition:
        yield "D0"
    yield "D%d" % players
    yield "ROLL"
    yield from turns(app, clock, ack)


def turns(app, clock, ack=True):
    """Buttons for the rest of the game being played (from the start roads, or from where a
    game resumed after a power cut left it)."""
    g = app.game
    rounds = __import__("doodle.rounds", None, None, ("x",))  # the game's module (loaded by the app)
    while g.phase == rounds.SETUP:
        yield "ROLL"
    n = 0
    while g.phase != rounds.OVER and n < 5000:
        n += 1
        ph = g.phase
        if ph == rounds.READY:
            yield "ROLL"
        elif ph == rounds.CLAIM:
            p = g.current()
            fits = [d for d in range(1, g.whites + 1) if g.why_not(p, d) is None]
            voluntary = g.can_pass and g.sheets[p].trees < g.ed.TREES and rand(8) == 0
            if not fits or voluntary:
                yield "PASS"
            else:
                yield "D%d" % fits[rand(len(fits))]
        elif ph in (rounds.ROW, rounds.COL):
            yield "D%d" % _choice(g, rounds)
        elif ph == rounds.PIECE:
            if g.sheets[g.current()].floor_ok(g.square) and rand(2):
                yield "D0"
            else:
                yield "D%d" % (rand(6) + 1)
        elif ph == rounds.VALUE:
            yield "PASS" if rand(3) == 0 else "ROLL"
        sent = app.journal.last_sent()
        if ack and sent is not None:  # acknowledge what was sent, as a host does once it is stored
            app.serial_in(link.encode({"t": "ack", "boot": sent[0], "s": sent[1]}), clock[0])
