# doodlebox lobby: choosing the game (five dice editions, Deadly Doodles, Doodle Puzzle), the
# players and each game's options before a game, the screen that shows the choice, and the
# choice kept on the console's flash (settings.json). Loaded while the lobby is shown, let go
# during a game (doodle/app.py). docs/console.md, docs/console-deadly-puzzle.md.
import json

try:
    from micropython import const
except ImportError:  # CPython (tests)
    def const(x):  # type: ignore[misc]
        return x

# const: no name is kept for these (RAM: a name the lobby interns stays after it is let go)
_EDITIONS = const(("city", "suzhou", "treasures", "shanghai", "monsters", "deadly", "puzzle"))
_NAMES = const(("Doodle City", "Suzhou", "Sea of Treasures", "Shanghai", "Sea of Monsters", "Deadly Doodles",
                "Doodle Puzzle"))
_SIX_BY_SIX = const(("shanghai", "monsters"))
_CARD_GAMES = const(("deadly", "puzzle"))      # played through doodle/<game>.py (no dice)
_SETTINGS = const("settings.json")
_VARIANTS = const(("", "behave", "showdown"))  # Doodle Puzzle's (rulebook: not both)
_VARIANT_NAMES = const(("base", "Behave", "Showdown"))


def players_range(ed):
    """The players a game takes: Deadly Doodles 1-4, Doodle Puzzle 3-8, the dice editions
    1-5 (2-5 on 6x6)."""
    if ed == "deadly":
        return (1, 4)
    if ed == "puzzle":
        return (3, 8)
    return (2, 5) if ed in _SIX_BY_SIX else (1, 5)


def options(app):
    """The lobby's options for the game chosen, as its Game takes them (doodle/<game>.py)."""
    o = app.opts
    if app.edition == "deadly":
        return {"map": o["map"], "rec": o["rec"]}
    return {"var": o["var"], "subj": o["subj"]}


def _fit(app):
    """Players and options that the game chosen allows (R16, R24, P9)."""
    low, high = players_range(app.edition)
    app.players = min(high, max(low, app.players))
    if app.edition in _SIX_BY_SIX or app.edition in _CARD_GAMES:
        app.control = False
    if app.edition == "puzzle" and app.players == 8 and app.opts["var"] == "behave":
        app.opts["var"] = ""


def button(app, name):
    """A press in the lobby: None, a refusal's reason, or "start"."""
    ed = app.edition
    o = app.opts
    if name == "D0":
        app.edition = _EDITIONS[(_EDITIONS.index(ed) + 1) % len(_EDITIONS)]
        _fit(app)
    elif name in ("D1", "D2", "D3", "D4", "D5", "D6"):
        n = ord(name[1]) - 48                                # D3: 3 players
        if ed == "puzzle" and n == 6 and app.players >= 6:
            n = app.players + 1 if app.players < 8 else 6      # D6 again: 7, 8, back to 6
        low, high = players_range(ed)
        if n < low or n > high:
            if ed in _CARD_GAMES:
                return ed + "_n"
            return "solo" if n == 1 else None
        if ed == "puzzle" and n == 8 and o["var"] == "behave":
            return "behave_8"
        app.players = n
    elif name == "PASS":
        if ed == "deadly":
            o["map"] = "b" if o["map"] == "a" else "a"
        elif ed == "puzzle":
            k = (_VARIANTS.index(o["var"]) + 1) % len(_VARIANTS)
            if _VARIANTS[k] == "behave" and app.players == 8:
                k += 1                                       # Behave: 3-7 players
            o["var"] = _VARIANTS[k]
        elif ed not in _SIX_BY_SIX:
            app.control = not app.control
    elif name == "MENU":
        if ed == "deadly":
            o["rec"] = "tally" if o["rec"] == "full" else "full"
        elif ed == "puzzle":
            o["subj"] = "beginner" if o["subj"] == "standard" else "standard"
    elif name == "ROLL":
        return "start"
    return None


def screen(app, link_line):
    ed = app.edition
    name = _NAMES[_EDITIONS.index(ed)]
    o = app.opts
    low, high = players_range(ed)
    lines = [name, "Game: %s   (D0 next)" % name]
    if ed == "puzzle":
        lines.append("Players: %d   (D3-D6, D6 again: 7, 8)" % app.players)
        lines.append("Variant: %s   (PASS)" % _VARIANT_NAMES[_VARIANTS.index(o["var"])])
        lines.append("Subjects: %s   (MENU)" % o["subj"])
    else:
        lines.append("Players: %d   (D%d-D%d)" % (app.players, low, high))
        if ed == "deadly":
            lines.append("Map: %s   (PASS)" % o["map"].upper())
            lines.append("Drawings: %s   (MENU)" % ("full" if o["rec"] == "full" else "tallies"))
        else:
            lines.append("More control: %s" % ("(6x6: always)" if ed in _SIX_BY_SIX else (
                "on   (PASS)" if app.control else "off  (PASS)")))
    lines.append("")
    lines.append("ROLL to start")
    lines.append("!" + app.notice if app.notice else "")
    lines.append(link_line)
    return lines


def load(app, store):
    """The choice kept on flash, if any (an unreadable file is a fresh console's choice)."""
    text = store.load(_SETTINGS) if store is not None else None
    if not text:
        return
    try:
        s = json.loads(text)
        if s.get("game") in _EDITIONS:
            app.edition = s["game"]
        if s.get("players") in (1, 2, 3, 4, 5, 6, 7, 8):
            app.players = s["players"]
        app.control = s.get("control") is True
        o = app.opts
        if s.get("map") in ("a", "b"):
            o["map"] = s["map"]
        if s.get("rec") in ("full", "tally"):
            o["rec"] = s["rec"]
        if s.get("var") in _VARIANTS:
            o["var"] = s["var"]
        if s.get("subj") in ("standard", "beginner"):
            o["subj"] = s["subj"]
    except (ValueError, AttributeError, TypeError):
        return
    _fit(app)


def save(app, store):
    if store is None:
        return
    o = app.opts
    text = json.dumps({"game": app.edition, "players": app.players, "control": app.control, "map": o["map"],
                       "rec": o["rec"], "var": o["var"], "subj": o["subj"]})
    if text != store.load(_SETTINGS):
        store.save(_SETTINGS, text)
