"""Put the firmware on a Pico running stock MicroPython: find the Pico (its USB id) or take the port
given, ask the board what it runs, compile with mpy-cross, copy what changed with mpremote, remove
what is stale, run the board's self-test's automatic steps and say how they went, reset.
(`doodlebox flash`, `make flash PORT=...`; docs/install.md, "Updating the firmware")

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
from doodlebox.errors import DoodleboxError, InputError
from doodlebox.link import frames
from doodlebox.link.ports import find_picos

FOLDERS = ("board", "doodle")

_ASK = ("import sys\n"
        "i = sys.implementation\n"
        "print('DOODLEBOX', repr((i.name, tuple(i.version[:3]), getattr(i, '_mpy', 0), sys.platform)))\n")


class FlashError(DoodleboxError):
    """The copy failed on the way (mpremote's error): exit 1."""


class NoBoard(FlashError, InputError):
    """No Pico to flash: none attached, two attached, or a port with no MicroPython on it: exit 2,
    nothing written."""

    exit_code = 2


def choose_port(port: str | None) -> str:
    """`port`, or the one Pico attached (by its USB id); NoBoard with none, or with several (named)."""
    if port:
        return port
    found = find_picos()
    if not found:
        raise NoBoard("no Pico running MicroPython is attached (plug it in by USB; a new Pico needs MicroPython "
                      "first: hardware/README.md, \"MicroPython on the Pico\"), or give --port")
    if len(found) > 1:
        raise NoBoard(f"{len(found)} Picos are attached ({', '.join(p.label() for p in found)}): give --port")
    return found[0].device


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
        raise NoBoard(f"{port}: no MicroPython board answered within {timeout:g} s "
                      "(is it a Pico running MicroPython, and is no other program using the port?)") from None


def _failure(port: str, proc: subprocess.CompletedProcess) -> FlashError:
    text = (proc.stderr or proc.stdout).strip()
    if "could not enter raw repl" in text or "failed to access" in text or "no device found" in text:
        return NoBoard(f"{port}: not a MicroPython board: no raw REPL answered "
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
        raise NoBoard(f"{port}: the board answered, but not as MicroPython does")
    name, version, mpy, platform = ast.literal_eval(m.group(1))
    return Device(name, tuple(version), int(mpy), platform)


def check_device(port: str, dev: Device, want: tuple[int, int | None]) -> None:
    """Refuse a board that cannot run what mpy-cross built, with what to do about it."""
    if dev.name != "micropython":
        raise NoBoard(f"{port}: the board runs {dev}, not MicroPython")
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


def mpremote_command(port: str, keep: list[str] | None = None, reset: bool = True) -> list[str]:
    """One mpremote invocation, run in the build folder: copy what changed, remove what is
    stale, reset (`reset`)."""
    cmd = [sys.executable, "-m", "mpremote", "connect", port]
    cmd += ["fs", "cp", "-r", *FOLDERS, "main.py", ":"]
    cmd += ["+", "exec", _cleanup_code(keep or [])]
    if reset:
        cmd += ["+", "reset"]
    return cmd


@dataclass
class Flashed:
    device: Device
    copied: list[str]
    unchanged: list[str]
    removed: list[str]


def plan(port: str, built: Path) -> tuple[list[str], str]:
    """The firmware compiled into `built`: the files `flash` copies (their names on the board), and
    the mpremote command that copies them (nothing is sent to the board)."""
    files = [str(p.relative_to(built)) for p in build(built)]
    return files, " ".join(mpremote_command(port, files))


def flash(port: str, built: Path, timeout: float = 120.0) -> Flashed:
    """Build into `built`, check the board, copy what changed, remove what is stale (the board is
    left in its REPL: self_test() and reset() follow)."""
    files = [str(p.relative_to(built)) for p in build(built)]
    want = mpy_version_of(built)
    dev = ask_device(port)
    check_device(port, dev, want)
    proc = _mpremote(port, mpremote_command(port, files, reset=False)[5:], built, timeout)
    if proc.returncode:
        raise _failure(port, proc)
    unchanged = [f.lstrip("./") for f in re.findall(r"^Up to date: (\S+)", proc.stdout, re.M)]
    m = re.search(r"REMOVED (\[.*\])", proc.stdout)
    removed = ast.literal_eval(m.group(1)) if m else []
    return Flashed(dev, [f for f in files if f not in unchanged], unchanged, removed)


# the board's self-test (firmware/board/selftest.py) as far as it goes alone: every pip, the scale,
# the panel's test pattern; its `test` frames are what it said (the button step waits for a person)
_SELF_TEST = ("import gc, time\n"
              "from board import pico, selftest\n"
              "t = selftest.SelfTest(pico.Board())\n"
              "t0 = time.ticks_ms()\n"
              "while t.step < 3 and time.ticks_diff(time.ticks_ms(), t0) < %d:\n"
              "    t.run(20)\n"
              "    gc.collect()\n"
              "print('SELFTEST', t.step)\n")


def self_test(port: str, within_s: float = 40.0) -> list[dict]:
    """The self-test's automatic steps run on the board just flashed: its `test` frames, in order
    (the last one its summary). FlashError when it did not get that far."""
    proc = _mpremote(port, ["exec", _SELF_TEST % int(within_s * 1000)], None, within_s + 30)
    if proc.returncode:
        raise _failure(port, proc)
    said = []
    for line in proc.stdout.splitlines():
        if line.startswith("@"):
            try:
                msg = frames.decode(line.strip().encode())
            except frames.FrameError:
                continue
            if msg.get("t") == "test":
                said.append(msg)
    if not any(m.get("step") == "summary" for m in said):
        raise FlashError(f"{port}: the self-test did not finish its automatic steps within {within_s:g} s")
    return said


def reset(port: str, timeout: float = 30.0) -> None:
    """The board restarted: it runs the new firmware."""
    proc = _mpremote(port, ["reset"], None, timeout)
    if proc.returncode:
        raise _failure(port, proc)
