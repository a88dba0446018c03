# doodlebox app's heavy steps around a game (doodle/app.py): a game begun (the lobby's modules
# out, the game's in) and closed (back to the lobby), also when the power-up resumes one
# (doodle/app_powerup.py). Loaded for the step, right after a collection, and let go after it.
# owner App (doodle/app.py) as app: _base, _game_ver, _refuse, _tones, control, dice_, edition, game, games,
#   journal, now, opts, own, pc, players, store
import json
import sys

from micropython import const

from doodle import drop, load

_FILE = const("settings.json")   # the lobby's choice, read at power-up (doodle/app_begin.py)


def start(app):
    """The lobby's ROLL: its choice saved, a game begun (its first event: `game`) on the sheet the
    lobby shows. A table's sheet that no longer reads or checks is refused, and the game's default
    chosen in its place (the next ROLL plays it)."""
    x = load("ownsheet").choices(app.store).get(app.edition, "")
    sheet = own_sheet(app, x) if x else None
    if x and sheet is None:
        load("ownsheet").choose(app.store, app.edition, "")
        drop("ownsheet")
        app._refuse("sheet_bad", app.now)
        return
    drop("ownsheet")
    _save_choice(app, app.store)
    app.journal.game_began(app.journal.next)
    app.game = new_game(app, app.journal.add, sheet)
    app._tones.append("start")


def own_sheet(app, x):
    """The table's sheet of hash x for the lobby's game, read from flash (doodle/ownsheet.py), or
    None when it no longer reads or checks."""
    sheet = load("ownsheet").read(app.store, x, app.edition)
    drop("ownsheet")
    return sheet


def new_game(app, emit, sheet=None):
    """The lobby's modules out, the game's in; a Game of the lobby's choice, numbered, played on
    `sheet` (a table's own, doodle/ownsheet.py) or on the game's default."""
    lobby = load("lobby")
    opts = lobby.options(app)
    name = lobby.plays(app.edition)     # which module plays it: the lobby's data knows
    drop("lobby")
    # kept when the game is let go (this module is let go after the step)
    app._base = [k for k in sys.modules if k.startswith("doodle.") and k != "doodle.app_game"]
    app.games += 1
    app.pc = None
    app._game_ver = -1
    # with hints on, or the PC's seats, the `game` event says so (docs/protocol.md, `game.hint`,
    # `game.bots`): only that event
    more = {}  # type: dict[str, object]
    if sheet is not None:       # the table's sheet: its name and hash (docs/protocol.md, `game.sh`)
        opts["sheet"] = sheet
        more["sh"] = sheet.SH
        more["sx"] = app.own = sheet.SX
    if "hint" in app.opts:
        more["hint"] = 1
    k = app.opts.get("pc")
    if k:
        more["bots"] = list(range(app.players - k, app.players))
    g = load(name).begin(app, opts, (lambda ev: emit(dict(ev, **more) if ev["k"] == "game" else ev))
                            if more else emit)
    g.emit = emit
    load(g.VIEW)
    return g


def close(app):
    """Back to the lobby: the game, its edition's data and its screens are let go (RAM)."""
    app.game = None
    app.dice_.clear()
    if app.own:                  # a sheet replaced while this game was played on it goes now
        load("ownsheet").superseded(app.store, app.own)
        drop("ownsheet")
        app.own = ""
    base = app._base
    ed = app.edition
    for name in ("final", "view", "rounds", "score", "sheet", "ed_" + ed, ed, ed + "_view"):
        drop(name)
    for name in [k for k in sys.modules if k.startswith("doodle.") and k not in base and k != "doodle.app_game"]:
        drop(name[7:])           # whatever else the game loaded
    load("lobby")


def _save_choice(app, store):
    """The lobby's choice kept on flash, when it changed."""
    if store is None:
        return
    o = app.opts
    d = {"game": app.edition, "players": app.players, "control": app.control}
    for key in o:
        d[key] = o[key]
    text = json.dumps(d)
    if text != store.load(_FILE):
        store.save(_FILE, text)
