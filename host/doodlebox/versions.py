"""One version of each thing, from one place (docs/install.md, "Versions"): doodlebox's own
(`doodlebox.__version__`, which pyproject.toml reads too), the firmware's it carries (the
`FW_VERSION` of its firmware/doodle/app.py, read from the file, never copied) and the link's
protocol (link/frames.py). `doodlebox --version` prints all three; `doodlebox log` says which side
to update when a console runs another firmware than the one carried (`compare`)."""
from __future__ import annotations

import re
from functools import cache

from doodlebox import __version__, paths
from doodlebox.link.frames import VERSION as PROTOCOL

HOST = __version__


@cache
def firmware() -> str:
    """The firmware version this doodlebox carries (what `doodlebox flash` puts on a Pico)."""
    text = (paths.firmware() / "doodle" / "app.py").read_text()
    found = re.search(r'^FW_VERSION = "([0-9.]+)"', text, re.M)
    if found is None:
        raise paths.MissingFiles(f"{paths.firmware() / 'doodle' / 'app.py'} names no FW_VERSION")
    return found.group(1)


def line() -> str:
    """`doodlebox --version`: "doodlebox 0.10.0 (firmware 0.9.0, protocol 5)"."""
    return f"doodlebox {HOST} (firmware {firmware()}, protocol {PROTOCOL})"


def _key(version: str) -> tuple[int, ...]:
    return tuple(int(p) for p in re.findall(r"\d+", version)[:3])


def compare(console: str, uid: str = "") -> str | None:
    """One line when a console runs another firmware than the one this doodlebox carries: which
    side to update, and how; None when they are the same."""
    mine = firmware()
    if _key(console) == _key(mine):
        return None
    who = f"console {uid}" if uid else "the console"
    if _key(console) < _key(mine):
        return (f"{who} runs firmware {console}; this doodlebox carries {mine}: update the console with "
                "`doodlebox flash` (its games are kept)")
    return (f"{who} runs firmware {console}, newer than the {mine} this doodlebox carries: update doodlebox "
            "(`pipx upgrade doodlebox`, or `pip install -U doodlebox`)")
