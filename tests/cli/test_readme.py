"""The README's commands stay true (issue 34): every `doodlebox ...` line of its code blocks is a
command line the real parser takes, every `make` target it names is the Makefile's, and the
versions it shows are today's. (tests/deploy/test_wheel.py runs the install's and the first
game's commands from an installed wheel.)"""
from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from doodlebox import versions
from doodlebox.cli import parser

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()
BLOCKS = re.findall(r"```\n(.*?)```", README, re.S)


def command_lines() -> list[str]:
    out = []
    for block in BLOCKS:
        for line in block.splitlines():
            line = line.split("  #")[0].strip()
            if line:
                out.append(line)
    return out


def test_the_readme_has_its_commands_and_the_two_of_the_front_door():
    lines = command_lines()
    assert "make run" in lines and "make test" in lines and "doodlebox log" in lines and "doodlebox flash" in lines


@pytest.mark.parametrize("line", [c for c in command_lines() if c.split()[0] == "doodlebox"])
def test_every_doodlebox_line_parses(line):
    args = shlex.split(line)[1:]
    try:
        parser().parse_args(args)
    except SystemExit as exc:
        assert exc.code == 0 and args == ["--version"], f"{line!r} does not parse"


def test_every_make_target_named_is_the_makefiles():
    targets = set(re.findall(r"^([a-z][\w-]*):", (ROOT / "Makefile").read_text(), re.M))
    named = {line.split()[1] for line in command_lines() if line.split()[0] == "make"}
    named |= set(re.findall(r"`make ([a-z][\w-]*)", README))
    assert named <= targets, sorted(named - targets)


def test_the_versions_the_readme_shows_are_todays():
    shown = re.search(r"doodlebox --version\s+# (doodlebox .*)", README)
    assert shown and shown.group(1).strip() == versions.line()
    assert f"doodlebox-{versions.HOST}-py3-none-any.whl" in README
