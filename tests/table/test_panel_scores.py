"""The PC's scores reach the console's panel (issue 9): every score the PC pushes during a
round is shown on the e-paper (read back as text from its picture). How long each took is a
figure of `make bench`, not a test (tests/support/panel_watch.py)."""
from __future__ import annotations

import pytest
from panel_watch import delays, watch_game

pytestmark = pytest.mark.slow      # (tests/conftest.py: the quick tier)


def test_every_score_the_pc_pushes_is_shown_on_the_panel(tmp_path):
    pushed, shown = watch_game(tmp_path)
    waits = delays(pushed, shown)
    assert len(waits) >= 2, pushed
    assert None not in waits, [(p[1], w) for p, w in zip(pushed, waits)]
