# doodlebox scores: every sheet's total as if the game ended now, the winners and the solo
# rank, as the PC's rules/dice/scoring.py counts them (the PC's are authoritative).


def label(sheet, lab, stack):
    """Number each road of a sheet: lab[i] is the road of square i (0: no piece). `lab` and
    `stack` are scratch bytearrays of the sheet's size (no allocation per call)."""
    p = sheet.pieces
    n = sheet.ed.SIZE
    nn = n * n
    last = nn - n
    for i in range(nn):
        lab[i] = 0
    k = 0
    for i in range(nn):
        if not p[i] or lab[i]:
            continue
        k += 1
        lab[i] = k
        stack[0] = i
        top = 1
        while top:
            top -= 1
            j = stack[top]
            b = p[j]
            c = j % n
            if b & 1 and j >= n and p[j - n] & 4 and not lab[j - n]:
                lab[j - n] = k
                stack[top] = j - n
                top += 1
            if b & 2 and c < n - 1 and p[j + 1] & 8 and not lab[j + 1]:
                lab[j + 1] = k
                stack[top] = j + 1
                top += 1
            if b & 4 and j < last and p[j + n] & 1 and not lab[j + n]:
                lab[j + n] = k
                stack[top] = j + n
                top += 1
            if b & 8 and c and p[j - 1] & 2 and not lab[j - 1]:
                lab[j - 1] = k
                stack[top] = j - 1
                top += 1


def connected(game, sheet):
    """Points for the groups (taxis, buses, ships): a square of a group scores when its road
    reaches another square of the same group (R22)."""
    ed = game.ed
    kinds = ed.KINDS
    lab, stack, count = game.scratch
    label(sheet, lab, stack)
    pts = 0
    for group, points in ed.GROUPS:
        for i in range(len(count)):
            count[i] = 0
        for i in range(len(kinds)):
            if lab[i] and kinds[i] in group:
                count[lab[i]] += 1
        for i in range(len(kinds)):
            if lab[i] and kinds[i] in group and count[lab[i]] > 1:
                pts += points[group.index(kinds[i])]
    return pts


def totals(game, out=None):
    """Each player's points now: values and bonuses circled, groups, trees (R18). Written into
    `out` when given (a list of one int per player), else a new list."""
    ed = game.ed
    sheets = game.sheets
    if out is None:
        out = [0] * len(sheets)
    most = least = sheets[0].trees
    for sheet in sheets:
        most = max(most, sheet.trees)
        least = min(least, sheet.trees)
    for p in range(len(sheets)):
        sheet = sheets[p]
        t = 0
        for values in sheet.circled:
            for v in values:
                t += v
        for b in sheet.bonuses:
            t += b
        t += connected(game, sheet)
        if not game.solo and ed.TREE_POINTS:
            if sheet.trees == least:
                t += ed.TREE_POINTS
            if sheet.trees == most:
                t -= ed.TREE_POINTS
        out[p] = t
    return out
