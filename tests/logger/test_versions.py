"""One version of each thing (issue 34; host/doodlebox/versions.py, docs/install.md "Versions"): the
host's from one place, the firmware's read from the files it carries, and `doodlebox log` saying in
one line which side to update when a console runs another firmware than the one carried."""
from __future__ import annotations

import re

from test_livegame import FakeConsole

import doodlebox
from doodlebox import versions
from doodlebox.logger.link_thread import LinkThread
from doodlebox.virtual.pty_port import PtyPort


def test_the_three_versions_come_from_one_place_each():
    text = (versions.paths.firmware() / "doodle" / "app.py").read_text()
    assert f'FW_VERSION = "{versions.firmware()}"' in text
    assert versions.HOST == doodlebox.__version__
    assert versions.line() == f"doodlebox {doodlebox.__version__} (firmware {versions.firmware()}, protocol 4)"
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


def test_the_logger_says_it_once_when_a_console_runs_another_firmware(tmp_path):
    pty = PtyPort()
    console = FakeConsole(pty)              # its hello says firmware 0.3.0
    notes: list[str] = []
    link = LinkThread(pty.path, tmp_path / "g.sqlite3", on_note=notes.append, handshake_timeout=5).start()
    try:
        console.pump(lambda: any(m["t"] == "hi" for m in console.got))
        assert link.wait_ready(5) and link.error is None
    finally:
        link.stop()
        pty.close()
    said = [n for n in notes if "runs firmware 0.3.0" in n]
    assert len(said) == 1 and "update the console with `doodlebox flash`" in said[0], notes
