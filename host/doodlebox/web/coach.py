"""A dice game's coach on its page: the analysis (coach/analysis.py) made with a fixed, small
number of playouts, and drawn as an SVG chart of each player's value after each of their turns on
the analysis's one measure (`measure`: the expected final points solo, the expected final margin
over the best other player with others), the one its table and losses are on. The page's
server makes it in a process of its own and keeps it while the game's record is the same
(web/analyses.py). The chart is a Jinja2 template (templates/coach_chart.svg, autoescaped:
every name and word in it escaped as it goes in); the page's script lists the big losses from the
JSON (textContent only)."""
from __future__ import annotations

import math
from typing import Any

from doodlebox.coach import analysis as coach
from doodlebox.errors import DoodleboxError
from doodlebox.rules.games import read_record
from doodlebox.web.render import render

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
    `played_value`, the table's), against the round, as an SVG (templates/coach_chart.svg, every
    string in it escaped by Jinja2); a blunder is a red dot, a mistake an orange one, each saying
    what it lost. A margin's 0 (level with the best other) is drawn darker."""
    return render("coach_chart.svg", c=chart(data, width, height))


def chart(data: dict, width: int = 640, height: int = 260) -> dict:
    """The numbers templates/coach_chart.svg draws for analysis `data`, formatted as they are
    written: the grid's lines and labels, the rounds, each player's line, dots and key; for a game
    not analysed, `why` only (`analysed` False)."""
    if not data.get("analysed"):
        return {"analysed": False, "width": width, "why": str(data.get("why", ""))}
    turns = data["turns"]
    left, right, top, bottom = 48, 110, 12, 30
    rounds = max([t["round"] for t in turns], default=1)
    values = [t["played_value"] for t in turns] + [t["best_value"] for t in turns] + [0.0]
    step = 10 if max(values) - min(values) <= 100 else 20
    high = (math.floor(max(values) / step) + 1) * step
    low = math.floor(min(values) / step) * step        # 0, or a margin below it

    def x(r: float) -> str:
        return f"{left + (width - left - right) * (r - 1) / max(1, rounds - 1):.1f}"

    def y(v: float) -> float:
        return height - bottom - (height - top - bottom) * (min(high, max(low, v)) - low) / (high - low)

    margin = data.get("measure") == "margin"
    grid = [{"y": f"{y(v):.1f}", "ty": f"{y(v) + 4:.1f}", "shade": "#888" if v == 0 and margin else "#ddd",
             "label": f"{v:+d}" if margin and v else str(v)} for v in range(low, high + 1, step)]
    players = []
    for p, name in enumerate(data["players"]):
        mine = [t for t in turns if t["player"] == p]
        if not mine:
            continue
        ly = top + 14 * p + 8
        players.append({
            "colour": COLOURS[p % len(COLOURS)], "name": name[:12], "ly": ly,
            "points": " ".join(f"{x(t['round'])},{y(t['played_value']):.1f}" for t in mine),
            "dots": [{"x": x(t["round"]), "y": f"{y(t['played_value']):.1f}",
                      "fill": "#d00" if t["mark"] == "blunder" else "#e80",
                      "title": f"{name}, round {t['round']}: {t['mark']}, {_values(data, t)}"}
                     for t in mine if t["mark"] in BIG]})
    return {"analysed": True, "width": width, "height": height, "title": title(data), "left": left,
            "right": width - right, "grid": grid, "measure": str(data.get("measure", "points")),
            "axis_y": f"{(top + height - bottom) / 2:.0f}", "ticks_y": height - bottom + 14,
            "ticks": [{"x": x(r), "label": r} for r in range(1, rounds + 1, max(1, rounds // 10))],
            "middle": f"{(left + width - right) / 2:.0f}", "players": players}


def _values(data: dict, t: dict) -> str:
    """A turn's numbers as the table says them: "margin -12.0, best +3.0, lost 15.0"."""
    m = data.get("measure", "points")
    return (f"{m} {coach.value_text(t['played_value'], m)}, best {coach.value_text(t['best_value'], m)}, "
            f"lost {t['lost']:.{coach.DIGITS}f}")
