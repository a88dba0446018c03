"""Small helpers for the statistics' matplotlib charts (stats.py draws them): whole-number axes
for counted things, and p-value bars that stay visible however small, and say so.

Honesty of the p-value bars: a bar too short to see (p below MIN_P_BAR, about 8 pixels in a
chart 4 inches high) is drawn MIN_P_BAR tall, hatched and with an outline only, so it never
looks like a real bar of that height; its true p-value is written above it ("p=0.004", or
"p<0.001"), the solid part of it keeps its true height, and the legend says what hatching
means. Every other bar is drawn as it is."""
from __future__ import annotations

MIN_P_BAR = 0.025     # on the p-value axis (0 .. 1.1): a bar lower than this is hard to see
HATCH = "////"


def whole_number_axes(ax, games: int, totals: list[int]) -> None:
    """The score history's axes: games 1..`games` and totals are whole numbers, so only whole
    ticks (one game is tick 1 in the middle, not 0.95 .. 1.05), and at least a few points of
    totals around a single value."""
    from matplotlib.ticker import MaxNLocator  # deferred: matplotlib only for a chart (0.4 s at start-up)

    ax.set_xlim(0.5, max(1, games) + 0.5)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True, min_n_ticks=1))
    if totals and max(totals) - min(totals) < 4:
        ax.set_ylim(min(totals) - 2, max(totals) + 2)
    ax.yaxis.set_major_locator(MaxNLocator(integer=True, min_n_ticks=1))


def p_label(p: float) -> str:
    return f"p={p:.3f}" if p >= 0.001 else "p<0.001"


def p_bar(ax, x: float, p: float, rolls: int, colour: str) -> bool:
    """One die's bar of its p-value at `x`, its number of rolls above it. A bar too short to see
    is drawn MIN_P_BAR tall, hatched, its p-value written above it (see the module's
    docstring); True when it was."""
    if p >= MIN_P_BAR:
        ax.bar(x, p, color=colour)
        ax.text(x, p + 0.02, str(rolls), ha="center", fontsize=8)        # above the bar, even at p = 1
        return False
    ax.bar(x, MIN_P_BAR, color="white", edgecolor=colour, hatch=HATCH, linewidth=1)
    ax.bar(x, p, color=colour)                  # its true height too
    ax.text(x, MIN_P_BAR + 0.02, f"{rolls}\n{p_label(p)}", ha="center", fontsize=8)
    return True


BELOW = {"loc": "upper center", "bbox_to_anchor": (0.5, -0.16), "ncol": 2, "fontsize": 8, "frameon": False}
"""Where the dice chart's legend goes: under the dice's names, so it never hides a bar near p = 1."""


def p_bar_legend(floored: bool) -> list:
    """The legend's entry for the hatched bars, when there is one."""
    from matplotlib.patches import Patch  # deferred: matplotlib only for a chart (0.4 s at start-up)

    if not floored:
        return []
    return [Patch(facecolor="white", edgecolor="gray", hatch=HATCH,
                  label="hatched: p too small to see, drawn taller; its p above it")]
