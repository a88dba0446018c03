"""What every table of players shares, whatever the game (dice.py's dice editions, table/deadly.py,
table/puzzle.py): the presses' pace, TableError, Players (with the sheet a `game` event names: the
table plays by it), and the way through the console's lobby (firmware/doodle/lobby.py): its screen
read back (lobby_of, read_lobby, sheet_of), its buttons pressed to a choice (choose_lobby). The
lobby's games, players, options and limits are the games' specs (doodlebox.rules.specs), the same
the console's lobby is generated from (firmware/doodle/games.py): nothing of a game is written here."""
from __future__ import annotations

import queue
import random
import time
from collections.abc import Callable
from typing import Any

from doodlebox.errors import DoodleboxError
from doodlebox.rules.api import Edition, Option
from doodlebox.rules.specs import BY_EDITION, EDITIONS
from doodlebox.store import sheet_hash
from doodlebox.virtual.screen import panel_lines

# How a scripted player presses, like a person: held 80 ms, the next press 100 ms later. The
# firmware counts a level once it has held for 30 ms across two polls (board/buttons.py); the
# virtual console holds a press for its length in the guest's time (docs/virtual-console.md).
PRESS_MS = 80
PRESS_GAP_S = 0.1

GAMES = tuple(e.edition for e in EDITIONS)         # the lobby's order (D0 steps on)
NAMES = {e.lobby: e.edition for e in EDITIONS}     # as the lobby's screen names them
BUTTONS = ("PASS", "MENU")                         # a card game's first option, its second
FRESH_PLAYERS = 3                                  # a fresh console's (firmware/doodle/app.py)


def _control(e: Edition) -> Option | None:
    """A dice edition's More control, if it offers it (the console's `control`)."""
    return e.options[0] if e.dice and e.options else None


def _card_options(e: Edition) -> tuple[Option, ...]:
    """The options a card game's lobby steps (PASS, MENU), kept by their keys."""
    return () if e.dice else e.options


DEFAULT_LOBBY: dict = {"game": GAMES[0], "players": FRESH_PLAYERS, "control": False,
                       **{o.key: o.default for e in EDITIONS for o in _card_options(e)}}   # a fresh console's


class TableError(DoodleboxError):
    pass


class Players:
    """What every table of players shares, whatever the game: `press(name)` presses a console
    button; `events` is the queue of events the host stores (link_thread.LinkThread.events: anything
    with get(timeout=)). `lobby` is the lobby's choice when the table comes to it (a dict, as
    read_lobby gives it; a fresh console's unless told), `read(game)` reads it once the lobby
    shows `game` (choose_lobby). The game's table (bot.Table, bot_deadly.Table,
    bot_puzzle.Table) plays on from there.

    A game the console begins on a sheet of the table's own (its `game` event's `sh` and `sx`:
    docs/protocol.md) is played by the rules on that sheet: `sheets(sx)` gives its data (the parsed
    JSON; None when the table does not hold it). `plays`, when given, is what the console was seen
    to play ({game: (name, hash)} of the table's sheets it plays; a game absent: its default): the
    `game` event must say the same, and with `panel` (the panel's lines now) the lobby must name
    that sheet before ROLL (sheet_shown)."""
    def __init__(self, press: Callable[[str], None], events, seed: int = 7, timeout: float = 20.0,
                 show: Callable[[dict], None] = lambda e: None, lobby: dict | None = None,
                 read: Callable[[str], dict] | None = None, sheets: Callable[[str], Any] | None = None,
                 plays: dict[str, tuple[str, str]] | None = None, panel: Callable[[], list[str]] | None = None):
        self.press = press
        self.events = events
        self.rng = random.Random(seed)
        self.timeout = timeout
        self.show = show
        self.lobby = lobby if lobby is not None else dict(DEFAULT_LOBBY)
        self.read = read
        self.sheets = sheets
        self.plays = plays
        self.panel = panel
        self.seen: list[dict] = []
        self.refusals = 0
        self.final: dict | None = None    # the console's end event

    def _next_event(self, timeout: float | None = None) -> dict:
        t = self.timeout if timeout is None else timeout
        try:
            e = self.events.get(timeout=t)
        except queue.Empty:
            raise TableError(f"no event from the console within {t:g} s") from None
        self.seen.append(e)
        self.show(e)
        return e

    def _presses(self, names: list[str]) -> None:
        for name in names:
            self.press(name)

    def sheet_shown(self, game: str, timeout: float = 15.0) -> None:
        """Before ROLL, with `plays` and `panel`: wait until the lobby shows `game` and names the
        sheet the console was seen to play for it (`Sheet: NAME`, or `default`); TableError when
        it does not within `timeout` s."""
        if self.plays is None or self.panel is None:
            return
        want = self.plays[game][0] if game in self.plays else ""
        deadline = time.monotonic() + timeout
        while True:
            lines = self.panel()
            lobby, shown = lobby_of(lines), sheet_of(lines)
            if lobby is not None and lobby["game"] == game and shown == want:
                return
            if time.monotonic() > deadline:
                said = "no sheet" if shown is None else f"the sheet {shown or 'default'}"
                raise TableError(f"the lobby shows {said} for {game} after {timeout:g} s; the console was to play "
                                 f"{want or 'its default'} (the panel: {' | '.join(lines)})")
            time.sleep(0.1)

    def _own_sheet(self, g: dict) -> Any:
        """The data of the table's sheet the `game` event `g` names (`sh`, `sx`), None for the
        game's default (neither). TableError when it is not the one the console was seen to play
        (`plays`), or the table does not hold it, or what it holds is not of that hash."""
        name, sx = g.get("sh"), g.get("sx")
        game = g.get("ed")
        if self.plays is not None:
            seen = self.plays.get(str(game))
            if (seen is None and sx is not None) or (seen is not None and (name, sx) != seen):
                said = f"the table's sheet {seen[0]} (hash {seen[1]})" if seen else "its default"
                raise TableError(f"the console began {g}; it was to play {game} on {said}")
        if name is None and sx is None:
            return None
        if not isinstance(name, str) or not isinstance(sx, str):
            raise TableError(f"the console began {g}: a sheet's name and hash, both or neither")
        data = self.sheets(sx) if self.sheets is not None else None
        if data is None:
            raise TableError(f"the console plays the sheet {name!r} (hash {sx}), which the table does not hold")
        if sheet_hash(data) != sx:
            raise TableError(f"the sheet the table holds for hash {sx} hashes to {sheet_hash(data)}")
        return data


# -- the lobby's screen ---------------------------------------------------------------------------
def lobby_of(lines: list[str]) -> dict | None:
    """The lobby's choice as its screen shows it ({"game", "players", and "control" for a dice
    edition that offers More control, each option's key for a card game: "map" and "rec" for
    Deadly Doodles, "var" and "subj" for Doodle Puzzle}), or None when the screen is not the
    lobby."""
    found: dict[str, str] = {}
    for line in lines:
        key, _, value = line.partition(": ")
        found[key] = value.split("   ")[0].split("  ")[0].strip()
    if found.get("Game") not in NAMES or not found.get("Players", "").isdigit():
        return None
    e = BY_EDITION[NAMES[found["Game"]]]
    lobby: dict = {"game": e.edition, "players": int(found["Players"])}
    for o in _card_options(e):
        labels = {c.label: c.value for c in o.choices}
        lobby[o.key] = labels.get(found.get(o.label, ""), o.default)
    if e.dice:
        control = _control(e)
        lobby["control"] = control is not None and found.get(control.label) == control.choices[1].label
    return lobby


def read_lobby(vc, timeout: float = 15.0, game: str | None = None) -> dict:
    """Wait until the virtual console's panel shows the lobby (of `game`, if given), and read
    its choice."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        lobby = lobby_of(panel_lines(vc))
        if lobby is not None and game in (None, lobby["game"]):
            return lobby
        time.sleep(0.1)
    raise TableError(f"the console's panel did not show the lobby within {timeout:g} s")


def sheet_of(lines: list[str]) -> str | None:
    """The sheet the lobby's screen says its game will be played on: a table's sheet by its name,
    "" for the default; None when the screen names none (not the lobby, or Doodle Puzzle)."""
    for line in lines:
        if line.startswith("Sheet: "):
            name = line[len("Sheet: "):].split("   ")[0].strip()
            return "" if name == "default" else name
    return None


# -- the lobby's buttons --------------------------------------------------------------------------
def _broken(e: Edition, now: dict, players: int, option: Option | None = None) -> str:
    """The rule of the first limit (of `option`, if given) that `players` break with the choice
    `now`, or ""."""
    for lim in e.limits:
        if lim.players is None or (option is not None and lim.option != option.name):
            continue
        o = e.option(lim.option)
        if now[o.key] == lim.choice and not lim.players[0] <= players <= lim.players[1]:
            return lim.rule
    return ""


def _fit(e: Edition, now: dict) -> None:
    """What the lobby does when D0 comes to a game: the players and options fitted to it (R16,
    R24, P9): a choice the players break falls back on its default."""
    low, high = e.players
    now["players"] = min(high, max(low, now["players"]))
    if _control(e) is None:
        now["control"] = False
    while rule := _broken(e, now, now["players"]):
        o = e.option(next(lim.option for lim in e.limits if lim.rule == rule))
        now[o.key] = o.default


def _step(e: Edition, o: Option, now: dict) -> None:
    """PASS or MENU on option `o`: its next choice that the players may take."""
    values = o.values
    k = values.index(now[o.key])
    while True:
        k = (k + 1) % len(values)
        now[o.key] = values[k]
        if not _broken(e, now, now["players"]):
            return


def choose_lobby(press: Callable[[str], None], current: dict, want: dict,
                 read: Callable[[str], dict] | None = None) -> dict:
    """Press the lobby's buttons (firmware/doodle/lobby.py) from the choice `current` (as
    lobby_of reads it) to `want` ({"game", "players"} and that game's options by their keys;
    options left out stay as they are). Returns the choice made. The lobby keeps each game's
    options, and shows only the chosen game's: `read(game)` reads the lobby once it shows `game`
    (without it the options of another game are taken to be a fresh console's)."""
    game, players = want["game"], want["players"]
    if game not in GAMES:
        raise TableError(f"{game!r} is not a game of the console's lobby ({', '.join(GAMES)})")
    e = BY_EDITION[game]
    low, high = e.players
    if not low <= players <= high:
        raise TableError(f"{game} is played by {low} to {high} players, not {players}")
    options = _card_options(e)
    chosen = dict(DEFAULT_LOBBY, **current)
    chosen.update({o.key: want[o.key] for o in options if o.key in want})
    for lim in e.limits:
        o = e.option(lim.option)
        if lim.players is not None and chosen[o.key] == lim.choice and not lim.players[0] <= players <= lim.players[1]:
            raise TableError(f"{o.choice(lim.choice).name} is played by {lim.players[0]} to {lim.players[1]} players "
                           f"({lim.ruling})")
    now = dict(DEFAULT_LOBBY, **current)
    steps = (GAMES.index(game) - GAMES.index(now["game"])) % len(GAMES)
    for _ in range(steps):
        press("D0")
    if steps and read is not None:
        now = dict(DEFAULT_LOBBY, **read(game))
    elif steps:                                # the lobby fits the players and options to the game
        _fit(e, now)
    now["game"] = game
    for o, button in zip(options, BUTTONS):    # a choice the players to come break: stepped on first
        while _broken(e, now, players, o):      # (Behave off first: the lobby refuses those players with it)
            press(button)
            _step(e, o, now)
    if now["players"] != players:
        if high > 6 and players >= 6:          # D6 counts on from 6 (7, 8, 6): start below it
            if now["players"] >= 6:
                press("D5")
            for _ in range(players - 5):
                press("D6")
        else:
            press(f"D{players}")
        now["players"] = players
    for o, button in zip(options, BUTTONS):
        want_value = want.get(o.key, now[o.key])
        while now[o.key] != want_value:
            press(button)
            _step(e, o, now)
    if _control(e) is not None and want.get("control", now["control"]) != now["control"]:
        press("PASS")
        now["control"] = want["control"]
    return now
