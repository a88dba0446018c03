# doodlebox view: a dice edition's e-paper screen, from the game's state: lines of text (title
# first; "!" a black bar, "%" the legend's pieces) and the map of the current player's sheet
# (board/panel.py draws them). docs/console.md, "The panel"
# owner Game (doodle/rounds.py) as g: bonus_owner, can_pass, choices, column, current, ed, legend,
#   lines, number, pc, phase, players, points, round, row, scored, setup_col, shared, sheets,
#   shown, square, start_player, taken, values, version, white, whites
from micropython import const

from doodle import rounds
from doodle.link import put_ascii, put_int
from doodle.sheet import SIDES

# a line is written here, then made a str once (no list of pieces, no joins)
_W = bytearray(80)   # the longest: a map line (3 + 36 squares + up to 36 marked)
_WV = memoryview(_W)


def _put(n, s):
    """Write str s (ASCII) at n, clipped to the line; the position after it."""
    room = len(_W) - n
    if len(s) > room:
        s = s[:room]
    return put_ascii(s, _W, n) if s else n


def _pad(n, k):
    """Spaces from n up to k; the position after them."""
    while n < k:
        _W[n] = 32
        n += 1
    return n


def _face(n, v):
    """A die's face at n: its value, "-" for none."""
    _W[n] = 48 + v if v else 45
    return n + 1


def _int(n, v):
    return put_int(v, _W, n) if n < len(_W) - 4 else n


def _text(n):
    return str(_WV[:n], "ascii")

def cap(word):
    return word[:1].upper() + word[1:]  # MicroPython's str has no capitalize()


_ROOM = const(23)          # the characters a line has beside the map (board/panel.py map_chars)
_HOUSE = const(1)          # doodle/sheet.py HOUSE (a house square shows its houses left)


def _column_die(g):
    """The column die: the column it points to, or any column (a 6 on a 5x5 sheet)."""
    ed = g.ed
    n = _face(_put(_put(0, ed.COLUMN_DIE), " die "), g.column)
    if ed.JOKERS and g.column == 6:
        return _text(_put(n, ": any column"))
    return _text(_int(_put(n, ": column "), g.column))


def _whites(g):
    """The white dice, each taken one with who took it ("4P2")."""
    for head in ("White", "W"):
        n = _put(0, head)
        for d in range(1, g.whites + 1):
            n = _face(_put(n, " "), g.white[d])
            if g.taken[d] >= 0:
                n = _int(_put(n, "P"), g.taken[d] + 1)
        if n <= _ROOM:
            break
    return _text(n)


def _label(g):
    """The players' table: a row's label (this wide), then a column per player (_width wide)."""
    return min(11, _ROOM - g.players * _width(g))


def _row(g, head, values):
    """A row of the players' table: its label, then a value per player, right-aligned."""
    w = _width(g)
    label = _label(g)
    n = _pad(_put(0, head[:label]), label)
    for v in values:
        k = _int(n, v)
        if k - n < w:                      # right-aligned: move the digits, pad in front
            pad = w - (k - n)
            _W[n + pad:k + pad] = _W[n:k]
            _pad(n, n + pad)
            k = n + w
        n = k
    return _text(n)


def _width(g):
    return 4 if g.players <= 3 else 3


def _head(g):
    """The players' table's head: the game's number in the PC's store when the PC has sent it
    ("game 12": the number `doodlebox games` and the page give it), then P1, P2, ... over their
    columns."""
    w = _width(g)
    n = _pad(0, _label(g))
    pc = g.pc
    if pc is not None and pc[0] == g.number and pc[5]:
        _int(_put(0, "game "), pc[5])
    for p in range(g.players):
        _pad(n, n + w)
        k = _int(_put(n + w - 2, "P"), p + 1)
        n = max(k, n + w)
    return _text(n)


def _line(g, k, sig, build):
    """Line k of the screen's cache, built again only when its signature `sig` changes."""
    cache = g.lines
    if cache[k] != sig:
        cache[k] = sig
        cache[k + 1] = build(g)
    return cache[k + 1]


def _where(g):
    """The square being entered, by row, column and the sheet's word for it."""
    n = g.ed.SIZE
    i = g.square
    k = _int(_put(_int(_put(_int(_put(0, "P"), g.current() + 1), ": row "), i // n + 1), ", column "), i % n + 1)
    return _text(k)


def _prompt(g, out):
    """What the console asks for now, in one or two lines (each written in the line buffer)."""
    ph = g.phase
    if ph == rounds.OVER:
        out.append("Game over")
        return
    if ph == rounds.SETUP:
        out.append("Start roads:")
        out.append(_text(_int(_put(0, "ROLL for column "), g.setup_col)))
        return
    if ph == rounds.READY:
        out.append(_text(_int(_put(0, "ROLL for round "), g.round + 1)))
        out.append(_text(_put(_int(_put(0, "P"), g.start_player + 1), " starts")))
        return
    n = _int(_put(0, "P"), g.current() + 1)
    if ph == rounds.CLAIM:
        out.append(_text(_put(n, ": take a die")))
        if g.can_pass:
            out.append(_text(_put(_put(0, "or PASS: cross a "), g.ed.WORDS["tree"])))
        return
    if ph == rounds.ROW or ph == rounds.COL:
        if ph == rounds.ROW:
            out.append(_text(_put(_int(_put(n, ": row? D1-D"), g.ed.SIZE), " (marked)")))
            out.append("PASS: back")
        else:
            out.append(_text(_int(_put(n, ": column? D1-D"), g.ed.SIZE)))
            out.append(_text(_put(_int(_put(0, "in row "), g.row), "   PASS: back")))
        return
    out.append(_where(g))
    name = g.ed.NAMES[g.ed.KINDS[g.square]]
    if ph == rounds.PIECE:
        out.append(_text(_put(_put(0, name), ": piece?")))
        if not g.legend:
            legend = "%"
            for f in g.ed.LEGEND:
                legend += "%x" % SIDES[f]
            g.legend = legend
        out.append(g.legend)
        return
    n = _put(0, name) if len(name) < 10 else 0
    n = _int(_put(n, ": circle " if n else "circle "), g.values[g.shown])
    out.append(_text(_put(n, "?")))
    out.append("ROLL: yes  PASS: lower")


def _floor_hint(g):
    w = g.ed.WORDS["floor"]
    return "D0: %s%sPASS: back" % (w, "  " if len(w) < 8 else " ")


def _tracks(g):
    """5x5: the first-player bonuses and who took them; 6x6: each shared track's values taken,
    a line each (the highest ones when they do not all fit, after "..")."""
    ed = g.ed
    if ed.BONUSES:
        n = _put(0, "Bonus")
        for b in ed.BONUSES:
            n = _put(_int(_put(n, " "), b), ":")
            n = _int(_put(n, "P"), g.bonus_owner[b] + 1) if b in g.bonus_owner else _put(n, "-")
        return _text(n)
    out = []
    for t in range(len(ed.TRACKS)):
        taken = g.shared[t]
        if taken is not None:
            head = _put(_put(0, cap(ed.WORDS[ed.TRACKS[t][0]])), " out:")
            values = [v for v in ed.TRACKS[t][2] if v in taken]
            while True:
                n = _put(head, " .." if len(values) < len(taken) else "")
                for v in values:
                    n = _int(_put(n, " "), v)
                if n <= _ROOM or not values:
                    break
                values.pop(0)
            out.append(_text(n if values or taken else _put(n, " -")))
    return out


def _taken(g):
    n = len(g.bonus_owner)
    for t in g.shared:
        if t is not None:
            n += len(t)
    return n


def _trees(g):
    """The players' trees (bottles) crossed out: the tie-break, and R18's most/least points."""
    return _row(g, cap(g.ed.WORDS["trees"]) + " out", [s.trees for s in g.sheets])


def _barrels(g):
    return _row(g, cap(g.ed.WORDS["barrel"]) + "s out", [s.barrels for s in g.sheets])


def _crossed(g):
    n = 0
    for s in g.sheets:
        n += s.trees + 64 * s.barrels
    return n


def _points(g):
    return _row(g, "If it ended", g.points())


def _pc_points(g):
    return _row(g, "PC: if end", g.pc[2])


def _map(g):
    """The current player's sheet as the panel's map (a "#" line, board/panel.py): each square's
    piece, or its kind's letter (a house square: the houses left to cross); the square being
    entered, or the squares the die leaves to choose from, marked."""
    ed = g.ed
    n = ed.SIZE
    ph = g.phase
    sheet = g.sheets[g.current()] if ph > rounds.READY else g.sheets[0]
    k = _put(0, "#")
    _W[k] = 48 + n
    k += 1
    for i in range(n * n):
        p = sheet.pieces[i]
        kind = ed.KINDS[i]
        if p:
            _W[k] = 97 + p
        elif kind == _HOUSE:
            _W[k] = 48 + ed.HOUSES[i] - sheet.crossed[i]
        else:
            _W[k] = ed.MARKS[kind]
        k += 1
    k = _put(k, "|")
    if g.square >= 0:
        _W[k] = 48 + g.square
        k += 1
    elif ph == rounds.ROW or ph == rounds.COL:
        for i in g.choices:
            if ph == rounds.ROW or i // n == g.row - 1:
                _W[k] = 48 + i
                k += 1
    return _text(k)


def _notice(text, out):
    """A notice on black bars, wrapped at a word into the room beside the map: two lines at most."""
    if len(text) > _ROOM:
        k = text.rfind(" ", 0, _ROOM + 1)
        if k <= 0:
            k = _ROOM
        out.append("!" + text[:k])
        text = text[k:].lstrip()
    out.append("!" + text[:_ROOM])


def _title(g):
    """The edition and the round: between rounds already the round to be rolled (the panel makes
    a full refresh for a new title: at the round's end, not at the roll)."""
    r = g.round + (1 if g.phase == rounds.READY else 0)
    return "%s %s" % (g.ed.SHORT, "round %d" % r if r else "setup")


def _violations(g):
    pc = g.pc
    return "PC: %d violation(s): %s" % (pc[3], pc[4])


_lines = []  # type: list  # the screen's lines, one list filled again each time (the panel copies it)


_ROOM_LINES = const(12)    # the body's lines at a 9 px pitch (board/panel.py): a screen fits them


def game(g, notice, pc, link):
    """The screen during a game: what to do now (with the map of the current player's sheet and,
    for a piece, the legend's pieces drawn), the dice, the tracks, the players' table, what the PC
    found, a notice, the link. It fits the panel's 12 lines: when a notice or a piece's legend
    leaves too little room, the tracks go first, then the barrels' row, then the table. Each line
    that changes only with a turn is built again only when its content changes."""
    ed = g.ed
    if pc is not None and pc[0] == g.number:
        g.pc = pc
    mine = pc is None or pc[0] != g.number
    ph = g.phase
    lines = _lines
    del lines[:]
    lines.append(_line(g, 0, g.round * 2 + (ph == rounds.READY), _title))
    _prompt(g, lines)
    if ph == rounds.PIECE and g.sheets[g.current()].floor_ok(g.square):
        lines.append(_line(g, 16, g.version, _floor_hint))
    if g.round and ph != rounds.PIECE and ph != rounds.VALUE:
        lines.append(_line(g, 22, g.round, _column_die))
        lines.append(_line(g, 2, g.version, _whites))
    used = len(lines) - 1 + (3 if ph == rounds.PIECE else 0)    # the legend takes 4 lines
    tail = _tail
    del tail[:]
    if g.round and not mine and pc[3]:
        _notice(_line(g, 10, id(pc), _violations), tail)
    if notice:
        _notice(notice, tail)
    tail.append(link)
    room = _ROOM_LINES - used - len(tail)
    tracks = None
    if g.round and ph != rounds.PIECE:
        tracks = _line(g, 4, _taken(g), _tracks)
    barrels = ed.BARRELS > 0
    rows = (3 if g.round else 2) + barrels    # the table: head, totals, trees, barrels
    ntracks = 0 if tracks is None else 1 if ed.BONUSES else len(tracks)
    if ntracks + rows > room:             # the tracks go first ...
        ntracks = 0
    if rows > room and barrels:           # ... then the barrels' row ...
        barrels = False
        rows -= 1
    if ntracks and tracks is not None:
        if ed.BONUSES:
            lines.append(tracks)
        else:
            lines.extend(tracks)
    if rows <= room:                      # ... then the table
        lines.append(_line(g, 20, 0 if mine else pc[5], _head))
        if g.round:
            if mine:
                g.points()
                lines.append(_line(g, 6, g.scored, _points))
            else:
                lines.append(_line(g, 8, id(pc), _pc_points))
        lines.append(_line(g, 12, _crossed(g), _trees))
        if barrels:
            lines.append(_line(g, 14, _crossed(g), _barrels))
    lines.extend(tail)
    if ph != rounds.OVER:
        lines.append(_line(g, 18, g.version * 512 + (g.square + 1) * 8 + ph, _map))
    return lines


_tail = []  # type: list  # what goes under the table, built first to know the room left
