"""Put the firmware on a Pico running stock MicroPython: ask the board what it runs, compile
with mpy-cross, copy what changed with mpremote, remove what is stale, reset.
(`make flash PORT=...`, `doodlebox flash --port ...`)

The device gets `main.py` as source and everything else as .mpy bytecode (a .py import
costs several times the RAM to compile). mpremote's `cp` compares SHA-256 hashes and skips
files that are already up to date. Files in our folders (`board/`, `doodle/`) that the build
does not have are removed, because MicroPython imports a stale `x.py` before a new `x.mpy`;
nothing else on the device is touched (the boot counter `boot.txt` stays).
"""
from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from doodlebox import paths
from doodlebox.deploy.firmware_build import compile_tree
from doodlebox.errors import DoodleboxError

FOLDERS = ("board", "doodle")

_ASK = ("import sys\n"
        "i = sys.implementation\n"
        "print('DOODLEBOX', repr((i.name, tuple(i.version[:3]), getattr(i, '_mpy', 0), sys.platform)))\n")


class FlashError(DoodleboxError):
    pass


@dataclass
class Device:
    name: str
    version: tuple[int, int, int]
    mpy: int            # sys.implementation._mpy: version | sub-version << 8 | arch << 10
    platform: str

    @property
    def mpy_version(self) -> tuple[int, int]:
        return self.mpy & 0xFF, (self.mpy >> 8) & 3

    def __str__(self) -> str:
        return f"{self.name} {'.'.join(map(str, self.version))} on {self.platform}"


def firmware_files() -> dict[Path, Path]:
    """Path on the device -> source file, for every file `make flash` puts on the Pico."""
    src = paths.firmware()
    return {f.relative_to(src): f for f in src.rglob("*.py") if "__pycache__" not in f.parts}


def build(dest: Path) -> list[Path]:
    """Compile the firmware into `dest` (emptied first); returns the files written."""
    shutil.rmtree(dest, ignore_errors=True)
    dest.mkdir(parents=True)
    return compile_tree(firmware_files(), dest, compiled=True)


def mpy_version_of(built: Path) -> tuple[int, int | None]:
    """(.mpy version, sub-version) that mpy-cross wrote; the sub-version only matters (and is
    only written) for native code, so it is None for bytecode."""
    header = next(built.rglob("*.mpy")).read_bytes()[:4]
    arch = header[2] >> 2
    return header[1], (header[2] & 3) if arch else None


def _mpremote(port: str, args: list[str], cwd: Path | None, timeout: float) -> subprocess.CompletedProcess:
    cmd = [sys.executable, "-m", "mpremote", "connect", port, *args]
    try:
        return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise FlashError(f"{port}: no MicroPython board answered within {timeout:g} s "
                         "(is it a Pico running MicroPython, and is no other program using the port?)") from None


def _failure(port: str, proc: subprocess.CompletedProcess) -> FlashError:
    text = (proc.stderr or proc.stdout).strip()
    if "could not enter raw repl" in text:
        return FlashError(f"{port}: not a MicroPython board: no raw REPL answered "
                          "(is MicroPython on it? hardware/README.md, MicroPython on the Pico)")
    lines = text.splitlines()
    last = lines[-1] if lines else f"exit code {proc.returncode}"
    return FlashError(f"{port}: mpremote failed: {last}")


def ask_device(port: str, timeout: float = 30.0) -> Device:
    """What the board on `port` runs (through its raw REPL)."""
    proc = _mpremote(port, ["exec", _ASK], None, timeout)
    if proc.returncode:
        raise _failure(port, proc)
    m = re.search(r"DOODLEBOX (\(.*\))", proc.stdout)
    if not m:
        raise FlashError(f"{port}: the board answered, but not as MicroPython does")
    name, version, mpy, platform = ast.literal_eval(m.group(1))
    return Device(name, tuple(version), int(mpy), platform)


def check_device(port: str, dev: Device, want: tuple[int, int | None]) -> None:
    """Refuse a board that cannot run what mpy-cross built, with what to do about it."""
    if dev.name != "micropython":
        raise FlashError(f"{port}: the board runs {dev}, not MicroPython")
    have = dev.mpy_version
    need = f".mpy v{want[0]}" + (f".{want[1]}" if want[1] is not None else "")
    wanted = (want[0], want[1] if want[1] is not None else have[1])
    if dev.mpy == 0 or have[0] < want[0] or (have[0] == want[0] and have[1] < wanted[1]):
        raise FlashError(f"{port}: {dev} is too old: it reads .mpy v{have[0]}.{have[1]}, and this firmware is "
                         f"compiled for {need} (MicroPython 1.23 or newer). Update MicroPython on the Pico "
                         "(hardware/README.md, Flashing MicroPython)")
    if have != wanted:
        raise FlashError(f"{port}: {dev} reads .mpy v{have[0]}.{have[1]}, newer than the {need} that this "
                         "mpy-cross writes: install the mpy-cross release that matches the board's MicroPython")


def _cleanup_code(keep: list[str]) -> str:
    """Device code: remove files in our folders that the build does not have."""
    return ("import os\n"
            f"keep = {sorted(keep)!r}\n"
            "gone = []\n"
            f"for d in {FOLDERS!r}:\n"
            "    try:\n"
            "        names = os.listdir(d)\n"
            "    except OSError:\n"
            "        continue\n"
            "    for f in names:\n"
            "        if d + '/' + f not in keep:\n"
            "            os.remove(d + '/' + f)\n"
            "            gone.append(d + '/' + f)\n"
            "print('REMOVED', repr(gone))\n")


def mpremote_command(port: str, keep: list[str] | None = None) -> list[str]:
    """One mpremote invocation, run in the build folder: copy what changed, remove what is
    stale, reset."""
    cmd = [sys.executable, "-m", "mpremote", "connect", port]
    cmd += ["fs", "cp", "-r", *FOLDERS, "main.py", ":"]
    cmd += ["+", "exec", _cleanup_code(keep or [])]
    cmd += ["+", "reset"]
    return cmd


@dataclass
class Flashed:
    device: Device
    copied: list[str]
    unchanged: list[str]
    removed: list[str]


def flash(port: str, built: Path, dry_run: bool = False, timeout: float = 120.0) -> Flashed | str:
    """Build into `built`, check the board, copy what changed, reset. With `dry_run`, the
    mpremote command only (nothing is sent to the board)."""
    files = [str(p.relative_to(built)) for p in build(built)]
    if dry_run:
        return " ".join(mpremote_command(port, files))
    want = mpy_version_of(built)
    dev = ask_device(port)
    check_device(port, dev, want)
    proc = _mpremote(port, mpremote_command(port, files)[5:], built, timeout)
    if proc.returncode:
        raise _failure(port, proc)
    unchanged = [f.lstrip("./") for f in re.findall(r"^Up to date: (\S+)", proc.stdout, re.M)]
    m = re.search(r"REMOVED (\[.*\])", proc.stdout)
    removed = ast.literal_eval(m.group(1)) if m else []
    return Flashed(dev, [f for f in files if f not in unchanged], unchanged, removed)
