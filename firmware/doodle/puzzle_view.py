# doodlebox Doodle Puzzle's panel: the screen during a game and the final table, as lines of
# text (title first, then at most 12 line-slots of 37 characters; "^" the action, right after the
# title: the panel draws it on top, twice the size; "!" before a line draws it on a black bar,
# "@" three times the size in 3 slots: the minute's time left, the largest), from
# doodle/puzzle.py's Game. docs/console-deadly-puzzle.md. Every role is shown face up after the
# deal (ruling P13); Baddy's boards are never shown.
# owner Game (doodle/puzzle.py) as g: baddy, behave, card, challenged, ended, guessy, high, left,
#   lines, lines_at, lines_pc, marks, num, number, out, paused, phase, placed, placers, players,
#   points, right, roles, round, s_baddy, s_right, s_wrong, shared, showdown, slots, star, subj,
#   version, won
from doodle import puzzle as P
from doodle.link import put_int

_W = bytearray(40)      # a line is written here, then made a str once
_WV = memoryview(_W)
_MARK = (b".", b"v", b"x")   # a round's mark: not scored, check mark, cross
_ROLE = {P.STAR: b"star Drawy", P.DRAWY: b"Drawy", P.BADDY: b"Baddy", P.GUESSY: b"Guessy"}
TOTAL_AT = 30           # the column of a Scorecard's total
ROLE_AT = 18            # the column of the second seat's role


def _b(n, data):
    """Write bytes (or an ASCII str) at n, clipped to the line; the position after them."""
    k = min(len(data), len(_W) - n)
    if k > 0:
        _W[n:n + k] = data[:k] if k < len(data) else data
    return n + max(k, 0)


def _i(n, v):
    return put_int(v, _W, n) if n < len(_W) - 4 else n


def _seat(n, p):
    return _i(_b(n, b"P"), p + 1)


def _text(n):
    return str(_WV[:n], "ascii")


def _line(*parts):
    """A line of bytes and ints (an int is written as digits)."""
    n = 0
    for x in parts:
        n = _i(n, x) if isinstance(x, int) else _b(n, x)
    return _text(n)


def _title(g):
    # the round being played; between rounds the one to come (ruling V1: every view says the same)
    return _line(b"Puzzle R", g.round + (1 if g.phase == P.DEAL else 0), b"/5")


def _order(g, head):
    """The placing order, the placer now in brackets."""
    n = _b(0, head)
    for k in range(P.SLOTS):
        now = g.phase == P.PLACE and k == g.placed
        n = _b(n, b" [" if now else b" ")
        n = _seat(n, g.placers[k])
        if now:
            n = _b(n, b"]")
    return _text(n)


def _slots(g):
    n = _b(0, b"Slots")
    for s in range(P.SLOTS):
        n = _i(_b(n, b" "), s + 1)
        n = _b(n, b":")
        who = g.slots[s]
        n = _seat(n, who - 1) if who else _b(n, b"-")
    return _text(n)


def _role(n, p, g):
    """ "P3 Baddy" at n."""
    return _b(_b(_seat(n, p), b" "), _ROLE[g.roles[p]])


def _clock(g):
    """The time left in big digits: "@0:42", "@0:42 PAUSED"."""
    n = _b(_i(_b(0, b"@"), g.left // 60), b":0" if g.left % 60 < 10 else b":")
    n = _i(n, g.left % 60)
    return _text(_b(n, b" PAUSED") if g.paused() else n)


def _entry_hint(g, more):
    if g.high:
        return "7-12: D1-D6   (PASS: back)"
    return more


def _points(g, pc):
    """Every player's total: the PC's when it sent them for this game."""
    if pc is not None and pc[0] == g.number and len(pc[2]) == g.players:
        return pc[2]
    return g.points()


def _card_line(g, p, pts):
    """A player's Scorecard: a mark per round, the Showdown's slashes, the total."""
    n = _b(_seat(0, p), b" ")
    for r in range(P.ROUNDS):
        n = _b(_b(n, b" "), _MARK[g.marks[r * g.players + p]])
    if g.showdown:
        n = _i(_b(n, b"  /+"), g.s_right[p])
        n = _i(_b(n, b" -"), g.s_wrong[p])
        n = _i(_b(n, b" -"), g.s_baddy[p])
    t = pts[p]
    col = TOTAL_AT - (3 if t < 0 or t > 9 else 2)
    while n < col:
        _W[n] = 32
        n += 1
    return _text(_i(_b(n, b" "), t))


def _shared_line(g, pts):
    n = _b(0, b"Shared card:")
    for r in range(P.ROUNDS):
        n = _b(_b(n, b" "), _MARK[g.shared[r]])
    return _text(_b(_i(_b(n, b"  "), pts[0]), b" points"))


def _result(g):
    """What the last round came to (the scoreboard's head)."""
    n = _b(_i(_b(0, b"Round "), g.round), b": guess ")
    n = _b(n, b"right" if g.right else b"wrong")
    if g.challenged:
        n = _b(_i(_b(n, b", board "), g.challenged), b" won" if g.won else b" lost")
    elif g.showdown and not g.right:
        n = _b(n, b", no challenge")
    return _text(n)


def _body(g, pc, out):
    ph = g.phase
    if ph == P.DEAL:
        if not g.round:
            out.append(_line(b"^ROLL deals round ", 1))
            out.append(_line(g.players, b" players, ", b"Behave" if g.behave else b"Showdown" if g.showdown
                             else b"base game", b", ", b"beginner" if g.subj == "beginner" else b"standard"))
            return
        out.append(_line(b"^ROLL deals round ", g.round + 1))
        _scoreboard(g, pc, out)
        return
    star = _text(_b(_seat(0, g.star), b" is the star Drawy"))
    if ph == P.NUMBER:                  # the roles face up, two seats a line
        out.append(_text(_b(_seat(_b(0, b"^"), g.star), b": choose a number 1-12")))
        for p in range(0, g.players, 2):
            n = _role(0, p, g)
            if p + 1 < g.players:
                while n < ROLE_AT:
                    _W[n] = 32
                    n += 1
                n = _role(n, p + 1, g)
            out.append(_text(n))
        out.append(_entry_hint(g, "D1-D6, or D0 then D1-D6: 7-12"))
        return
    if ph == P.SUBJECT:
        out.append("^ROLL: start the minute")
        out.append(star)
        out.append(_line(b"Subject card ", g.card, b", number ", g.num))
        out.append("MENU: set it aside, choose again")
        return
    if ph == P.MINUTE:                  # the action on top, the clock under it three times the size
        out.append("^Paused" if g.paused() else "^Drawys draw!")
        out.append(_clock(g))
        out.append(_line(b"Drawing: card ", g.card, b", number ", g.num))
        out.append("MENU: go on" if g.paused() else "MENU: pause")
        out.append(_order(g, b"Then placing:"))
        return
    if ph == P.PLACE:
        out.append(_text(_b(_seat(_b(0, b"^"), g.placers[g.placed]), b": place a board, slot? D1-D6")))
        out.append(_order(g, b"Order:"))
        out.append(_slots(g))
        return
    if ph == P.ERASE or ph == P.DRAW:
        out.append(_text(_b(_seat(_b(0, b"^"), g.baddy), b" (Baddy): erase on a board?" if ph == P.ERASE
                            else b" (Baddy): draw on a board?")))
        out.append("Baddy's Mischief: Guessy, eyes shut!")
        out.append("D0: ROLL for none   (PASS: back)" if g.high else "D1-D6, or D0 then ROLL: none")
        if ph == P.DRAW and not g.high:
            out.append("PASS: back to the erase")
        return
    if ph == P.GUESS:
        out.append(_text(_b(_seat(_b(0, b"^"), g.guessy), b" (Guessy) guesses aloud")))
        out.append("ROLL: right   PASS: wrong")
        return
    if ph == P.CHALLENGE:
        out.append(_text(_b(_seat(_b(0, b"^"), g.guessy), b": challenge Baddy's board?")))
        out.append("D1-D6: the board   PASS: no")


def _scoreboard(g, pc, out):
    pts = _points(g, pc)
    out.append(_result(g))
    if g.behave:
        out.append(_shared_line(g, pts))
        return
    for p in range(g.players):
        out.append(_card_line(g, p, pts))


def game(g, notice, pc, link_line):
    """The screen during a game: built again only when the game's version (or the PC's
    scores) changed; the notice and the link line are added as they are."""
    key = g.version * 2 + (1 if pc is not None and pc[0] == g.number else 0)
    body = g.lines
    if g.lines_at != key or g.lines_pc is not pc:
        g.lines_at = key
        g.lines_pc = pc
        del body[:]
        body.append(_title(g))
        _body(g, pc, body)
    out = g.out
    del out[:]
    for s in body:
        out.append(s)
    if notice:
        out.append("!" + notice)
    out.append(link_line)
    return out


def wrap(text, width=37):
    """Words into lines of at most `width` characters."""
    lines = []
    line = ""
    for w in text.split():
        if line and len(line) + 1 + len(w) > width:
            lines.append(line)
            line = w
        else:
            line = line + " " + w if line else w
    if line:
        lines.append(line)
    return lines


# Baddy, Please Behave: the rulebook's evaluation of the shared Scorecard, by its check marks
# (the same words as host/doodlebox/rules/puzzle/sentences.py VERDICTS)
VERDICTS = (
    "Good effort! But it seems like you might have painted yourselves into a corner... Don't lose heart! "
    "The goal is fun and learning, so keep those markers moving!",
    "There might be a need for some imagination to connect the drawings with the subject, but at least you "
    "reached a basic consensus. Future rounds look promising!",
    "It seems like you're starting to grasp the abstract essence of art! The reasoning process might be a "
    "bit... unique, but your teamwork is getting better!",
    "You've completed half the journey! This is the perfect blend of Picasso and detective stories! Keep up "
    "the teamwork!",
    "You're almost dual champions of art and logic! Your team dynamics are simply impressive!",
    "Master level unlocked! You've reached the pinnacle of art and intuition! Are you sure you weren't "
    "secretly using telepathy to solve the puzzles?",
)


def winners(pts):
    best = max(pts)
    return [p for p in range(len(pts)) if pts[p] == best]


def final(g, pc):
    """The final table: every total, highest first, and the winners (ties share); in Behave
    the shared Scorecard and the rulebook's verdict."""
    pts = _points(g, pc)
    early = g.ended == "menu"      # ruling G1 (docs/rulings.md): ended early, no winner
    lines = ["Puzzle: ended early" if early else "Puzzle: game over",
             "Ended after round 5" if not early else "MENU in round %d: no winner" % g.round]
    if g.behave:
        checks = 0
        for m in g.shared:
            if m == P.CHECK:
                checks += 1
        lines.append(_shared_line(g, pts))
        if early:
            lines.append("No verdict: ended early")
        else:
            lines.extend(wrap(VERDICTS[checks]))
    else:
        won = [] if early else winners(pts)
        order = sorted(range(g.players), key=lambda p: -pts[p])
        for k in range(len(order)):
            p = order[k]
            lines.append("%s P%d %4d pts%s" % ("-" if early else "%d." % (k + 1), p + 1, pts[p],
                                              "  winner" if p in won else ""))
        if len(won) > 1:
            lines.append("Tied: the victory is shared")
    lines.append("Scores by the %s" % ("PC" if pts is not g.points() else "console"))
    lines.append("ROLL: back to the lobby")
    return lines
