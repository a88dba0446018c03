"""The statistics' charts read right (issue 20): whole-number ticks for a one-game score history,
and a die's p-value bar that is visible however small, hatched and labelled with its true
p-value so that the chart stays honest (host/doodlebox/drawing/charts.py)."""
from __future__ import annotations

import io

from PIL import Image

from doodlebox.drawing import charts
from doodlebox.history import stats
from doodlebox.history.stats import DieTest, Played, Stats

BOARD = "d00d1eb000000001"
TINY = [60, 60, 60, 60, 60, 97]        # p = 0.0041


def _drawn(which: str, st: Stats):
    fig = stats._figure(7, 4)
    ax = fig.add_subplot()
    stats._DRAW[which](ax, st)
    png = stats._png(fig)               # draws it: the layout and the ticks are final
    return fig, ax, Image.open(io.BytesIO(png)).convert("RGB")


def _visible(ticks, limits) -> list[float]:
    lo, hi = sorted(limits)
    return [float(t) for t in ticks if lo - 1e-9 <= t <= hi + 1e-9]


def test_a_one_game_score_history_has_whole_number_ticks():
    for played in ([Played(1, "2026-01-01 10:00", "city", "Ann", 17, True)],
                   [Played(1, "2026-01-01 10:00", "city", "Ann", 17, True),
                    Played(1, "2026-01-01 10:00", "city", "Ben", 11, False)]):
        _, ax, _ = _drawn("scores", Stats(played=played))
        xs = _visible(ax.get_xticks(), ax.get_xlim())
        ys = _visible(ax.get_yticks(), ax.get_ylim())
        assert xs == [1.0], xs                                   # the one game, in the middle
        assert ys and all(y.is_integer() for y in ys), ys
        assert {17.0} <= set(ys) and all(t.get_text().lstrip("\u2212-").isdigit() for t in ax.get_yticklabels()
                                          if t.get_text())


def test_a_tiny_p_value_bar_is_visible_hatched_and_labelled_with_its_p():
    die = DieTest(BOARD, "column", TINY)
    assert 0.003 < die.p < 0.005
    _, ax, img = _drawn("dice", Stats(dice=[die, DieTest(BOARD, "white 1", [60] * 6)]))
    x0, base = ax.transData.transform((0, 0))
    _, top = ax.transData.transform((0, 0.1))
    h = img.height
    rows = set()
    for y in range(int(h - top), int(h - base) + 1):
        for x in range(int(x0) - 12, int(x0) + 13):
            r, g, b = img.getpixel((x, y))
            if r > 150 and g < 120 and b < 120:                 # the red of a die unlikely to be fair
                rows.add(y)
    assert len(rows) >= 6, sorted(rows)                          # today: the bar is about 1 pixel high
    labels = [t.get_text() for t in ax.texts]
    assert "397\np=0.004" in labels, labels
    assert any(p.get_hatch() == charts.HATCH and abs(p.get_height() - charts.MIN_P_BAR) < 1e-9 for p in ax.patches)
    assert any(p.get_hatch() is None and abs(p.get_height() - die.p) < 1e-12 for p in ax.patches)   # its true height
    assert any("hatched" in t.get_text() for t in ax.get_legend().get_texts())


def test_bars_that_can_be_seen_are_drawn_as_they_are_and_no_hatch_is_explained():
    dice = [DieTest(BOARD, "column", [60] * 6), DieTest(BOARD, "white 1", [10, 10, 10, 10, 10, 20])]
    assert all(d.p > charts.MIN_P_BAR for d in dice)
    _, ax, _ = _drawn("dice", Stats(dice=dice))
    heights = sorted(round(p.get_height(), 9) for p in ax.patches if p.get_height() > 0)
    assert heights == sorted(round(d.p, 9) for d in dice)
    assert not any(p.get_hatch() for p in ax.patches)
    assert not any("hatched" in t.get_text() for t in ax.get_legend().get_texts())
    assert charts.p_label(0.0004) == "p<0.001" and charts.p_label(0.0041) == "p=0.004"
