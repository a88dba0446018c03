"""Compile firmware sources to .mpy with mpy-cross (the deploy and the virtual console)."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path, PurePosixPath

from doodlebox.errors import DoodleboxError

MARCH = "armv6m"  # RP2040 (Cortex-M0+); bytecode .mpy is the same for every arch
# -O3: asserts out and no line numbers. The line-number tables cost ~2.7 KB of the Pico's RAM
# (~4 % of its budget: docs/virtual-console.md); a traceback on the console still names the
# file and the function, and the same code runs under CPython in the tests, tracebacks whole.
OPT = "-O3"


class BuildError(DoodleboxError):
    pass


def device_name(rel: Path) -> str:
    """The name the device imports a compiled file by: its __file__, "doodle/app.mpy" (the
    virtual console's built-in modules sit in /lib: "/lib/machine.mpy"). mpy-cross embeds it
    as the source's name for tracebacks: one interned string (qstr) with __file__, where the
    host's path of the source would be another, ~40 bytes of RAM per module."""
    name = PurePosixPath(*rel.parts).with_suffix(".mpy")
    return "/" + str(name) if rel.parts[0] == "lib" else str(name)


def mpy_cross(src: Path, out: Path, march: str = MARCH, source: str | None = None) -> None:
    """Compile src to out; `source` is the file name its tracebacks give (device_name)."""
    out.parent.mkdir(parents=True, exist_ok=True)
    cmd = [sys.executable, "-m", "mpy_cross", f"-march={march}", OPT]
    if source is not None:
        cmd += ["-s", source]
    proc = subprocess.run([*cmd, "-o", str(out), str(src)], capture_output=True, text=True)
    if proc.returncode:
        raise BuildError(f"mpy-cross refused {src}: {(proc.stderr or proc.stdout).strip()}")


def compile_tree(files: dict[Path, Path], dest: Path, compiled: bool = True) -> list[Path]:
    """files maps a path on the device (relative) to its source; main.py/boot.py stay .py."""
    written = []
    for rel, src in sorted(files.items()):
        if compiled and rel.name not in ("main.py", "boot.py"):
            out = dest / rel.with_suffix(".mpy")
            if not out.exists() or out.stat().st_mtime < src.stat().st_mtime:
                mpy_cross(src, out, source=device_name(rel))
        else:
            out = dest / rel
            out.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, out)
        written.append(out)
    return written
