"""Where the project's files are: the firmware tree, the board's data, the layouts, the user's data.

An installed package (a wheel: `pipx install doodlebox`) carries its firmware as doodlebox/firmware/
and the board's data as doodlebox/hardware/board/ (setup.py copies them in); a checkout (`make run`,
an editable install) has them at its top, firmware/ and hardware/. DOODLEBOX_ROOT names another
checkout. A folder that is not where it should be is one line (MissingFiles, exit 2)."""
from __future__ import annotations

import os
from pathlib import Path

from platformdirs import user_cache_dir, user_data_dir

from doodlebox.errors import InputError

_PACKAGE = Path(__file__).resolve().parent


class MissingFiles(InputError):
    """A folder doodlebox needs is not there: an incomplete install, or a checkout moved."""


def root() -> Path | None:
    """The source checkout this package runs from (DOODLEBOX_ROOT, or the folder above host/ when it
    has firmware/ and hardware/), or None for an installed package."""
    env = os.environ.get("DOODLEBOX_ROOT")
    if env:
        return Path(env)
    top = _PACKAGE.parent.parent
    return top if (top / "firmware").is_dir() and (top / "hardware").is_dir() else None


def _found(carried: Path, in_checkout: str, what: str, probe: str) -> Path:
    """The package's own copy of a folder, else the checkout's; MissingFiles when neither holds `probe`."""
    if (carried / probe).exists():
        return carried
    top = root()
    if top is not None and (top / in_checkout / probe).exists():
        return top / in_checkout
    where = top / in_checkout if top is not None else carried
    raise MissingFiles(f"{what} is missing: no {where / probe} (reinstall doodlebox, e.g. `pipx reinstall "
                       "doodlebox`; a checkout that moved: set DOODLEBOX_ROOT to it)")


def firmware() -> Path:
    """The firmware's files, as they go to the Pico (main.py, board/, doodle/)."""
    return _found(_PACKAGE / "firmware", "firmware", "doodlebox's firmware", "main.py")


def hardware() -> Path:
    """The board's data: pins.json, parts.json, bom.csv and the documents made from them."""
    return _found(_PACKAGE / "hardware" / "board", "hardware", "doodlebox's board data", "pins.json")


def layouts() -> Path:
    return _PACKAGE / "layouts"


def guest() -> Path:
    return _PACKAGE / "virtual" / "guest"


def build_dir() -> Path:
    """Where `doodlebox flash` compiles the firmware: build/flash in a checkout, else the user's
    cache folder."""
    top = root()
    return top / "build" / "flash" if top is not None else Path(user_cache_dir("doodlebox", appauthor=False)) / "flash"


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
