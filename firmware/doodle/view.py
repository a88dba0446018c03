# doodlebox view: the e-paper screen as lines of text (title first, at most 12 more of 37
# characters; "!" before a line draws it on a black bar), from the app's state. docs/console.md
from micropython import const

from doodle import rounds
from doodle.link import put_ascii, put_int

# a line is written here, then made a str once (no list of pieces, no joins)
_W = bytearray(40)
_WV = memoryview(_W)


def _put(n, s):
    """Write str s (ASCII) at n, clipped to the line; the position after it."""
    room = len(_W) - n
    if len(s) > room:
        s = s[:room]
    return put_ascii(s, _W, n) if s else n


def _bput(n, data):
    """Write bytes at n, clipped to the line."""
    k = min(len(data), len(_W) - n)
    _W[n:n + k] = data[:k] if k < len(data) else data
    return n + k


def _int(n, v):
    return put_int(v, _W, n) if n < len(_W) - 4 else n


def _text(n):
    return str(_WV[:n], "ascii")

def cap(word):
    return word[:1].upper() + word[1:]  # MicroPython's str has no capitalize()


_FACE = const((b"-", b"1", b"2", b"3", b"4", b"5", b"6"))
_BY = const((b"", b"/P1", b"/P2", b"/P3", b"/P4", b"/P5"))


def _dice(g):
    n = _bput(0, _FACE[g.column])
    n = _bput(n, b" |")
    for d in range(1, g.whites + 1):
        n = _bput(n, b" ")
        n = _bput(n, _FACE[g.white[d]])
        n = _bput(n, _BY[g.taken[d] + 1])
    return _text(n)


def _numbers(head, values):
    n = _put(0, head)
    for v in values:
        n = _bput(n, b" ")
        n = _int(n, v)
    return _text(n)


def _line(g, k, sig, build):
    """Line k of the screen's cache, built again only when its signature `sig` changes."""
    cache = g.lines
    if cache[k] != sig:
        cache[k] = sig
        cache[k + 1] = build(g)
    return cache[k + 1]


def _prompt(g):
    """What the console asks for now, as one line (written in the line buffer)."""
    ph = g.phase
    if ph == rounds.OVER:
        return "Game over"
    if ph == rounds.SETUP:
        return _text(_int(_bput(0, b"Start roads: ROLL for column "), g.setup_col))
    if ph == rounds.READY:
        n = _int(_bput(0, b"P"), g.start_player + 1)
        return _text(_int(_bput(n, b" starts round "), g.round + 1))
    n = _int(_bput(0, b"P"), g.current() + 1)
    if ph == rounds.CLAIM:
        return _text(_put(_bput(n, b": take a die"), g.pass_hint))
    if ph == rounds.ROW or ph == rounds.COL:
        n = _bput(n, b": row? D1-D" if ph == rounds.ROW else b": column? D1-D")
        return _text(_bput(_int(n, g.ed.SIZE), b"  (PASS: back)"))
    if ph == rounds.PIECE:
        if not g.legend:
            g.legend = " ".join("%d%s" % (f + 1, g.ed.LEGEND[f]) for f in range(6))
        return _text(_put(_bput(n, b": piece? "), g.legend))
    n = _int(_bput(n, b": circle "), g.values[g.shown])
    return _text(_bput(n, b"? ROLL yes, PASS lower"))


def _floor_hint(g):
    return "   D0: %s   PASS: back" % g.ed.WORDS["floor"]


def _tracks(g):
    """5x5: the first-player bonuses and who took them; 6x6: each shared track's values taken."""
    ed = g.ed
    if ed.BONUSES:
        n = _bput(0, b"Bonus")
        for b in ed.BONUSES:
            n = _bput(n, b" ")
            n = _int(n, b)
            n = _bput(n, b":")
            n = _bput(n, _BY[g.bonus_owner[b] + 1][1:] if b in g.bonus_owner else b"-")
        return _text(n)
    n = 0
    for t in range(len(ed.TRACKS)):
        taken = g.shared[t]
        if taken is not None:
            if n:
                n = _bput(n, b"  ")
            n = _put(n, cap(ed.WORDS[ed.TRACKS[t][0]]))
            n = _bput(n, b":")
            k = n
            for v in ed.TRACKS[t][2]:
                if v in taken:
                    n = _bput(n, b" ")
                    n = _int(n, v)
            if n == k:
                n = _bput(n, b" -")
    return _text(n)


def _taken(g):
    n = len(g.bonus_owner)
    for t in g.shared:
        if t is not None:
            n += len(t)
    return n


def _trees(g):
    ed = g.ed
    n = _bput(_put(0, cap(ed.WORDS["trees"])), b" left")
    for s in g.sheets:
        n = _bput(n, b" ")
        n = _int(n, ed.TREES - s.trees)
    return _text(n)


def _barrels(g):
    ed = g.ed
    n = _bput(_put(0, cap(ed.WORDS["barrel"])), b"s left")
    for s in g.sheets:
        n = _bput(n, b" ")
        n = _int(n, ed.BARRELS - s.barrels)
    return _text(n)


def _crossed(g):
    n = 0
    for s in g.sheets:
        n += s.trees + 64 * s.barrels
    return n


def _points(g):
    return _numbers("Score", g.points())


def _pc_points(g):
    return _numbers("PC score", g.pc[2])


def _title(g):
    return "%s %s" % (g.ed.SHORT, "R%d" % g.round if g.round else "setup")


def _violations(g):
    pc = g.pc
    return "!PC: %d violation(s): %s" % (pc[3], pc[4])


_lines = []  # type: list[str]  # the screen's lines, one list filled again each time (the panel copies it)


def game(g, notice, pc, link):
    """The screen during a game; at the end, the final table. Each line that changes only
    with a turn (dice, tracks, scores, trees) is built again only when its content changes."""
    ed = g.ed
    lines = _lines
    del lines[:]
    lines.append(_line(g, 0, g.round, _title))
    lines.append(_prompt(g))
    if g.phase == rounds.PIECE and g.sheets[g.current()].floor_ok(g.square):
        lines.append(_line(g, 16, g.version, _floor_hint))
    if g.round:
        lines.append(_line(g, 2, g.version, _dice))
        lines.append(_line(g, 4, _taken(g), _tracks))
        if pc is None or pc[0] != g.number:
            g.points()
            lines.append(_line(g, 6, g.scored, _points))
        else:
            g.pc = pc
            lines.append(_line(g, 8, id(pc), _pc_points))
            if pc[3]:
                lines.append(_line(g, 10, id(pc), _violations))
    lines.append(_line(g, 12, _crossed(g), _trees))
    if ed.BARRELS:
        lines.append(_line(g, 14, _crossed(g), _barrels))
    if notice:
        lines.append("!" + notice)
    lines.append(link)
    return lines
