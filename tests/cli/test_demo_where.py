"""Where the games are (issue 20): `doodlebox --help` names the database every command uses and
how to choose another; `doodlebox demo` keeps the scripted table's games in a database of their own, one
game more each run, and ends with the readable agreement of the console's totals and the PC's
and the exact commands that show the game, which name it by the number its lines gave it."""
from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from doodlebox import paths
from doodlebox.cli import main
from doodlebox.table.demo import agreement

ROOT = Path(__file__).resolve().parents[2]


def test_help_says_where_the_default_database_is_and_how_to_choose_another(capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    assert str(paths.default_db()) in out and str(tmp_path) in str(paths.default_db())
    assert "--db FILE" in out and str(paths.demo_db()) in out
    with pytest.raises(SystemExit):
        main(["demo", "--help"])
    assert str(paths.demo_db()) in "".join(capsys.readouterr().out.split())     # argparse wraps it anywhere


def test_the_demos_ending_is_a_table_of_the_two_totals_not_python_lists():
    text = agreement([4, 17, 11], [4, 17, 11])
    assert "[" not in text and "]" not in text
    lines = text.splitlines()
    assert lines[0] == "The console's own totals and the PC's agree:"
    assert lines[1].split() == ["player", "console", "PC", "agree"]
    assert [line.split() for line in lines[2:]] == [["P1", "4", "4", "yes"], ["P2", "17", "17", "yes"],
                                                    ["P3", "11", "11", "yes"]]
    differ = agreement([4, 16], [4, 17]).splitlines()
    assert differ[0] == "The console's own totals and the PC's differ for 1 player(s):"
    assert differ[-1].split() == ["P2", "16", "17", "NO"]
    assert "[" not in agreement(None, [3, 5]) and "P2 5" in agreement(None, [3, 5])


def _demo(env: dict, *more: str) -> subprocess.CompletedProcess:
    script = Path(sys.executable).parent / "doodlebox"          # as `make demo` runs it: .venv/bin/doodlebox
    return subprocess.run([str(script), "demo", "--cpython", "--players", "1", "--press-ms", "60", "--gap-ms", "50",
                           *more], capture_output=True, text=True, env=env, cwd=ROOT, timeout=300,
                          stdin=subprocess.DEVNULL)


@pytest.mark.slow
def test_two_demos_keep_both_games_in_the_demo_database_and_say_how_to_see_them(tmp_path):
    assert (Path(sys.executable).parent / "doodlebox").exists(), "make test runs in make's venv, with its script"
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path), PYTHONPATH=str(ROOT / "host"))
    runs = [_demo(env), _demo(env, "--seed", "8")]
    demo_db = tmp_path / "doodlebox" / "demo.sqlite3"
    numbers = []
    for r in runs:
        assert r.returncode == 0, r.stdout[-3000:] + r.stderr
        assert "the console's own totals: [" not in r.stdout
        assert "The console's own totals and the PC's agree:" in r.stdout
        number = re.search(r"^game (\d+) \(console's game 1 of boot \d+\): city for 1 player", r.stdout, re.M)
        assert number, r.stdout[:500]
        numbers.append(number.group(1))
        assert f"\ngame {numbers[-1]}: " in r.stdout and f"game {numbers[-1]} over after round" in r.stdout
        assert str(demo_db) in r.stdout
    assert numbers == ["1", "2"]                                  # the second demo's game is kept beside the first
    assert not (tmp_path / "doodlebox" / "doodlebox.sqlite3").exists()   # the family's database is not touched
    shown = [line.strip().split("   ")[0] for line in runs[1].stdout.splitlines()
             if re.match(r"\s+\S*doodlebox (games|show) ", line)]
    assert len(shown) == 2, runs[1].stdout[-1500:]
    games = subprocess.run(shlex.split(next(c for c in shown if " games " in c)), capture_output=True, text=True,
                           env=env, cwd=ROOT, timeout=60)
    rows = [line.split() for line in games.stdout.splitlines()[1:]]
    assert [row[0] for row in rows] == ["1", "2"], games.stdout
    assert rows[0][-1] == "1" and rows[1][-1] == "2"              # boots 1 and 2 of the same virtual console
    assert rows[0][-3] == rows[1][-3]
    show = subprocess.run(shlex.split(next(c for c in shown if " show " in c)), capture_output=True, text=True,
                          env=env, cwd=ROOT, timeout=60)
    assert show.returncode == 0 and show.stdout.startswith("game 2 "), show.stdout[:300] + show.stderr
