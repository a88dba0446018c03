"""Running the `doodlebox` command as a person would, as its own process, for the tests."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ENV = dict(os.environ, PYTHONPATH=str(ROOT / "host"))


def doodlebox(*args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "doodlebox.cli", *args], capture_output=True, text=True,
                          env=ENV, timeout=timeout, stdin=subprocess.DEVNULL)


def validate_all(paths) -> dict:
    """`doodlebox validate --json PATH` for every path, side by side; {path: (code, stdout, stderr)}."""
    procs = {p: subprocess.Popen([sys.executable, "-m", "doodlebox.cli", "validate", str(p), "--json"],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV, text=True)
             for p in paths}
    out = {}
    for p, proc in procs.items():
        stdout, stderr = proc.communicate(timeout=60)
        out[p] = (proc.returncode, stdout, stderr)
    return out
