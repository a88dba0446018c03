"""`doodlebox stats`: what the stored games say over time (docs/stored-games.md).

- Dice fairness per console: for each die (the column die: every `start` road's `d` and every
  `roll`'s `c`; each white die by its place on the console: the `roll`s' `w`), the count of
  each face and Pearson's chi-square against a fair die (5 degrees of freedom) with its p-value.
  A console is its board (the uid's first 16 digits); the uids that rolled on it are named,
  each with its number of games, so that two consoles of the same board (a wiped flash, or
  virtual consoles, which share one board id) are told apart.
- Score history per player and win rates per edition, over the games their rules finished. A
  player is a person (schema version 4: a named seat is linked to a person across games, and a
  merge makes two names one), shown by the person's name; an unnamed seat (`P1`..`Pn`) is
  counted by its name, as before people. A game ended early (ruling G1, rules/ending.py) is
  counted as played and listed, but not in the scores, the wins, the win rates or the ranks.
- Solo games: the rank each reached (the layouts' RANKS) and the achievements; Doodle Puzzle's
  Baddy, Please Behave verdicts.

The p-value is the chi-square distribution's upper tail, computed exactly for a whole number
of degrees of freedom (chi2_sf below); no SciPy for one function. Plots are drawn with
matplotlib's object API on the Agg canvas (no pyplot state, safe in the web server's threads):
plot_png() gives one chart as PNG bytes, figure_png() all of them in one picture.
"""
from __future__ import annotations

import io
import math
from dataclasses import dataclass, field
from typing import Any

from doodlebox.drawing import charts
from doodlebox.history import game_records
from doodlebox.rules import ending
from doodlebox.rules.dice import layout as layouts
from doodlebox.store import IMPORTED, Store
from doodlebox.store.errors import Damaged

FACES = 6
PLOTS = ("dice", "scores", "wins", "solo")
TITLES = {"dice": "Dice fairness (chi-square p-value per die)", "scores": "Score history per player",
          "wins": "Win rate per edition", "solo": "Solo scores and ranks"}
SMALL = 5        # fewer rolls than this per face expected: the chi-square test says little


def chi2_sf(x: float, df: int) -> float:
    """P(X >= x) for X chi-square with `df` (a whole number >= 1) degrees of freedom: the
    regularized upper incomplete gamma Q(df/2, x/2) in closed form. Even df: e^-h times the
    sum of h^i/i! for i < df/2 (h = x/2); odd df: erfc(sqrt h) plus e^-h times the sum of
    h^(i-1/2)/Gamma(i+1/2) for i = 1 .. (df-1)/2. Each term is made from the one before."""
    if df < 1 or df != int(df):
        raise ValueError(f"{df}: the degrees of freedom must be a whole number >= 1")
    if x <= 0:
        return 1.0
    h = x / 2.0
    if df % 2 == 0:
        term = total = 1.0
        for i in range(1, df // 2):
            term *= h / i
            total += term
        return min(1.0, math.exp(-h) * total)
    total = 0.0
    term = math.sqrt(h) / math.gamma(1.5)       # h^(1/2) / Gamma(3/2)
    for i in range(1, (df - 1) // 2 + 1):
        total += term
        term *= h / (i + 0.5)
    return min(1.0, math.erfc(math.sqrt(h)) + math.exp(-h) * total)


@dataclass
class DieTest:
    """One die of one console: how often each face came up, chi-square and p-value."""
    console: str                    # its board (board_of)
    die: str                        # "column", "white 1" .. "white 6"
    counts: list[int]
    uids: tuple[str, ...] = ()      # the consoles' uids that rolled it (a board's flash may be wiped)

    @property
    def rolls(self) -> int:
        return sum(self.counts)

    @property
    def chi2(self) -> float:
        n = self.rolls
        if not n:
            return 0.0
        e = n / FACES
        return sum((c - e) ** 2 / e for c in self.counts)

    @property
    def p(self) -> float:
        return chi2_sf(self.chi2, FACES - 1) if self.rolls else 1.0

    @property
    def enough(self) -> bool:
        """At least SMALL rolls expected per face: the chi-square approximation holds."""
        return self.rolls >= SMALL * FACES


@dataclass
class Played:
    """One player's total in one finished game."""
    game: int
    date: str
    edition: str
    name: str
    total: int
    won: bool
    person: int | None = None       # the seat's person (Store.seats); None for an unnamed seat


@dataclass
class Solo:
    game: int
    date: str
    edition: str
    name: str
    total: int
    rank: str
    achievements: list[str]
    person: int | None = None


@dataclass
class Early:
    """A game ended early (ruling G1): played, scored as it stands, no winner."""
    game: int
    date: str
    edition: str
    names: list[str]
    totals: list[int] | None


@dataclass
class Stats:
    dice: list[DieTest] = field(default_factory=list)
    played: list[Played] = field(default_factory=list)          # multi-player finished games
    solo: list[Solo] = field(default_factory=list)
    behave: list[tuple[int, str, int, str]] = field(default_factory=list)   # (game, date, points, verdict)
    games: int = 0
    counted: int = 0                  # games their rules finished: in the scores
    early: list[Early] = field(default_factory=list)    # played, ended early: not in the scores
    console_games: dict[str, int] = field(default_factory=dict)   # uid -> its games
    left_out: list[str] = field(default_factory=list)   # why a game is not in the scores
    damaged: list[str] = field(default_factory=list)    # "game 3: damaged: events row 17: not JSON", ...

    def history(self) -> dict[str, list[Played]]:
        """Each player's totals, oldest game first, by the person's name (an unnamed seat by its name)."""
        by: dict[object, list[Played]] = {}
        for p in self.played + [Played(s.game, s.date, s.edition, s.name, s.total, False, s.person)
                                for s in self.solo]:
            by.setdefault(_player(p), []).append(p)
        out: dict[str, list[Played]] = {}
        for v in by.values():
            v.sort(key=lambda p: (p.date, p.game))
            out[v[-1].name] = v
        return out

    def win_rates(self) -> dict[str, dict[str, tuple[int, int]]]:
        """edition -> the person's name (an unnamed seat's name) -> (games won, games played),
        multi-player games only."""
        by: dict[str, dict[object, tuple[str, int, int]]] = {}
        for p in self.played:
            _, won, played = by.setdefault(p.edition, {}).get(_player(p), (p.name, 0, 0))
            by[p.edition][_player(p)] = (p.name, won + p.won, played + 1)
        return {ed: {name: (won, played) for name, won, played in v.values()} for ed, v in by.items()}


def _player(p: Played) -> object:
    """Who played: the person, or for an unnamed seat its name."""
    return ("person", p.person) if p.person is not None else ("name", p.name)


def collect(store: Store) -> Stats:
    """Everything `doodlebox stats` reports, from one store."""
    st = Stats()
    rows: list[Damaged] = []
    st.dice = dice_tests(store, rows)
    for g in game_records.games(store):
        st.games += 1
        if g["damaged"]:
            st.damaged.append(f"game {g['id']}: damaged: {g['damaged']}")
            st.left_out.append(f"game {g['id']} ({g['edition']}, {g['state']}): damaged: {g['damaged']}")
            continue
        if g["state"] == "resumed":
            continue                        # the game that goes on with it holds it whole
        if g["uid"] and g["uid"] != IMPORTED:
            st.console_games[g["uid"]] = st.console_games.get(g["uid"], 0) + 1
        if g["standing"] == ending.EARLY:
            st.early.append(Early(g["id"], g["date"], g["edition"], list(g["names"]), g["totals"]))
            continue
        if g["totals"] is None or not g["finished"]:
            why = g["error"] or g["standing"]
            st.left_out.append(f"game {g['id']} ({g['edition']}, {g['status_text']}): {why}")
            continue
        st.counted += 1
        names = g["names"]
        people = list(g.get("people") or []) + [None] * len(names)
        date = g["date"]
        if g["verdict"]:
            st.behave.append((g["id"], date, g["totals"][0], g["verdict"]))
            continue
        if len(names) == 1:
            st.solo.append(Solo(g["id"], date, g["edition"], names[0], g["totals"][0], g["rank"], g["achievements"],
                                people[0]))
            continue
        for seat, name in enumerate(names):
            st.played.append(Played(g["id"], date, g["edition"], name, g["totals"][seat], seat in g["winner_seats"],
                                    people[seat]))
    st.damaged.extend(f"damaged: {d.row}" for d in rows if not any(d.row in line for line in st.damaged))
    return st


BOARD_ID = 16      # hex digits of a Pico's unique id, which begins a console's uid (docs/protocol.md)


def board_of(uid: str) -> str:
    """The board a console's uid names: its unique id, without the 8 digits a wiped flash adds
    (the same dice before and after)."""
    return uid[:BOARD_ID]


def dice_tests(store: Store, damaged: list[Damaged] | None = None) -> list[DieTest]:
    """A chi-square per die per console (its board: a wiped flash is the same dice) over every
    `start` and `roll` event stored; rows that cannot be read are Damaged, or with a `damaged`
    list, added to it and left out."""
    counts: dict[tuple[str, str], list[int]] = {}
    uids: dict[str, list[str]] = {}

    def count(uid: str, die: str, face: Any) -> None:
        if type(face) is int and 1 <= face <= FACES:
            counts.setdefault((board_of(uid), die), [0] * FACES)[face - 1] += 1
            seen = uids.setdefault(board_of(uid), [])
            if uid not in seen:
                seen.append(uid)

    for uid, _, _, e in store.events_of_kind("start", "roll", damaged=damaged):
        if e.get("k") == "start":
            count(uid, "column", e.get("d"))
        else:
            count(uid, "column", e.get("c"))
            white = e.get("w")
            for i, face in enumerate(white if isinstance(white, list) else []):
                count(uid, f"white {i + 1}", face)
    order = {"column": 0, **{f"white {i}": i for i in range(1, 7)}}
    keys = sorted(counts, key=lambda k: (k[0], order[k[1]]))
    return [DieTest(board, die, counts[(board, die)], tuple(uids[board])) for board, die in keys]


# -- text ------------------------------------------------------------------------------------
def text(st: Stats) -> str:
    out = [f"{st.games} game(s) stored, {st.counted} finished in the scores"
           + (f", {len(st.early)} ended early (played; not in the scores, wins or ranks)" if st.early else "")]
    out.append("\nDice fairness per console (Pearson's chi-square against a fair die, 5 degrees of freedom; "
               "a p-value below 0.01 says the die is unlikely to be fair)")
    if not st.dice:
        out.append("  no dice rolled on a console yet")
    console = None
    for t in st.dice:
        if t.console != console:
            console = t.console
            out.append(f"  console {console}" + _uids(t, st.console_games))
            out.append(f"    {'die':8} {'rolls':>5}  " + " ".join(f"{f:>4}" for f in range(1, FACES + 1))
                       + f"  {'chi2':>7}  {'p':>6}")
        note = "" if t.enough else f"  (fewer than {SMALL * FACES} rolls: too few to tell)"
        flag = "  unlikely to be fair" if t.enough and t.p < 0.01 else ""
        out.append(f"    {t.die:8} {t.rolls:>5}  " + " ".join(f"{c:>4}" for c in t.counts)
                   + f"  {t.chi2:>7.2f}  {t.p:>6.3f}{flag}{note}")
    out.append("\nScore history per player (games their rules finished, oldest first; "
               "a game ended early is not counted)")
    hist = st.history()
    if not hist:
        out.append("  no finished games yet")
    for name, games in sorted(hist.items()):
        totals = [p.total for p in games]
        out.append(f"  {name}: " + ", ".join(f"{p.total} ({p.edition} #{p.game})" for p in games)
                   + f"  | best {max(totals)}, mean {sum(totals) / len(totals):.1f}")
    out.append("\nWin rates per edition (games their rules finished, with two or more players; a shared win "
               "counts for each; a game ended early has no winner and is not counted)")
    rates = st.win_rates()
    if not rates:
        out.append("  no finished game with two or more players yet")
    for edition, by_name in sorted(rates.items()):
        parts = [f"{name} {won}/{played} ({100 * won / played:.0f}%)"
                 for name, (won, played) in sorted(by_name.items(), key=lambda kv: (-kv[1][0] / kv[1][1], kv[0]))]
        out.append(f"  {edition}: " + ", ".join(parts))
    out.append("\nSolo games: ranks and achievements")
    if not st.solo:
        out.append("  no finished solo game yet")
    for s in st.solo:
        out.append(f"  #{s.game} {s.date} {s.edition}: {s.name} {s.total}" + (f", rank {s.rank}" if s.rank else "")
                   + (f"; achievements: {', '.join(s.achievements)}" if s.achievements else ""))
    reached = sorted({a for s in st.solo for a in s.achievements})
    if reached:
        out.append("  achievements reached: " + ", ".join(reached))
    if st.behave:
        out.append("\nDoodle Puzzle, Baddy, Please Behave (the table's shared Scorecard)")
        for gid, date, points, verdict in st.behave:
            out.append(f"  #{gid} {date}: {points} points: {verdict}")
    if st.early:
        out.append("\nEnded early (ruling G1: played, scored as they stood, no winner; not in the scores, "
                   "win rates or ranks above)")
        for e in st.early:
            scores = ", ".join(f"{n} {t}" for n, t in zip(e.names, e.totals)) if e.totals is not None else "no scores"
            out.append(f"  #{e.game} {e.date} {e.edition}: {scores}: ended early")
    if st.left_out:
        out.append("\nNot in the scores: " + "; ".join(st.left_out))
    dice = [d for d in st.damaged if d.startswith("damaged:")]
    if dice:
        out.append("\nNot in the dice: " + "; ".join(dice))
    return "\n".join(out)


def _uids(t: DieTest, games: dict[str, int]) -> str:
    """Which consoles rolled a board's dice, so that two consoles of one board (a wiped flash;
    virtual consoles, which share one board id) are told apart: each uid with its games."""
    def n(uid: str) -> str:
        k = games.get(uid, 0)
        return f"{k} game{'s' if k != 1 else ''}"

    if not t.uids:
        return ""
    if t.uids == (t.console,):
        return f" ({n(t.console)})"
    return ": uid" + ("s " if len(t.uids) > 1 else " ") + ", ".join(f"{uid} ({n(uid)})" for uid in t.uids)


# -- plots -----------------------------------------------------------------------------------
def _figure(width: float, height: float):
    from matplotlib.backends.backend_agg import (
        FigureCanvasAgg,  # deferred: matplotlib only for a chart (0.4 s at start-up)
    )
    from matplotlib.figure import Figure  # deferred: matplotlib only for a chart (0.4 s at start-up)

    fig = Figure(figsize=(width, height), dpi=100, layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def _png(fig) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    return buf.getvalue()


def plot_png(st: Stats, which: str) -> bytes:
    """One chart (`which`: one of PLOTS) as PNG bytes, for the web page."""
    if which not in PLOTS:
        raise ValueError(f"{which!r} is not a plot ({', '.join(PLOTS)})")
    fig = _figure(7, 4)
    _DRAW[which](fig.add_subplot(), st)
    return _png(fig)


def figure_png(st: Stats) -> bytes:
    """All the charts in one picture (`doodlebox stats --plot`)."""
    fig = _figure(14, 9)
    for k, which in enumerate(PLOTS):
        _DRAW[which](fig.add_subplot(2, 2, k + 1), st)
    return _png(fig)


def _empty(ax, what: str) -> None:
    ax.text(0.5, 0.5, what, ha="center", va="center", transform=ax.transAxes, color="gray")
    ax.set_xticks([])
    ax.set_yticks([])


def _dice(ax, st: Stats) -> None:
    from matplotlib.lines import Line2D  # deferred: matplotlib only for a chart (0.4 s at start-up)
    from matplotlib.patches import Patch  # deferred: matplotlib only for a chart (0.4 s at start-up)

    ax.set_title(TITLES["dice"])
    if not st.dice:
        _empty(ax, "no dice rolled on a console yet")
        return
    consoles = sorted({t.console for t in st.dice})
    labels = []
    floored = False
    for k, t in enumerate(st.dice):
        labels.append(t.die if len(consoles) == 1 else f"{t.console[-4:]} {t.die}")
        colour = "tab:red" if t.enough and t.p < 0.01 else ("tab:blue" if t.enough else "lightgray")
        floored |= charts.p_bar(ax, k, t.p, t.rolls, colour)     # a tiny p: drawn taller, hatched, labelled
    ax.axhline(0.01, color="tab:red", linestyle="--", linewidth=1)
    ax.set_xticks(range(len(labels)), labels, rotation=30, ha="right", fontsize=8)
    ax.set_ylim(0, 1.1)
    ax.set_ylabel("p-value (number of rolls above each bar)")
    ax.legend(handles=[Line2D([0], [0], color="tab:red", linestyle="--", linewidth=1, label="p = 0.01"),
                       Patch(facecolor="tab:red", label="p < 0.01: unlikely to be fair"),
                       Patch(facecolor="lightgray", label=f"fewer than {SMALL * FACES} rolls"),
                       *charts.p_bar_legend(floored)],
              **charts.BELOW)


def _scores(ax, st: Stats) -> None:
    ax.set_title(TITLES["scores"])
    hist = st.history()
    if not hist:
        _empty(ax, "no finished games yet")
        return
    order = sorted({(p.date, p.game) for games in hist.values() for p in games})
    at = {key: k for k, key in enumerate(order)}
    for name, games in sorted(hist.items()):
        ax.plot([at[(p.date, p.game)] + 1 for p in games], [p.total for p in games], marker="o", label=name)
    ax.set_xlabel("finished games, oldest first")
    charts.whole_number_axes(ax, len(order), [p.total for games in hist.values() for p in games])
    ax.set_ylabel("total")
    ax.legend(fontsize=8, ncol=2)


def _wins(ax, st: Stats) -> None:
    ax.set_title(TITLES["wins"])
    rates = st.win_rates()
    if not rates:
        _empty(ax, "no finished game with two or more players yet")
        return
    editions = sorted(rates)
    names = sorted({n for by in rates.values() for n in by})
    width = 0.8 / max(1, len(names))
    for j, name in enumerate(names):
        xs, ys = [], []
        for k, ed in enumerate(editions):
            if name in rates[ed]:
                won, played = rates[ed][name]
                xs.append(k + (j - (len(names) - 1) / 2) * width)
                ys.append(100 * won / played)
                ax.text(xs[-1], ys[-1] + 1, f"{won}/{played}", ha="center", fontsize=7)
        ax.bar(xs, ys, width=width, label=name)
    ax.set_xticks(range(len(editions)), editions)
    ax.set_ylim(0, 110)
    ax.set_ylabel("games won (%; won/played above each bar)")
    ax.legend(fontsize=8, ncol=2)


def _solo(ax, st: Stats) -> None:
    ax.set_title(TITLES["solo"])
    if not st.solo:
        _empty(ax, "no finished solo game yet")
        return
    editions = sorted({s.edition for s in st.solo})
    for k, ed in enumerate(editions):
        mine = [s for s in st.solo if s.edition == ed]
        ax.scatter([k] * len(mine), [s.total for s in mine], zorder=3)
        best = max(mine, key=lambda s: s.total)
        ax.annotate(best.rank or str(best.total), (k, best.total), textcoords="offset points", xytext=(8, 0),
                    fontsize=8)
        try:
            ranks = layouts.load(ed).solo
        except Exception:              # an edition of a sheet of one's own, or no dice edition
            ranks = None
        for low, title in (ranks.ranks if ranks else ()):
            ax.plot([k - 0.3, k + 0.3], [low, low], color="lightgray", linewidth=1, zorder=1)
            ax.text(k - 0.32, low, title, ha="right", va="center", fontsize=6, color="gray")
    ax.set_xticks(range(len(editions)), editions)
    ax.set_xlim(-0.9, len(editions) - 0.3)
    ax.set_ylabel("total (grey: where each rank begins)")


_DRAW = {"dice": _dice, "scores": _scores, "wins": _wins, "solo": _solo}
