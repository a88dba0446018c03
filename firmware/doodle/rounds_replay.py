# doodlebox dice rounds after a power cut: a game's events read back from the journal applied
# again (docs/journal.md); doodle/rounds.py loads this only for a game resumed (RAM).
# owner Game (doodle/rounds.py) as g: _clear, _finish, _next, _tree, current, die, ed, emit,
#   phase, roll, round, setup_col, sheets, square, via, white
from doodle.link import quiet
from doodle.rounds import CLAIM, OVER, READY, SETUP
from doodle.sheet import SIDES


def replay(g, ev):
    """Apply to Game g an event it sent before a power cut: the same state as when it was
    made, nothing sent again. Raises ValueError for an event that does not fit the game as
    replayed so far."""
    k = ev["k"]
    emit = g.emit
    g.emit = quiet
    try:
        if k == "start":
            if g.phase != SETUP or ev["col"] != g.setup_col:
                raise ValueError("start road out of turn")
            g.roll(ev["d"], ())
        elif k == "roll":
            if g.phase != READY or ev["r"] != g.round + 1:
                raise ValueError("roll out of turn")
            g.roll(ev["c"], ev["w"])
        elif k == "claim":
            if g.phase < CLAIM or g.phase == OVER or ev["p"] != g.current() \
                    or g.white[ev["i"]] != ev["d"]:
                raise ValueError("claim out of turn")
            n = g.ed.SIZE
            i = (ev["row"] - 1) * n + ev["col"] - 1
            via = ev.get("via")
            g._clear()
            g.die = ev["i"]
            g.square = i
            g.via = (via[0] - 1) * n + via[1] - 1 if via else -1
            if "pc" in ev:
                g.sheets[g.current()].pieces[i] = SIDES[ev["pc"]]
            g._finish(ev["v"])
        elif k == "tree":
            if g.phase != CLAIM or ev["p"] != g.current():
                raise ValueError("tree out of turn")
            g._tree(g.sheets[g.current()])
            g._next()
        elif k == "end":
            g.phase = OVER
    finally:
        g.emit = emit
