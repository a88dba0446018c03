"""table/: the scripted table: how is a whole game played on a console by pressing its buttons as people would?
Every move is a legal action of the PC's engine, chosen at random, and every event the console sends is checked
against it (`doodlebox demo`, the tests, `make bench`). It imports the rules, the virtual console, the link, the
logger (its link thread and database set-up), history/ and the store; never the coach, the page or the command line.

    presses.py  a dice edition's engine action as the button presses a person makes on the console
    lobby.py    what the tables share: the presses' pace, `TableError`, `Players`, the lobby read back and chosen
    dice.py     a dice edition's table; `play_on_console` logs a virtual console and plays any of the lobby's games
    deadly.py   Deadly Doodles' table: the cards turned up, Traps and segments entered, or each player's counts
    puzzle.py   Doodle Puzzle's table: the number, the drawing minute, placing, Mischief, the guess, the challenge
    demo.py     `doodlebox demo`'s work: games on one or more virtual consoles, stored, scored, the totals compared
"""
