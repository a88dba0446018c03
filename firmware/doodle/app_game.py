# doodlebox app's heavy steps around a game (doodle/app.py): a game begun (the lobby's modules
# out, the game's in) and closed (back to the lobby), also when the power-up resumes one
# (doodle/app_powerup.py). Loaded for the step, right after a collection, and let go after it.
# owner App (doodle/app.py) as app: _base, _game_ver, _tones, dice_, edition, game, games,
#   journal, opts, pc, players, store
import sys

from doodle import drop, load


def start(app):
    """The lobby's ROLL: its choice saved, a game begun (its first event: `game`)."""
    load("lobby").save(app, app.store)
    app.journal.game_began(app.journal.next)
    app.game = new_game(app, app.journal.add)
    app._tones.append("start")


def new_game(app, emit):
    """The lobby's modules out, the game's in; a Game of the lobby's choice, numbered."""
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
    base = app._base
    ed = app.edition
    for name in ("final", "view", "rounds", "score", "sheet", "ed_" + ed, ed, ed + "_view"):
        drop(name)
    for name in [k for k in sys.modules if k.startswith("doodle.") and k not in base and k != "doodle.app_game"]:
        drop(name[7:])           # whatever else the game loaded
    load("lobby")
