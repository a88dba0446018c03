"""Scores at any time, final scores with the winner and tie-break, solo ranks and achievements.
What is scored at the moment of drawing (hotels, shops, sky scrapers) is in engine.py."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from doodlebox.rules import api
from doodlebox.rules.common import Tally
from doodlebox.rules.dice import roads

if TYPE_CHECKING:
    from doodlebox.rules.dice.engine import State


@dataclass
class ScoreSheet(Tally):
    trees_crossed: int = 0
    rank: str = ""                     # solo
    achievements: list[str] = field(default_factory=list)  # solo


@dataclass
class Result(api.Result):
    """totals and winners (several when the tie-break leaves a tie), each score sheet, and why
    the winner won a tie ("" when there was none)."""
    sheets: list[ScoreSheet] = field(default_factory=list)
    tie_break: str = ""


def plural(word: str) -> str:
    return word + ("es" if word.endswith(("s", "sh", "ch", "x")) else "s")


def connected_points(state: State, p: int) -> list[tuple[str, int]]:
    """Each group (taxis, buses, ships): every square of the group whose road reaches another
    square of the same group scores its points. Returns (what, points) per group kind."""
    g = state.game
    lay = g.layout
    sheet = state.sheets[p]
    out = []
    for group in lay.groups:
        members = [i for i, k in enumerate(g.kind) if k in group.kinds and sheet.pieces[i]]
        member_set = set(members)
        counted = {k: 0 for k in group.kinds}
        for i in members:
            road = roads.road(sheet.pieces, g.nbs, i)
            if any(j != i and j in member_set for j in road):
                counted[g.kind[i]] += 1
        for k in group.kinds:
            word = lay.word(k)
            out.append((f"{counted[k]} connected {plural(word) if counted[k] != 1 else word} x {group.points[k]}",
                        counted[k] * group.points[k]))
    return out


def score(state: State) -> Result:
    """Every sheet's score as if the game ended now (the final score once it has)."""
    g = state.game
    lay = g.layout
    sheets = []
    for p, sh in enumerate(state.sheets):
        ss = ScoreSheet(p, trees_crossed=sh.trees)
        for track in lay.tracks:
            word = lay.word(track)
            circled = sh.circled[track]
            ss.add(f"{word} values circled {circled}" if circled else f"{word}: none circled", sum(circled))
        if lay.bonuses:
            what = f"first-player bonuses {sh.bonuses}" if sh.bonuses else "first-player bonuses: none"
            ss.add(what, sum(sh.bonuses))
        for what, pts in connected_points(state, p):
            ss.add(what, pts)
        sheets.append(ss)
    if not g.solo and lay.tree_points:
        crossed = [sh.trees for sh in state.sheets]
        most, least = max(crossed), min(crossed)
        tree = lay.word("trees")
        for ss in sheets:
            if ss.trees_crossed == least:
                ss.add(f"fewest {tree} crossed ({least})", lay.tree_points)
            if ss.trees_crossed == most:
                ss.add(f"most {tree} crossed ({most})", -lay.tree_points)
    if g.solo and lay.solo:
        _solo(state, sheets[0])
    best = max(ss.total for ss in sheets)
    tied = [ss.player for ss in sheets if ss.total == best]
    tie_break = ""
    if len(tied) > 1:
        fewest = min(sheets[p].trees_crossed for p in tied)
        winners = [p for p in tied if sheets[p].trees_crossed == fewest]
        tie_break = f"tied on {best}: fewest {lay.word('trees')} crossed ({fewest}) wins" + (
            "; still tied, the victory is shared" if len(winners) > 1 else "")
    else:
        winners = tied
    return Result([ss.total for ss in sheets], winners, sheets, tie_break)


def _solo(state: State, ss: ScoreSheet) -> None:
    g = state.game
    lay = g.layout
    assert lay.solo is not None
    for low, title in lay.solo.ranks:
        if ss.total >= low:
            ss.rank = title
    for a in lay.solo.achievements:
        if _earned(state, a.needs):
            ss.achievements.append(a.name)


def _earned(state: State, needs: str) -> bool:
    g = state.game
    sh = state.sheets[0]
    if needs == "no_trees":
        return sh.trees == 0
    if needs == "one_road":
        rs = roads.roads(sh.pieces, g.nbs)
        return len(rs) == 1 and len(rs[0]) == g.n * g.n
    if needs.startswith("track:"):
        name, _, n = needs[6:].partition(">=")
        points = sum(sh.circled[name]) + (sum(sh.bonuses) if name == "shop" else 0)
        return points >= int(n)
    if needs.startswith("houses>="):
        return any(s.track == "shop" and s.value and s.houses >= int(needs[8:]) for s in sh.scored)
    return False
