"""The console plays the table's sheet, end to end (issue 35; docs/sheets.md, "Trying it with the
demo"): a sheet of the table's own added to the library and chosen (`doodlebox sheets use`), then
`doodlebox demo`'s own path (table/demo.py `play`): the firmware in the MicroPython VM (192K heap)
on a pseudo-terminal, the link thread sending the table's sheet after the console's hello, the
scripted table pressing ROLL once the console holds it and its lobby names it, every move a legal
one of the rules on that sheet, SQLite. Then the stored game names the sheet (`sh`, `sx`), it
finished with no violation and the console's totals are the PC's, and `doodlebox show`, `export`
and `validate` (as their own processes, with a library that lacks the sheet: the store keeps it)
read it on that sheet, and on the default it would not be the same game.

A Doodle City sheet whose squares are printed the other way round (kinds, houses and start squares
mirrored), with fewer trees, another die-face legend and another hotel track; and a side A of
Deadly Doodles' map with its Dragon, a wall and an entryway elsewhere."""
from __future__ import annotations

import copy
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from cli_run import ENV

from doodlebox.rules.games import find_game
from doodlebox.sheets import library
from doodlebox.table.demo import Options, play
from doodlebox.table.lobby import TableError

pytestmark = pytest.mark.slow      # (tests/conftest.py: the quick tier)

PACE = {"press_ms": 60, "gap_ms": 50}      # as tests/cli/test_demo.py presses


@pytest.fixture(autouse=True)
def data_home(tmp_path, monkeypatch):
    """The library in the test's own user data folder."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))


def our_town() -> dict:
    """Doodle City's default sheet changed where it changes play: every square mirrored left to
    right (the start squares in other rows of their columns' mirror), 6 trees (the game ends
    sooner), the die faces drawing other pieces, another hotel track."""
    data = copy.deepcopy(library.find("city").data)
    data["name"] = "Our town"
    data.pop("reconstructed", None)
    size = data["size"]
    for sq in data["squares"]:
        sq["at"] = [sq["at"][0], size + 1 - sq["at"][1]]
    data["squares"].sort(key=lambda sq: tuple(sq["at"]))
    data["trees"] = 6
    faces = sorted(data["legend"])
    data["legend"] = {f: data["legend"][faces[(k + 2) % len(faces)]] for k, f in enumerate(faces)}
    data["tracks"]["hotel"]["values"] = [2, 3, 5, 6, 7, 8, 9, 10, 12, 15]
    return data


def our_side() -> dict:
    """Side A of Deadly Doodles' map with its Dragon in C1 (an empty room there), the wall between
    D3 and E3 taken down and one put up between C1 and C2, and the entryway on A4's west side on
    A6's."""
    data = copy.deepcopy(library.find("deadly-a").data)
    data["name"] = "Our side A"
    data.pop("reconstructed", None)
    data["dragon"] = "C1"
    data["walls"] = [w for w in data["walls"] if w != ["D3", "E3"]] + [["C1", "C2"]]
    data["entryways"] = [e if e != {"room": "A4", "side": "W"} else {"room": "A6", "side": "W"}
                         for e in data["entryways"]]
    return data


def doodlebox(*args: str, home: Path) -> subprocess.CompletedProcess:
    """The command as its own process, its user data folder `home`."""
    env = dict(ENV, XDG_DATA_HOME=str(home))
    return subprocess.run([sys.executable, "-m", "doodlebox.cli", *args], capture_output=True, text=True,
                          env=env, timeout=120, stdin=subprocess.DEVNULL)


def demo(tmp_path: Path, edition: str, players: int, chosen: dict[str, str] | None = None):
    """`doodlebox demo`'s work, its lines kept; (played, lines, the database)."""
    lines: list[str] = []
    db = tmp_path / "demo.sqlite3"
    played = play(Options(edition, players, chosen or {}, db=db, **PACE), lines.append)
    return played, "\n".join(lines), db


def stored(db: Path, kind: str) -> dict:
    row = sqlite3.connect(db).execute("SELECT body FROM events WHERE kind = ? ORDER BY id DESC LIMIT 1",
                                      (kind,)).fetchone()
    return json.loads(row[0])


def check_played(played, text: str, db: Path, sheet: library.Sheet) -> dict:
    """What every game on a table's sheet must show: the demo's line naming it, a finished game with
    no violation and the console's totals the PC's, its `game` event naming the sheet, and the
    store keeping it. The `game` event."""
    assert played.ok, text[-3000:]
    assert played.violations == [0] and played.crashed == [None], text[-3000:]
    assert "Traceback" not in text
    said = [line for line in text.splitlines() if "is played on" in line]
    assert said == [f"{find_game(library.game_of(sheet)).name} is played on the table's sheet {sheet.name} "
                    f"(hash {sheet.hash}), which the console holds"], text[:2000]
    assert f"sheet {sheet.name} (hash {sheet.hash}) sent to console" in text
    assert "The console's own totals and the PC's agree" in text
    game = stored(db, "game")
    assert (game["sh"], game["sx"]) == (sheet.name, sheet.hash)
    row = sqlite3.connect(db).execute("SELECT edition, name, body FROM sheets WHERE hash = ?", (sheet.hash,)).fetchone()
    assert row is not None and row[:2] == (library.game_of(sheet), sheet.name)
    assert json.loads(row[2]) == sheet.data
    return game


def check_commands(tmp_path: Path, db: Path, gid: int, title: str) -> tuple[dict, Path]:
    """`show`, `export` and `validate` of the stored game, in a user data folder with no library:
    the store's sheet is the one they read. (validate's report, the record exported)."""
    empty = tmp_path / "no-library"
    empty.mkdir()
    r = doodlebox("show", str(gid), "--db", str(db), home=empty)
    assert r.returncode == 0, r.stdout + r.stderr
    assert title in r.stdout and r.stdout.rstrip().endswith("no violations"), r.stdout[-3000:]
    record = tmp_path / "game.json"
    r = doodlebox("export", str(gid), "--db", str(db), "-o", str(record), home=empty)
    assert r.returncode == 0, r.stderr
    r = doodlebox("validate", str(record), "--json", home=empty)
    assert r.returncode == 0, r.stdout + r.stderr
    report = json.loads(r.stdout)
    assert report["valid"] and report["finished"] and not report["violations"], report
    return report, record


def test_a_city_game_on_the_tables_own_sheet_is_played_stored_and_validated_on_it(tmp_path):
    sheet = library.add_data(our_town(), "our-town", "the test")
    assert library.use("our-town").hash == sheet.hash
    played, text, db = demo(tmp_path, "city", 2)
    game = check_played(played, text, db, sheet)
    assert game["ed"] == "city" and game["n"] == 2
    report, record = check_commands(tmp_path, db, played.ids[0], "Our town")
    end = stored(db, "end")
    assert end["p"] == [s["total"] for s in report["sheets"]]     # the console's own totals: the PC's
    assert end["why"] == report["ending"][0]
    data = json.loads(record.read_text())
    assert data["layout"] == sheet.data                            # the record carries the whole sheet
    data["layout"] = "city"                                        # the same moves on the default sheet:
    (tmp_path / "default.json").write_text(json.dumps(data))       # not the same game
    r = doodlebox("validate", str(tmp_path / "default.json"), "--json", home=tmp_path / "no-library")
    other = json.loads(r.stdout)
    assert other["violations"] or [s["total"] for s in other["sheets"]] != end["p"], other


def test_a_deadly_doodles_game_on_the_tables_own_map_side_is_played_stored_and_validated_on_it(tmp_path):
    sheet = library.add_data(our_side(), "our-side", "the test")
    library.use("our-side")
    played, text, db = demo(tmp_path, "deadly", 2, {o.name: o.default for o in find_game("deadly").spec.options})
    game = check_played(played, text, db, sheet)
    assert game["map"] == "own" and game["n"] == 2
    report, record = check_commands(tmp_path, db, played.ids[0], "Our side A")
    assert stored(db, "end")["p"] == [s["total"] for s in report["sheets"]]
    assert json.loads(record.read_text())["map"] == sheet.data


def test_the_demo_without_a_choice_says_it_plays_the_default(tmp_path):
    """No sheet chosen: nothing is sent, the line says the default, and the game names no sheet."""
    assert os.environ["XDG_DATA_HOME"].startswith(str(tmp_path))
    played, text, db = demo(tmp_path, "city", 1)
    assert played.ok, text[-3000:]
    assert "Doodle City is played on its default sheet: the table plays no sheet of its own in it" in text
    assert "sent to console" not in text
    game = stored(db, "game")
    assert "sh" not in game and "sx" not in game


def test_a_sheet_that_does_not_arrive_stops_the_demo_before_roll_with_the_reason(tmp_path, monkeypatch):
    """A sheet the console cannot take (more than it holds: the link never sends it) is said, and
    the demo stops before any game is begun (the firmware under CPython: no game is played). A
    sheet `layout check` takes fits the console's 2,048 bytes (tests/sheets/test_library.py), so
    the PC's limit is made smaller here (the demo's link runs in this process)."""
    from doodlebox.sheets import console as console_form

    monkeypatch.setattr(console_form, "MAX_CONTENT", 600)
    library.add_data(our_town(), "big-town", "the test")
    library.use("big-town")
    db = tmp_path / "demo.sqlite3"
    with pytest.raises(TableError, match=r"the table's sheet big-town \(hash [0-9a-f]{12}\) did not arrive: "
                                         r"sheet 'big-town' is [0-9,]+ bytes on the console, more than"):
        play(Options("city", 2, {}, db=db, cpython=True, **PACE), lambda t: None)
    assert sqlite3.connect(db).execute("SELECT COUNT(*) FROM events WHERE kind = 'game'").fetchone() == (0,)
