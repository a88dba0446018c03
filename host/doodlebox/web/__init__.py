"""`doodlebox web`: a page on 127.0.0.1 with the games stored, each game's sheets, the statistics,
the game being played and, in `doodlebox log --web`, the virtual console's LED dice and buttons
(docs/web.md).

    server.py   the HTTP server (waitress): Host check, routes, POST checks, limits
    views.py    what the pages show, read from the store in one thread
    pages.py    the HTML, every stored string escaped
    live.py     the virtual console and link of a `doodlebox log` process
    static/     the page's script and style
"""
