"""rules/deadly/: how is a game of Deadly Doodles played, recorded and scored? The dungeon maps and the deck as data,
the rules engine, records, reports and map pictures. `doodlebox validate/score/render` find this package through
rules/games.py when a record's "edition" is "deadly". Formats: docs/deadly-doodles.md; readings: docs/rulings.md
(D...). It imports rules/'s shared modules (api, common, events, console, ending), drawing/ (the map picture) and
paths; nothing above the rules.

    from doodlebox.rules.deadly import engine, maps
    game = engine.Game(maps.load("a"), players=2)
    state = game.new_state()

    spec.py       Deadly Doodles declared: players, the map side, the drawings in full or as tallies (D14)
    game.py       Deadly Doodles as a `GameType` for the registry (rules/games.py)
    maps.py       the dungeon map sides as data: load, check, the `DungeonMap` the engine uses
    deck.py       the 36-card deck as data: load, check, and the seeded deal
    engine.py     the state: the cards revealed, path segments and Traps drawn, rounds ended, scoring items 1-7
    tallies.py    a game recorded with tallies (D14): each player's counts, their score, what can be checked of them
    record.py     records: read, replay with every violation, write from a state; `Stream` for live validation
    events.py     the events the console sends (`reveal`, `trap`, `draw`, `done`, `tally`), refusals, endings
    console.py    the console's events both ways: read into a record (`DeadlyRecord`), a game as events (`counts`)
    report.py     what validate and score print
    render.py     a player's map as a PNG
    sentences.py  the rulebook's words per rule id
"""
