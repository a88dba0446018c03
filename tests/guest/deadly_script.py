# A scripted game of Deadly Doodles in tallies (the path on paper, the console deals and counts),
# for the firmware core under CPython and in the VM (tests/guest/vm_play.py). turns(app) yields
# the buttons to press for the rest of the game being played, chosen from the game's own state:
# ROLL deals a round; each player sets a Trap they hold in the first room that takes it, then
# PASS (twice: in tallies a segment is not known to the console, ruling D15); at the end each
# count is entered as the least it can be (D0 and ROLL for 0, D1..D6, D0 D1..D6 for 7..12).


def _number(v):
    if v == 0:
        return ["D0", "ROLL"]
    out = []
    while v > 6:
        out.append("D0")
        v -= 6
    return out + ["D%d" % v, "ROLL"]


def turns(app):
    D = __import__("doodle.deadly", None, None, ("x",))   # the game's module (loaded by the app)
    g = app.game
    n = 0
    while not g.over() and n < 5000:
        n += 1
        ph = g.phase
        if ph == D.DEAL:
            yield "ROLL"
        elif ph == D.CARD:
            p = g.player
            trap = 0
            for k in range(1, g.n + 1):
                if not g.drawn(p, k) and g.kind(k) == D.TRAP and g.can_draw(p, k):
                    trap = k
                    break
            if not trap:
                yield "PASS"
                if g.phase == D.CARD and g.player == p and not g.over():
                    yield "PASS"
                continue
            b = g.boards[p]
            room = 0
            while g.contents[room] or b[room]:
                room += 1
            yield "D%d" % trap
            yield "D%d" % (room % D.SIZE + 1)     # its column ...
            yield "D%d" % (room // D.SIZE + 1)    # ... and row
        elif ph == D.TALLY:
            least, _ = g.count_range(g.player, g.item)
            yield from _number(least)
        else:
            yield ""
