"""Where the tests' code is: the package (host/), the firmware, the shared helpers (tests/support/),
the tools (tests/tools/) and each area's tests (a test may use another area's helpers by name).
`on_path()` puts them on sys.path: tests/conftest.py for pytest, and each tool run as a script."""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TESTS = ROOT / "tests"
GOLDEN = TESTS / "golden"
VECTORS = TESTS / "vectors"
GUEST = TESTS / "guest"
DATA = ("golden", "guest", "vectors")       # tests/ folders of data, not of tests


def areas() -> list[Path]:
    """The folders of tests by area (rules/, store/, ...), and support/ and tools/."""
    return sorted(p for p in TESTS.iterdir() if p.is_dir() and p.name not in DATA and not p.name.startswith((".", "_")))


def on_path() -> None:
    for p in [ROOT / "host", ROOT / "firmware", *areas()]:
        if str(p) not in sys.path:
            sys.path.insert(0, str(p))
