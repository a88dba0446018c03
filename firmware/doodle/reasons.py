# doodlebox reasons: what the panel says for a refused press or a notice, by the reason's id
# (the rule ids of the PC's engine, docs/protocol.md, and the console's own), and what the console
# tells the PC of a line it did not take as a frame. Loaded for the moment a text is needed and let
# go (doodle/app.py `_tell`, doodle/link.py `_bad`): RAM.

TEXT = {
    "taken": "die already taken",
    "six_tree": "no tree left for a 6",
    "park_tree": "no tree left for the park",
    "park_barrel": "no barrel left",
    "drawn": "nowhere to draw for you",
    "houses": "every house there is crossed",
    "third_time": "no more floors: draw a piece",
    "must_take": "a die fits: take one",
    "no_tree": "no tree left to pass",
    "full": "journal full: connect the PC",
    "solo": "no solo game in this edition",
    "resumed": "game resumed after power-off",
    "flash": "flash write failed: not saved",
    "boot": "flash refused the boot number: nothing saved or sent",
    "lost": "the last game could not be resumed",
    "sheet_bad": "that sheet is spoilt: the default now",
    "deadly_n": "Deadly Doodles: 1-4 players",
    "puzzle_n": "Doodle Puzzle: 3-8 players",
    "behave_8": "Behave: 3-7 players",
    # the engines' rule ids the card games refuse with (docs/protocol.md)
    "trap_room": "a Trap needs an empty room",
    "own_trap": "your Trap is there",
    "wall": "an end on a wall",
    "entry": "link to your path or an entry",
    "one_per_room": "one path per room",
    "card": "that card is drawn already",
    "unused": "a card can still be drawn",
    "trap_must": "draw your Trap first",
    "slot_twice": "that slot is filled",
}

# why a line from the PC is not taken as a frame (doodle/link.py decode, by its index): said to the
# PC in an `err` (docs/protocol.md)
FRAME = (
    "not a frame (no '@')",
    "no '*' and 8-digit checksum",
    "checksum is not hex",
    "checksum mismatch (%08x, frame says %08x)",
    "body is not JSON",
    "body lacks 't' or 'v'",
    "protocol version %s, this side speaks %d",
)
