"""The rules of every game, behind one interface (api.py): the dice editions (dice/), Deadly
Doodles (deadly/) and Doodle Puzzle (puzzle/); games.py finds a game by its edition."""
