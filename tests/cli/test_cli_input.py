"""Bad input anywhere in the command line is one line and exit 2 (issue 11): sizes, depths and
numbers are capped before anything is made of them; a missing output folder; a deck of a
billion cards; and output into a pipe whose reader has gone prints no traceback. Each runs the
command as its own process (tests/support/cli_run.py)."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from cli_run import ENV, doodlebox

pytestmark = pytest.mark.slow      # (tests/conftest.py: the quick tier)

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden"


def one_line(r, code=2) -> str:
    assert r.returncode == code, (r.returncode, r.stdout[-500:], r.stderr[-2000:])
    assert "Traceback" not in r.stderr and "Traceback" not in r.stdout, r.stderr[-2000:]
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("doodlebox: "), r.stderr[-2000:]
    return lines[0]


@pytest.mark.parametrize("command", ["validate", "score", "render", "layout"])
def test_100000_nested_brackets(tmp_path, command):
    f = tmp_path / "deep.json"
    f.write_text("[" * 100_000 + "]" * 100_000)
    args = {"render": ["render", str(f), "-o", str(tmp_path / "x.png")], "layout": ["layout", "check", str(f)]}
    line = one_line(doodlebox(*args.get(command, [command, str(f)])))
    assert line == f"doodlebox: {f}: nested more than 32 levels deep: not a record or data file of doodlebox"


def test_brackets_inside_strings_do_not_count(tmp_path):
    f = tmp_path / "strings.json"
    data = json.loads((GOLDEN / "city-solo.json").read_text())
    data["players"][0] = "[" * 500 + "{" * 500
    f.write_text(json.dumps(data))
    r = doodlebox("validate", str(f))
    assert r.returncode == 0, r.stderr


def test_a_5000_digit_number(tmp_path):
    alone = tmp_path / "number.json"
    alone.write_text("9" * 5000)
    assert one_line(doodlebox("validate", str(alone))) == (
        f"doodlebox: {alone}: a number of 5,000 characters: not a record or data file of doodlebox")
    data = json.loads((GOLDEN / "city-solo.json").read_text())
    inside = tmp_path / "inside.json"
    inside.write_text(json.dumps(data).replace('"rounds": [', '"seed": ' + "1" * 5000 + ', "rounds": [', 1))
    assert "a number of 5,000 characters" in one_line(doodlebox("validate", str(inside)))
    fraction = tmp_path / "fraction.json"
    fraction.write_text("[0." + "3" * 5000 + "]")
    assert "a number of 5,002 characters" in one_line(doodlebox("score", str(fraction)))


def test_a_huge_file_is_not_read_whole(tmp_path):
    big = tmp_path / "big.json"
    with open(big, "wb") as f:          # 8 GB, sparse: reading it whole would take the machine
        f.truncate(8 << 30)
    line = one_line(doodlebox("validate", str(big)))
    assert line == f"doodlebox: {big}: larger than 4 MB: not a record or data file of doodlebox"
    assert "larger than 4 MB" in one_line(doodlebox("layout", "check", str(big)))


def test_render_into_a_folder_that_is_not_there(tmp_path):
    out = tmp_path / "missing" / "dir" / "x.png"
    line = one_line(doodlebox("render", str(GOLDEN / "city-solo.json"), "-o", str(out)))
    assert line == f"doodlebox: {out}: cannot be written: there is no folder {out.parent}"
    assert not out.parent.exists()
    line = one_line(doodlebox("render", str(GOLDEN / "city-solo.json"), "-o", str(tmp_path)))   # a folder
    assert line == f"doodlebox: {tmp_path}: cannot be written (Is a directory)"


def test_an_inline_deck_of_a_billion_cards_is_refused_before_it_is_built(tmp_path):
    data = json.loads((GOLDEN / "deadly-duel.json").read_text())
    deck = json.loads((ROOT / "host/doodlebox/layouts/deadly-deck.json").read_text())
    deck["cards"][0]["count"] = 10 ** 9
    data["deck"] = deck
    f = tmp_path / "deck.json"
    f.write_text(json.dumps(data))
    line = one_line(doodlebox("validate", str(f), timeout=30))
    assert "cards[0].count: 1000000000 cards of one kind; the whole deck has 36" in line
    deck_file = tmp_path / "deck-only.json"
    deck_file.write_text(json.dumps(deck))
    r = doodlebox("layout", "check", str(deck_file), timeout=30)
    assert r.returncode == 2 and "1000000000 cards of one kind" in r.stdout and "Traceback" not in r.stderr


def test_output_into_a_pipe_whose_reader_has_gone(tmp_path):
    """`doodlebox ... | head -1` through a real pipe: no traceback, no "Exception ignored"."""
    from doodlebox.store import Store

    db = tmp_path / "g.sqlite3"
    store = Store(db)
    for boot in range(1, 3001):         # `doodlebox games` prints ~400 KB: more than a pipe holds
        store.append("c0ffee", boot, 1, {"k": "game", "g": 1, "ed": "city", "n": 3, "var": ""})
    store.close()
    me = f"{sys.executable} -m doodlebox.cli"
    for pipeline, shown in ((f"{me} games --db {db} | head -1", True),
                            (f"{me} validate {GOLDEN / 'violations.json'} --json | true", False),
                            (f"{me} score {GOLDEN / 'city-solo.json'} | head -c 10", True)):
        r = subprocess.run(["bash", "-c", "set -o pipefail; " + pipeline], capture_output=True, text=True, env=ENV,
                           timeout=60)
        assert r.stderr == "", (pipeline, r.stderr[-2000:])
        assert bool(r.stdout) == shown, pipeline
        assert r.returncode in (0, 1), (pipeline, r.returncode)     # 1: it stopped writing, quietly
    r = subprocess.run(["bash", "-c", f"set -o pipefail; {me} games --db {db} | head -1"], capture_output=True,
                       text=True, env=ENV, timeout=60)
    assert r.returncode == 1 and r.stdout.lstrip().startswith("#  date") and r.stderr == ""   # 400 KB, a closed pipe
