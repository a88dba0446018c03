"""The firmware type-checks against MicroPython's own API for the Pico
(micropython-rp2-rpi-pico-stubs, installed by the Makefile into .stubs/, not the venv)."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow      # (tests/conftest.py: the quick tier)

ROOT = Path(__file__).resolve().parents[2]
STUBS = ROOT / ".stubs"
CONFIG = ROOT / "tests" / "mypy-firmware.ini"


def mypy(*targets, cwd=ROOT / "firmware"):
    if not (STUBS / "machine.pyi").exists():
        pytest.fail("no MicroPython stubs in .stubs/: run `make test`, which installs them")
    env = dict(os.environ, MYPYPATH=str(STUBS))
    return subprocess.run([sys.executable, "-m", "mypy", "--config-file", str(CONFIG),
                           "--cache-dir", str(ROOT / ".mypy_cache" / "firmware"), *targets],
                          cwd=cwd, env=env, capture_output=True, text=True)


def test_firmware_matches_the_pico_api():
    r = mypy("main.py", "board", "doodle")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "no issues found in" in r.stdout


def test_the_check_sees_a_wrong_machine_call(tmp_path):
    # a control: the same check refuses what the Pico's MicroPython does not have
    (tmp_path / "wrong.py").write_text(
        "import machine\n"
        "pin = machine.Pin(7, machine.Pin.IN, machine.Pin.PULL_SIDEWAYS)\n"
        "machine.PWM(pin).duty_u32(5)\n")
    r = mypy("wrong.py", cwd=tmp_path)
    assert r.returncode == 1
    assert "PULL_SIDEWAYS" in r.stdout and "duty_u32" in r.stdout
