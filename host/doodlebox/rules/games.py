"""Every game by its edition, the way python-chess lists its variants: GAMES, find_game(), and
reading a record of any game (validate, score, render and export go through here)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from doodlebox.errors import InputError
from doodlebox.rules.api import GameType
from doodlebox.rules.common import Replay, load_json
from doodlebox.rules.deadly.game import GAME_TYPE as DEADLY
from doodlebox.rules.dice.game import GAME_TYPES as DICE
from doodlebox.rules.puzzle.game import GAME_TYPE as PUZZLE

GAMES: tuple[GameType, ...] = (*DICE, DEADLY, PUZZLE)
EDITIONS: dict[str, GameType] = {t.edition: t for t in GAMES}


class UnknownEdition(InputError):
    pass


def find_game(edition: str) -> GameType:
    """The game of an edition name ("city" ... "monsters", "deadly", "puzzle")."""
    try:
        return EDITIONS[edition]
    except (KeyError, TypeError):
        raise UnknownEdition(f"{edition!r} is not an edition ({', '.join(EDITIONS)})") from None


def game_of_record(data: Any) -> GameType:
    """The game a record's JSON belongs to, by its "edition". A record of a dice sheet of the
    player's own ("layout" in the record) may name an edition of its own: the dice reader
    reads it, and says what is wrong when it cannot."""
    edition = data.get("edition") if isinstance(data, dict) else None
    return EDITIONS.get(edition, DICE[0]) if isinstance(edition, str) else DICE[0]


def read_record(data: Any, source: str) -> tuple[Any, GameType]:
    """(record, game) from a record's JSON; RecordError: "source: place: what"."""
    game = game_of_record(data)
    return game.parse(data, source), game


def replay_file(path: str | Path) -> tuple[Replay, GameType]:
    """(replay, game) for a record file of any game; RecordError when it cannot be read."""
    rec, game = read_record(load_json(path), str(path))
    return game.replay(rec), game
