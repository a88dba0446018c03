"""The league on the page: the standings of every edition (`/league`) and each person's page
(`/player/N`: their rating after each game as an SVG chart, and their games), read through
doodlebox/league.py (`standings`, `history`: the ratings over the league's games, made again
at each request) in the store's thread (views.Views), and the pages of both (templates/: every
string escaped).

Without the league's module (it cannot be imported), or without a rated game, the page says
"No league data yet"."""
from __future__ import annotations

import time
from typing import Any

from doodlebox.history.games_view import game_name
from doodlebox.web import pages

LINE, BAND = "#1b6ac9", "#dbe7f6"       # the rating, and mu +- sigma


def ratings() -> Any:
    """doodlebox.history.league, or None when it cannot be imported (no league data yet)."""
    try:
        from doodlebox.history import league  # deferred: it needs openskill; without it the page has no league
    except ImportError:
        return None
    return league


# -- the data, in the store's thread ------------------------------------------------------------
def standings(store: Any) -> list[dict] | None:
    """Every edition's standings as plain data (league.standings: person, name, edition, mu,
    sigma, rating, games, wins, last), each edition best first; None without the league."""
    league = ratings()
    if league is None:
        return None
    out = [_standing(r) for r in league.standings(store, None)]
    out.sort(key=lambda r: (r["edition"], -r["rating"]))
    return out


def player(store: Any, person: int) -> dict | None:
    """Person `person`: `person`, `name` and `editions`, each with its `edition`, its `standing`
    (a row of standings()) and its `history` (league.history: game, when, mu, sigma, rating, in
    the order played); None without the league. A person the league has not rated has no
    editions."""
    rows = standings(store)
    if rows is None:
        return None
    mine = [r for r in rows if r["person"] == person]
    league = ratings()
    editions = [{"edition": r["edition"], "standing": r,
                 "history": [_point(h) for h in league.history(store, person, r["edition"])]} for r in mine]
    return {"person": person, "name": mine[0]["name"] if mine else "", "editions": editions}


def _standing(r: dict) -> dict:
    return {"person": int(r["person"]), "name": str(r["name"]), "edition": str(r["edition"]),
            "mu": _number(r.get("mu")), "sigma": _number(r.get("sigma")), "rating": _number(r.get("rating")),
            "games": int(r.get("games") or 0), "wins": int(r.get("wins") or 0), "last": _when(r.get("last"))}


def _point(h: dict) -> dict:
    """A game of a person's history: `when` (a timestamp, or the date as league.py writes it:
    `date`), `place` and `won` where given."""
    won = h.get("won")
    return {"game": int(h["game"]), "when": _when(h["when"] if "when" in h else h.get("date")),
            "mu": _number(h.get("mu")), "sigma": _number(h.get("sigma")), "rating": _number(h.get("rating")),
            "place": int(h["place"]) if type(h.get("place")) is int else None,
            "won": bool(won) if won is not None else None}


def _number(value: object) -> float:
    try:
        out = float(value)     # type: ignore[arg-type]
    except (TypeError, ValueError):
        return 0.0
    return out if out == out and abs(out) != float("inf") else 0.0


def _when(value: object) -> float | str | None:
    """A time as given: seconds since the epoch, or a date already written ("2026-12-02 16:12")."""
    if value is None or isinstance(value, str):
        return value
    return _number(value)


def _date(when: float | str | None) -> str:
    if isinstance(when, str):
        return when or "-"
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(when)) if when else "-"


def _edition(edition: str) -> str:
    return game_name(edition)


# -- the pages (templates/league.html, player.html, rating_chart.svg) --------------------------------
def page(db: str, rows: list[dict] | None, writes: str = "open") -> str:
    """/league: a table of standings per edition (rank, player, rating, mu, sigma, games, wins,
    last game), each player a link to their page."""
    editions: dict[str, list[dict]] = {}
    for r in rows or []:
        editions.setdefault(r["edition"], []).append(dict(r, last_text=_date(r["last"])))
    return pages.page("league.html", "doodlebox: league", db, writes,
                      editions=[(e, _edition(e), mine) for e, mine in editions.items()])


def player_page(db: str, p: dict, writes: str = "open") -> str:
    """/player/N: per edition, the rating chart and the games (each a link to its page)."""
    name = p["name"] or f"player {int(p['person'])}"
    editions = []
    for e in p["editions"]:
        played = []
        for h in reversed(e["history"]):
            row = h.get("row") or {}
            totals = row.get("totals")
            played.append({
                "game": int(h["game"]), "date": _date(h["when"]),
                "players": ", ".join(str(n) for n in row.get("players") or []),
                "winners": ", ".join(str(n) for n in row.get("winners") or []) or str(row.get("rank") or "-"),
                "scores": ", ".join(f"{n} {t}" for n, t in zip(row.get("players") or [], totals)) if totals else "-",
                "place": h["place"] if h.get("place") else "-", "rating": h["rating"]})
        editions.append({"edition": e["edition"], "title": _edition(e["edition"]), "standing": e["standing"],
                         "chart": chart(e["history"], name), "games": played})
    return pages.page("player.html", f"doodlebox: {name}", db, writes, person=int(p["person"]), name=name,
                      editions=editions)


def chart(history: list[dict], name: str, width: int = 640, height: int = 240) -> dict | None:
    """The rating after each game (a line, a dot per game with its number and date as its
    title) over the band mu - sigma .. mu + sigma: the numbers templates/rating_chart.svg draws
    (an inline SVG: no script, no style attribute); None without a game."""
    if not history:
        return None
    left, right, top, bottom = 44, 16, 12, 30
    lows = [min(h["rating"], h["mu"] - h["sigma"]) for h in history]
    highs = [max(h["rating"], h["mu"] + h["sigma"]) for h in history]
    low, high = min(lows), max(highs)
    step = _step(high - low)
    low, high = step * (low // step), step * (high // step + 1)
    n = len(history)

    def x(k: int) -> float:
        return left + (width - left - right) * (k / (n - 1) if n > 1 else 0.5)

    def y(v: float) -> float:
        return height - bottom - (height - top - bottom) * (v - low) / (high - low)

    grid = []
    v = low
    while v <= high + step / 2:
        grid.append({"y": f"{y(v):.1f}", "ty": f"{y(v) + 4:.1f}", "label": f"{v:g}"})
        v += step
    band = [f"{x(k):.1f},{y(h['mu'] + h['sigma']):.1f}" for k, h in enumerate(history)]
    band += [f"{x(k):.1f},{y(h['mu'] - h['sigma']):.1f}" for k, h in reversed(list(enumerate(history)))]
    return {"width": width, "height": height, "left": left, "right": width - right, "name": name, "grid": grid,
            "band": " ".join(band), "band_colour": BAND, "line_colour": LINE, "n": n,
            "points": " ".join(f"{x(k):.1f},{y(h['rating']):.1f}" for k, h in enumerate(history)),
            "dots": [{"x": f"{x(k):.1f}", "y": f"{y(h['rating']):.1f}", "game": int(h["game"]),
                      "date": _date(h["when"]), "rating": f"{h['rating']:.1f}"} for k, h in enumerate(history)],
            "middle": f"{(left + width - right) / 2:.0f}"}


def _step(span: float) -> float:
    """A round step for the chart's lines: about 4 to 8 of them over `span`."""
    step = 1.0
    while span / step > 8:
        step *= 5 if str(step)[0] == "2" else 2
    while span / step < 3 and step > 0.01:
        step /= 2
    return step
