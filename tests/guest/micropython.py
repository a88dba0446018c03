# `import micropython` for the firmware run under CPython in a subprocess whose path is the
# firmware and this folder (on the Pico and in the VM the built-in module wins over this file):
# the host's stand-in (host/doodlebox/virtual/cpython_micropython.py), found from here.
import sys
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parents[2] / "host"))
from doodlebox.virtual.cpython_micropython import const  # noqa: F401
