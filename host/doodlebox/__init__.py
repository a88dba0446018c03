"""doodlebox: the host tool, rules engine and virtual console for the doodlebox console.

host/doodlebox/: everything of doodlebox that runs on the PC, one folder per job; each folder's __init__.py says what
question it answers and what it may import. The folders are listed top first, as docs/architecture.md's table lists
them: a folder imports only folders below it (and the loose modules errors.py and paths.py).

    errors.py   `DoodleboxError` and `InputError`: every error reported to a person, one line and its exit code
    paths.py    where the project's files are: the firmware tree, hardware data, layouts, the user's data
    versions.py the versions of doodlebox, of the firmware it carries and of the link's protocol, from one place

    cli/        the command line: parses and prints; each command calls one folder
    table/      the scripted table: whole games played on a console with its buttons (`doodlebox demo`, the tests)
    logger/     `doodlebox log`: every console followed, its events stored, printed and scored live, its hints answered
    web/        the page (`doodlebox web`, `doodlebox log --web`)
    history/    the stored games read back: records, totals and winners, one game's view, statistics, the league
    coach/      the search that values moves, and the bots that play by it
    virtual/    the virtual console: the firmware in a MicroPython VM or CPython, the hardware modelled, a pty
    deploy/     the firmware compiled, its data modules generated, copied to a Pico
    link/       the USB link to a console: frames, their schema, the session, the Picos found on USB
    store/      every console event, committed before it is acknowledged; the games derived (SQLite or PostgreSQL)
    rules/      the rules of every game behind one interface: engines, records, reports, sheet pictures
    hardware/   the board as data: checks, bill of materials, power budget, wiring documents
    drawing/    pictures with Pillow: canvas, PNG files, diagrams, chart helpers
    layouts/    the default sheet of each dice edition, the Deadly Doodles maps and deck (data)
"""

__version__ = "0.10.0"    # the one place (pyproject.toml reads it; docs/install.md, "Versions")
