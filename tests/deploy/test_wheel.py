"""Installed like any Python tool (issue 34; docs/install.md): the wheel `make dist` builds carries the
firmware, the board's data, the layouts and the page's files. Built with the standard frontend, it is
installed into a fresh venv in a temporary folder and its commands run from there, outside the
checkout: --version with its three versions, sim, a whole demo game in the MicroPython VM,
`hardware bom`, `flash --dry-run` listing every firmware file, `validate`, and `web` answering `/`.
A file missing from the installed package is one line and exit code 2, never a traceback."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from doodlebox import versions

pytestmark = pytest.mark.slow      # (tests/conftest.py: the quick tier)

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden" / "city-hotel15.json"


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(the venv's doodlebox, a folder outside the checkout, its environment)."""
    tmp = tmp_path_factory.mktemp("wheel")
    dist = tmp / "dist"
    r = subprocess.run([sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(dist), str(ROOT)],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    (wheel,) = dist.glob("doodlebox-*.whl")
    venv = tmp / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    r = subprocess.run([str(venv / "bin" / "pip"), "install", "-q", str(wheel)], capture_output=True, text=True,
                       timeout=900)
    assert r.returncode == 0, r.stderr[-3000:]
    here = tmp / "elsewhere"
    here.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "DOODLEBOX", "VIRTUAL_ENV"))}
    env.update(XDG_DATA_HOME=str(tmp / "data"), XDG_CACHE_HOME=str(tmp / "cache"), PATH=f"{venv / 'bin'}:{env['PATH']}")
    return venv / "bin" / "doodlebox", here, env


def run(installed, *args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    exe, here, env = installed
    return subprocess.run([str(exe), *args], cwd=here, env=env, capture_output=True, text=True, timeout=timeout,
                          stdin=subprocess.DEVNULL)


def test_the_installed_package_is_not_the_checkout(installed):
    exe, here, env = installed
    r = subprocess.run([str(exe.parent / "python"), "-c", "import doodlebox, sys; print(doodlebox.__file__)"],
                       cwd=here, env=env, capture_output=True, text=True, timeout=60)
    assert "site-packages" in r.stdout and str(ROOT) not in r.stdout, r.stdout


def test_version_names_the_three_versions(installed):
    r = run(installed, "--version")
    assert r.returncode == 0 and r.stdout.strip() == versions.line(), r.stdout + r.stderr
    assert re.fullmatch(r"doodlebox \d+\.\d+\.\d+ \(firmware \d+\.\d+\.\d+, protocol \d+\)", r.stdout.strip())


def test_validate_and_hardware_bom(installed):
    r = run(installed, "validate", str(GOLDEN))
    assert r.returncode == 0, r.stdout + r.stderr
    r = run(installed, "hardware", "bom")
    assert r.returncode == 0 and "total:" in r.stdout, r.stdout + r.stderr


def test_flash_dry_run_lists_every_firmware_file(installed):
    r = run(installed, "flash", "--dry-run", "--port", "/dev/ttyACM9")
    assert r.returncode == 0, r.stdout + r.stderr
    lines = r.stdout.splitlines()
    listed = {line.strip() for line in lines[1:next(k for k, line in enumerate(lines) if line.startswith("with: "))]}
    firmware = ROOT / "firmware"
    want = {str(p.relative_to(firmware).with_suffix("" if p.name == "main.py" else ".mpy")) + (".py" if p.name ==
            "main.py" else "") for p in firmware.rglob("*.py") if "__pycache__" not in p.parts}
    assert listed == want, sorted(listed ^ want)
    assert f"firmware {versions.firmware()}: {len(want)} file(s) to copy to /dev/ttyACM9" in r.stdout


def test_sim_prints_its_pty(installed):
    exe, here, env = installed
    proc = subprocess.Popen([str(exe), "sim", "--cpython"], cwd=here, env=env, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        assert line.startswith("pty: ") and Path(line.split(": ", 1)[1].strip()).exists(), line
    finally:
        proc.stdin.write("quit\n")
        proc.stdin.close()
        proc.wait(timeout=30)


def test_demo_plays_a_game_to_its_end_and_web_serves_it(installed):
    r = run(installed, "demo", "--players", "2", timeout=600)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    assert "The console's own totals and the PC's agree" in r.stdout and "game 1:" in r.stdout
    exe, here, env = installed
    db = Path(env["XDG_DATA_HOME"]) / "doodlebox" / "demo.sqlite3"
    proc = subprocess.Popen([str(exe), "web", "--db", str(db), "--port", "0"], cwd=here, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        url = ""
        deadline = time.monotonic() + 60
        while not url and time.monotonic() < deadline:
            line = proc.stdout.readline()
            found = re.search(r"(http://\S+/)", line)
            url = found.group(1) if found else ""
        assert url, "the page printed no address"
        with urllib.request.urlopen(url, timeout=30) as page:
            assert page.status == 200 and b"doodlebox" in page.read()
        with urllib.request.urlopen(url + "api/games", timeout=30) as page:
            assert len(json.loads(page.read())["games"]) == 1
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_a_file_missing_from_the_package_is_one_line_and_exit_2(installed):
    exe, here, env = installed
    r = subprocess.run([str(exe.parent / "python"), "-c", "import doodlebox.paths as p; print(p._PACKAGE)"],
                       cwd=here, env=env, capture_output=True, text=True, timeout=60)
    main = Path(r.stdout.strip()) / "firmware" / "main.py"
    kept = main.read_bytes()
    main.unlink()
    try:
        for args in (("--version",), ("flash", "--dry-run", "--port", "/dev/ttyACM9"), ("hardware", "check")):
            r = run(installed, *args)
            assert r.returncode == 2 and "Traceback" not in r.stderr, (args, r.stdout, r.stderr)
            assert r.stderr.count("\n") == 1 and "firmware is missing" in r.stderr and "reinstall" in r.stderr, r.stderr
    finally:
        main.write_bytes(kept)
