"""rules/: what do the rulebooks say? The rules of every game behind one interface (api.py): each game declared once,
its engine, its records read, replayed and written, what validate and score print, its sheet pictures, the events the
console sends for it. It imports drawing/ (the sheet pictures), paths and errors, nothing else of the package (not the
store, not the link); the link, history/, the coach and the folders above them import the rules.

    api.py        the game interface (OpenSpiel's shape), `IllegalAction`, `Result`; what a game declares, `GameType`
    specs.py      every game's spec without its engine, in the console lobby's order; the command line's options
    games.py      the registry: every game by its edition (`find_game`); reading and replaying a record of any game
    common.py     what records share: `RecordError`, `Violation`, `Replay`, `Tally`, `History`, the reader's checks
    ending.py     how a replayed record ended and who won (ruling G1): finished, ended early or not finished
    moment.py     where a game stands now, as every view says it (ruling V1): the round, whose turn, what to do
    events.py     what a game declares about the console's events (`Events`), in the link's strict checks
    console.py    what each game's translation of the console's events shares: `ConsoleEvent`, `ConsoleRecord`
    datafiles.py  which data file a JSON object is (sheet layout, Deadly Doodles map or deck) and its problems

    dice/         the five dice editions: one engine, the editions differ only in their layout
    deadly/       Deadly Doodles: the dungeon maps and the deck as data, the engine, records, tallies
    puzzle/       Doodle Puzzle: the role deal, the engine, records, the Behave verdicts
"""
