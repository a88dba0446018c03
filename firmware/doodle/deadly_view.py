# doodlebox Deadly Doodles' screens (docs/console-deadly-puzzle.md): during a game, the round's
# cards as pictures (a "%" line, drawn by board/panel.py), whose turn it is and what to enter
# next (the action, a "^" line right after the title: the panel draws it on top, in its largest
# type), the scores; at the end, the final table. Title first, then at most 12 lines of at most
# 37 characters (a "%" line takes the room of 4). Loaded only during a game of Deadly Doodles.
# owner Game (doodle/deadly.py) as g: card, col, count_range, drawn, ending, faces, full, high,
#   item, kind, left_to_draw, lines, n, num, number, pc, phase, player, players, points, round,
#   row, scored, shape, side, solo, version
from doodle import deadly

_lines = []  # type: list[str]  # the screen's lines, one list filled again each time (the panel copies it)


def _line(g, k, sig, build):
    """Line k of the screen's cache, built again only when its signature `sig` changes."""
    cache = g.lines
    if cache[k] != sig:
        cache[k] = sig
        cache[k + 1] = build(g)
    return cache[k + 1]


def _title(g):
    # the round being played; between rounds the one to come (ruling V1: every view says the same)
    r = g.round + (1 if g.phase == deadly.DEAL else 0)
    return "Deadly Doodles %d/%d" % (r, deadly.ROUNDS)


def _cards(g):
    """The round's cards; while a segment's turn is asked, its four turns (D1..D4)."""
    if g.phase == deadly.TURN:
        m = g.shape()
        out = "%"
        for _ in range(4):
            out += deadly.FACES[m]
            m = deadly.rotate(m)
        return out
    return "%" + g.faces


def _room(g):
    return deadly.COLUMNS[g.col - 1] + (str(g.row) if g.phase == deadly.TURN else "")


def _prompt(g):
    """The action, a line starting with "^" (board/panel.py draws it on top, in its largest type):
    the player to act, then what to do."""
    ph = g.phase
    who = g.player + 1
    if ph == deadly.DEAL:
        return "^ROLL: turn up round %d's cards" % (g.round + 1)
    if ph == deadly.CARD:
        if not g.full:
            return "^P%d: your Trap's card? D1-D%d" % (who, g.n)
        return "^P%d: card? D1-D%d" % (who, g.n)
    if ph == deadly.COL:
        return "^P%d: card %d: column? D1-D6 = A-F" % (who, g.card)
    if ph == deadly.ROW:
        return "^P%d: card %d in %s: row? D1-D6" % (who, g.card, _room(g))
    if ph == deadly.TURN:
        return "^P%d: card %d in %s: turn? D1-D4" % (who, g.card, _room(g))
    if ph == deadly.TALLY:
        return "^P%d: %s?" % (who, deadly.COUNTS[g.item])
    return "^Game over"


def _hint(g):
    ph = g.phase
    if ph == deadly.DEAL:
        return "Map %s, drawings: %s" % (g.side.upper(), "full capture" if g.full else "tallies")
    if ph == deadly.CARD:
        left = ""
        for k in range(1, g.n + 1):
            if not g.drawn(g.player, k) and (g.full or g.kind(k) == deadly.TRAP):
                left += " %d" % k
        if not left:
            return "All drawn: PASS ends your round"
        if not g.left_to_draw(g.player):
            return "Left:" + left + "  (none fits: PASS)"
        return ("To draw:" if g.full else "Trap:") + left
    if ph == deadly.TURN:
        m = g.shape()
        out = ""
        for k in range(1, 5):
            out += "%sD%d %s" % (" " if k > 1 else "", k, deadly.ENDS[m])
            m = deadly.rotate(m)
        return out
    if ph == deadly.TALLY:
        least, most = g.count_range(g.player, g.item)
        if g.num >= 0:
            return "= %d   ROLL: ok   (%d-%d)" % (g.num, least, most)
        if g.high == 1:
            return "D0: 7-12 (D1-D6) or 0 (ROLL)"
        if g.high:
            return "D0 x%d: %d-%d (D1-D6)" % (g.high, 6 * g.high + 1, 6 * g.high + 6)
        return "%d of 8: D1-D6, D0 +6 each (%d-%d)" % (g.item + 1, least, most)
    if ph == deadly.OVER:
        return ""
    return "PASS: back"


def _scores(g):
    out = "Score"
    for v in g.points():
        out += " %d" % v
    return out


def _pc_scores(g):
    out = "PC score"
    for v in g.pc[2]:
        out += " %d" % v
    return out


def _violations(g):
    pc = g.pc
    return "!PC: %d violation(s): %s" % (pc[3], pc[4])


def _for_game(g, pc):
    return pc is not None and pc[0] == g.number and len(pc[2]) == g.players


def game(g, notice, pc, link_line):
    """The screen during a game: the title (the round's), the action (a "^" line: drawn on top,
    the largest), the cards, the action's hint, the scores, the notice, the link."""
    lines = _lines
    del lines[:]
    # the title, the full refresh's key: the round's (between rounds the one to come, as _title)
    lines.append(_line(g, 0, g.round * 2 + (g.phase == deadly.DEAL), _title))
    lines.append(_line(g, 4, g.version, _prompt))     # the action, drawn on top
    if g.round and g.phase != deadly.TALLY:
        lines.append(_line(g, 2, g.version, _cards))
    hint = _line(g, 6, g.version, _hint)
    if g.phase == deadly.CARD and g.full and "PASS" not in hint:
        lines.append("PASS: end round")
    lines.append(hint)
    if not _for_game(g, pc):
        g.points()
        lines.append(_line(g, 8, g.scored, _scores))
    else:
        g.pc = pc
        lines.append(_line(g, 10, id(pc), _pc_scores))
        if pc[3]:
            lines.append(_line(g, 12, id(pc), _violations))
    if notice:
        lines.append("!" + notice)
    lines.append(link_line)
    return lines


def winners(g, pts):
    """Every player with the top total (ties share the win); none in a solo game (ruling D11)."""
    if g.solo:
        return []
    best = max(pts)
    return [p for p in range(g.players) if pts[p] == best]


def final(g, pc):
    """The final table: the totals, best first, the winners, whose scores they are."""
    mine = g.points()
    by_pc = _for_game(g, pc)
    pts = pc[2] if by_pc else mine
    early = g.ending == "menu"     # ruling G1 (docs/rulings.md): ended early, no winner
    won = [] if early else winners(g, pts)
    lines = ["Deadly: ended early" if early else "Deadly: game over",
             "Map %s, %s; %s %d" % (g.side.upper(), "full capture" if g.full else "tallies",
                                    "after round" if g.ending == "rounds" else "MENU in round", g.round)]
    order = sorted(range(g.players), key=lambda p: -pts[p])
    for k in range(len(order)):
        p = order[k]
        lines.append("%s P%d %4d pts%s" % ("-" if early else "%d." % (k + 1), p + 1, pts[p],
                                          "  winner" if p in won else ""))
    if early:
        lines.append("No winner: ended early")
    elif g.solo:
        lines.append("Solo: beat your best score")
    elif len(won) > 1:
        lines.append("Tied: the victory is shared")
    lines.append("Scores by the %s" % ("PC" if by_pc else "console"))
    if by_pc and pc[3]:
        lines.append("!PC: %d violation(s): %s" % (pc[3], pc[4]))
    lines.append("ROLL: back to the lobby")
    return lines
