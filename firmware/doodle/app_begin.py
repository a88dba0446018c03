# doodlebox App at power-up (doodle/app.py): its state made, the journal begun (it reads the flash,
# doodle/journal.py) and the lobby's choice read from the flash (settings.json, written by
# doodle/app_game.py when a game begins). Loaded for App() and let go after it (RAM).
# owner App (doodle/app.py) as app: _after, _base, _boot_damaged, _bot, _dice, _dice_at, _flash_errors,
#   _game_ver, _hi, _link, _notice_until, _screen, _screen_at, _title, _told, _tones,
#   _tones_other, _tx, _up, collect_wanted, confirm_end, control, dice_, edition, full_screen, games,
#   journal, lines, notice, now, opts, own, pc, players, rand, screen_rev, store
import json
import sys

from micropython import const

from doodle import link, load
from doodle.dice import Dice
from doodle.journal import Journal

_FILE = const("settings.json")   # the lobby's choice (doodle/app_game.py writes it)


def begin(app, boot, boot_saved, boot_damaged):
    """App(rand, boot, uid, store, boot_saved, boot_damaged)'s state (rand, uid, store, game, the
    lobby's first game and the link's silence are set): nothing said, nothing sent yet, the
    lobby's choice as kept on flash."""
    app.journal = Journal(boot, app.store, boot_saved)
    app._boot_damaged = boot_damaged
    app.lines = link.Lines()
    app.dice_ = Dice(app.rand)
    app.games = 0
    app.players = 3
    app.control = False
    app.opts = {}
    app._game_ver = -1
    app._base = []
    app.pc = None
    app.confirm_end = False
    app.notice = app._told = ""
    app._notice_until = 0
    app._flash_errors = 0
    app._tones = []
    app._tones_other = []
    app._tx = []
    app._up = False
    app.now = 0
    app.screen_rev = 1
    app._screen = None
    app._screen_at = -1
    app._title = None
    app.full_screen = False
    d = app._dice = []
    for i in range(app.dice_.count):
        d.append([0, 0, i == 0])
    app._dice_at = -1
    app._link = [-1, -1, ""]
    app.collect_wanted = False
    app._after = None
    app._bot = [-1, 0]
    app.own = ""
    for k in sys.modules:
        if k.startswith("doodle.") and k != "doodle.app_begin":
            app._base.append(k)
    app._hi = True
    # the lobby's choice: each option at its default, then the choice kept on flash, if any (an
    # unreadable file is a fresh console's choice)
    load("lobby")
    from doodle.lobby import ED, GAME, _fit, _opts

    o = app.opts
    opts = _opts()
    for k in opts:
        o[k[0]] = k[4]
    text = app.store.load(_FILE) if app.store is not None else None
    if not text:
        return
    try:
        s = json.loads(text)
        if s.get("game") in ED.split():
            app.edition = s["game"]
        if s.get("players") in range(1, max([GAME[k] for k in range(1, len(GAME), 5)]) + 1):
            app.players = s["players"]
        app.control = s.get("control") is True
        if s.get("hint") == "on":
            o["hint"] = "on"
        if s.get("pc") in range(1, 9):
            o["pc"] = s["pc"]
        for k in opts:
            if s.get(k[0]) in k[2]:
                o[k[0]] = s[k[0]]
    except (ValueError, AttributeError, TypeError):
        return
    _fit(app)

