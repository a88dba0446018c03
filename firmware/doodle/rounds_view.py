# doodlebox view: a dice edition's e-paper screen, from the game's state: lines of text (title
# first; "!" a black bar, "%" the legend's pieces) and the map of the current player's sheet
# (board/panel.py draws them). docs/console.md, "The panel"
# owner Game (doodle/rounds.py) as g: bonus_owner, can_pass, choices, column, current, ed, legend,
#   lines, number, pc, phase, players, points, round, row, said, scored, setup_col, shared,
#   sheets, shown, square, start_player, taken, values, version, white, whites
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


_BIG_ROOM = const(37)      # an action line's characters (board/panel.py: 2x tall, 1x wide when long)


def _piece_ask(g, n):
    """The piece asked: where, by row, column and the sheet's word for the square, at n (after
    "^P1"): "row 2, column 4 (shop): piece?", shorter when it does not fit; the word on a line of
    its own when even "col" leaves no room (False: it fits)."""
    size = g.ed.SIZE
    i = g.square
    name = g.ed.NAMES[g.ed.KINDS[i]]
    for col in (", column ", ", col "):
        k = _int(_put(_int(_put(n, ": row "), i // size + 1), col), i % size + 1)
        if k + len(name) + 11 <= _BIG_ROOM + 1:
            return _put(_put(_put(k, " ("), name), "): piece?"), False
    return _put(k, ": piece?"), True


def _said(g):
    """The last turn's drawing no question asked, as the action ("^P1: circled 4 (hotel)", "^P1:
    cross out a tree", or both), or None."""
    said = g.said
    if said is None:
        return None
    ed = g.ed
    n = _int(_put(0, "^P"), said[0] + 1)
    word = ed.WORDS["tree" if said[2] == 1 else "barrel"] if said[2] else ""
    if said[1]:
        n = _int(_put(n, ": circled "), said[1])
        name = ed.NAMES[ed.KINDS[said[3]]]
        if n + len(name) + (len(word) + 14 if word else 0) <= _BIG_ROOM - 2:   # "^", " (", ")"
            n = _put(_put(_put(n, " ("), name), ")")
        if not word:
            return _text(n)
        n = _put(n, ",")
    else:
        n = _put(n, ":")
    return _text(_put(_put(n, " cross out a "), word))


def _prompt(g, out):
    """What the console asks for now: the action, a line starting with "^" the panel draws in
    its largest type (the player, then what to do), then a line or two of how (each written in
    the line buffer). The last turn's drawing no question asked takes the action's place until
    the next press; the action is then a line of its own."""
    ph = g.phase
    if ph == rounds.OVER:
        out.append("^Game over")
        return
    said = _said(g)
    if said is not None:
        out.append(said)
    k = len(out)
    n = _int(_put(0, "^P"), (g.start_player if ph <= rounds.READY else g.current()) + 1)
    if ph == rounds.SETUP:
        out.append(_text(_int(_put(n, ": ROLL for column "), g.setup_col)))
        out.append("Start roads")
    elif ph == rounds.READY:
        out.append(_text(_put(n, " starts: press ROLL")))
    elif ph == rounds.CLAIM:
        out.append(_text(_put(n, ": take a die")))
        if g.can_pass:
            out.append(_text(_put(_put(0, "or PASS: cross a "), g.ed.WORDS["tree"])))
    elif ph == rounds.ROW:
        out.append(_text(_put(_int(_put(n, ": row? D1-D"), g.ed.SIZE), " (marked)")))
        out.append("PASS: back")
    elif ph == rounds.COL:
        out.append(_text(_int(_put(n, ": column? D1-D"), g.ed.SIZE)))
        out.append(_text(_put(_int(_put(0, "in row "), g.row), "   PASS: back")))
    elif ph == rounds.PIECE:
        n, alone = _piece_ask(g, n)
        out.append(_text(n))
        if alone:
            out.append(g.ed.NAMES[g.ed.KINDS[g.square]])
        if not g.legend:
            legend = "%"
            for f in g.ed.LEGEND:
                legend += "%x" % SIDES[f]
            g.legend = legend
        out.append(g.legend)
    else:
        n = _int(_put(n, ": circle "), g.values[g.shown])
        out.append(_text(_put(_put(_put(n, " ("), g.ed.NAMES[g.ed.KINDS[g.square]]), ")?")))
        out.append("ROLL: yes  PASS: lower")
    if said is not None:
        out[k] = out[k][1:]       # the action said first: the question waits on a line of its own


def _owner(g):
    """Whose sheet the map shows."""
    return _text(_int(_put(0, "map: P"), _mapped(g) + 1))


def _mapped(g):
    """The player whose sheet the map shows: the player to act, between rounds the start player."""
    return g.current() if g.phase > rounds.READY else g.start_player


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
    sheet = g.sheets[_mapped(g)]
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
    if ph != rounds.OVER:
        lines.insert(2, _owner(g))   # under the title, beside the map's top
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
