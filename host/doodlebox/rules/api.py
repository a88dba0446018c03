"""The one interface every game implements, in OpenSpiel's shape: a game makes states; a state
says who acts (a player, CHANCE or TERMINAL), lists the legal actions, checks and applies one
(refused with IllegalAction: the reason, the rule, the rulebook's sentence, what was legal),
gives the chance outcomes, clones cheaply, keeps its history and scores at any time.

Each game is one package (dice/, deadly/, puzzle/) whose `game.py` describes it with a
GameType; rules/games.py is the registry from edition to GameType.
"""
from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar

from doodlebox.errors import DoodleboxError

CHANCE = -1      # current_player() while dice are rolled, cards revealed or roles dealt
TERMINAL = -2    # current_player() once the game is over


class IllegalAction(DoodleboxError, ValueError):
    """An action the rules refuse, and nothing changed: `reason` (for a person), `rule` (an id:
    docs/rulings.md and the game's sentences.py), `sentence` (the rulebook's words), `legal`
    (what could be done instead, as text)."""

    def __init__(self, reason: str, rule: str, sentence: str = "", legal: Sequence[str] | None = None):
        super().__init__(reason)
        self.reason = reason
        self.rule = rule
        self.sentence = sentence
        self.legal = list(legal or ())


class GameConfigError(DoodleboxError, ValueError):
    """A game that cannot be set up as asked: players, variant or edition."""

    exit_code = 2


@dataclass
class Result:
    """The scores as if the game ended now (the final scores once it has): a total per player
    and the winners (several when tied; none for a solo or co-operative game). Each game adds
    its details."""
    totals: list[int]
    winners: list[int]


A = TypeVar("A")   # a game's action type (a NamedTuple: hashable, comparable, printable)


class Game(ABC):
    """The rules of one game for a number of players and a variant."""
    edition: str
    players: int

    @abstractmethod
    def new_state(self) -> State[Any]:
        """The state before the first action."""


class State(ABC, Generic[A]):
    """One moment of a game. Players are 0-based."""
    game: Game

    # -- who acts -----------------------------------------------------------------------
    @abstractmethod
    def current_player(self) -> int:
        """The player to act, CHANCE or TERMINAL. Where players act at the same time (Deadly
        Doodles), the first who has not finished; legal_actions(player) asks for another."""

    def is_chance_node(self) -> bool:
        return self.current_player() == CHANCE

    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    # -- the options --------------------------------------------------------------------
    @abstractmethod
    def legal_actions(self, player: int | None = None) -> list[A]:
        """Every legal action of `player` (default: the current player), or of chance at a
        chance node; [] for a player who may not act now."""

    @abstractmethod
    def chance_outcomes(self) -> list[tuple[A, float]]:
        """(outcome, probability) at a chance node; [] elsewhere."""

    def sample_chance(self, rng: random.Random) -> A:
        """One chance outcome drawn by its probability (games override this where listing
        every outcome is slow)."""
        outcomes = self.chance_outcomes()
        if not outcomes:
            raise ValueError("not a chance node")
        return rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]

    @abstractmethod
    def legal_text(self, player: int | None = None) -> list[str]:
        """What `player` (default: the current one) may do now, summarised for a person."""

    # -- acting -------------------------------------------------------------------------
    @abstractmethod
    def check(self, action: A, player: int | None = None) -> None:
        """Return if `action` (by `player`, default the current one) is legal, else raise
        IllegalAction."""

    def apply(self, action: A, player: int | None = None) -> None:
        """Apply a legal action; IllegalAction, and nothing changes, when it is not."""
        self.check(action, player)
        self.apply_unchecked(action, player)

    @abstractmethod
    def apply_unchecked(self, action: A, player: int | None = None) -> None:
        """Apply an action known to be legal (from legal_actions, or checked)."""

    @abstractmethod
    def clone(self) -> State[A]:
        """An independent copy: acting on one never changes the other."""

    @property
    @abstractmethod
    def history(self) -> list[tuple[int, A]]:
        """(player or CHANCE, action), in the order they happened."""

    # -- scores -------------------------------------------------------------------------
    @abstractmethod
    def result(self) -> Result:
        """The totals and winners as if the game ended now."""

    def scores(self) -> list[int]:
        return self.result().totals


@dataclass(frozen=True)
class GameType:
    """What the registry (rules/games.py) knows of a game, like OpenSpiel's GameType with its
    factory: how to make one, read and write its records, report and draw it.

    new_game(players, variant) -> Game       GameConfigError when the rulebook refuses it
    parse(data, source) -> record            RecordError: "source: place: what"
    replay(record) -> Replay                 never raises for a parsed record
    to_record(state, names) -> dict          the record of a game played on the engine
    as_json / sheets_text / table_text(replay)   what validate and score print
    render(state, player, path, title)       a player's sheet as a PNG (None: no sheets)
    """
    edition: str
    name: str
    players: tuple[int, int]
    variants: tuple[str, ...]
    new_game: Callable[..., Game]
    parse: Callable[[Any, str], Any]
    replay: Callable[[Any], Any]
    to_record: Callable[..., dict]
    as_json: Callable[[Any], dict]
    sheets_text: Callable[[Any], str]
    table_text: Callable[[Any], str]
    render: Callable[..., Path] | None = None
