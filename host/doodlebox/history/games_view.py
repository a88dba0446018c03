"""One stored game as a person looks back at it, for `doodlebox show`, `stats` and the web page
alike: its record with the names, the final table, a round-by-round summary, the violations;
the scores table `export --csv` writes; reading records to import (docs/stored-games.md). Its
status and winners are game_records.status()'s and rules/ending.py's, as every view's."""
from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from doodlebox.errors import InputError
from doodlebox.history.game_records import Outcome, outcome, outcome_of, record, status
from doodlebox.rules.api import CHANCE
from doodlebox.rules.common import load_json, violations_text
from doodlebox.rules.games import EDITIONS, read_record
from doodlebox.store import Store
from doodlebox.store.errors import Damaged


def game_name(edition: str | None) -> str:
    t = EDITIONS.get(edition or "")
    return t.name if t else str(edition)


def summary(store: Store, which: int | str) -> dict:
    """Everything `doodlebox show` prints about one game (`which`: its id or "last"):

    id, label (where it came from), status (the store's state), standing and status_text (the
    game's status: game_records.status()), date, edition, game (its name), players (names),
    record (doodlebox-record/1 with the names; None when the console's log cannot make one:
    `error` says why), finished (by its rules), totals, winners (names), violations (each as a dict, and
    `violations_text` for a person), table (the final table as `doodlebox score` prints it),
    rounds (one line per round: the dice or cards, each player's turn, the totals after it),
    rank, achievements (a solo dice game), verdict (Doodle Puzzle's Behave).
    NoGame (exit 2) when there is no such game, Damaged (exit 2) when a row of it cannot be read."""
    gid = store.find(which)
    row = next(g for g in store.games() if g["id"] == gid)
    word, text = status(row, Outcome(None))
    out: dict[str, Any] = {
        "id": gid, "label": _label(store, row), "status": row["state"], "standing": word, "status_text": text,
        "date": row["date"], "edition": row["edition"], "game": game_name(row["edition"]), "players": row["names"],
        "record": None, "error": "", "finished": False, "totals": None, "winners": [], "violations": [],
        "violations_text": "", "table": "", "rounds": [], "rank": "", "achievements": [], "verdict": ""}
    try:
        data = record(store, gid)
    except Damaged:
        raise
    except InputError as exc:       # a console's log that cannot make a record (yet)
        out["error"] = str(exc)
        return out
    out["record"] = data
    rec, game = read_record(data, f"game {gid}")
    rp = game.replay(rec)
    o = outcome_of(data, f"game {gid}")
    names = list(rec.players)
    word, text = status(row, o)
    out.update(standing=word, status_text=text,
               finished=o.finished, totals=o.totals, winners=[names[p] for p in o.winners], rank=o.rank,
               achievements=list(o.achievements), verdict=o.verdict,
               violations=[v.as_dict() for v in rp.violations], violations_text=violations_text(rp),
               table=game.table_text(rp), rounds=round_lines(data, rp))
    return out


def _label(store: Store, row: dict) -> str:
    if row["state"] == "imported":
        src = store.imported_source(row["id"])
        return f"game {row['id']} (imported from {src[0]})" if src else f"game {row['id']} (imported)"
    log = store.game_log(row["id"])
    return log.label() if log is not None else f"game {row['id']}"


# -- round by round -------------------------------------------------------------------------
def round_lines(data: dict, rp: Any) -> list[str]:
    """One line per round of a replayed record: what chance gave (the dice rolled, the cards
    revealed, the roles dealt), what each player did (the engine's history: illegal turns were
    skipped and are among the violations), and the totals after the round."""
    names = list(rp.record.players)
    rounds: list[list[tuple[int, Any]]] = []
    setup: list[Any] = []
    last = None
    for who, a in rp.state.history:
        kind = getattr(a, "kind", "")
        starts = kind in ("roll", "deal") or (kind == "reveal" and last != "reveal")
        if starts:
            rounds.append([])
        if rounds:
            rounds[-1].append((who, a))
        else:
            setup.append(a)
        last = kind
    out = []
    if setup:
        out.append("setup: " + ", ".join(str(a) for a in setup))
    numbers, unplayed = _round_numbers(data, rp, len(rounds))
    totals = _totals_by_round(data, max(numbers + list(unplayed), default=0))
    lines = dict(unplayed)
    circled: dict[int, list[tuple[int, tuple, int]]] = {}     # a dice game's values circled, by round
    for p, sheet in enumerate(getattr(rp.state, "sheets", None) or []):
        for sc in getattr(sheet, "scored", ()):
            if sc.value:
                circled.setdefault(sc.round, []).append((p, tuple(sc.at), sc.value))
    for number, actions in zip(numbers, rounds):
        text = f"round {number}: " + _round_text(actions, names, str(data.get("edition")),
                                                  getattr(rp.record, "deck", None), circled.get(number, []))
        after = totals[number - 1] if number <= len(totals) else None
        if after is not None:
            text += "  | totals " + ", ".join(f"{n} {t}" for n, t in zip(names, after))
        lines[number] = text
    return out + [lines[n] for n in sorted(lines)]


def _round_numbers(data: dict, rp: Any, played: int) -> tuple[list[int], dict[int, str]]:
    """The record's number of each round the engine's history holds, and a line for each round
    it does not: a Doodle Puzzle round whose deal the rulebook does not allow is void and never
    dealt (ruling P11), so the rounds after it are not the history's 2nd, 3rd, ... deal."""
    results = getattr(rp.state, "results", None)
    if data.get("edition") != "puzzle" or results is None:
        return list(range(1, played + 1)), {}
    dealt = [r.round for r in results if r.roles]
    unplayed = {r.round: f"round {r.round}: void, not dealt ({r.void})" for r in results if not r.roles}
    after = max([r.round for r in results], default=0)
    while len(dealt) < played:          # the round being played has no result yet
        after += 1
        dealt.append(after)
    return dealt[:played], unplayed


def _round_text(actions: list[tuple[int, Any]], names: list[str], edition: str, deck: Any = None,
                circled: list[tuple[int, tuple, int]] | None = None) -> str:
    """A round's line; `circled` a dice round's values circled as the rules' sheets hold them
    (player, square, value): each said at its drawing, also the ones the rules circled themselves
    (the highest free: the record names only a lower one), as `validate` and `score` count them."""
    def who(p: int) -> str:
        return names[p] if 0 <= p < len(names) else str(p)

    chance = [a for p, a in actions if p == CHANCE]
    mine = [(p, a) for p, a in actions if p != CHANCE]
    parts = []
    if edition == "deadly":     # many drawings a round: how many, and the Traps
        kinds = getattr(deck, "kind_of", ())        # by card id
        parts.append("revealed " + ", ".join(f"{a.card} {kinds[a.card]}" if 0 < a.card < len(kinds) else str(a.card)
                                             for a in chance))
        for p, name in enumerate(names):
            own = [a for q, a in mine if q == p]
            placed = sum(1 for a in own if a.kind == "place")
            traps = "".join(f", trap at {a.room}" for a in own if a.kind == "trap")
            parts.append(f"{name}: {placed} segment(s){traps}")
        return "; ".join(parts)
    if edition == "puzzle":
        parts.append("roles " + ", ".join(f"{who(p)} {r}" for p, a in actions[:1] for p, r in enumerate(a.roles)))
        parts.extend(f"subject {a}" for a in chance[1:])
        boards = [f"{who(p)} {a.value}" for p, a in mine if a.kind == "place"]
        for p, a in mine:
            if a.kind == "place":
                if boards:
                    parts.append("boards placed in slots: " + ", ".join(boards))
                    boards = []
            elif a.kind != "done":
                parts.append(f"{who(p)}: {a}")
        return "; ".join(parts)
    parts.extend(str(a) for a in chance)
    owner = [-1] * len(parts)
    for p, a in mine:
        if a.kind == "circle" and len(parts) > len(chance):    # the value circled for the drawing just made
            parts[-1] += f", circled {a.value}"
        else:
            parts.append(f"{who(p)}: {a}")
            owner.append(p)
    for p, at, value in circled or []:   # the ones the record leaves to the rules (ruling V1)
        for k, part in enumerate(parts):
            if owner[k] == p and f"at {list(at)}" in part and "circled" not in part:
                parts[k] += f", circled {value}"
                break
    return "; ".join(parts)


def _totals_by_round(data: dict, rounds: int) -> list[list[int] | None]:
    """The totals after each round: the record cut after it, replayed."""
    out: list[list[int] | None] = []
    n = len(data.get("players") or [])
    for k in range(1, rounds + 1):
        cut = dict(data, rounds=list(data.get("rounds") or [])[:k])
        if k < rounds and "tallies" in cut:     # Deadly Doodles' counts are given at the end
            cut["tallies"] = [None] * n
        try:
            rec, game = read_record(cut, "cut")
            out.append(list(game.replay(rec).state.result().totals))
        except InputError:
            out.append(None)
    return out


# -- importing ------------------------------------------------------------------------------
@dataclass
class Checked:
    """A record read and replayed for `doodlebox import`."""
    path: Path
    data: dict
    violations: list[str]           # one line each: "round 3, P2 Ben, turn 1: ... [rule taken]"
    already: int | None = None      # the game it was imported as before


def check_record(path: Path) -> Checked:
    """Read a record file and replay it; InputError (one line, exit 2) when it cannot be read."""
    data = load_json(path)
    rec, game = read_record(data, str(path))
    rp = game.replay(rec)
    lines = [f"round {v.round}, {_who(rec.players, v.player)}, turn {v.turn}: {v.reason} [rule {v.rule}]"
             for v in rp.violations]
    return Checked(path, data, lines)


def _who(players: list[str], p: int) -> str:
    return f"P{p + 1} {players[p]}" if 0 <= p < len(players) else "the game"


def parse_date(text: str | None) -> float:
    """--date YYYY-MM-DD or "YYYY-MM-DD HH:MM" (local time) as a time stamp; now without one."""
    if not text:
        return time.time()
    for form in ("%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M", "%Y-%m-%d"):
        try:
            return time.mktime(time.strptime(text.strip(), form))
        except ValueError:
            continue
    raise InputError(f"--date {text!r}: not a date (YYYY-MM-DD, or YYYY-MM-DD HH:MM)")


def import_records(store: Store, paths: list[Path], keep_violations: bool, date: str | None = None
                   ) -> tuple[list[tuple[Checked, int]], list[Checked]]:
    """Import record files into the store, all or none: every file is read and validated
    first. Refused (InputError, one line, nothing stored): a file that cannot be read, and
    without `keep_violations` a record with violations. A record imported before is skipped.
    Returns ((checked, new game id) for each stored, the ones skipped)."""
    when = parse_date(date)
    checked = [check_record(p) for p in paths]
    if not keep_violations:
        for c in checked:
            if c.violations:
                raise InputError(f"{c.path}: {len(c.violations)} violation(s), not imported (the first: "
                                 f"{c.violations[0]}); `doodlebox validate {c.path}` lists them, "
                                 "--with-violations imports it with them")
    fresh: list[Checked] = []
    skipped: list[Checked] = []
    seen: set[str] = set()
    for c in checked:
        c.already = store.imported_as(c.data)
        key = json.dumps(c.data, sort_keys=True)
        if c.already is not None or key in seen:
            skipped.append(c)
        else:
            fresh.append(c)
        seen.add(key)
    ids = store.add_imported([(c.data, len(c.violations), str(c.path), when) for c in fresh])
    return list(zip(fresh, ids)), skipped


# -- a scores table -------------------------------------------------------------------------
CSV_COLUMNS = ("game", "edition", "date", "player", "seat", "total", "winner", "status")


def score_rows(store: Store, ids: list[int]) -> list[dict]:
    """One row per player of each game: CSV_COLUMNS (seat 1-based; winner 1 or 0; total empty
    when the game has no record; status one of game_records.STATUSES). Damaged for a game with a
    row that cannot be read."""
    rows = []
    by_id = {g["id"]: g for g in store.games()}
    for gid in ids:
        g = by_id[gid]
        if g["damaged"]:
            raise Damaged(store.path, g["damaged"], gid)
        o = outcome(store, gid, g)
        word, _ = status(g, o)
        for seat, name in enumerate(g["names"]):
            total = o.totals[seat] if o.totals is not None and seat < len(o.totals) else ""
            rows.append({"game": gid, "edition": g["edition"], "date": g["date"], "player": name, "seat": seat + 1,
                         "total": total, "winner": int(seat in o.winners), "status": word})
    return rows
