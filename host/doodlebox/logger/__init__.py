"""logger/: what happens while `doodlebox log` runs? Each console is followed by a link thread into the one
database: its events stored and printed, its games scored live, its hint and seat requests answered, the table's
sheets sent. It imports the link, the store, history/, the rules, the coach, the table's sheets and the virtual
console; never the page, the scripted table or the command line.

    run.py          `doodlebox log`'s work: the --port consoles, every Pico attached or the virtual ones, in a `Club`
    club.py         `Club`: every console one `log` follows, a link each; a Pico plugged in later is followed too
    link_thread.py  `LinkThread`: a console's link in a thread, reconnecting; its verdicts worked out in another thread
    verdicts.py     the PC's verdict after each event that can change a score: the `score` message and the violations
    answers.py      the coach at the console, in a thread of its own: `hint?` answered with `hint`, `bot?` with `bot`
    drain.py        before `doodlebox flash`: the events a console holds that the PC has not stored, stored first
    sheets.py       the table's sheets sent to a console that lacks them, chunk by chunk; the table's choices after
"""
