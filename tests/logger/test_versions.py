"""One version of each thing (issue 34; host/doodlebox/versions.py, docs/install.md "Versions"): the
host's from one place, the firmware's read from the files it carries, and `doodlebox log` saying in
one line which side to update when a console runs another firmware than the one carried."""
from __future__ import annotations

import re

from test_livegame import FakeConsole

import doodlebox
from doodlebox import versions
from doodlebox.link.ports import Follow
from doodlebox.logger.club import Club
from doodlebox.virtual.pty_port import PtyPort


def test_the_three_versions_come_from_one_place_each():
    text = (versions.paths.firmware() / "doodle" / "app.py").read_text()
    assert f'FW_VERSION = "{versions.firmware()}"' in text
    assert versions.HOST == doodlebox.__version__
    assert versions.line() == f"doodlebox {doodlebox.__version__} (firmware {versions.firmware()}, protocol 5)"
    assert "version" not in re.sub(r"dynamic = \[\"version\"\].*", "", (versions.paths.root() / "pyproject.toml")
                                   .read_text().split("[project.optional-dependencies]")[0].split("[project]")[1])


def test_which_side_to_update():
    mine = versions.firmware()
    assert versions.compare(mine) is None
    older = versions.compare("0.3.0", "c0ffee")
    assert older == (f"console c0ffee runs firmware 0.3.0; this doodlebox carries {mine}: update the console with "
                     "`doodlebox flash` (its games are kept)")
    newer = versions.compare("99.0.0")
    assert newer is not None and "newer than the" in newer and "update doodlebox (`pipx upgrade doodlebox`" in newer


def test_the_logger_says_it_right_after_the_console_is_connected(tmp_path):
    pty = PtyPort()
    console = FakeConsole(pty)              # its hello says firmware 0.3.0
    lines: list[str] = []
    club = Club(tmp_path / "g.sqlite3", lines.append, lambda e: [], handshake_timeout=5)
    try:
        club.add(pty.path, Follow(pty.path), "fake")
        console.pump(lambda: any(m["t"] == "hi" for m in console.got))
        club.wait_ready(10)
        assert lines[:2] == [f"connected: console {console.uid}, firmware 0.3.0, boot {console.boot}",
                             f"  note: console {console.uid} runs firmware 0.3.0; this doodlebox carries "
                             f"{versions.firmware()}: update the console with `doodlebox flash` (its games are kept)"]
    finally:
        club.stop()
        pty.close()
