# doodlebox hint: the table asks the PC for a hint with the chord MENU+PASS (docs/console.md,
# "Hints"), in a game begun with hints on in the lobby; the PC's answer is shown on the panel
# until the next press (docs/protocol.md `hint?`, `hint`). Loaded for the chord or the answer
# and let go at once (doodle/app.py): a game played without hints holds none of it (RAM).
# owner App (doodle/app.py) as app: _notice_until, _tell, _told, _tx, _up, game, journal, notice,
#   opts, screen_rev
from micropython import const

from doodle import drop, link

_WAIT_MS = const(1500)     # no answer by then: "no hint yet" (late)
_SHOWN_MS = const(600000)  # the answer stays until the next press (or 10 minutes)
_LEN = const(46)           # two of the panel's notice lines (doodle/rounds_view.py)


def ask(app, now):
    """The chord: nothing with hints off; else the request sent (the game, and the last event of
    this boot the console made: the PC answers once it holds it), or "no hint: no PC" when no
    PC is there. While the answer is awaited the screen stays as it is (app.screen): an e-paper
    picture takes ~0.3 s, and one drawn now ("asking ...") would hold the answer back behind it."""
    drop("app_hint")
    if "hint" not in app.opts:
        return
    if not app._up:
        app._tell("no hint: no PC", now)
        return
    app._tx.append(link.encode({"t": "hint?", "g": app.game.number, "s": app.journal.next - 1}))
    app.notice = ""                     # quiet: app.screen draws nothing new meanwhile
    app._told = "hint?"                 # when it runs out, app.tick calls late()
    app._notice_until = now + _WAIT_MS


def late(app, now):
    """No answer within _WAIT_MS: said for a notice's time."""
    drop("app_hint")
    app._told = ""
    app._tell("no hint yet", now)


def got(app, msg, now):
    """The PC's `hint`: shown while one was asked for this game (or just given up on)."""
    drop("app_hint")
    g = app.game
    text = msg.get("text")
    if (g is None or msg.get("g") != g.number or not isinstance(text, str)
            or app._told not in ("hint?", "no hint yet")):
        return
    app.notice = text[:_LEN]
    app._told = "hint"                  # app.button lets it go at the next press
    app._notice_until = now + _SHOWN_MS
    app.screen_rev += 1
