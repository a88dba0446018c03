"""The house checks itself: mypy over host/doodlebox and ruff over host/, tests/ and firmware/,
both configured in pyproject.toml (the firmware's own type check against MicroPython's API is
test_firmware_types.py). Each has a control: the same check refuses a file with a known fault."""
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow      # (tests/conftest.py: the quick tier)

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", *args], cwd=cwd, capture_output=True, text=True)


def test_mypy_finds_nothing_in_the_host_package():
    r = run("mypy", "--cache-dir", str(ROOT / ".mypy_cache" / "host"))
    assert r.returncode == 0, r.stdout + r.stderr
    assert "no issues found" in r.stdout


def test_mypy_sees_a_function_that_returns_what_it_says_it_does_not(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("def handle(msg: dict) -> None:\n    return 1\n")
    r = run("mypy", "--config-file", str(ROOT / "pyproject.toml"), "--cache-dir", str(tmp_path / "c"), str(bad))
    assert r.returncode == 1 and "No return value expected" in r.stdout


def test_ruff_finds_nothing():
    r = run("ruff", "check", "host", "tests", "firmware")
    assert r.returncode == 0, r.stdout + r.stderr


def test_ruff_sees_an_unused_import_and_a_long_line(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("import os\n\nX = '" + "x" * 130 + "'\n")
    r = run("ruff", "check", "--config", str(ROOT / "pyproject.toml"), str(bad), cwd=tmp_path)
    assert r.returncode == 1 and "F401" in r.stdout and "E501" in r.stdout
