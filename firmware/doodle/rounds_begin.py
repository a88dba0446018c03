# doodlebox dice game begun (doodle/rounds.py): a Game's state at its start, its `game` event sent.
# Loaded for that step (right after a collection: doodle/app_game.py) and let go after it (RAM).
# owner Game (doodle/rounds.py) as g: _clear, _points, _stale, _was, bonus_owner, can_pass, column,
#   control, ed, emit, endings, legend, lines, number, pc, phase, players, round, scored, scratch,
#   setup_col, shared, sheets, solo, start_player, taken, tones, turn, version, white, whites
from doodle.rounds import SETUP
from doodle.sheet import Sheet


def begin(g, players, control, number):
    """Game(ed, players, control, number, emit, dice): a game of `players` on edition g.ed."""
    ed = g.ed
    g.tones = []
    g.players = players
    g.solo = players == 1
    g.control = control
    g.number = number
    g.whites = 3 if g.solo else players + 1
    g.can_pass = control or not ed.JOKERS
    g.sheets = [Sheet(ed) for _ in range(players)]
    g.shared = [{} if tr[3] else None for tr in ed.TRACKS]
    g.bonus_owner = {}
    g.phase = SETUP
    g.setup_col = 1
    g.round = 0
    g.start_player = 0
    g.turn = 0
    g.column = 0
    g.white = bytearray(g.whites + 1)
    g.taken = [-1] * (g.whites + 1)
    g.endings = []
    nn = ed.SIZE * ed.SIZE
    g.scratch = (bytearray(nn), bytearray(nn), bytearray(nn + 1))
    g._points = [0] * players
    g._was = [0] * players
    g._stale = True
    g.scored = 0
    g.version = 0
    g.lines = [-1, ""] * 12
    g.pc = None
    g.legend = ""
    g._clear()
    var = "control" if control else ""
    if g.solo:
        var = "solo+control" if control else "solo"
    g.emit({"k": "game", "g": number, "ed": ed.EDITION, "n": players, "var": var})
