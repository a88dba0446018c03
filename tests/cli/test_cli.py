"""What a person sees when something is wrong: one line saying what and where; exit code 1 when
something failed (a port, a console, a database), 2 when the input itself cannot be used."""
import re
from pathlib import Path

import pytest
import serial
from cli_run import doodlebox

from doodlebox.virtual.pty_port import PtyPort

pytestmark = pytest.mark.slow      # (tests/conftest.py: the quick tier)

ROOT = Path(__file__).resolve().parents[2]


def one_clear_line(r, code=1):
    assert r.returncode == code, r
    assert "Traceback" not in r.stderr and "Traceback" not in r.stdout, r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("doodlebox: "), r.stderr
    return lines[0]


def test_a_port_that_does_not_exist(tmp_path):
    line = one_clear_line(doodlebox("log", "--port", str(tmp_path / "ttyACM9"), "--db", str(tmp_path / "db")))
    assert "cannot open" in line and "ttyACM9" in line


def test_a_busy_port(tmp_path):
    pty = PtyPort()
    try:
        with serial.Serial(pty.path, exclusive=True):  # another program holds it
            line = one_clear_line(doodlebox("log", "--port", pty.path, "--db", str(tmp_path / "db")))
    finally:
        pty.close()
    assert "is busy" in line and pty.path in line


def test_a_console_that_does_not_answer(tmp_path):
    pty = PtyPort()  # nothing behind it: no hello ever comes
    try:
        line = one_clear_line(doodlebox("log", "--port", pty.path, "--db", str(tmp_path / "db"), "--wait", "1"))
    finally:
        pty.close()
    assert "did not answer within 1 s" in line


def test_a_file_that_is_not_a_database(tmp_path):
    bad = tmp_path / "games.sqlite3"
    bad.write_bytes(b"these are not the games you are looking for" * 100)
    pty = PtyPort()
    try:
        line = one_clear_line(doodlebox("log", "--port", pty.path, "--db", str(bad), "--wait", "1"))
    finally:
        pty.close()
    assert "not a doodlebox database" in line and str(bad) in line
    line = one_clear_line(doodlebox("games", "--db", str(bad)))
    assert "not a doodlebox database" in line


def test_games_lists_what_was_stored(tmp_path):
    from doodlebox.store import Store

    db = tmp_path / "g.sqlite3"
    s = Store(db)
    s.console_seen("c0ffee", "0.1.0", 1, 1)
    s.append("c0ffee", 1, 1, {"k": "game", "g": 1, "ed": "city", "n": 3, "var": ""})
    s.append("c0ffee", 1, 2, {"k": "roll", "g": 1, "r": 1, "sp": 0, "c": 2, "w": [1, 2, 3, 4]})
    s.append("c0ffee", 1, 3, {"k": "end", "g": 1, "r": 1, "why": "menu", "p": [0, 0, 0]})
    s.append("c0ffee", 2, 1, {"k": "game", "g": 1, "ed": "suzhou", "n": 2, "var": ""})
    s.append("c0ffee", 3, 1, {"k": "resume", "g": 1, "of": [2, 1], "at": 1, "r": 0})
    s.append("c0ffee", 4, 1, {"k": "game", "g": 1, "ed": "city", "n": 1, "var": "solo"})
    s.append("c0ffee", 5, 1, {"k": "game", "g": 1, "ed": "city", "n": 1, "var": "solo"})
    s.close()
    r = doodlebox("games", "--db", str(db))
    assert r.returncode == 0
    head, *rows = [re.split(r"\s{2,}", line.strip()) for line in r.stdout.splitlines()]
    assert head == ["#", "date", "edition", "players", "scores", "winner", "status", "from"]
    assert [row[2:4] for row in rows] == [["city", "P1, P2, P3"], ["suzhou", "P1, P2"], ["suzhou", "P1, P2"],
                                           ["city", "P1"], ["city", "P1"]]
    # its log cannot be a record: no scores; ended with MENU: ended early, no winner (ruling G1)
    assert rows[0][4:] == ["-", "-", "ended early", "c0ffee boot 1"]
    assert [row[6] for row in rows] == [
        "ended early", "resumed by #3", "abandoned, resumes #2", "abandoned", "playing"]


GOLDEN = ROOT / "tests" / "golden"


def test_score_prints_the_final_table():
    r = doodlebox("score", str(GOLDEN / "suzhou-control.json"))
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].startswith("Doodle China: Suzhou, 2 player(s), More control:")
    assert "winner" in lines[1] and "Xi" in lines[1]  # the tie on 20 goes to the fewest trees
    assert "fewest trees crossed" in r.stdout


def test_layout_check_names_every_problem_and_exits_2(tmp_path):
    import json

    data = json.loads((ROOT / "host/doodlebox/layouts/doodle-city.json").read_text())
    data["squares"][2]["kind"] = "volcano"
    data["trees"] = "ten"
    bad = tmp_path / "mine.json"
    bad.write_text(json.dumps(data))
    r = doodlebox("layout", "check", str(bad))
    assert r.returncode == 2
    out = r.stdout.splitlines()
    assert any("squares[2].kind" in line and "volcano" in line for line in out)
    assert any(line.startswith(f"{bad}: trees:") for line in out)
    good = doodlebox("layout", "check", str(ROOT / "host/doodlebox/layouts/doodle-islands-monsters.json"))
    assert good.returncode == 0 and "usable 6x6 layout" in good.stdout


def test_render_refuses_a_player_who_is_not_in_the_record(tmp_path):
    line = one_clear_line(doodlebox("render", str(GOLDEN / "suzhou-control.json"), "--player", "3",
                                    "-o", str(tmp_path / "x.png")), code=2)
    assert "players 1 to 2" in line
