"""Where the project's files are: the firmware tree, hardware data, layouts, the user's data."""
from __future__ import annotations

import os
from pathlib import Path

from platformdirs import user_data_dir

_PACKAGE = Path(__file__).resolve().parent


def root() -> Path:
    """The source checkout (the package is installed editable from host/)."""
    env = os.environ.get("DOODLEBOX_ROOT")
    return Path(env) if env else _PACKAGE.parent.parent


def firmware() -> Path:
    return root() / "firmware"


def hardware() -> Path:
    return root() / "hardware"


def layouts() -> Path:
    return _PACKAGE / "layouts"


def guest() -> Path:
    return _PACKAGE / "virtual" / "guest"


def data_dir() -> Path:
    """The user's doodlebox folder: platformdirs' user data folder (on Linux
    $XDG_DATA_HOME/doodlebox, by default ~/.local/share/doodlebox)."""
    return Path(user_data_dir("doodlebox", appauthor=False))


def default_db() -> Path:
    """The database every command uses unless given --db: the games logged at the table."""
    return data_dir() / "doodlebox.sqlite3"


def demo_db() -> Path:
    """`doodlebox demo`'s database (unless given --db): the scripted table's games, kept apart from the
    family's, so they never count in its games, statistics or page."""
    return data_dir() / "demo.sqlite3"
