import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for p in (ROOT / "host", ROOT / "firmware"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

# the firmware's `from micropython import const` under CPython (built in on the Pico and in the VM)
from doodlebox.virtual import cpython_micropython  # noqa: E402

cpython_micropython.install()
