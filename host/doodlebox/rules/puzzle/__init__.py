"""Doodle Puzzle: the role deal (roles.py), the rules engine (engine.py), records (record.py),
what validate/score print (report.py) and the rulebook's words per rule (sentences.py).

The format is docs/doodle-puzzle.md; the readings of unclear rules are P1... in docs/rulings.md.
`doodlebox validate/score` find this package through doodlebox.rules.games (edition "puzzle").
Doodle Puzzle has no sheets to draw, so there is no render module.
"""
