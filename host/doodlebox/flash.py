"""Put the firmware on a Pico running stock MicroPython: compile with mpy-cross, copy with
mpremote, reset. (`make flash PORT=...`, `doodlebox flash --port ...`)

The device gets `main.py` as source and everything else as .mpy bytecode (a .py import
costs several times the RAM to compile). Our own folders (`board/`, `doodle/`) are emptied
first, because MicroPython imports a stale `x.py` before a new `x.mpy`; nothing else on the
device is touched (the boot counter `boot.txt` stays).
"""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from doodlebox import paths
from doodlebox.firmware_build import compile_tree

FOLDERS = ("board", "doodle")

# Run on the device before the copy: empty our folders (not the rest of the flash).
_EMPTY = (
    "import os\n"
    "for d in %r:\n"
    "    try:\n"
    "        for f in os.listdir(d):\n"
    "            os.remove(d + '/' + f)\n"
    "    except OSError:\n"
    "        pass\n" % (FOLDERS,)
)


class FlashError(RuntimeError):
    pass


def firmware_files() -> dict[Path, Path]:
    """Path on the device -> source file, for every file `make flash` puts on the Pico."""
    src = paths.firmware()
    return {f.relative_to(src): f for f in src.rglob("*.py") if "__pycache__" not in f.parts}


def build(dest: Path) -> list[Path]:
    """Compile the firmware into `dest` (emptied first); returns the files written."""
    shutil.rmtree(dest, ignore_errors=True)
    dest.mkdir(parents=True)
    return compile_tree(firmware_files(), dest, compiled=True)


def mpremote_command(port: str) -> list[str]:
    """One mpremote invocation, run in the build folder: connect, empty our folders, copy, reset."""
    cmd = [sys.executable, "-m", "mpremote", "connect", port, "exec", _EMPTY]
    cmd += ["+", "fs", "cp", "-r", *FOLDERS, "main.py", ":"]
    cmd += ["+", "reset"]
    return cmd


def flash(port: str, built: Path, dry_run: bool = False, timeout: float = 60.0) -> str:
    """Build into `built`, then copy it to the board on `port`; returns mpremote's output."""
    build(built)
    cmd = mpremote_command(port)
    if dry_run:
        return " ".join(cmd)
    try:
        proc = subprocess.run(cmd, cwd=built, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise FlashError(f"{port}: no MicroPython board answered within {timeout:g} s "
                         "(is it a Pico running MicroPython, and is no other program using the port?)") from None
    if proc.returncode:
        lines = (proc.stderr or proc.stdout).strip().splitlines()
        raise FlashError(f"{port}: mpremote failed: {lines[-1] if lines else 'exit code %d' % proc.returncode}")
    return proc.stdout
