# doodlebox scores: every sheet's total as if the game ended now, the winners and the solo
# rank, as the PC's rules/dice/scoring.py counts them (the PC's are authoritative).


def connected(game, sheet):
    """Points for the groups (taxis, buses, ships): a square of a group scores when its road
    reaches another square of the same group (R22)."""
    ed = game.ed
    kinds = ed.KINDS
    pts = 0
    for group, points in ed.GROUPS:
        members = [i for i in range(len(kinds)) if kinds[i] in group and sheet.pieces[i]]
        for i in members:
            for j in sheet.road(i):
                if j != i and j in members:
                    pts += points[group.index(kinds[i])]
                    break
    return pts


def totals(game):
    """Each player's points now: values and bonuses circled, groups, trees (R18)."""
    ed = game.ed
    out = []
    for sheet in game.sheets:
        t = 0
        for values in sheet.circled:
            t += sum(values)
        out.append(t + sum(sheet.bonuses) + connected(game, sheet))
    if not game.solo and ed.TREE_POINTS:
        crossed = [s.trees for s in game.sheets]
        most, least = max(crossed), min(crossed)
        for p in range(len(out)):
            if crossed[p] == least:
                out[p] += ed.TREE_POINTS
            if crossed[p] == most:
                out[p] -= ed.TREE_POINTS
    return out


def winners(game, points):
    """The players with the top total; a tie goes to the fewest trees crossed (R23, R25)."""
    best = max(points)
    tied = [p for p in range(len(points)) if points[p] == best]
    fewest = min(game.sheets[p].trees for p in tied)
    return [p for p in tied if game.sheets[p].trees == fewest]


def rank(game, total):
    """The solo rank a total reaches ('' outside solo or without ranks)."""
    title = ""
    if game.solo:
        for low, name in game.ed.RANKS:
            if total >= low:
                title = name
    return title
