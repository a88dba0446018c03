# doodlebox power-up: what the App does once, when the journal has read the flash: the damage
# it found said on the panel, and the game it holds unfinished played again (docs/journal.md).
# Loaded for that step and let go after it (doodle/app.py): RAM.
# owner App (doodle/app.py) as app: _boot_damaged, _notice_until, _refuse, _tell, _told, _tones,
#   control, edition, game, games, journal, notice, now, opts, players, screen_rev
# owner Journal (doodle/journal.py) as j: add, damaged, keep_from, odd, open_game, replay
from doodle import load
from doodle.app import NOTICE_MS
from doodle.link import quiet


def damage(app, j):
    """What the power-up found damaged on flash, said on the panel (docs/journal.md)."""
    said = []
    if app._boot_damaged:
        said.append("boot counter")
    if j.damaged:
        said.append("%d bytes of journal" % j.damaged)
    if j.odd:
        said.append("%d odd files" % j.odd)
    app._boot_damaged = False
    j.damaged = j.odd = 0
    app.notice = "flash damaged, skipped: " + ", ".join(said)
    app._notice_until = app.now + 3 * NOTICE_MS
    app._told = ""
    app.screen_rev += 1


def resume(app):
    """Power-up with a game unfinished on flash (docs/journal.md): its events played again
    through the game's core, nothing sent; then one `resume` event, and it goes on."""
    j = app.journal
    parts = j.open_game
    if parts is None:
        return
    j.open_game = None
    from doodle import app_game  # (the App lets it go with this module)

    box = [None, None, 0]  # type: list  # the game, its last roll, its number in the last boot played

    def apply(ev):
        k = ev["k"]
        if k == "game" or k == "resume":
            box[2] = ev["g"]
        if box[0] is None:
            if k != "game":
                raise ValueError("no game event")
            app.edition, app.players, app.control = ev["ed"], ev["n"], "control" in ev["var"]
            if load("lobby").plays(ev["ed"]) != "rounds":   # a card game's options: the lobby's
                for key in ("map", "rec", "subj"):
                    if key in ev and ev[key] != "own":   # (own: the table's map side, below)
                        app.opts[key] = ev[key]
                app.opts["var"] = ev["var"]
                app.control = False
            sheet = None
            if "sx" in ev:       # the table's own sheet it was begun on: the same one, or not resumed
                sheet = app_game.own_sheet(app, ev["sx"])
                if sheet is None:
                    raise ValueError("sheet")
            box[0] = app_game.new_game(app, quiet, sheet)
            return
        if k == "roll":
            box[1] = ev
        box[0].replay(ev)

    try:
        j.replay(parts, apply)
    except (ValueError, KeyError, TypeError, IndexError, ImportError):
        # a log this firmware cannot play again: the game is left (the PC closes it as
        # abandoned once another begins); its records go when the PC has them
        j.keep_from = None
        if box[0] is not None:
            app.games -= 1          # the next game is this boot's first
        app.game = box[0]
        app_game.close(app)
        app._refuse("lost", app.now)
        return
    g = box[0]
    g.emit = j.add
    g.number = app.games
    j.add({"k": "resume", "g": g.number, "of": [parts[-1][0], box[2]], "at": parts[-1][2], "r": g.round})
    app.game = g
    if box[1] is not None:       # a dice round: its dice shown again (only dice games roll)
        g.resumed(box[1])
    app._tones.append("start")
    if not app.notice:           # (what the power-up found damaged is said first)
        app._tell("resumed", app.now)
