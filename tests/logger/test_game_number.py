"""One game number in the terminal (issue 20): `doodlebox log`, `make run` and `make demo` name a
game by the store's number, the one `doodlebox games`, `show` and the page give it, with the
console's own number (it counts from 1 at each power-up) beside it."""
from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest
from test_console_record import city_events

from doodlebox.link.describe import Stored, describe
from doodlebox.logger.link_thread import numbered
from doodlebox.store import Store

ROOT = Path(__file__).resolve().parents[2]
UID = "fa1ce0"


def _other_console_first(db: Path) -> None:
    """A game of another console stored first: the store's numbers and the console's part."""
    store = Store(db)
    try:
        store.append("0t4e2", 1, 1, {"k": "game", "g": 1, "ed": "city", "n": 2, "var": ""})
    finally:
        store.close()


def test_the_lines_that_name_a_game_give_the_stores_number_and_the_consoles_beside_it(tmp_path):
    db = tmp_path / "games.sqlite3"
    _other_console_first(db)
    store = Store(db)
    try:
        lines = []
        for s, e in enumerate(city_events(), start=1):
            store.append(UID, 3, s, e)
            lines.append(describe(numbered(store, UID, 3, e)))
        resume = {"k": "resume", "g": 1, "of": [3, 1], "at": 7, "r": 1}
        store.append(UID, 4, 1, resume)
        end = {"k": "end", "g": 1, "r": 1, "why": "menu", "p": [4, 2]}
        store.append(UID, 4, 2, end)
        lines += [describe(numbered(store, UID, 4, resume)), describe(numbered(store, UID, 4, end))]
        ids = dict(((b, g), i) for i, b, g in store.db.execute("SELECT id, boot, g FROM games WHERE uid=?", (UID,)))
    finally:
        store.close()
    assert ids == {(3, 1): 2, (4, 1): 3}                       # as `doodlebox games` lists them
    assert lines[0] == "game 2 (console's game 1 of boot 3): city for 2 player(s)"
    assert lines[-2] == ("game 3 (console's game 1 of boot 4) resumes game 2 (console's game 1 of boot 3) "
                         "after a power cut, in round 1 (from its event 7)")
    assert lines[-1] == ("game 3 over after round 1: ended early on the console (MENU): scored as it stood, no winner "
                         "(ruling G1): the console's scores P1 4, P2 2")
    assert not any(line.startswith("game 1") for line in lines)   # the console's number never alone as "game 1"


def test_an_event_that_names_no_game_goes_as_it_is_and_stored_is_the_same_event(tmp_path):
    store = Store(tmp_path / "g.sqlite3")
    try:
        roll = {"k": "roll", "g": 1, "r": 1, "sp": 0, "c": 2, "w": [1, 3, 4]}
        assert numbered(store, UID, 1, roll) is roll
        game = {"k": "game", "g": 1, "ed": "city", "n": 2, "var": ""}
        out = numbered(store, UID, 1, game)                     # no row yet: the console's number alone
        assert isinstance(out, Stored) and out == game and out.game is None
    finally:
        store.close()
    assert describe(out) == "console's game 1 of boot 1: city for 2 player(s)"
    assert describe(game) == "console's game 1: city for 2 player(s)"
    assert describe(game, game=5, boot=2) == "game 5 (console's game 1 of boot 2): city for 2 player(s)"
    assert describe({"k": "end", "r": 9, "why": "hotel", "p": [3, 4]}).startswith("game over after round 9: ")


@pytest.mark.slow
def test_doodlebox_log_names_the_game_as_doodlebox_games_lists_it(tmp_path):
    """The shipped `doodlebox log` over a pty, a console in CPython (tests/support/fakeconsole.py)."""
    from fakeconsole import FakeConsole
    from hostproc import HostProcess

    db, out = tmp_path / "games.sqlite3", tmp_path / "log.txt"
    _other_console_first(db)
    console = FakeConsole(uid=UID)
    for e in city_events():
        console.add(e)
    console.reboot()
    console.add({"k": "resume", "g": 1, "of": [1, 1], "at": 7, "r": 1})
    console.add({"k": "end", "g": 1, "r": 1, "why": "menu", "p": [1, 0]})
    host = HostProcess(console.path, db, out).start()
    try:
        assert console.run_until(lambda: host.proc.poll() is not None or (
            console.all_acked() and "game 3 over" in out.read_text()), 30, 0.01), out.read_text()
        time.sleep(0.3)
    finally:
        host.stop()
        console.pull()
    text = out.read_text()
    assert "game 2 (console's game 1 of boot 1): city for 2 player(s)" in text, text
    assert ("game 3 (console's game 1 of boot 2) resumes game 2 (console's game 1 of boot 1) after a power cut"
            in text), text
    assert "game 3 over after round 1: ended early on the console (MENU)" in text, text
    listed = subprocess.run([sys.executable, "-m", "doodlebox.cli", "games", "--db", str(db)], capture_output=True,
                            text=True, cwd=ROOT, env={"PYTHONPATH": str(ROOT / "host"), "PATH": "/usr/bin:/bin"})
    rows = {line.split()[0]: line for line in listed.stdout.splitlines()[1:]}
    assert f"{UID} boot 1" in rows["2"] and f"{UID} boot 2" in rows["3"], listed.stdout
