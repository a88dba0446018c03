"""Every game played at the table becomes a validated, scored record (issues 9 and 10's proof).

For each dice edition, solo (two players in the 6x6 editions, which have no solo game) and three
players, Deadly Doodles solo and with four players, and Doodle Puzzle with five (its five drawing
minutes on the console's fast clock, `--fast-clock`: the console's time runs ahead while it waits
alone on its timer; tests/virtual/test_puzzle_minute.py plays the suite's one real minute),
`doodlebox demo` runs as its own process: the firmware in the MicroPython VM with a
192K heap, its USB serial on a pseudo-terminal, `doodlebox log`'s link with pyserial and SQLite,
the bot pressing buttons with the engine's legal moves. Then, as a person would,
`doodlebox export last` writes the stored game as a record and `doodlebox validate` accepts
it: a finished game, no violation, and totals equal to the console's own (its `end` event
carries what its panel shows without a PC). The games run a few at a time."""
from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import time

import pytest
from cli_run import ENV, doodlebox

pytestmark = pytest.mark.slow      # (tests/conftest.py: the quick tier)

COMBOS = [("puzzle", 5), ("deadly", 1), ("deadly", 4)] + [
    (ed, n) for ed in ("city", "suzhou", "treasures", "shanghai", "monsters")
    for n in ((2, 3) if ed in ("shanghai", "monsters") else (1, 3))]
AT_ONCE = 4


def demo(edition: str, players: int, db, log, seed: int) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "doodlebox.cli", "demo", "--edition", edition,
                             "--players", str(players), "--db", str(db), "--seed", str(seed),
                             "--press-ms", "60", "--gap-ms", "50"] + (["--fast-clock"] if edition == "puzzle" else []),
                            stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=ENV)


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """Every combination played on its own virtual console: {(edition, players): (db, code, output)}."""
    tmp = tmp_path_factory.mktemp("demo")
    waiting = list(enumerate(COMBOS))
    running: dict = {}
    done = {}
    deadline = time.monotonic() + 1200
    while waiting or running:
        while waiting and len(running) < AT_ONCE:
            k, (ed, n) = waiting.pop(0)
            db, out = tmp / f"{ed}-{n}.sqlite3", tmp / f"{ed}-{n}.log"
            running[(ed, n)] = (demo(ed, n, db, out.open("w"), seed=k + 1), db, out)
        for key, (proc, db, out) in list(running.items()):
            if proc.poll() is not None:
                done[key] = (db, proc.returncode, out.read_text())
                del running[key]
        if time.monotonic() > deadline:
            for proc, _, _ in running.values():
                proc.kill()
            pytest.fail(f"demos still running after 20 min: {sorted(running)}")
        time.sleep(0.2)
    return done


@pytest.mark.parametrize("edition,players", COMBOS)
def test_a_game_played_on_the_console_exports_validates_and_scores_as_the_console(played, tmp_path,
                                                                                   edition, players):
    db, code, output = played[(edition, players)]
    assert code == 0, output[-3000:]
    assert "Traceback" not in output
    record = tmp_path / "r.json"
    r = doodlebox("export", "last", "--db", str(db), "-o", str(record))
    assert r.returncode == 0, r.stderr
    r = doodlebox("validate", str(record))
    assert r.returncode == 0, r.stdout + r.stderr
    assert "valid" in r.stdout.splitlines()[0] and "not finished" not in r.stdout
    report = json.loads(doodlebox("validate", str(record), "--json").stdout)
    assert report["finished"] and report["valid"] and report["edition"] == edition
    assert len(report["players"]) == players
    end = json.loads(sqlite3.connect(db).execute(
        "SELECT body FROM events WHERE kind = 'end' ORDER BY id DESC LIMIT 1").fetchone()[0])
    cards = report["cards"] if edition == "puzzle" else report["sheets"]   # Doodle Puzzle: Scorecards
    assert end["p"] == [card["total"] for card in cards]   # the console's own final table
    if edition in ("deadly", "puzzle"):
        assert end["why"] == "rounds"
    else:
        assert end["why"] == report["ending"][0]
    score = doodlebox("score", str(record))
    assert score.returncode == 0
    assert ("solo: try to beat your best score" if (edition, players) == ("deadly", 1) else "winner") in score.stdout
    # the demo's last picture of the panel is the final table, the PC's scores on it (it was taken
    # while the game's end was still being drawn: the last turn's screen)
    from PIL import Image

    from doodlebox.virtual.screen import lines

    picture = Image.open(db.with_suffix(".png")).convert("L")
    shown = lines([[picture.getpixel((x, y)) > 127 for x in range(picture.width)] for y in range(picture.height)])
    assert shown[0].endswith(": game over"), shown
    assert any("by the PC" in line for line in shown), shown

