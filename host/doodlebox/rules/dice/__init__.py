"""rules/dice/: how is a game of a dice edition played, recorded and scored? The five dice editions (Doodle City;
Doodle China: Suzhou, Shanghai; Doodle Islands: Sea of Treasures, Sea of Monsters): one engine, the editions differ
only in their layout (sheets as data, docs/layouts.md). Records: docs/records.md; readings: docs/rulings.md (R...).
It imports rules/'s shared modules (api, common, events, console, ending, datafiles), drawing/ (the sheet picture)
and paths; nothing above the rules.

    from doodlebox.rules.dice import engine, layout
    game = engine.Game(layout.load("city"), players=3)
    state = game.new_state()

    spec.py       the five editions declared: names, players (no solo game in 6x6, R16), More control (5x5)
    game.py       the five editions as `GameType`s for the registry (rules/games.py)
    layout.py     sheet layouts as data (docs/layouts.md): read, check, the default of each edition
    roads.py      road pieces and which squares a road joins
    actions.py    the `Action` a player or chance takes (draw, house, floor, pass, circle; start, roll)
    sheet.py      one player's paper as the engine keeps it (`Sheet`), a drawing's score (`Scored`), `Pending`
    engine.py     the state: legal actions, check, apply, scoring at the moment of drawing, the value circled (R10)
    scoring.py    scores at any time, the winner and tie-break, solo ranks and achievements
    record.py     records: read, replay with every violation, write from a state; `Stream` for live validation
    events.py     the events the console sends for a dice game (`start`, `roll`, `claim`, `tree`), refusals, endings
    console.py    the console's events both ways: read into a record (`DiceRecord`), a game as events (`claim`)
    report.py     what validate and score print, and their JSON
    render.py     a player's sheet as a PNG
    sentences.py  the rulebooks' words for every rule id, per edition
"""
