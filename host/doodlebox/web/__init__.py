"""web/: what does the page show, and who may change it? `doodlebox web`: a page on 127.0.0.1 (or, with `--host`, on a
club's network: read-only unless a write sends the page's token) with the games stored in an SQLite file or a
PostgreSQL database, each game's sheets, the statistics, the game being played, the league's standings and each
player's ratings, the sheet editor, and, in `doodlebox log --web`, the virtual console's LED dice and buttons
(docs/web.md). It imports history/, the store, the rules, the coach, the library of sheets, the link (an event's line)
and the virtual console's screen reader; never the logger, the scripted table or the command line.

    server.py    the HTTP server (waitress): Host check, who may write, routes, POST checks, limits
    views.py     what the pages show, read from the store in one thread
    pages.py     what each page shows, handed to its template as plain data
    render.py    the templates (templates/, Jinja2, autoescaped): no HTML built by hand
    league.py    the league's standings and each player's page and rating chart (SVG)
    coach.py     a dice game's coach: its analysis and its chart's numbers (templates/coach_chart.svg)
    analyses.py  the coach's analyses made in a process of their own, queued within bounds, kept
    live.py      the virtual console and link of a `doodlebox log` process
    sheets.py    the sheet editor (/sheets): the library listed, a sheet checked, drawn and saved into the library
    templates/   the pages, the rating chart and the coach's chart as Jinja2 templates
    static/      the page's scripts (page.js; sheets.js, the editor's), style and icon
"""
