"""link/: what goes over the USB cable between a console and the PC, and how is a console found? Frames and their
strict schema, the session that stores each event before it acknowledges it, the Picos found on USB, an event as a
person reads it. It imports the rules' declarations of the console's events and the games' specs, the store and
errors; never history/, the logger, the page or the command line.

    frames.py    the link frames: encode, strict decode (docs/protocol.md); the host's `score`, `hint` and `bot`
    schema.py    the strict schema of every message and event kind, composed from each game's rules/<game>/events.py
    session.py   `HostLink`: hello, a batch per read committed then acknowledged, duplicates, conflicts, gaps
    ports.py     a Pico found by USB VID/PID and serial number; `Follow` (the console a link follows) and `Watch`
    describe.py  a console's event as one line a person reads at the table (`describe`, `game_name`)
"""
