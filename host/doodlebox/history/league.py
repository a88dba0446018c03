"""The league: each person's rating per edition, with openskill's Plackett-Luce model, over the
stored games in the order they were played (docs/stored-games.md, "A league"). standings() is
the table `doodlebox league` prints and the web page's league view shows; history() one person's
rating after each of their games (the page's chart). Both are computed from the games each time:
nothing of them is stored, so a merge of two people or a game synced late changes them at once.

A game counts when its rules ended it with a winner (rules/ending.py), it has two or more seats,
and every seat is a person (named: `doodlebox names`). Left out: a game ended early (ruling G1:
no winner), one not finished, abandoned or resumed (the game that goes on with it counts), a
solo game (a rank against the layout, no opponent: openskill needs two teams), Doodle Puzzle's
Baddy, Please Behave (the table plays together), a game with the PC's seats (ruling G2), and a
game with an unnamed seat. An imported
game (a game played on paper) counts like a console's game, with the scores of the PC's replay.

The order of a game: its winners first (a shared win is a tie for first), then the others by
their totals, highest first (equal totals tie). The rating shown is openskill's ordinal,
mu - 3 sigma: a new player starts at 0 (mu 25, sigma 25/3) and climbs as games make sigma smaller.
"""
from __future__ import annotations

from collections import Counter
from typing import Any

from openskill.models import PlackettLuce

from doodlebox.history import game_records
from doodlebox.rules import ending
from doodlebox.store import Store

LEFT_OUT = {"early": "ended early (no winner)", "unfinished": "not finished", "solo": "solo",
            "together": "played together (no winner)", "pc": "with the PC's seats", "unnamed": "with a seat not named",
            "nowinner": "with no winner", "damaged": "damaged"}


def _model() -> Any:
    return PlackettLuce()


def why_not(g: dict) -> str | None:
    """Why a game (a game_records.games() row) is not a league game (a LEFT_OUT key), or None."""
    if g["damaged"]:
        return "damaged"
    if g["state"] == "resumed":
        return "resumed"
    if g["standing"] == ending.EARLY:
        return "early"
    if g["totals"] is None or not g["finished"]:
        return "unfinished"
    if (g["players"] or 0) < 2:
        return "solo"
    if g["verdict"]:
        return "together"
    if not g["winner_seats"]:
        return "nowinner"
    if g.get("bots"):           # ruling G2: the league rates people against people
        return "pc"
    people = g.get("people") or []
    if len(people) != len(g["names"]) or any(p is None for p in people):
        return "unnamed"
    return None


def places(g: dict) -> list[int]:
    """Each seat's place (1 is best): the winners 1, the others 2 and on by their totals."""
    winners = set(g["winner_seats"])
    others = [t for seat, t in enumerate(g["totals"]) if seat not in winners]
    return [1 if seat in winners else 2 + sum(1 for o in others if o > t) for seat, t in enumerate(g["totals"])]


def _rated(store: Store, edition: str | None = None) -> tuple[dict, dict, Counter]:
    """Every league game played in order: (edition -> person -> their figures, edition -> person ->
    their history, why the other games were left out)."""
    model = _model()
    ratings: dict[str, dict[int, Any]] = {}
    table: dict[str, dict[int, dict]] = {}
    hist: dict[str, dict[int, list[dict]]] = {}
    left: Counter = Counter()
    for g in game_records.games(store):
        why = why_not(g)
        if why == "resumed":
            continue
        if why is not None:
            left[why] += 1
            continue
        ed = g["edition"] or "?"
        if edition is not None and ed != edition:
            continue
        people: list[int] = g["people"]
        rs = ratings.setdefault(ed, {})
        teams = [[rs.get(p) or model.rating()] for p in people]
        after = model.rate(teams, ranks=places(g))
        for seat, p in enumerate(people):
            r = rs[p] = after[seat][0]
            row = table.setdefault(ed, {}).setdefault(p, {"games": 0, "wins": 0})
            row.update(games=row["games"] + 1, wins=row["wins"] + (seat in g["winner_seats"]), last=g["date"],
                       last_game=g["id"], mu=r.mu, sigma=r.sigma, rating=r.ordinal())
            hist.setdefault(ed, {}).setdefault(p, []).append(
                {"game": g["id"], "date": g["date"], "edition": ed, "place": places(g)[seat],
                 "won": seat in g["winner_seats"], "mu": r.mu, "sigma": r.sigma, "rating": r.ordinal()})
    return table, hist, left


def standings(store: Store, edition: str | None = None) -> list[dict]:
    """The league's table: one row per person and edition they played league games of (only
    `edition`'s when given), editions in alphabetical order, each by rating, best first (then more
    games, then the name). A row: `rank` (its place in its edition), `person` (people.id), `name`,
    `edition`, `mu`, `sigma`, `rating` (openskill's ordinal, mu - 3 sigma: the figure shown),
    `games`, `wins`, `last` (the date of their last league game, "YYYY-MM-DD HH:MM"), `last_game`."""
    table, _, _ = _rated(store, edition)
    names = {p["id"]: p["name"] for p in store.people()}
    out = []
    for ed in sorted(table):
        rows = [{"person": p, "name": names.get(p, f"#{p}"), "edition": ed, **fig} for p, fig in table[ed].items()]
        rows.sort(key=lambda r: (-r["rating"], -r["games"], r["name"].casefold(), r["person"]))
        out += [{"rank": k + 1, **r} for k, r in enumerate(rows)]
    return out


def history(store: Store, person_id: int, edition: str) -> list[dict]:
    """Person `person_id`'s rating after each of their league games of `edition`, oldest first:
    `game` (its number), `date`, `edition`, `place` (1 is best), `won`, `mu`, `sigma`, `rating`.
    Empty for a person with no league game of it."""
    _, hist, _ = _rated(store, edition)
    return hist.get(edition, {}).get(person_id, [])


def left_out(store: Store) -> dict[str, int]:
    """How many stored games are not league games, by why (LEFT_OUT's words)."""
    _, _, left = _rated(store)
    return {LEFT_OUT[k]: n for k, n in sorted(left.items())}
