# doodlebox lobby: choosing the game (five dice editions, Deadly Doodles, Doodle Puzzle), the
# players and each game's options before a game, and the screen that shows the choice (kept on
# the console's flash by doodle/lobby_flash.py). Loaded while the lobby is shown, let go during a
# game (doodle/app.py). docs/console.md, docs/console-deadly-puzzle.md. The games, their
# players, options and limits are doodle/games.py, generated from the PC's specs
# (host/doodlebox/rules/*/spec.py, docs/adding-a-game.md): none of them is written here. Hints
# (the PC's, asked for with MENU+PASS in a game: doodle/app_hint.py) are the table's choice, not a
# game's: MENU in a dice edition's lobby, kept as app.opts["hint"] ("on"; absent: off). So are
# the PC's seats (doodle/app_seats.py): D6 in a dice edition's lobby gives the PC the last 1, 2, ...
# seats, then none again, kept as app.opts["pc"] (how many; absent: none). The sheet each game plays
# (the table's own, sent by the PC, or the default: doodle/ownsheet.py) is shown, and the chord
# MENU+PASS steps through the ones the console holds (doodle/app_sheets.py); the MENU that began
# the chord is taken back.
from doodle import drop, load
from doodle.games import CONTROL, ED, GAME, LIMIT, NAME, OPT

try:
    from micropython import const
except ImportError:  # CPython (tests)
    def const(x):  # type: ignore[misc]
        return x

drop("games")   # its tables are the lobby's alone: let go with it (RAM)

# const: no name is kept for these (RAM: a name the lobby interns stays after it is let go)
_CONTROL = const(0)   # GAME's kind: a dice edition that offers More control
_CARDS = const(2)     # GAME's kind: played through doodle/<game>.py (no dice)
_NONE = const(255)    # GAME's option: none


_last = [None]  # type: list  # the options before the last MENU: the chord MENU+PASS takes that MENU back


def _game(ed):
    """(index, fewest, most players, kind, its options' indexes in OPT) of the game `ed`."""
    i = ED.split().index(ed)
    g = GAME[5 * i:5 * i + 5]
    return i, g[0], g[1], g[2], [k for k in g[3:] if k != _NONE]


def _opts():
    """OPT's options, each (key, label, values, their labels, default): made for the moment (RAM)."""
    out = []
    for text in OPT.split("|"):
        o = text.split("/")
        out.append((o[0], o[1], o[2].split(","), o[3].split(","), o[4]))
    return out


def plays(ed):
    """The module that plays `ed` (doodle/app_game.py): a card game its own, doodle/<ed>.py; a
    dice edition doodle/rounds.py (with the edition's sheet)."""
    return ed if _game(ed)[3] == _CARDS else "rounds"


def options(app):
    """The lobby's options for the game chosen, as its Game takes them (doodle/<game>.py)."""
    d = {}
    for k in _game(app.edition)[4]:
        key = _opts()[k][0]
        d[key] = app.opts[key]
    return d


def _broken(ks, o, n):
    """The limit (LIMIT's row) that `n` players break with the choices `o` of a game whose
    options are `ks` (P9), or None."""
    for lim in LIMIT:
        if lim[0] in ks:
            k = _opts()[lim[0]]
            if o[k[0]] == k[2][lim[1]] and not lim[2] <= n <= lim[3]:
                return lim
    return None


def _fit(app):
    """Players and options that the game chosen allows (R16, R24, P9): a choice the players
    break falls back on its default."""
    _, low, high, kind, ks = _game(app.edition)
    app.players = min(high, max(low, app.players))
    if kind != _CONTROL:
        app.control = False
    if kind == _CARDS:          # the coach hints and plays in the dice editions only (docs/coach.md)
        app.opts.pop("hint", None)
        app.opts.pop("pc", None)
    elif app.opts.get("pc", 0) > app.players:
        app.opts["pc"] = app.players
    lim = _broken(ks, app.opts, app.players)
    while lim is not None:
        k = _opts()[lim[0]]
        app.opts[k[0]] = k[4]
        lim = _broken(ks, app.opts, app.players)


def button(app, name):
    """A press in the lobby: None, a refusal's reason, or "start"."""
    ed = app.edition
    i, low, high, kind, ks = _game(ed)
    o = app.opts
    if name == "MENU":
        _last[0] = dict(o)
    if name == "MENU+PASS":
        if _last[0] is not None:
            o.clear()
            o.update(_last[0])
            _last[0] = None
        if kind != _CARDS or (ks and _opts()[ks[0]][0] == "map"):   # a sheet or a map side (not Doodle Puzzle)
            load("app_sheets").step(app)
            drop("app_sheets")
    elif name == "D0":
        eds = ED.split()
        app.edition = eds[(i + 1) % len(eds)]
        _fit(app)
    elif name in ("D1", "D2", "D3", "D4", "D5", "D6"):
        n = ord(name[1]) - 48                                # D3: 3 players
        if n == 6 and kind != _CARDS:                        # the PC's seats: the last 1, 2, ... or none
            k = o.get("pc", 0) + 1
            if k > app.players:
                o.pop("pc", None)
            else:
                o["pc"] = k
            return None
        if n == 6 and high > 6 and app.players >= 6:
            n = app.players + 1 if app.players < high else 6   # D6 again: 7, 8, back to 6
        if n < low or n > high:
            if kind == _CARDS:
                return ed + "_n"
            return "solo" if n == 1 else None
        lim = _broken(ks, o, n)
        if lim is not None:
            return lim[4]                                    # behave_8
        app.players = n
        if o.get("pc", 0) > n:                               # the PC's seats: at most every seat
            o["pc"] = n
    elif name == "PASS" or name == "MENU":
        j = 0 if name == "PASS" else 1
        if j < len(ks):                                      # the next choice these players may take
            k = _opts()[ks[j]]
            c = k[2].index(o[k[0]])
            while True:
                c = (c + 1) % len(k[2])
                o[k[0]] = k[2][c]
                if _broken(ks, o, app.players) is None:
                    break
        elif name == "PASS" and kind == _CONTROL:
            app.control = not app.control
        elif name == "MENU" and kind != _CARDS:
            if o.pop("hint", None) is None:
                o["hint"] = "on"
    elif name == "ROLL":
        return "start"
    return None


def screen(app, link_line):
    i, low, high, kind, ks = _game(app.edition)
    name = NAME.split("/")[i]
    o = app.opts
    lines = [name, "Game: %s   (D0 next)" % name]
    if high > 6:
        lines.append("Players: %d   (D%d-D6, D6 again: %s)" % (
            app.players, low, ", ".join([str(n) for n in range(7, high + 1)])))
    else:
        lines.append("Players: %d   (D%d-D%d)" % (app.players, low, high))
    if kind == _CARDS:
        for j in range(len(ks)):
            k = _opts()[ks[j]]
            lines.append("%s: %s   (%s)" % (k[1], k[3][k[2].index(o[k[0]])], "MENU" if j else "PASS"))
    else:
        c = CONTROL.split("/")
        lines.append("%s: %s" % (c[0], "(6x6: always)" if kind != _CONTROL else (
            c[2] + "   (PASS)" if app.control else c[1] + "  (PASS)")))
        lines.append("Hints: %s   (MENU)" % ("on " if "hint" in o else "off"))
        k = o.get("pc", 0)
        lines.append("PC plays: %s   (D6)" % (" ".join(["P%d" % p for p in range(app.players - k + 1, app.players + 1)])
                                             if k else "none"))
    if kind != _CARDS or (ks and _opts()[ks[0]][0] == "map"):    # a sheet or a map side: which
        n = ""
        if app.store is not None and app.store.files("sh/"):   # (none held: nothing loaded, RAM)
            n = load("ownsheet").shown(app.store, app.edition)
            drop("ownsheet")
        lines.append("Sheet: %s   (MENU+PASS)" % (n or "default"))
    else:
        lines.append("")
    lines.append("ROLL to start")
    lines.append("!" + app.notice if app.notice else "")
    lines.append(link_line)
    return lines
