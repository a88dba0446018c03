# doodlebox lobby: choosing the game, the players and More control before a game, the screen
# that shows the choice, and the choice kept on the console's flash (settings.json). Loaded
# while the lobby is shown, let go during a game (doodle/app.py).
import json

EDITIONS = ("city", "suzhou", "treasures", "shanghai", "monsters")
NAMES = ("Doodle City", "Suzhou", "Sea of Treasures", "Shanghai", "Sea of Monsters")
SIX_BY_SIX = ("shanghai", "monsters")
SETTINGS = "settings.json"
PLAYERS = {"D1": 1, "D2": 2, "D3": 3, "D4": 4, "D5": 5}


def button(app, name):
    """A press in the lobby: None, a refusal's reason, or "start"."""
    six = app.edition in SIX_BY_SIX
    if name == "D0":
        app.edition = EDITIONS[(EDITIONS.index(app.edition) + 1) % len(EDITIONS)]
        if app.edition in SIX_BY_SIX:   # no More control, no solo game there (R16, R24)
            app.control = False
            app.players = max(app.players, 2)
    elif name in PLAYERS:
        if PLAYERS[name] == 1 and six:
            return "solo"
        app.players = PLAYERS[name]
    elif name == "PASS" and not six:
        app.control = not app.control
    elif name == "ROLL":
        return "start"
    return None


def screen(app, link_line):
    ed = app.edition
    six = ed in SIX_BY_SIX
    name = NAMES[EDITIONS.index(ed)]
    return [
        name,
        "Game: %s   (D0 next)" % name,
        "Players: %d   (D%s-D5)" % (app.players, "2" if six else "1"),
        "More control: %s" % ("(6x6: always)" if six else ("on   (PASS)" if app.control else "off  (PASS)")),
        "",
        "ROLL to start",
        "!" + app.notice if app.notice else "",
        link_line,
    ]


def load(app, store):
    """The choice kept on flash, if any (an unreadable file is a fresh console's choice)."""
    text = store.load(SETTINGS) if store is not None else None
    if not text:
        return
    try:
        s = json.loads(text)
        if s.get("game") in EDITIONS:
            app.edition = s["game"]
        if s.get("players") in (1, 2, 3, 4, 5):
            app.players = s["players"]
        app.control = s.get("control") is True
    except (ValueError, AttributeError, TypeError):
        return
    if app.edition in SIX_BY_SIX:
        app.control = False
        app.players = max(2, app.players)


def save(app, store):
    if store is None:
        return
    text = json.dumps({"game": app.edition, "players": app.players, "control": app.control})
    if text != store.load(SETTINGS):
        store.save(SETTINGS, text)
