"""rules/puzzle/: how is a game of Doodle Puzzle played, recorded and scored? The role deal, the rules engine,
records, what validate/score print and the rulebook's words per rule. The format is docs/doodle-puzzle.md; the
readings of unclear rules are P1... in docs/rulings.md. `doodlebox validate/score` find this package through
doodlebox.rules.games (edition "puzzle"). Doodle Puzzle has no sheets to draw, so there is no render module. It
imports rules/'s shared modules (api, common, events, console, ending); nothing above the rules.

    spec.py       Doodle Puzzle declared: players, the variants, the subject cards, the limits on Behave (P9)
    game.py       Doodle Puzzle as a `GameType` for the registry (rules/games.py)
    roles.py      the role cards, the deal and the placing order
    engine.py     the state: number, subject, the drawing minute, placing, Baddy, guess, Showdown
    record.py     records: read, replay with every violation, write from a state; `Stream` for live validation
    events.py     the events the console sends (`roles`, `subject`, `timer`, `place`, `mischief`, `guess`, `challenge`)
    console.py    the console's events both ways: read into a record (`PuzzleRecord`), a game as events (`events`)
    report.py     what validate and score print: every Scorecard round by round (or the shared one), the table
    sentences.py  the rulebook's words per rule id, and the Behave verdicts
"""
