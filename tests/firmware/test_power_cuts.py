"""The short version of `make faults`' power cuts (tests/tools/power_cuts.py): the firmware's core
cut off at random instants over whole games against the shipped host link; nothing lost,
nothing stored twice, every game that ended valid with the console's own totals."""
import pytest
from power_cuts import run

pytestmark = pytest.mark.slow      # (tests/conftest.py: the quick tier)


def test_power_cuts_at_random_instants_lose_nothing_and_duplicate_nothing(tmp_path):
    r = run(tmp_path, games=3, seed=2)
    assert r.tried >= 3 and r.games == 3, r.line()
    assert (r.lost, r.duplicated, r.invalid) == (0, 0, []), r.line() + "\n" + "\n".join(r.invalid)
    assert r.resumed >= 1
