# doodlebox bot: the PC's seats at the table (docs/console.md, "The PC's seats"). In a dice
# edition the lobby's D6 gives the last seats to the PC; at such a seat's turn to take a die the
# console asks the PC for its move (docs/protocol.md `bot?`, `bot`) and enters it with the
# seat's own presses, as a player would (app.button: the same rules, refusals, tones, events),
# then shows it on the panel. Without a PC, or with no answer, the table enters the seat's turn
# by hand. Loaded for the request or the answer and let go at once (doodle/app.py: RAM).
# owner App (doodle/app.py) as app: _bot, _notice_until, _told, _tx, _up, button, confirm_end,
#   game, journal, notice, screen_rev
from micropython import const

from doodle import drop, link

_WAIT_MS = const(5000)     # no answer by then: said, and the table may enter the turn
_SHOWN_MS = const(600000)  # the move (or why none) stays until the next press (or 10 minutes)
_LEN = const(46)           # two of the panel's notice lines (doodle/rounds_view.py)
_KEYS = const(12)          # the most presses a move takes (die, row, column, piece, values)


def ask(app, now):
    """The PC's seat is to take a die (app.tick): its move asked for, once for this turn and this
    link (app._bot[0]: the game's version, twice, plus 1 with a PC), or "no PC" said."""
    drop("app_seats")
    g = app.game
    b = app._bot
    b[0] = g.version * 2 + (1 if app._up else 0)
    b[1] = now
    p = g.current()
    app.screen_rev += 1
    if not app._up:
        app.notice = "P%d is the PC's: no PC. Enter its turn" % (p + 1)
        app._told = "bot"
        app._notice_until = now + _SHOWN_MS
        return
    app._tx.append(link.encode({"t": "bot?", "g": g.number, "s": app.journal.next - 1, "p": p}))
    app.notice = "P%d: the PC is choosing" % (p + 1)
    app._told = "bot?"                  # when it runs out, app.tick calls late()
    app._notice_until = now + _WAIT_MS


def late(app, now):
    """No answer within _WAIT_MS: said until the next press (an answer that comes later is still
    played while the turn is the same)."""
    drop("app_seats")
    app.notice = "P%d: no move from the PC yet" % (app.game.current() + 1)
    app._told = "bot"
    app._notice_until = now + _SHOWN_MS
    app.screen_rev += 1


def got(app, msg, now):
    """The PC's `bot`: its move `m` entered while the turn it was asked for is still the one to
    play (the same game, seat and version: a turn the table entered meanwhile is not played
    twice), and its text shown."""
    drop("app_seats")
    g = app.game
    text = msg.get("text")
    m = msg.get("m")
    if (g is None or msg.get("g") != g.number or g.over() or not g.claiming() or msg.get("p") != g.current()
            or app._bot[0] >> 1 != g.version or not isinstance(text, str) or app.confirm_end):
        return
    if isinstance(m, list) and not _play(app, g, m, now):
        text = "P%d: the PC's move did not fit" % (msg["p"] + 1)
    app.notice = text[:_LEN]
    app._told = "bot"                   # app.button lets it go at the next press
    app._bot[1] = now                   # the next PC's seat waits a moment after it (app.tick)
    app._notice_until = now + _SHOWN_MS
    app.screen_rev += 1


def _play(app, g, m, now):
    """The move [die, row, col, face, value] (or [] for PASS: a tree) pressed as the console asks
    for it (the die, then the row, the column, the piece's face (0: a floor) and the value, as
    far as the die leaves a choice): True when the turn was entered; else the die is put back."""
    if not m:
        return app.button("PASS", now) is None
    if len(m) != 5:
        return False
    for x in m:
        if not isinstance(x, int):
            return False
    why = app.button("D%d" % m[0], now)
    n = 0
    while why is None and n < _KEYS:
        a = g.asking()
        if a == "row":
            key = "D%d" % m[1]
        elif a == "col":
            key = "D%d" % m[2]
        elif a == "piece":
            key = "D%d" % m[3]
        elif a == "value" and m[4] in g.values:
            key = "ROLL" if g.values[g.shown] == m[4] else "PASS"
        elif not a:
            return True                 # the turn is entered (the next one is asked for)
        else:
            break                       # a value the rules do not offer
        why = app.button(key, now)
        n += 1
    a = g.asking()
    if a == "value":
        app.button("ROLL", now)         # drawn already: the value shown is circled
    elif a:
        app.button("PASS", now)         # a die half entered: put back
    return False
