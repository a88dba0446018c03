"""A dice game's coach on its page: the analysis (coach/analysis.py) made with a fixed, small
number of playouts, and drawn as an SVG chart of each player's value after each of their turns on
the analysis's one measure (`measure`: the expected final points solo, the expected final margin
over the best other player with others), the one its table and losses are on. The page's
server makes it in a process of its own and keeps it while the game's record is the same
(web/analyses.py). Every string in the chart is escaped here; the page's script lists the big
losses from the JSON (textContent only)."""
from __future__ import annotations

import math
from html import escape
from typing import Any

from doodlebox.coach import analysis as coach
from doodlebox.errors import DoodleboxError
from doodlebox.rules.games import read_record

COLOURS = ("#1b6ac9", "#c93a1b", "#2a9d3a", "#8a3ac9", "#c98a1b")
BIG = ("mistake", "blunder")    # the losses listed on the page
UNANALYSED = ("deadly", "puzzle")   # editions the page's coach does not analyse (no search needed to say so)


def analysis(record: dict, playouts: int | None = None) -> dict:
    """The analysis of a stored game's record as coach/analysis.Analysis.as_json() gives it, with
    `losses` (its mistakes and blunders) and `analysed` False (and `why`) for a game that has
    none (Deadly Doodles, Doodle Puzzle, a record that cannot be read). Made with `playouts`
    playouts a plan (default analysis.WEB_PLAYOUTS) and a fixed seed: the same record gives the
    same chart. Made each time it is called: web/analyses.py keeps it."""
    if record.get("edition") in UNANALYSED:
        return {"analysed": False, "why": "the coach analyses the dice editions only"}

    try:
        rec, game = read_record(record, "the record")
        a = coach.analyse(game.replay(rec), game.name, hindsight_s=0,
                          playouts=coach.WEB_PLAYOUTS if playouts is None else playouts)
    except DoodleboxError as exc:
        return {"analysed": False, "why": str(exc)}
    return page(a)


def page(a: coach.Analysis) -> dict:
    """Analysis `a` as the page reads it: its as_json() (the numbers of `doodlebox analyse`'s
    table and --json: `measure`, each turn's `played_value`, `best_value`, `lost`), `analysed`
    True, and `losses`: its mistakes and blunders, each with its player's `name`."""
    out: dict[str, Any] = dict(a.as_json(), analysed=True)
    out["losses"] = [dict(t, name=a.players[t["player"]]) for t in out["turns"] if t["mark"] in BIG]
    return out


def title(data: dict) -> str:
    """The chart's title: its measure in words (analysis.MEASURES), "after each turn"."""
    return f"{data.get('measure_text') or coach.MEASURES[data.get('measure', 'points')]}, after each turn"


def chart_svg(data: dict, width: int = 640, height: int = 260) -> str:
    """Each player's value on the analysis's measure after each of their turns (the move played:
    `played_value`, the table's), against the round, as an SVG; a blunder is a red dot, a mistake
    an orange one, each saying what it lost. A margin's 0 (level with the best other) is drawn
    darker."""
    if not data.get("analysed"):
        return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="40"><text x="8" y="24" '
                f'font-family="sans-serif" font-size="13">{escape(str(data.get("why", "")))}</text></svg>')
    turns = data["turns"]
    left, right, top, bottom = 48, 110, 12, 30
    rounds = max([t["round"] for t in turns], default=1)
    values = [t["played_value"] for t in turns] + [t["best_value"] for t in turns] + [0.0]
    step = 10 if max(values) - min(values) <= 100 else 20
    high = (math.floor(max(values) / step) + 1) * step
    low = math.floor(min(values) / step) * step        # 0, or a margin below it

    def x(r: float) -> float:
        return left + (width - left - right) * (r - 1) / max(1, rounds - 1)

    def y(v: float) -> float:
        return height - bottom - (height - top - bottom) * (min(high, max(low, v)) - low) / (high - low)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="11">',
           f'<title>{escape(title(data))}</title>']
    margin = data.get("measure") == "margin"
    for v in range(low, high + 1, step):
        shade = "#888" if v == 0 and margin else "#ddd"
        label = f"{v:+d}" if margin and v else str(v)
        out.append(f'<line x1="{left}" x2="{width - right}" y1="{y(v):.1f}" y2="{y(v):.1f}" stroke="{shade}"/>'
                   f'<text x="{left - 4}" y="{y(v) + 4:.1f}" text-anchor="end">{label}</text>')
    out.append(f'<text transform="translate(10 {(top + height - bottom) / 2:.0f}) rotate(-90)" '
               f'text-anchor="middle">{escape(data.get("measure", "points"))}</text>')
    for r in range(1, rounds + 1, max(1, rounds // 10)):
        out.append(f'<text x="{x(r):.1f}" y="{height - bottom + 14}" text-anchor="middle">{r}</text>')
    out.append(f'<text x="{(left + width - right) / 2:.0f}" y="{height - 4}" text-anchor="middle">round</text>')
    for p, name in enumerate(data["players"]):
        mine = [t for t in turns if t["player"] == p]
        if not mine:
            continue
        colour = COLOURS[p % len(COLOURS)]
        points = " ".join(f"{x(t['round']):.1f},{y(t['played_value']):.1f}" for t in mine)
        out.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{points}"/>')
        for t in mine:
            if t["mark"] in BIG:
                dot = "#d00" if t["mark"] == "blunder" else "#e80"
                out.append(f'<circle cx="{x(t["round"]):.1f}" cy="{y(t["played_value"]):.1f}" r="4" fill="{dot}">'
                           f'<title>{escape(name)}, round {t["round"]}: {escape(t["mark"])}, '
                           f'{escape(_values(data, t))}</title></circle>')
        ly = top + 14 * p + 8
        out.append(f'<line x1="{width - right + 8}" x2="{width - right + 24}" y1="{ly}" y2="{ly}" stroke="{colour}" '
                   f'stroke-width="2"/><text x="{width - right + 28}" y="{ly + 4}">{escape(name[:12])}</text>')
    out.append("</svg>")
    return "".join(out)


def _values(data: dict, t: dict) -> str:
    """A turn's numbers as the table says them: "margin -12.0, best +3.0, lost 15.0"."""
    m = data.get("measure", "points")
    return (f"{m} {coach.value_text(t['played_value'], m)}, best {coach.value_text(t['best_value'], m)}, "
            f"lost {t['lost']:.{coach.DIGITS}f}")
