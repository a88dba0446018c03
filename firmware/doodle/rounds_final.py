# doodlebox final table: the screen at the end of a game (totals, the PC's when it sent them
# for this game; the winner and the tie-break; the solo rank). Loaded only then (doodle/app.py).
# owner Game (doodle/rounds.py) as g: ed, endings, number, players, points, round, sheets, solo


def winners(g, points):
    """The players with the top total; a tie goes to the fewest trees crossed (R23, R25)."""
    best = max(points)
    tied = [p for p in range(len(points)) if points[p] == best]
    fewest = min(g.sheets[p].trees for p in tied)
    return [p for p in tied if g.sheets[p].trees == fewest]


def rank(g, total):
    """The solo rank a total reaches ('' outside solo or without ranks)."""
    title = ""
    if g.solo:
        for low, name in g.ed.RANKS:
            if total >= low:
                title = name
    return title


def final(g, pc):
    """The final table: each player's total and trees (bottles) crossed out, best first; the
    winner and the tie-break, or, for a game ended with MENU, no winner (ruling G1 in
    docs/rulings.md: ended early, scored as it stands); the solo rank; whose scores they are."""
    ed = g.ed
    mine = g.points()
    pts = pc[2] if pc is not None and pc[0] == g.number and len(pc[2]) == g.players else mine
    early = not g.endings
    won = [] if early or g.solo else winners(g, pts)
    if early:
        lines = ["%s: ended early" % ed.SHORT, "MENU in round %d: no winner" % g.round]
    else:
        lines = ["%s: game over" % ed.SHORT, "Ended in round %d: %s" % (g.round, ", ".join(g.endings))]
    order = sorted(range(g.players), key=lambda p: (-pts[p], g.sheets[p].trees))
    for k in range(len(order)):
        p = order[k]
        lines.append("%s P%d %4d pts  %d %s out%s" % ("-" if early else "%d." % (k + 1), p + 1, pts[p],
                                                     g.sheets[p].trees, ed.WORDS["trees"],
                                                     "  winner" if p in won else ""))
    if g.solo:
        lines.append("Rank: none (ended early)" if early else "Rank: " + rank(g, pts[0]))
    elif len(won) > 1:
        lines.append("Tied: the victory is shared")
    lines.append("Scores by the PC, game %d" % pc[5] if pts is not mine and pc[5] else
                 "Scores by the %s" % ("PC" if pts is not mine else "console"))
    lines.append("ROLL: back to the lobby")
    return lines
