"""Compile firmware sources to .mpy with mpy-cross (the deploy and the virtual console)."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from doodlebox.errors import DoodleboxError

MARCH = "armv6m"  # RP2040 (Cortex-M0+); bytecode .mpy is the same for every arch


class BuildError(DoodleboxError):
    pass


def mpy_cross(src: Path, out: Path, march: str = MARCH) -> None:
    out.parent.mkdir(parents=True, exist_ok=True)
    proc = subprocess.run([sys.executable, "-m", "mpy_cross", f"-march={march}", "-O2", "-o", str(out), str(src)],
                          capture_output=True, text=True)
    if proc.returncode:
        raise BuildError(f"mpy-cross refused {src}: {(proc.stderr or proc.stdout).strip()}")


def compile_tree(files: dict[Path, Path], dest: Path, compiled: bool = True) -> list[Path]:
    """files maps a path on the device (relative) to its source; main.py/boot.py stay .py."""
    written = []
    for rel, src in sorted(files.items()):
        if compiled and rel.name not in ("main.py", "boot.py"):
            out = dest / rel.with_suffix(".mpy")
            if not out.exists() or out.stat().st_mtime < src.stat().st_mtime:
                mpy_cross(src, out)
        else:
            out = dest / rel
            out.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, out)
        written.append(out)
    return written
