"""Which game a record is, and the modules that read, replay, report and draw it.

Every game has the same four parts, so `doodlebox validate/score/render` treat them alike:
  record.parse(data, source) -> a record   (RecordError: one line, the place and what)
  record.replay(rec) -> a replay with .record (.players: names), .state, .violations
                        (list of doodlebox.rules.dice.record.Violation) and .finished
  report.as_json(rp) / report.sheets_text(rp) / report.table_text(rp)
  render.render_sheet(state, player, path, title) (None for a game without sheets)
"""
from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType
from typing import Any, NamedTuple

from doodlebox.rules.dice import record as dice_record

# edition in a record -> the package that knows the game (the dice editions are the default)
PACKAGES = {"deadly": "doodlebox.rules.deadly", "puzzle": "doodlebox.rules.puzzle"}


class Game(NamedTuple):
    record: ModuleType
    report: ModuleType
    render: ModuleType | None


def game_of(edition: Any) -> Game:
    pkg = PACKAGES.get(edition) if isinstance(edition, str) else None
    if pkg is None:
        from doodlebox.rules.dice import render, report
        return Game(dice_record, report, render)
    rec = importlib.import_module(pkg + ".record")
    rep = importlib.import_module(pkg + ".report")
    try:
        ren: ModuleType | None = importlib.import_module(pkg + ".render")
    except ModuleNotFoundError:
        ren = None
    return Game(rec, rep, ren)


def replay_file(path: str | Path):
    """(replay, game) for a record file of any game; RecordError when it cannot be read."""
    data = dice_record.load_json(path)
    game = game_of(data.get("edition") if isinstance(data, dict) else None)
    rec = game.record.parse(data, str(path))
    return game.record.replay(rec), game
