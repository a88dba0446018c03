"""The page's HTML. Every string that comes from the database, a record or the console goes
through `esc` (html.escape, quotes too) and nothing else puts text into the page; the script
(static/page.js) writes what it polls with textContent only. No inline script or style: the
server's Content-Security-Policy allows the page's own files and nothing else.

`writes` is the server's (server.py): "open" (the write controls as they are), "token" (the
header asks for the token, which the script keeps in sessionStorage; the controls are greyed
until it is given), "closed" (read-only: the controls are not there or disabled, and the header
says so)."""
from __future__ import annotations

from html import escape

from doodlebox.coach.analysis import MEASURES, measure
from doodlebox.web.live import BUTTONS

HEAD = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<link rel="icon" href="/static/die.svg">
<link rel="stylesheet" href="/static/page.css">
<script src="/static/page.js" defer></script>{script}
</head>
<body data-writes="{writes}">
<header><h1><a href="/">doodlebox</a></h1><nav><a id="league-link" href="/league">League</a>
<a id="sheets-link" href="/sheets">Sheets</a></nav>
<p class="db">{db}</p>{access}</header>
<main>
"""
ACCESS = {
    "open": "",
    "token": '<form id="token-form" class="token"><input type="password" id="token" autocomplete="off" '
             'placeholder="write token" aria-label="write token"> <button type="submit" id="token-save">Unlock '
             'writes</button> <button type="button" id="token-forget" hidden>Lock</button> '
             '<span id="token-note" class="note">read-only until the token is given</span></form>',
    "closed": '<p id="read-only" class="note">read-only: this page is served to the network without a '
              "token</p>",
}
TAIL = "</main>\n</body></html>\n"
PIPS = ("TL", "TR", "ML", "C", "MR", "BL", "BR")


def esc(value: object) -> str:
    return escape(str(value), quote=True)


def head(title: str, db: str, writes: str = "open", script: str = "") -> str:
    """The document's start, its header (the league's and the sheets' links, the database, who may
    write) and <main>; TAIL ends it. `script`: the path of one more of the page's scripts."""
    more = f'\n<script src="{esc(script)}" defer></script>' if script else ""
    return HEAD.format(title=esc(title), db=esc(db), writes=esc(writes), access=ACCESS.get(writes, ""), script=more)


def _disabled(writes: str) -> str:
    return " disabled" if writes == "closed" else ""


def index(db: str, games: list[dict], console: dict | None, stats: str, charts: dict[str, str],
          writes: str = "open") -> str:
    """The front page: the live game (filled in by the script), the virtual console's dice and
    buttons when there is one, the history of games, the statistics (`stats`: their text,
    `charts`: each chart's name and title)."""
    out = [head("doodlebox", db, writes)]
    out.append('<section id="live"><h2>Live</h2>\n<p id="link" class="note"></p>\n')
    if console is not None:
        out.append(_console(console, writes))
    out.append('<div id="game" hidden>\n<h3 id="game-title"></h3>\n'
               '<p>Round <span id="game-round"></span>; to play: <strong id="game-turn"></strong>'
               ' <span id="game-violations" class="bad"></span></p>\n'
               '<div id="game-dice" class="dice small"></div>\n'
               '<table id="game-scores"><thead><tr><th>player</th><th>score</th></tr></thead><tbody></tbody></table>\n'
               '<ol id="game-events" class="events"></ol>\n<p id="game-problem" class="note"></p>\n</div>\n'
               '<p id="no-game" class="note">No game is being played.</p>\n</section>\n')
    out.append(_games(games))
    out.append('<section id="stats"><h2>Statistics</h2>\n')
    if stats:
        out.append('<div class="charts">\n')
        for which, title in charts.items():
            out.append(f'<img class="chart" id="chart-{esc(which)}" src="/stats/{esc(which)}.png" '
                       f'alt="{esc(title)}">\n')
        out.append(f'</div>\n<details><summary>as text</summary><pre id="stats-text">{esc(stats)}</pre></details>\n')
    else:
        out.append('<p class="note">No statistics: no games stored yet.</p>\n')
    out.append("</section>\n")
    out.append(TAIL)
    return "".join(out)


def _console(console: dict, writes: str = "open") -> str:
    """The virtual console: its seven LED dice, each with the button under it, ROLL, PASS, MENU
    and the e-paper panel (its buttons writes: disabled on a read-only page)."""
    off = _disabled(writes)
    out = ['<div id="console" data-mode="', esc(console.get("mode", "")), '">\n<div class="dice">\n']
    for d in range(len(console.get("dice") or [])):
        label = "column die" if d == 0 else f"white die {d}"
        out.append(f'<div class="die-box"><div class="die" id="die-{d}" title="{esc(label)}">')
        out.extend(f'<span class="pip {p}"></span>' for p in PIPS)
        out.append("</div>")
        name = f"D{d}"
        if name in console.get("buttons", ()):
            out.append(f'<button type="button" class="press write" id="press-{name}" data-button="{name}"{off}>'
                       f"{name}</button>")
        out.append("</div>\n")
    out.append('</div>\n<div class="keys">')
    for name in BUTTONS[7:]:
        if name in console.get("buttons", ()):
            out.append(f'<button type="button" class="press key write" id="press-{name}" data-button="{name}"{off}>'
                       f"{name}</button>")
    out.append('<span id="press-note" class="note"></span></div>\n'
               '<figure><img id="panel" src="/live/panel.png" alt="the e-paper panel" width="592" height="256">'
               '<figcaption><pre id="panel-text"></pre></figcaption></figure>\n</div>\n')
    return "".join(out)


def _games(games: list[dict]) -> str:
    out = ['<section id="games"><h2>Games</h2>\n']
    if not games:
        out.append('<p class="note">No games stored yet.</p>\n</section>\n')
        return "".join(out)
    out.append('<table id="games-table"><thead><tr><th>#</th><th>edition</th><th>players</th><th>date</th>'
               "<th>winner</th><th>scores</th><th>status</th></tr></thead>\n<tbody>\n")
    for g in games:
        gid = int(g["id"])
        out.append(f'<tr id="game-{gid}"><td><a href="/game/{gid}">{gid}</a></td><td>{esc(g["edition"])}</td>'
                   f'<td>{esc(", ".join(g["players"]))}</td><td>{esc(g["date"])}</td>'
                   f'<td>{esc(_winners(g))}</td><td>{esc(_scores(g))}</td><td>{esc(_status(g))}</td></tr>\n')
    out.append("</tbody></table>\n</section>\n")
    return "".join(out)


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


def game(db: str, g: dict, writes: str = "open") -> str:
    """One game (games_view.summary, with `sheets` and `writable`): names (a form when they may
    be set: the store can be written and the page is not read-only), table, rounds, violations,
    sheets."""
    gid = int(g["id"])
    title = f"game {gid}: {g['game']}"
    writable = g["writable"] and writes != "closed"
    out = [head(f"doodlebox: {title}", db, writes),
           f'<section id="one-game" data-game="{gid}"><h2>{esc(title)}</h2>\n']
    winners = ", ".join(g["winners"]) or g.get("rank") or "-"
    out.append(f'<p>{esc(g["label"])}; {esc(g["date"])}; {esc(g["status_text"])}; winner: {esc(winners)}</p>\n')
    if g.get("rank") or g.get("achievements"):
        reached = f'; achievements: {esc(", ".join(g["achievements"]))}' if g.get("achievements") else ""
        out.append(f'<p id="rank">Rank: {esc(g.get("rank") or "-")}{reached}</p>\n')
    if g.get("verdict"):
        out.append(f'<p id="verdict">Scorecard: {esc(g["verdict"])}</p>\n')
    if g["error"]:
        out.append(f'<p class="bad" id="error">{esc(g["error"])}</p>\n')
    out.append(f'<form id="names" data-game="{gid}"><fieldset><legend>Players</legend>\n')
    field = ' class="write"' if writable else " disabled"
    for seat, name in enumerate(g["players"]):
        out.append(f'<label>P{seat + 1} <input name="seat" id="seat-{seat + 1}" maxlength="24" value="{esc(name)}"'
                   f"{field}></label>\n")
    if writable:
        out.append('<button type="submit" class="write" id="names-save">Save names</button> '
                   '<span id="names-note" class="note"></span>\n')
    out.append("</fieldset></form>\n")
    if g["table"]:
        out.append(f'<h3>Table</h3>\n<pre id="table">{esc(g["table"])}</pre>\n')
    if g["rounds"]:
        out.append('<h3>Rounds</h3>\n<pre id="rounds">' + esc("\n".join(str(r) for r in g["rounds"])) + "</pre>\n")
    if g["violations"]:
        out.append(f'<h3>Violations</h3>\n<pre id="violations" class="bad">{esc(g["violations_text"])}</pre>\n')
    if g["sheets"]:
        out.append('<h3>Sheets</h3>\n<div class="sheets">\n')
        for seat in range(g["sheets"]):
            name = g["players"][seat] if seat < len(g["players"]) else f"P{seat + 1}"
            out.append(f'<figure><img class="sheet" src="/game/{gid}/sheet/{seat + 1}.png" alt="{esc(name)}\'s sheet">'
                       f"<figcaption>{esc(name)}</figcaption></figure>\n")
        out.append("</div>\n")
    if g.get("record") is not None and g.get("edition") not in ("deadly", "puzzle"):
        out.append(_coach(gid, len(g["record"].get("players") or g["players"])))
    out.append("</section>\n")
    out.append(TAIL)
    return "".join(out)


def _coach(gid: int, players: int) -> str:
    """A dice game's coach: the chart of each player's value on the coach's one measure after each
    turn (made when the browser asks for it: web/coach.py) and its mistakes and blunders, listed by
    the script from /api/game/N/coach."""
    what = MEASURES[measure(players)]
    return ('<h3>Coach</h3>\n<p class="note">Each player\'s ' + esc(what) + " after each turn, as the "
            "coach's search values the move played; a mistake's loss is on the same measure "
            "(docs/coach.md). Made once per game, it takes some seconds.</p>\n"
            # its src set by the script once /api/game/N/coach answered (the analysis is then kept):
            # an <img> of a chart still being made held the page's load for its 20-40 s
            f'<img class="chart" id="coach-chart" data-src="/game/{gid}/coach.svg" '
            f'alt="{esc(what)}, per turn">\n'
            f'<h4>Mistakes and blunders</h4>\n<ol id="coach-losses" data-game="{gid}"></ol>\n'
            '<p id="coach-note" class="note">the coach is analysing this game...</p>\n')


def problem(db: str, status: int, text: str, writes: str = "open") -> str:
    return head(f"doodlebox: {status}", db, writes) + f'<p class="bad" id="problem">{esc(text)}</p>\n' + TAIL
