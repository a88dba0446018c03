# A scripted game of Doodle Puzzle for the firmware core (the presses of
# tests/firmware/test_console_puzzle.py's guest, chosen from the game's own state); runs under CPython
# and in the VM. turns(app, clock) yields the buttons to press for the rest of the game being
# played (from its deal, or from where a game resumed after a power cut left it), and "" while
# the drawing minute runs: then clock.stride (tests/guest/vm_play.py) is set so that the
# console's time reaches the minute's end in a few long steps, landing on it exactly.


def turns(app, clock):
    P = __import__("doodle.puzzle", None, None, ("x",))   # the game's module (loaded by the app)
    g = app.game
    n = 0
    while not g.over() and n < 5000:
        n += 1
        ph = g.phase
        if ph == P.DEAL or ph == P.SUBJECT:
            yield "ROLL"
        elif ph == P.NUMBER:
            yield "D0"
            yield "D%d" % (1 + g.round % 6)
        elif ph == P.MINUTE:
            left = P.MINUTE_MS - g.running(clock.t)
            clock.stride = max(10, min(250, left))
            yield ""
        elif ph == P.PLACE:
            yield "D%d" % (1 + (g.placed * 5 + g.round) % 6)
        elif ph == P.ERASE:
            yield "D%d" % g.round
        elif ph == P.DRAW:
            yield "D0"
            yield "ROLL"
        elif ph == P.GUESS:
            yield "ROLL" if g.round % 2 else "PASS"
        elif ph == P.CHALLENGE:
            yield "D%d" % g.round
        else:
            yield ""
