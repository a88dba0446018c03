# doodlebox view: the e-paper screen as lines of text (title first, at most 12 more of 37
# characters; "!" before a line draws it on a black bar), from the app's state. docs/console.md
from doodle import rounds, score

NAMES = {"city": "Doodle City", "suzhou": "Suzhou", "treasures": "Sea of Treasures",
         "shanghai": "Shanghai", "monsters": "Sea of Monsters"}
SIX_BY_SIX = ("shanghai", "monsters")

REASONS = {
    "taken": "die already taken",
    "six_tree": "no tree left for a 6",
    "park_tree": "no tree left for the park",
    "park_barrel": "no barrel left",
    "drawn": "nowhere to draw for you",
    "houses": "every house there is crossed",
    "third_time": "no more floors: draw a piece",
    "must_take": "a die fits: take one",
    "no_tree": "no tree left to pass",
    "full": "link full: connect the PC",
    "solo": "no solo game in this edition",
}


def cap(word):
    return word[:1].upper() + word[1:]  # MicroPython's str has no capitalize()


def link_line(up, held):
    return "PC: %s%s" % ("connected" if up else "offline", ", %d to send" % held if held else "")


def lobby(edition, players, control, up, held):
    six = edition in SIX_BY_SIX
    return [
        NAMES[edition],
        "Game: %s   (D0 next)" % NAMES[edition],
        "Players: %d   (D%s-D5)" % (players, "2" if six else "1"),
        "More control: %s" % ("(6x6: always)" if six else ("on   (PASS)" if control else "off  (PASS)")),
        "",
        "ROLL to start",
        "",
        link_line(up, held),
    ]


def _dice(g):
    out = "%s |" % (g.column or "-")
    for d in range(1, g.whites + 1):
        out += " %s" % (g.white[d] or "-")
        if g.taken[d] >= 0:
            out += "/P%d" % (g.taken[d] + 1)
    return out


def _prompt(g):
    ph = g.phase
    p = g.current() + 1
    ed = g.ed
    if ph == rounds.SETUP:
        return ["Start roads: ROLL for column %d" % g.setup_col]
    if ph == rounds.READY:
        return ["P%d starts round %d: press ROLL" % (g.start_player + 1, g.round + 1)]
    if ph == rounds.CLAIM:
        return ["P%d: take a die%s" % (p, "  (PASS: %s)" % ed.WORDS["tree"] if g.can_pass else "")]
    if ph in (rounds.ROW, rounds.COL):
        what = "row" if ph == rounds.ROW else "column"
        return ["P%d: %s? D1-D%d  (PASS: back)" % (p, what, ed.SIZE)]
    if ph == rounds.PIECE:
        legend = " ".join("%d%s" % (f + 1, ed.LEGEND[f]) for f in range(6))
        lines = ["P%d: piece? %s" % (p, legend)]
        if g.sheets[g.current()].floor_ok(g.square):
            lines.append("   D0: %s   PASS: back" % ed.WORDS["floor"])
        return lines
    return ["P%d: circle %d? ROLL yes, PASS lower" % (p, g.values[g.shown])]


def _tracks(g):
    ed = g.ed
    if ed.BONUSES:
        return ["Bonus " + " ".join("%d:%s" % (b, "P%d" % (g.bonus_owner[b] + 1) if b in g.bonus_owner else "-")
                                    for b in ed.BONUSES)]
    out = []
    for t in range(len(ed.TRACKS)):
        taken = g.shared[t]
        if taken is not None:
            word = ed.WORDS[ed.TRACKS[t][0]]
            out.append("%s: %s" % (cap(word), " ".join(str(v) for v in sorted(taken)) or "-"))
    return out


def _scores(g, pc):
    if pc is not None and pc[0] == g.number:
        line = "PC score " + " ".join(str(v) for v in pc[2])
        if pc[3]:
            return [line, "!PC: %d violation(s): %s" % (pc[3], pc[4])]
        return [line]
    return ["Score " + " ".join(str(v) for v in score.totals(g))]


def game(g, notice, pc, up, held):
    """The screen during a game; at the end, the final table."""
    ed = g.ed
    if g.phase == rounds.OVER:
        return final(g, pc)
    title = "%s %s" % (ed.SHORT, "R%d" % g.round if g.round else "setup")
    lines = [title] + _prompt(g)
    if g.round:
        lines.append(_dice(g))
        lines.extend(_tracks(g))
        lines.extend(_scores(g, pc))
    lines.append("%s left %s" % (cap(ed.WORDS["trees"]), " ".join(str(ed.TREES - s.trees) for s in g.sheets)))
    if ed.BARRELS:
        lines.append("%ss left %s" % (cap(ed.WORDS["barrel"]), " ".join(str(ed.BARRELS - s.barrels) for s in g.sheets)))
    if notice:
        lines.append("!" + notice)
    lines.append(link_line(up, held))
    return lines


def final(g, pc):
    """The final table: totals (the PC's when it sent them for this game), the winner."""
    ed = g.ed
    mine = score.totals(g)
    pts = pc[2] if pc is not None and pc[0] == g.number and len(pc[2]) == g.players else mine
    won = score.winners(g, pts)
    lines = ["%s over" % ed.SHORT, "Ended in round %d: %s" % (g.round, ", ".join(g.endings) or "menu")]
    order = sorted(range(g.players), key=lambda p: (-pts[p], g.sheets[p].trees))
    for k in range(len(order)):
        p = order[k]
        lines.append("%d. P%d %4d  %d %s%s" % (k + 1, p + 1, pts[p], g.sheets[p].trees, ed.WORDS["trees"],
                                                "  winner" if p in won and not g.solo else ""))
    if g.solo:
        lines.append("Rank: " + score.rank(g, pts[0]))
    elif len(won) > 1:
        lines.append("Tied: the victory is shared")
    lines.append("Scores by the %s" % ("PC" if pts is not mine else "console"))
    lines.append("ROLL: back to the lobby")
    return lines
