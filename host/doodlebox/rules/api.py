"""The one interface every game implements, in OpenSpiel's shape: a game makes states; a state
says who acts (a player, CHANCE or TERMINAL), lists the legal actions, checks and applies one
(refused with IllegalAction: the reason, the rule, the rulebook's sentence, what was legal),
gives the chance outcomes, clones cheaply, keeps its history and scores at any time.

Each game is one package (dice/, deadly/, puzzle/). Its `spec.py` declares it once (a GameSpec:
its editions, each with its name, players, options and their choices, and the rulebook's
limits); its `events.py` the events the console sends for it (rules/events.py) and its
`console.py` their translation to and from the engine's game; its `game.py` joins that
declaration to the engine, records and reports in a GameType; rules/games.py is the registry
from edition to GameType, rules/specs.py the list of the declarations alone (light to import:
the command line and the firmware's generated lobby read it). docs/adding-a-game.md.
"""
from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, Protocol, TypeVar

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


# -- what a game declares: rules/<game>/spec.py ------------------------------------------------
@dataclass(frozen=True)
class Choice:
    """One choice of an option: `value` as the engine, the records and the console's link name it
    ("behave"); `label` as the console's lobby shows it ("Behave"); `name` in full, the
    rulebook's words ("Baddy, Please Behave")."""
    value: str
    label: str
    name: str


@dataclass(frozen=True)
class Option:
    """An option of a game, as every part of doodlebox takes it.

    name         new_game's keyword and the record's field ("map", "variant")
    key          the console's: its lobby and settings.json, the link's `game` event ("var")
    flag         `doodlebox demo`'s ("--variant"); an option of "" and one choice is a switch
    label        the lobby's line for it ("Variant: Behave   (PASS)")
    description  what it chooses, for a person (--help)
    choices      in the lobby's order: PASS (the first option) or MENU (the second) steps on
    default      the value of a game that does not choose
    combine      the choices may be taken together, "a+b" (as a record may say; Limits forbid
                 the pairs the rulebook forbids)
    """
    name: str
    key: str
    flag: str
    label: str
    description: str
    choices: tuple[Choice, ...]
    default: str = ""
    combine: bool = False

    def __post_init__(self) -> None:
        if self.default not in self.values:
            raise ValueError(f"option {self.name}: the default {self.default!r} is not a choice")

    @property
    def values(self) -> tuple[str, ...]:
        return tuple(c.value for c in self.choices)

    @property
    def switch(self) -> bool:
        """Off ("") or on (one value): `--control`, not `--control CHOICE`."""
        return len(self.choices) == 2 and self.choices[0].value == "" == self.default

    def choice(self, value: str) -> Choice:
        for c in self.choices:
            if c.value == value:
                return c
        raise KeyError(value)

    def parse(self, value: object, game: str) -> tuple[str, ...]:
        """The values chosen ("behave+showdown" or a list, where choices combine; "" none);
        GameConfigError for a value that is not a choice."""
        if isinstance(value, str):
            names = [v.strip() for v in value.split("+")] if self.combine else [value]
        elif self.combine and isinstance(value, (list, tuple)):
            names = [str(v).strip() for v in value]
        else:
            raise GameConfigError(f"{value!r} is not a {self.name} of {game} ({self.known()})")
        names = [v for v in names if v] if self.combine else names
        for v in names:
            if v not in self.values:
                raise GameConfigError(f"{v!r} is not a {self.name} of {game} ({self.known()})")
        return tuple(dict.fromkeys(names))

    def known(self) -> str:
        return "known: " + ", ".join(repr(v) if v == "" else v for v in self.values)


@dataclass(frozen=True)
class Limit:
    """A choice the rulebook limits: played only by `players` (fewest, most), or never together
    with the choice `excludes` of the same option. `rule` is its id (the game's sentences.py,
    a record's violation, the console's refusal), `ruling` its entry in docs/rulings.md, `why`
    the reason behind it, for a person."""
    rule: str
    ruling: str
    option: str
    choice: str
    players: tuple[int, int] | None = None
    excludes: str = ""
    why: str = ""


@dataclass(frozen=True)
class Edition:
    """One edition as it is played: what the registry, the command line, the bots and the
    console's lobby know of it.

    edition   its id: records, the link, the command line ("suzhou")
    name      in full ("Doodle China: Suzhou"); lobby: as the console's lobby names it
              ("Suzhou"); short: the head of its game screen on the console
    players   the fewest and most players
    options   what a game of it chooses besides its players (the lobby's order: PASS, MENU)
    limits    the choices the rulebook limits
    dice      played with the console's dice (else with cards: firmware/doodle/<edition>.py)
    """
    edition: str
    name: str
    lobby: str
    short: str
    players: tuple[int, int]
    options: tuple[Option, ...] = ()
    limits: tuple[Limit, ...] = ()
    dice: bool = True

    def __post_init__(self) -> None:
        low, high = self.players
        for lim in self.limits:
            opt = self.option(lim.option)
            if lim.choice not in opt.values or (lim.excludes and lim.excludes not in opt.values):
                raise ValueError(f"{self.edition}: limit {lim.rule} names a choice {lim.option} does not have")
            if lim.players is not None and not low <= lim.players[0] <= lim.players[1] <= high:
                raise ValueError(f"{self.edition}: limit {lim.rule}'s players are not within {low} to {high}")

    def option(self, name: str) -> Option:
        for o in self.options:
            if o.name == name:
                return o
        raise GameConfigError(f"{name!r} is not an option of {self.name} "
                              f"({', '.join(o.name for o in self.options) or 'it has none'})")

    def has(self, name: str) -> bool:
        return any(o.name == name for o in self.options)

    @property
    def variants(self) -> tuple[str, ...]:
        """The variants a game of it may be played with ("" the base game not among them)."""
        return tuple(v for v in self.option("variant").values if v) if self.has("variant") else ()

    def chosen(self, options: dict[str, Any]) -> dict[str, tuple[str, ...]]:
        """{option name: the values chosen}, every option of the edition (its default where
        `options` does not say); GameConfigError for an option it has not, or a value that is
        not a choice. A game without variants takes only the variant ""."""
        out: dict[str, tuple[str, ...]] = {}
        for name, value in options.items():
            if name == "variant" and not self.has("variant"):
                if value not in ("", None, [], ()):
                    raise GameConfigError(f"{value!r}: {self.name} has no variants")
                continue
            out[name] = self.option(name).parse(value, self.name)
        for o in self.options:
            out.setdefault(o.name, o.parse(o.default, self.name))
        return out

    def problems(self, players: int, options: dict[str, Any]) -> list[tuple[str, str]]:
        """(rule, reason) for each limit that `players` and the choices break, in the order of
        `limits`."""
        chosen = self.chosen(options)
        out = []
        for lim in self.limits:
            values = chosen.get(lim.option, ())
            if lim.choice not in values:
                continue
            name = self.option(lim.option).choice(lim.choice).name
            why = f" ({lim.why})" if lim.why else ""
            if lim.players is not None and not lim.players[0] <= players <= lim.players[1]:
                out.append((lim.rule, f"{name} cannot be played with {players} players{why}"))
            if lim.excludes and lim.excludes in values:
                other = self.option(lim.option).choice(lim.excludes).name
                out.append((lim.rule, f"{name} cannot be combined with {other}{why}"))
        return out

    def players_text(self) -> str:
        return f"{self.name} is for {self.players[0]} to {self.players[1]}"

    def players_for(self, options: dict[str, Any]) -> tuple[int, int]:
        """The fewest and most players with these choices (the limits of the choices made)."""
        low, high = self.players
        chosen = self.chosen(options)
        for lim in self.limits:
            if lim.players is not None and lim.choice in chosen.get(lim.option, ()):
                low, high = max(low, lim.players[0]), min(high, lim.players[1])
        return low, high

    def legal(self, rule: str) -> str:
        """What the limit `rule` allows instead, for a person."""
        for lim in self.limits:
            if lim.rule == rule:
                opt = self.option(lim.option)
                name = opt.choice(lim.choice).name
                if lim.players is not None:
                    return f"{name} with {lim.players[0]} to {lim.players[1]} players"
                return f"{name} or {opt.choice(lim.excludes).name}, not both"
        raise KeyError(rule)


@dataclass(frozen=True)
class GameSpec:
    """One game of rules/<package>/ as it is declared once: its name and its editions (one for
    Deadly Doodles and Doodle Puzzle, five for the dice game)."""
    name: str
    package: str
    editions: tuple[Edition, ...]


# -- the registry's view of a game: rules/<game>/game.py ----------------------------------------
class ToRecord(Protocol):
    def __call__(self, state: Any, players: list[str]) -> dict: ...


class Render(Protocol):
    def __call__(self, state: Any, player: int, path: Any, title: str = "") -> Path: ...


@dataclass(frozen=True)
class GameType:
    """What the registry (rules/games.py) knows of one edition, like OpenSpiel's GameType with its
    factory: its declaration (`spec`), how to make a game, read and write its records, report
    and draw it.

    new_game(players, variant, **options) -> Game   the options checked against the spec's;
                                                    GameConfigError when the rulebook refuses it
    parse(data, source) -> record            RecordError: "source: place: what"
    replay(record) -> Replay                 never raises for a parsed record
    to_record(state, names) -> dict          the record of a game played on the engine
    as_json / sheets_text / table_text(replay)   what validate and score print
    render(state, player, path, title)       a player's sheet as a PNG (None: no sheets)
    """
    spec: Edition
    make: Callable[..., Game]       # (players, variant, **options), the options already checked
    parse: Callable[[Any, str], Any]
    replay: Callable[[Any], Any]
    to_record: ToRecord
    as_json: Callable[[Any], dict]
    sheets_text: Callable[[Any], str]
    table_text: Callable[[Any], str]
    render: Render | None = None

    @property
    def edition(self) -> str:
        return self.spec.edition

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def players(self) -> tuple[int, int]:
        return self.spec.players

    @property
    def variants(self) -> tuple[str, ...]:
        return self.spec.variants

    def new_game(self, players: int, variant: str = "", **options: Any) -> Game:
        """A game of `players` with the variant and options chosen: an option the spec does not
        declare, or a value that is not among its choices, is a GameConfigError here; the
        engine refuses the rest (players, the spec's limits)."""
        self.spec.chosen({"variant": variant, **options})
        return self.make(players, variant, **options)
