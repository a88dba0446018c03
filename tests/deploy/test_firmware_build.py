"""Every firmware file passes mpy-cross for the RP2040, and generated data is up to date."""
import subprocess
import sys
from pathlib import Path

import pytest

from doodlebox.deploy import firmware_data
from doodlebox.deploy.firmware_build import mpy_cross

pytestmark = pytest.mark.slow      # (tests/conftest.py: the quick tier)

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted((ROOT / "firmware").rglob("*.py")) + sorted((ROOT / "host/doodlebox/virtual/guest").glob("*.py"))


@pytest.mark.parametrize("src", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_mpy_cross_armv6m_accepts(src, tmp_path):
    mpy_cross(src, tmp_path / (src.stem + ".mpy"))


def test_generated_firmware_data_is_up_to_date():
    for path, text in firmware_data.targets().items():
        assert path.read_text() == text, f"{path} is stale: run make firmware-data"


def test_the_firmwares_rule_constants_come_from_the_pcs_rules(monkeypatch, tmp_path):
    """The kind codes and Deadly Doodles' weights in the firmware are generated (issue 19): a
    weight changed in rules/deadly/tallies.py changes the console's, and a hand-edited block is
    stale (test above); a file that lost its block is one line naming it."""
    from doodlebox.rules.deadly import tallies

    deadly = ROOT / "firmware" / "doodle" / "deadly.py"
    assert "_P_HITS = const(-3)" in firmware_data.with_block(deadly, firmware_data.deadly_block())
    monkeypatch.setitem(tallies.POINTS, "hits", -4)
    assert "_P_HITS = const(-4)" in firmware_data.with_block(deadly, firmware_data.deadly_block())
    assert firmware_data.sheet_block().splitlines()[0] == f"HOUSE = {firmware_data.KIND_CODES.index('house')}"
    lost = tmp_path / "deadly.py"
    lost.write_text("x = 1\n")
    with pytest.raises(SystemExit, match="no generated block"):
        firmware_data.with_block(lost, "")


def test_core_imports_no_hardware():
    for src in (ROOT / "firmware" / "doodle").glob("*.py"):
        text = src.read_text()
        for mod in ("machine", "neopixel", "random", "time"):
            assert f"import {mod}" not in text, f"{src.name} imports {mod}"


def test_flash_build_lays_out_the_pico(tmp_path):
    from doodlebox.deploy import flash

    dest = tmp_path / "build"
    (dest / "doodle").mkdir(parents=True)
    (dest / "doodle" / "stale.py").write_text("x = 1\n")
    written = flash.build(dest)
    got = sorted(str(p.relative_to(dest)) for p in dest.rglob("*") if p.is_file())
    want = sorted(str(rel.with_suffix(".py" if rel.name == "main.py" else ".mpy")) for rel in flash.firmware_files())
    assert got == want and len(written) == len(want)
    assert "doodle/stale.py" not in got
    header = (dest / "doodle" / "app.mpy").read_bytes()[:2]
    assert header == b"M\x06"  # .mpy version 6: MicroPython 1.22 and later
    assert (dest / "main.py").read_text() == (ROOT / "firmware" / "main.py").read_text()


def test_flash_copies_what_changed_removes_what_is_stale_and_resets():
    from doodlebox.deploy import flash

    cmd = flash.mpremote_command("/dev/ttyACM0")
    assert cmd[1:5] == ["-m", "mpremote", "connect", "/dev/ttyACM0"]
    text = " ".join(cmd)
    assert "fs cp -r board doodle main.py :" in text and text.endswith("+ reset")


def test_flash_to_a_missing_port_is_one_clear_line(tmp_path):
    r = subprocess.run([sys.executable, "-m", "doodlebox.cli", "flash", "--port", str(tmp_path / "ttyNONE"),
                        "--build", str(tmp_path / "b")], capture_output=True, text=True,
                       env={"PYTHONPATH": str(ROOT / "host"), "PATH": "/usr/bin:/bin"})
    assert r.returncode == 2           # what the user gave cannot be used (issue 34): nothing is written
    assert r.stderr.count("\n") == 1 and r.stderr.startswith("doodlebox: ") and "Traceback" not in r.stderr
