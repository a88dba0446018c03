"""The page's HTML: what each page shows, handed to its template (templates/, web/render.py),
which escapes every string from the database, a record or the console. Nothing here writes
HTML. The script (static/page.js) writes what it polls with textContent only; no inline script
or style (the server's Content-Security-Policy allows the page's own files and nothing else).

`writes` is the server's (server.py): "open", "token" or "closed" (render.py)."""
from __future__ import annotations

import re
from typing import Any

from doodlebox.coach.analysis import MEASURES, measure
from doodlebox.web.live import BUTTONS
from doodlebox.web.render import render

PIPS = ("TL", "TR", "ML", "C", "MR", "BL", "BR")


def page(template: str, title: str, db: str, writes: str = "open", script: str = "", **values: Any) -> str:
    """A whole page: the header (the links, the database, who may write) and `template`'s main."""
    return render(template, title=title, db=db, writes=writes, script=script, **values)


def live_title(g: dict) -> str:
    """The live game's heading, as page.js writes it."""
    mine = "" if g.get("g") in (None, g["id"]) else f" (console game {g['g']})"
    text = f"game {g['id']}{mine}: {g['edition']} ({', '.join(g['players'])})"
    if g["state"] != "playing":
        text += f", {g['status']}" + (f"; winner: {', '.join(g['winners'])}" if g.get("winners") else "")
    return text


def index(db: str, games: list[dict], console: dict | None, stats: str, charts: dict[str, str],
          writes: str = "open", live: dict | None = None, link: str = "", all_games: list[dict] | None = None,
          chosen: dict | None = None) -> str:
    """The front page: the live game (`live`: views.playing(), drawn here first, then polled by
    the script), the virtual console's panel, dice and buttons when there is one, the games
    (`games`: those chosen by `chosen`, {"edition", "player"}, of `all_games`) and their
    statistics (`stats`: their text, `charts`: each chart's name and title)."""
    chosen = {"edition": "", "player": "", **(chosen or {})}
    every = games if all_games is None else all_games
    editions = sorted({(g["edition_key"], g["edition"]) for g in every if g.get("edition_key")}, key=lambda e: e[1])
    players = sorted({p for g in every for p in g["players"]}, key=str.lower)
    names = dict(editions)
    said = [names.get(chosen["edition"], chosen["edition"])] if chosen["edition"] else []
    said += [f"{chosen['player']}'s games"] if chosen["player"] else []
    query = "&".join(f"{k}={_quote(v)}" for k, v in chosen.items() if v)
    return page("index.html", "doodlebox", db, writes,
                console=console, off=writes == "closed", pips=PIPS, keys=BUTTONS[7:],
                live=live, live_title=live_title(live) if live else "", link=link,
                games=[_listed(g) for g in games], all_games=len(every), editions=editions, players=players,
                chosen=chosen, chosen_text=", ".join(said) or "every game", query=f"?{query}" if query else "",
                stats=stats, charts=charts)


def _quote(text: str) -> str:
    from urllib.parse import quote
    return quote(text, safe="")


def _listed(g: dict) -> dict:
    """A row of the games table: its texts as `doodlebox games` prints them."""
    return dict(g, winner_text=_winners(g), scores_text=_scores(g), status_line=_status(g))


def _winners(g: dict) -> str:
    if g["winners"]:
        return ", ".join(g["winners"])
    return g["rank"] if g.get("rank") else "-"


def _scores(g: dict) -> str:
    totals = g["totals"]
    if totals is None:
        return "-"
    return ", ".join(f"{name} {t}" for name, t in zip(g["players"], totals))


def _status(g: dict) -> str:
    text = g["status"]
    if g["violations"]:
        text += f", {g['violations']} violation(s)"
    return text


ROUND = re.compile(r"round (\d+): (.*)", re.S)


def rounds(lines: list[str]) -> list[dict]:
    """games_view.round_lines' lines as a list a person reads: each round's number (`title`), what
    chance gave and each player's turn (`parts`) and the totals after it."""
    out = []
    for k, line in enumerate(lines):
        text, _, totals = str(line).partition("  | totals ")
        m = ROUND.fullmatch(text)
        if m:
            number: int | None = int(m.group(1))
            title, body = f"Round {number}", m.group(2)
        else:
            head, _, body = text.partition(": ")
            number, title = None, head.capitalize() if body else "Setup"
            body = body or text
        out.append({"key": number if number is not None else f"x{k}", "number": number, "title": title,
                    "parts": [p for p in body.split("; ") if p], "totals": totals})
    return out


def game(db: str, g: dict, writes: str = "open") -> str:
    """One game (games_view.summary, with `sheets`, `rounds_played` and `writable`): names (a form
    when they may be set: the store can be written and the page is not read-only), the scores,
    the sheets with their round-by-round replay, the coach, the rounds, the violations."""
    gid = int(g["id"])
    heading = f"game {gid}: {g['game']}"
    players = [str(p) for p in g["players"]]
    totals = g.get("totals") or []
    won = set(str(w) for w in g.get("winners") or [])
    scores = [{"name": name, "total": totals[k] if k < len(totals) else "-", "won": name in won}
              for k, name in enumerate(players)]
    coach = ""
    if g.get("record") is not None and g.get("edition") not in ("deadly", "puzzle"):
        coach = MEASURES[measure(len(g["record"].get("players") or players))]
    sheet_names = [players[s] if s < len(players) else f"P{s + 1}" for s in range(g["sheets"])]
    return page("game.html", f"doodlebox: {heading}", db, writes, g=g, heading=heading,
                winners=", ".join(g["winners"]) or g.get("rank") or "-",
                writable=g["writable"] and writes != "closed", scores=scores, sheet_names=sheet_names,
                rounds_played=int(g.get("rounds_played") or 0), rounds=rounds(g["rounds"]), coach=coach)


def problem(db: str, status: int, text: str, writes: str = "open") -> str:
    return page("problem.html", f"doodlebox: {status}", db, writes, text=text)
