"""Every firmware file passes mpy-cross for the RP2040, and generated data is up to date."""
import subprocess
import sys
from pathlib import Path

import pytest

from doodlebox import firmware_data
from doodlebox.firmware_build import mpy_cross

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted((ROOT / "firmware").rglob("*.py")) + sorted((ROOT / "host/doodlebox/virtual/guest").glob("*.py"))


@pytest.mark.parametrize("src", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_mpy_cross_armv6m_accepts(src, tmp_path):
    mpy_cross(src, tmp_path / (src.stem + ".mpy"))


def test_generated_firmware_data_is_up_to_date():
    for path, text in firmware_data.targets().items():
        assert path.read_text() == text, f"{path} is stale: run make firmware-data"


def test_core_imports_no_hardware():
    for src in (ROOT / "firmware" / "doodle").glob("*.py"):
        text = src.read_text()
        for mod in ("machine", "neopixel", "random", "time"):
            assert f"import {mod}" not in text, f"{src.name} imports {mod}"
