"""A dice game's coach on its page: the analysis (coach/analysis.py) made with a fixed, small
number of playouts, and drawn as an SVG chart of each player's expected final score after each of
their turns. The page's server makes it in a process of its own and keeps it while the game's
record is the same (web/analyses.py). Every string in the chart is escaped here; the page's script
lists the big losses from the JSON (textContent only)."""
from __future__ import annotations

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
    out: dict[str, Any] = dict(a.as_json(), analysed=True)
    out["losses"] = [dict(t, name=a.players[t["player"]]) for t in out["turns"] if t["mark"] in BIG]
    return out


def chart_svg(data: dict, width: int = 640, height: int = 260) -> str:
    """Each player's expected final score after each of their turns (the move played), against
    the round, as an SVG; a blunder is a red dot, a mistake an orange one."""
    if not data.get("analysed"):
        return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="40"><text x="8" y="24" '
                f'font-family="sans-serif" font-size="13">{escape(str(data.get("why", "")))}</text></svg>')
    turns = data["turns"]
    left, right, top, bottom = 40, 110, 12, 30
    rounds = max([t["round"] for t in turns], default=1)
    high = max([t["played_points"] for t in turns] + [t["best_points"] for t in turns] + [1.0])
    high = (int(high) // 10 + 1) * 10

    def x(r: float) -> float:
        return left + (width - left - right) * (r - 1) / max(1, rounds - 1)

    def y(v: float) -> float:
        return height - bottom - (height - top - bottom) * max(0.0, v) / high

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="11">',
           '<title>expected final score after each turn</title>']
    for v in range(0, high + 1, 10 if high <= 100 else 20):
        out.append(f'<line x1="{left}" x2="{width - right}" y1="{y(v):.1f}" y2="{y(v):.1f}" stroke="#ddd"/>'
                   f'<text x="{left - 4}" y="{y(v) + 4:.1f}" text-anchor="end">{v}</text>')
    for r in range(1, rounds + 1, max(1, rounds // 10)):
        out.append(f'<text x="{x(r):.1f}" y="{height - bottom + 14}" text-anchor="middle">{r}</text>')
    out.append(f'<text x="{(left + width - right) / 2:.0f}" y="{height - 4}" text-anchor="middle">round</text>')
    for p, name in enumerate(data["players"]):
        mine = [t for t in turns if t["player"] == p]
        if not mine:
            continue
        colour = COLOURS[p % len(COLOURS)]
        points = " ".join(f"{x(t['round']):.1f},{y(t['played_points']):.1f}" for t in mine)
        out.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{points}"/>')
        for t in mine:
            if t["mark"] in BIG:
                dot = "#d00" if t["mark"] == "blunder" else "#e80"
                out.append(f'<circle cx="{x(t["round"]):.1f}" cy="{y(t["played_points"]):.1f}" r="4" fill="{dot}">'
                           f'<title>{escape(name)}, round {t["round"]}: {escape(t["mark"])}, '
                           f'-{t["lost"]:g}</title></circle>')
        ly = top + 14 * p + 8
        out.append(f'<line x1="{width - right + 8}" x2="{width - right + 24}" y1="{ly}" y2="{ly}" stroke="{colour}" '
                   f'stroke-width="2"/><text x="{width - right + 28}" y="{ly + 4}">{escape(name[:12])}</text>')
    out.append("</svg>")
    return "".join(out)
