"""A table of players for `doodlebox demo`, the end-to-end tests and `make bench`.

It plays a whole game of a dice edition on a console by pressing its buttons as people would.
Each move is a legal action of the PC's rules engine (chosen at random, drawing rather than
passing), pressed as host/doodlebox/presses.py says (what the console must send for it:
rules/dice/console.py); the engine follows the console's own dice.
Every event the console sends is checked against the engine as it arrives: a claim must say
what the engine did, a refusal must come where the engine refuses, and the end must come
when and why the engine ends the game. The console's own final totals (its `end` event) are
compared with the engine's at the end.
"""
from __future__ import annotations

import time
from collections.abc import Callable

from doodlebox.logger.link_thread import LinkThread
from doodlebox.rules.dice.console import claim
from doodlebox.rules.dice.engine import PASS, Action, State
from doodlebox.rules.games import find_game
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
)

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
]


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
        """Play one game to its end (or until `stop_after_round`); returns the events seen."""
        game = find_game(edition)
        variant = "control" if control else ""
        state = game.new_game(players, variant).new_state()
        assert isinstance(state, State)
        self.state = state
        self._choose_in_lobby(edition, players, control)
        self.press("ROLL")
        g = self._await("game")
        want = {"ed": edition, "n": players,
                "var": ("solo+control" if control else "solo") if players == 1 else variant}
        if {k: g.get(k) for k in want} != want:
            raise TableError(f"the console began {g}, not {want}: is its lobby where the table thinks it is?")
        self._refused = not refuse_once
        return self._play(state, stop_after_round, back_to_lobby)

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


def play_on_console(vc, db, edition: str = "city", players: int = 3, control: bool = False, seed: int = 7,
                    show: Callable[[dict], None] = lambda e: None, on_note: Callable[[str], None] = lambda t: None,
                    press_ms: float = PRESS_MS, gap_s: float = PRESS_GAP_S, options: dict | None = None):
    """Log a virtual console into `db` (a LinkThread) and play one whole game of any of the
    lobby's games on it: a dice edition (this module's Table, `control`), Deadly Doodles
    (bot_deadly, `options` "map" and "rec") or Doodle Puzzle (bot_puzzle, `options` "var",
    "subj" and "pause_s").

    Returns (table, link counts); the table's `final` is the console's `end` event. Raises
    TableError when the console misbehaves or goes quiet.
    """
    opts = options or {}
    link = LinkThread(vc.port, db, on_note=on_note).start()
    try:
        if not link.wait_ready(30) or link.error:
            raise TableError(link.error or "the virtual console did not answer")

        def press(name: str) -> None:
            vc.press(name, press_ms)
            time.sleep(gap_s)

        common: dict = {"seed": seed, "show": show, "lobby": read_lobby(vc),
                        "read": lambda game: read_lobby(vc, game=game)}
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
        time.sleep(1.5)  # the last acks land, and the panel shows the PC's final scores
        assert link.link is not None
        return t, dict(link.link.counts)
    finally:
        link.stop()
