"""Bots playing whole games of a dice edition through the engine (no console), solo or against
each other, and what `doodlebox bot` prints of them: the mean, the spread, the ranks (solo: the
edition's titles) or places reached, the time per move."""
from __future__ import annotations

import random
import statistics
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from doodlebox.coach.levels import level
from doodlebox.rules.dice import engine as dice
from doodlebox.rules.games import find_game


@dataclass
class Played:
    """One game: each seat's total, its place (1 = won; ties share a place), its rank title
    (solo), and the moves each seat chose with their total time."""
    totals: list[int]
    places: list[int]
    rank: str
    moves: list[int]
    seconds: list[float]


@dataclass
class Match:
    """Every game of a run of `doodlebox bot` (on `layout`, a sheet of the edition's, read from
    the file `sheet`; None: its default sheet)."""
    edition: str
    players: int
    levels: list[str]
    budget_s: float
    games: list[Played] = field(default_factory=list)
    layout: Any = None
    sheet: str = ""


def places(totals: list[int], trees: list[int]) -> list[int]:
    """Each player's place: by total, then fewer trees crossed (the rulebook's tie-break);
    players still tied share the better place."""
    key = [(-t, tr) for t, tr in zip(totals, trees)]
    return [1 + sum(1 for k in key if k < mine) for mine in key]


def play(edition: str, levels: list[str], seed: int, budget_s: float, variant: str = "",
         layout: Any = None) -> Played:
    """One game with a seat per level (levels[i] plays P{i+1}) on `layout` (a Layout of the
    edition's; None: its default sheet); chance and the bots' choices are seeded by `seed`."""
    players = len(levels)
    game = dice.Game(layout, players, variant) if layout is not None else find_game(edition).new_game(players, variant)
    state = game.new_state()
    assert isinstance(state, dice.State)
    chosen = [level(name) for name in levels]
    chance = random.Random(seed)
    moves = [0] * players
    seconds = [0.0] * players
    rngs = [random.Random(seed * 1000 + 17 + p) for p in range(players)]
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_unchecked(state.sample_chance(chance))
            continue
        p = state.current_player()
        t = time.perf_counter()
        action = chosen[p].choose(state, rngs[p], budget_s)
        seconds[p] += time.perf_counter() - t
        moves[p] += 1
        state.apply(action)          # checked: a bot's move must be legal
    res = state.result()
    trees = [sh.trees for sh in state.sheets]
    rank = res.sheets[0].rank if players == 1 else ""
    return Played(list(res.totals), places(res.totals, trees), rank, moves, seconds)


def run(edition: str, players: int, games: int, levels: list[str], seed: int = 1, budget_s: float = 1.0,
        variant: str = "", progress=None, layout: Any = None) -> Match:
    """`games` games; `levels` has one level for every seat, or one for all."""
    seats = levels if len(levels) == players else [levels[0]] * players
    m = Match(edition, players, seats, budget_s, layout=layout)
    for k in range(games):
        m.games.append(play(edition, seats, seed + k, budget_s, variant, layout))
        if progress:
            progress(k + 1, m.games[-1])
    return m


def summary(m: Match) -> list[dict]:
    """Per seat: level, n, mean, its standard error, median, sd, min, max, ms per move, and the
    ranks (solo) or places reached, counted."""
    out = []
    for p, name in enumerate(m.levels):
        xs = [g.totals[p] for g in m.games]
        n = len(xs)
        sd = statistics.pstdev(xs) if n > 1 else 0.0
        moves = sum(g.moves[p] for g in m.games)
        secs = sum(g.seconds[p] for g in m.games)
        reached = Counter(g.rank for g in m.games) if m.players == 1 else Counter(g.places[p] for g in m.games)
        out.append({"seat": p + 1, "level": name, "games": n, "mean": statistics.mean(xs) if xs else 0.0,
                    "se": sd / (n - 1) ** 0.5 if n > 1 else 0.0, "median": statistics.median(xs) if xs else 0,
                    "sd": sd, "min": min(xs, default=0), "max": max(xs, default=0),
                    "ms_per_move": 1000 * secs / moves if moves else 0.0, "reached": dict(reached)})
    return out


def table(m: Match) -> str:
    """The run as text: a line per seat, then the ranks (solo) or places reached."""
    name = find_game(m.edition).name
    who = "solo" if m.players == 1 else f"{m.players} players"
    sheet = f", the sheet {m.sheet or 'given'}" if m.layout is not None else ""
    lines = [f"{name}, {who}{sheet}, {len(m.games)} games, budget {m.budget_s:g} s per move (search level)",
             f"{'seat':>4}  {'level':8} {'mean':>6} {'±se':>5} {'median':>6} {'sd':>5} {'min':>4} {'max':>4} "
             f"{'ms/move':>8}"]
    rows = summary(m)
    for r in rows:
        lines.append(f"{r['seat']:>4}  {r['level']:8} {r['mean']:6.1f} {r['se']:5.1f} {r['median']:6g} {r['sd']:5.1f} "
                     f"{r['min']:4} {r['max']:4} {r['ms_per_move']:8.1f}")
    if m.players == 1:
        lay = m.layout or find_game(m.edition).new_game(1).layout     # type: ignore[attr-defined]
        assert lay.solo is not None
        counts = rows[0]["reached"]
        lines.append("ranks: " + ", ".join(f"{title} ({low}+) {counts.get(title, 0)}"
                                            for low, title in lay.solo.ranks))
    else:
        for r in rows:
            lines.append(f"P{r['seat']} ({r['level']}) places: "
                         + ", ".join(f"{k}: {r['reached'].get(k, 0)}" for k in range(1, m.players + 1)))
    return "\n".join(lines)
