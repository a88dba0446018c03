"""`doodlebox sheets` as a person types it: the list, a file refused with every problem (exit 2,
nothing added), a sheet added, printed, exported and removed, and the one-line errors."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest
from cli_run import ENV

from doodlebox.rules.dice import layout

pytestmark = pytest.mark.slow


def run(home, *args, cwd=None):
    return subprocess.run([sys.executable, "-m", "doodlebox.cli", "sheets", *args], capture_output=True, text=True,
                          env=dict(ENV, XDG_DATA_HOME=str(home)), timeout=60, stdin=subprocess.DEVNULL, cwd=cwd)


def test_a_table_adds_prints_and_removes_its_sheet(tmp_path):
    home = tmp_path / "data"
    listed = run(home)
    assert listed.returncode == 0, listed.stderr
    assert [line.split()[0] for line in listed.stdout.splitlines()[:7]] == [
        "city", "suzhou", "treasures", "shanghai", "monsters", "deadly-a", "deadly-b"]
    assert listed.stdout.count("reconstruction") == 7

    bad = json.loads(layout.default_path("suzhou").read_text())
    bad["squares"][0]["kind"] = "castle"
    bad["legend"]["7"] = "NS"
    (tmp_path / "bad.json").write_text(json.dumps(bad))
    refused = run(home, "add", str(tmp_path / "bad.json"))
    assert refused.returncode == 2 and refused.stdout == ""
    lines = refused.stderr.splitlines()
    assert len(lines) == 3 and lines[-1].startswith("doodlebox: ") and "2 problem(s)" in lines[-1]
    assert any("squares[0].kind" in line for line in lines) and any("legend.7" in line for line in lines)
    assert not (home / "doodlebox" / "sheets").exists()

    ours = json.loads(layout.default_path("suzhou").read_text()) | {"name": "Grandma's Suzhou"}
    (tmp_path / "Grandma.json").write_text(json.dumps(ours))
    added = run(home, "add", str(tmp_path / "Grandma.json"))
    assert added.returncode == 0, added.stderr
    assert added.stdout.startswith("added grandma: suzhou sheet, Grandma's Suzhou, hash ")
    assert "grandma " in run(home).stdout

    printed = run(home, "print", "grandma", "-o", str(tmp_path / "blank.pdf"))
    assert printed.returncode == 0, printed.stderr
    assert (tmp_path / "blank.pdf").read_bytes().startswith(b"%PDF-") and "A4 landscape, 300 dpi" in printed.stdout

    assert run(home, "export", "grandma", "-o", str(tmp_path / "back.json")).returncode == 0
    assert json.loads((tmp_path / "back.json").read_text()) == ours
    gone = run(home, "remove", "grandma")
    assert gone.returncode == 0 and "grandma " not in run(home).stdout


@pytest.mark.parametrize("args, says", [
    (("print", "nosuch", "-o", "x.png"), "no sheet 'nosuch'"),
    (("remove", "city"), "'city' is a default: it cannot be removed"),
    (("add", "missing.json"), "missing.json"),
    (("print", "city", "-o", "x.txt"), "as .pdf or .png"),
])
def test_errors_are_one_line_and_exit_2(tmp_path, args, says):
    got = run(tmp_path / "data", *args, cwd=tmp_path)
    assert got.returncode == 2 and got.stdout == ""
    assert got.stderr.count("\n") == 1 and says in got.stderr
