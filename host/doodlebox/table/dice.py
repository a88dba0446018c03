"""A table of players for `doodlebox demo`, the end-to-end tests and `make bench`.

It plays a whole game of a dice edition on a console by pressing its buttons as people would.
Each move is a legal action of the PC's rules engine (chosen at random, drawing rather than
passing), pressed as host/doodlebox/presses.py says (what the console must send for it:
rules/dice/console.py); the engine follows the console's own dice.
Every event the console sends is checked against the engine as it arrives: a claim must say
what the engine did, a refusal must come where the engine refuses, and the end must come
when and why the engine ends the game. The console's own final totals (its `end` event) are
compared with the engine's at the end.

The engine plays on the sheet the console's `game` event names: a sheet of the table's own (`sh`,
`sx`: docs/sheets.md) or the edition's default. play_on_console sees the table's sheets sent to
the console (SheetWatch) and presses ROLL only once it holds and plays them.
"""
from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from doodlebox.history.console_record import BY_EDITION as RECORDS
from doodlebox.logger.link_thread import LinkThread
from doodlebox.logger.sheets import Courier
from doodlebox.rules.dice import layout as layouts
from doodlebox.rules.dice.console import claim
from doodlebox.rules.dice.engine import PASS, Action, Game, State
from doodlebox.rules.games import find_game
from doodlebox.store import Store
from doodlebox.table import deadly as deadly_table
from doodlebox.table import presses
from doodlebox.table import puzzle as puzzle_table
from doodlebox.table.lobby import (
    DEFAULT_LOBBY,
    PRESS_GAP_S,
    PRESS_MS,
    Players,
    TableError,
    choose_lobby,
    lobby_of,
    read_lobby,
    sheet_of,
)
from doodlebox.virtual.screen import panel_lines

# (table/lobby.py's names, which the tests and tools take from here too)
__all__ = [
    "DEFAULT_LOBBY",
    "PRESS_GAP_S",
    "PRESS_MS",
    "Players",
    "Table",
    "TableError",
    "choose_lobby",
    "lobby_of",
    "play_on_console",
    "read_lobby",
    "sheet_of",
]

SHEETS_WAIT_S = 60.0     # the most play_on_console waits for the console to take the table's sheets
FINAL = ("game over", "ended early")    # the final table's title (doodle/rounds_final.py, <game>_view.py)
FINAL_WAIT_S = 8.0       # the longest the demo waits for the panel to show it
SETTLE_S = 5.0           # ... and for it to play one it holds, after its last `sheets`


class Table(Players):
    """A dice edition's table (Players for the arguments)."""
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.state: State | None = None
        self._refused = False             # the game's one refused press is made

    # -- events -----------------------------------------------------------------------------
    def _await(self, *kinds: str) -> dict:
        """The next event of one of `kinds`; a refusal or anything else first is an error."""
        e = self._next_event()
        if e.get("k") not in kinds:
            raise TableError(f"the console sent {e}; the rules expected a {' or '.join(kinds)}")
        return e

    # -- the lobby --------------------------------------------------------------------------
    def _choose_in_lobby(self, edition: str, players: int, control: bool) -> None:
        self.lobby = choose_lobby(self.press, self.lobby, {"game": edition, "players": players, "control": control},
                                  self.read)

    # -- a game -----------------------------------------------------------------------------
    def play_game(self, edition: str = "city", players: int = 3, control: bool = False,
                  refuse_once: bool = True, stop_after_round: int | None = None,
                  back_to_lobby: bool = True) -> list[dict]:
        """Play one game to its end (or until `stop_after_round`) on the sheet its `game` event
        names; returns the events seen."""
        game = find_game(edition)
        variant = "control" if control else ""
        game.new_game(players, variant)       # the players and variant it takes, before any press
        self._choose_in_lobby(edition, players, control)
        self.sheet_shown(edition)
        self.press("ROLL")
        g = self._await("game")
        want = {"ed": edition, "n": players,
                "var": ("solo+control" if control else "solo") if players == 1 else variant}
        if {k: g.get(k) for k in want} != want:
            raise TableError(f"the console began {g}, not {want}: is its lobby where the table thinks it is?")
        state = self._new_state(edition, players, variant, g)
        self.state = state
        self._refused = not refuse_once
        return self._play(state, stop_after_round, back_to_lobby)

    def _new_state(self, edition: str, players: int, variant: str, g: dict) -> State:
        """The rules' game on the sheet the `game` event `g` names (the table's own, or the
        edition's default)."""
        data = self._own_sheet(g)
        if data is None:
            state = find_game(edition).new_game(players, variant).new_state()
            assert isinstance(state, State)
            return state
        said = f"the sheet {g['sh']!r} (hash {g['sx']})"
        try:
            lay = layouts.parse(data, said)
        except layouts.LayoutError as exc:
            raise TableError(f"the console plays {said}, which the rules cannot play: {exc}") from None
        if lay.edition != edition:
            raise TableError(f"the console plays {said} in {edition}; it is a sheet of {lay.edition}")
        return Game(lay, players, variant).new_state()

    def go_on(self, stop_after_round: int | None = None, back_to_lobby: bool = True) -> list[dict]:
        """Go on with the game play_game stopped (stop_after_round) once the console has been
        powered off and on: its first event must be the `resume` of that game, at the round the
        rules are in (`press` and `events` may be a new console's and a new link's)."""
        state = self.state
        if state is None:
            raise TableError("no game to go on with")
        e = self._await("resume")
        if e.get("r") != state.round:
            raise TableError(f"the console resumed at round {e.get('r')}; the rules are in round {state.round}")
        return self._play(state, stop_after_round, back_to_lobby)

    def _play(self, state: State, stop_after_round: int | None, back_to_lobby: bool) -> list[dict]:
        refused = self._refused
        while not state.is_terminal():
            if stop_after_round is not None and state.phase == "roll" and state.round >= stop_after_round:
                return self.seen
            if state.is_chance_node():
                self._chance(state)
                continue
            if not refused and state.phase == "turn" and state.round >= 2 and self._refuse(state):
                refused = self._refused = True
            self._turn(state, self._choose(state))
        end = self._await("end")
        self.final = end
        if end.get("why") != state.ending[0] or end.get("r") != state.round:
            raise TableError(f"the console ended the game with {end}; the rules end it after round "
                           f"{state.round}: {', '.join(state.ending)}")
        if end.get("p") != state.scores():
            raise TableError(f"the console's totals {end.get('p')} are not the rules' {state.scores()}")
        if back_to_lobby:
            self.press("ROLL")
        return self.seen

    def _chance(self, state: State) -> None:
        self.press("ROLL")
        e = self._await("start", "roll")
        if e["k"] == "start":
            state.apply(Action("start", e["d"]))
        else:
            state.apply(Action("roll", e["c"], whites=tuple(e["w"])))

    def _choose(self, state: State) -> Action:
        legal = state.legal_actions()
        rng = self.rng
        if state.phase == "circle":           # most players circle the highest (R10)
            return legal[0] if rng.random() < 0.8 else rng.choice(legal)
        draws = [a for a in legal if a.kind != "pass"]
        floors = [a for a in draws if a.kind == "floor"]
        if floors and rng.random() < 0.3:
            return rng.choice(floors)
        if draws and (PASS not in legal or rng.random() < 0.9):
            return rng.choice(draws)
        return PASS

    def _refuse(self, state: State) -> bool:
        """Press a die the rules do not allow now (once a game): the console must refuse it."""
        legal = {a.die for a in state.legal_actions() if a.kind != "pass"}
        bad = [d for d in range(1, state.game.whites + 1) if d not in legal]
        if not bad:
            return False
        self.press(f"D{self.rng.choice(bad)}")
        self._await("refuse")
        self.refusals += 1
        return True

    def _turn(self, state: State, action: Action) -> None:
        fields = claim(state, action) if action.kind not in ("pass", "circle") else None
        if action.kind == "circle":
            fields = self._pending
        for name in presses.presses(state, action):
            self.press(name)
        state.apply(action)
        if state.phase == "circle":            # the value is asked next: no event yet (C5)
            self._pending = fields
            return
        if action.kind == "pass":
            e = self._await("tree")
            if e.get("p") != state.history[-1][0]:
                raise TableError(f"the console logged {e} for P{state.history[-1][0] + 1}'s tree")
            return
        e = self._await("claim")
        assert fields is not None
        if {k: e.get(k) for k in fields} != fields or any(k in e and k not in fields for k in ("pc", "fl", "via")):
            raise TableError(f"the console logged {e}; the rules' move was {fields}")
        scored = state.sheets[fields["p"]].scored
        value = scored[-1].value if scored and scored[-1].round == fields["r"] and list(scored[-1].at) == [
            fields["row"], fields["col"]] else 0
        if e.get("v") != value:
            raise TableError(f"the console circled {e.get('v')}, the rules {value}: {e}")

    _pending: dict | None = None


class SheetWatch(Courier):
    """The link's Courier (logger/sheets.py: the table's sheets sent to the console after its hello),
    watched by the table: the table's choices it goes by (the Courier's `chosen`: {game: the library's Sheet}),
    what it said (`notes`), and the console's latest `sheets` (what it holds, what each game
    plays). wait() returns once it has nothing more to send and the console plays the table's
    sheet for the game."""

    def __init__(self, on_note: Callable[[str], None]):
        self.notes: list[str] = []

        def note(text: str) -> None:
            self.notes.append(text)
            on_note(text)

        super().__init__(note)
        self.lock = threading.Lock()
        self.said: dict | None = None          # the console's latest `sheets`
        self.said_at = 0.0                     # ... when it came (time.monotonic())

    def on_sheets(self, console, msg: dict) -> None:
        with self.lock:
            super().on_sheets(console, msg)
            if msg["t"] == "sheets":
                self.said, self.said_at = msg, time.monotonic()

    def tick(self) -> None:
        with self.lock:
            super().tick()

    def data(self, sx: str) -> Any:
        """The data of the table's sheet of hash `sx` this link goes by, or None."""
        with self.lock:
            found = [s.data for s in self.chosen.values() if s.hash == sx]
        return found[0] if found else None

    def wait(self, link: LinkThread, edition: str, timeout: float = SHEETS_WAIT_S) -> dict[str, tuple[str, str]]:
        """Once the console of `link` has taken the table's sheets: {game: (name, hash)} of the
        table's sheets it plays (a game absent: its default; {} from a console of protocol 4, which
        takes none). TableError when the table's sheet for `edition` did not arrive (too big, spoilt
        on the way, no answer: what the Courier said), or the console holds it and, SETTLE_S after
        its last `sheets`, does not play it, or nothing settled within `timeout` s."""
        deadline = time.monotonic() + timeout
        while True:
            if link.error:
                raise TableError(link.error)
            console = link.link.console if link.link is not None else None
            if console is not None and console.protocol < 5:
                return {}
            with self.lock:
                said, said_at = self.said, self.said_at
                idle = self.sending is None and not self.queue
                chosen = self.chosen.get(edition)
                told = list(self.notes)
            if said is not None and idle:
                held = {x for _, _, x in said["held"]}
                plays = {ed: (said["held"][i][1], said["held"][i][2]) for ed, i in said["use"]}
                if chosen is None or chosen.default:
                    return plays
                if chosen.hash not in held:
                    why = [t for t in told if chosen.hash in t or repr(chosen.name) in t]
                    raise TableError(f"the table's sheet {chosen.name} (hash {chosen.hash}) did not arrive: "
                                     + ("; ".join(why) or "the console does not hold it"))
                if plays.get(edition) == (chosen.name, chosen.hash):
                    return plays
                if time.monotonic() - said_at > SETTLE_S:
                    now = plays.get(edition)
                    raise TableError(f"the console holds the table's sheet {chosen.name} (hash {chosen.hash}) for "
                                     f"{edition} and plays {'its default' if now is None else now[0]}: it did not "
                                     f"take the table's choice (its last `sheets`: {said})")
            if time.monotonic() > deadline:
                doing = f"sending {self.sending.sheet.name}" if self.sending is not None else (
                    "no `sheets` from the console" if said is None else f"the console's last `sheets`: {said}")
                raise TableError(f"the console did not take the table's sheets within {timeout:g} s ({doing})")
            time.sleep(0.05)


def stored_sheet(db: Path | str, sx: str) -> Any:
    """The data of the sheet of hash `sx` the store `db` keeps (logger/sheets.py keeps each sheet
    it sends), or None."""
    store = Store(db)
    try:
        found = store.sheet(sx)
    finally:
        store.close()
    return None if found is None else found[2]


def sheet_line(edition: str, plays: dict[str, tuple[str, str]]) -> str:
    """The line that names the sheet a game of `edition` is played on."""
    name = find_game(edition).name
    if edition in plays:
        own, x = plays[edition]
        return f"{name} is played on the table's sheet {own} (hash {x}), which the console holds"
    what = "the map side chosen in the lobby" if edition == "deadly" else "its default sheet"
    return f"{name} is played on {what}: the table plays no sheet of its own in it (doodlebox sheets use NAME)"


def play_on_console(vc, db, edition: str = "city", players: int = 3, control: bool = False, seed: int = 7,
                    show: Callable[[dict], None] = lambda e: None, on_note: Callable[[str], None] = lambda t: None,
                    press_ms: float = PRESS_MS, gap_s: float = PRESS_GAP_S, options: dict | None = None,
                    say: Callable[[str], None] = lambda t: None):
    """Log a virtual console into `db` (a LinkThread) and play one whole game of any of the
    lobby's games on it: a dice edition (this module's Table, `control`), Deadly Doodles
    (bot_deadly, `options` "map" and "rec") or Doodle Puzzle (bot_puzzle, `options` "var",
    "subj" and "pause_s").

    A game played on a sheet (a dice edition, Deadly Doodles) waits until the console holds and
    plays the table's sheets the link sends it (`doodlebox sheets use`: SheetWatch), says on which
    sheet it is played (`say`, one line), and the table plays by the sheet the `game` event names
    (the link's, or the store's, by its hash).

    Returns (table, link counts); the table's `final` is the console's `end` event. Raises
    TableError when the console misbehaves or goes quiet, or a sheet does not arrive.
    """
    opts = options or {}
    link = LinkThread(vc.port, db, on_note=on_note)
    watch = link.courier = SheetWatch(on_note)
    link.start()
    try:
        if not link.wait_ready(30) or link.error:
            raise TableError(link.error or "the virtual console did not answer")
        common: dict = {"seed": seed, "show": show}
        if RECORDS[edition].EVENTS.sheets:
            plays = watch.wait(link, edition)
            say(sheet_line(edition, plays))
            common.update(plays=plays, panel=lambda: panel_lines(vc),
                          sheets=lambda sx: watch.data(sx) or stored_sheet(db, sx))

        def press(name: str) -> None:
            vc.press(name, press_ms)
            time.sleep(gap_s)

        common.update(lobby=read_lobby(vc), read=lambda game: read_lobby(vc, game=game))
        t: Table | deadly_table.Table | puzzle_table.Table
        if edition == "deadly":
            t = deadly_table.Table(press, link.events, **common)
            t.play_game(players, opts.get("map", "a"), opts.get("rec", "full"), back_to_lobby=False)
        elif edition == "puzzle":
            t = puzzle_table.Table(press, link.events, pause_s=opts.get("pause_s", 0.0), **common)
            t.play_game(players, opts.get("var", ""), opts.get("subj", "standard"), back_to_lobby=False)
        else:
            t = Table(press, link.events, **common)
            t.play_game(edition, players, control, back_to_lobby=False)   # the panel keeps the final screen
        # the last acks land, and the panel shows the final table with the PC's scores: the game's
        # end is a full refresh (2 s), after the PC's scores of the last move (at most 0.5 s more)
        end = time.monotonic() + FINAL_WAIT_S
        while time.monotonic() < end and not any(f in line for line in panel_lines(vc)[:3] for f in FINAL):
            time.sleep(0.1)
        time.sleep(0.5)
        assert link.link is not None
        return t, dict(link.link.counts)
    finally:
        link.stop()
