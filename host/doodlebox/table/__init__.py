"""The scripted table: a person's button presses for each move of the PC's engine (presses.py), the lobby
chosen with the buttons (lobby.py), a whole game played on a console for `doodlebox demo` and the tests
(dice.py, deadly.py, puzzle.py)."""
