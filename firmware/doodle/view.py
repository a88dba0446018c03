# doodlebox view: the e-paper screen as lines of text, from the app's state.
from doodle import city

EDITION = "Doodle City"
VARIANTS = {"": "standard", "control": "More control", "solo": "solo"}


def lobby(players, variant, link_up):
    return [
        EDITION,
        "Players: %d   (D1-D5)" % players,
        "Variant: %s   (PASS)" % VARIANTS[variant if players > 1 else "solo"],
        "",
        "ROLL to start",
        "",
        "PC: " + ("connected" if link_up else "not connected"),
    ]


def face(v):
    return str(v) if v else "-"


def game(g, notice, link_up, held):
    lines = ["%s  R%d" % (EDITION, g.round) if g.round else EDITION + "  setup"]
    if g.phase == city.SETUP:
        lines.append("Start roads: P%d ROLL col %d" % (g.start_player + 1, g.setup_col))
    elif g.phase == city.READY:
        lines.append("P%d starts: press ROLL" % (g.start_player + 1))
    elif g.phase == city.OVER:
        lines.append("Game over (%s)" % (g.ending or "menu"))
        lines.append("ROLL: new game")
    else:
        p = g.current() + 1
        ask = g.choosing()
        if ask:
            lines.append("P%d: choose %s (D1-D%d)" % (p, ask, g.layout[0]))
        else:
            lines.append("Turn: P%d   start: P%d" % (p, g.start_player + 1))
    if g.round:
        dice = []
        for i in range(1, g.whites + 1):
            t = g.taken[i]
            dice.append(face(g.white[i]) + ("/P%d" % (t + 1) if t >= 0 else ""))
        lines.append("Column %s | %s" % (face(g.column), " ".join(dice)))
    trees = " ".join("P%d:%d" % (i + 1, s.trees) for i, s in enumerate(g.sheets))
    lines.append("Trees " + trees)
    if notice:
        lines.append("!" + notice)
    lines.append("PC: %s%s" % ("connected" if link_up else "offline", ", %d to send" % held if held else ""))
    return lines
