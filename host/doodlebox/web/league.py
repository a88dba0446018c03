"""The league on the page: the standings of every edition (`/league`) and each person's page
(`/player/N`: their rating after each game as an SVG chart, and their games), read through
doodlebox/league.py (`standings`, `history`: the ratings over the league's games, made again
at each request) in the store's thread (views.Views), and the HTML of both, every string
escaped (pages.esc).

Without the league's module (it cannot be imported), or without a rated game, the page says
"No league data yet"."""
from __future__ import annotations

import time
from html import escape
from typing import Any

from doodlebox.history.games_view import game_name
from doodlebox.web.pages import TAIL, esc, head

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


# -- the HTML -----------------------------------------------------------------------------------
NO_DATA = ('<p class="note" id="no-league">No league data yet: the ratings are made from the league\'s games '
           "(<code>doodlebox league</code>).</p>\n")


def page(db: str, rows: list[dict] | None, writes: str = "open") -> str:
    """/league: a table of standings per edition (rank, player, rating, mu, sigma, games, wins,
    last game), each player a link to their page."""
    out = [head("doodlebox: league", db, writes), '<section id="league"><h2>League</h2>\n']
    if not rows:
        out.append(NO_DATA)
    editions: dict[str, list[dict]] = {}
    for r in rows or []:
        editions.setdefault(r["edition"], []).append(r)
    for edition, mine in editions.items():
        out.append(f'<h3 id="edition-{esc(edition)}">{esc(_edition(edition))}</h3>\n'
                   f'<table class="standings" data-edition="{esc(edition)}"><thead><tr><th>#</th><th>player</th>'
                   "<th>rating</th><th>mu</th><th>sigma</th><th>games</th><th>wins</th><th>last game</th></tr>"
                   "</thead>\n<tbody>\n")
        for rank, r in enumerate(mine, start=1):
            pid = int(r["person"])
            out.append(f'<tr id="standing-{esc(edition)}-{pid}"><td class="number">{rank}</td>'
                       f'<td><a href="/player/{pid}">{esc(r["name"])}</a></td>'
                       f'<td class="number">{r["rating"]:.1f}</td><td class="number">{r["mu"]:.1f}</td>'
                       f'<td class="number">{r["sigma"]:.2f}</td><td class="number">{int(r["games"])}</td>'
                       f'<td class="number">{int(r["wins"])}</td><td>{esc(_date(r["last"]))}</td></tr>\n')
        out.append("</tbody></table>\n")
    out.append("</section>\n")
    out.append(TAIL)
    return "".join(out)


def player_page(db: str, p: dict, writes: str = "open") -> str:
    """/player/N: per edition, the rating chart and the games (each a link to its page)."""
    name = p["name"] or f"player {int(p['person'])}"
    out = [head(f"doodlebox: {name}", db, writes),
           f'<section id="player" data-person="{int(p["person"])}"><h2>{esc(name)}</h2>\n'
           '<p><a href="/league">the league</a></p>\n']
    if not p["editions"]:
        out.append('<p class="note">No rated games.</p>\n')
    for e in p["editions"]:
        edition, r = e["edition"], e["standing"]
        out.append(f'<section class="edition" id="edition-{esc(edition)}"><h3>{esc(_edition(edition))}</h3>\n'
                   f'<p>Rating {r["rating"]:.1f} (mu {r["mu"]:.1f}, sigma {r["sigma"]:.2f}); '
                   f'{int(r["games"])} game(s), {int(r["wins"])} won</p>\n')
        out.append(chart_svg(e["history"], name))
        out.append('<table class="player-games"><thead><tr><th>#</th><th>date</th><th>players</th><th>winner</th>'
                   "<th>scores</th><th>place</th><th>rating after</th></tr></thead>\n<tbody>\n")
        for h in reversed(e["history"]):
            gid, row = int(h["game"]), h.get("row") or {}
            players = ", ".join(str(n) for n in row.get("players") or [])
            winners = ", ".join(str(n) for n in row.get("winners") or []) or str(row.get("rank") or "-")
            totals = row.get("totals")
            scores = ", ".join(f"{n} {t}" for n, t in zip(row.get("players") or [], totals)) if totals else "-"
            out.append(f'<tr id="played-{gid}"><td><a href="/game/{gid}">{gid}</a></td><td>{esc(_date(h["when"]))}'
                       f'</td><td>{esc(players)}</td><td>{esc(winners)}</td><td>{esc(scores)}</td>'
                       f'<td class="number">{h["place"] if h.get("place") else "-"}</td>'
                       f'<td class="number">{h["rating"]:.1f}</td></tr>\n')
        out.append("</tbody></table>\n</section>\n")
    out.append("</section>\n")
    out.append(TAIL)
    return "".join(out)


def chart_svg(history: list[dict], name: str, width: int = 640, height: int = 240) -> str:
    """The rating after each game (a line, a dot per game with its number and date as its
    title) over the band mu - sigma .. mu + sigma, as an inline SVG (the page's own markup: no
    script, no style attribute)."""
    if not history:
        return '<p class="note">No rated games in this edition.</p>\n'
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

    out = [f'<svg class="rating-chart" xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="11" role="img">',
           f"<title>{escape(name)}: rating after each game</title>"]
    v = low
    while v <= high + step / 2:
        out.append(f'<line x1="{left}" x2="{width - right}" y1="{y(v):.1f}" y2="{y(v):.1f}" stroke="#ddd"/>'
                   f'<text x="{left - 4}" y="{y(v) + 4:.1f}" text-anchor="end">{v:g}</text>')
        v += step
    band = [f"{x(k):.1f},{y(h['mu'] + h['sigma']):.1f}" for k, h in enumerate(history)]
    band += [f"{x(k):.1f},{y(h['mu'] - h['sigma']):.1f}" for k, h in reversed(list(enumerate(history)))]
    out.append(f'<polygon fill="{BAND}" stroke="none" points="{" ".join(band)}"/>')
    points = " ".join(f"{x(k):.1f},{y(h['rating']):.1f}" for k, h in enumerate(history))
    out.append(f'<polyline fill="none" stroke="{LINE}" stroke-width="2" points="{points}"/>')
    for k, h in enumerate(history):
        out.append(f'<circle cx="{x(k):.1f}" cy="{y(h["rating"]):.1f}" r="3" fill="{LINE}"><title>game '
                   f'{int(h["game"])}, {escape(_date(h["when"]))}: rating {h["rating"]:.1f}</title></circle>')
    out.append(f'<text x="{(left + width - right) / 2:.0f}" y="{height - 6}" text-anchor="middle">'
               f"games played ({n}); the band: mu - sigma to mu + sigma</text>")
    out.append("</svg>\n")
    return "".join(out)


def _step(span: float) -> float:
    """A round step for the chart's lines: about 4 to 8 of them over `span`."""
    step = 1.0
    while span / step > 8:
        step *= 5 if str(step)[0] == "2" else 2
    while span / step < 3 and step > 0.01:
        step /= 2
    return step
