"""`doodlebox analyse | hint`: the coach (coach/analysis.py, docs/coach.md): every turn of a
stored game or a record valued against the search's best move with the same dice, and the best
move for the player to act in the game being played now."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from doodlebox.cli.command import Command
from doodlebox.cli.games import db_argument, open_store
from doodlebox.coach import analysis
from doodlebox.coach.analysis import ANALYSE_BUDGET_S, HINDSIGHT_S, HINT_BUDGET_S
from doodlebox.errors import InputError
from doodlebox.history import game_records
from doodlebox.rules.games import read_record, replay_file

NOT_ANALYSED = {
    "puzzle": "Doodle Puzzle is a drawing game: there are no moves to value, nothing to analyse",
}
NO_HINT = (*NOT_ANALYSED, "deadly")     # Deadly Doodles' placements are analysed after the game only
TALLIES = ("Deadly Doodles recorded with tallies: the path segments were drawn on paper, "
           "there are no placements to value, nothing to analyse")


def _replay(args: argparse.Namespace) -> tuple[Any, Any, str]:
    """(replay, game type, label) of GAME (a stored game's number or "last", as `show` takes it)
    or RECORD (a record file, as `validate` takes it)."""
    which = args.game
    path = Path(which)
    if not (which == "last" or which.isdigit()):       # a record file (replay_file says what is wrong with it)
        rp, game = replay_file(path)
        return rp, game, str(path)
    store = open_store(args)
    try:
        gid = store.find(which)
        data = game_records.record(store, gid)
    finally:
        store.close()
    rec, game = read_record(data, f"game {gid}")
    return game.replay(rec), game, f"game {gid}"


def analyse(args: argparse.Namespace) -> int:
    if args.budget <= 0:
        raise InputError("--budget must be above 0 seconds")
    rp, game, label = _replay(args)
    if game.edition in NOT_ANALYSED:
        print(f"{label}: {NOT_ANALYSED[game.edition]}")
        return 0
    if getattr(rp.state.game, "tallies", False):
        print(f"{label}: {TALLIES}")
        return 0
    n = len(rp.record.players)
    if args.player is not None and not 1 <= args.player <= n:
        raise InputError(f"--player {args.player}: the game has players 1 to {n}")

    def progress(k: int, total: int) -> None:
        if sys.stderr.isatty():
            print(f"\ranalysing turn {k + 1} of {total}", end="", file=sys.stderr, flush=True)

    a = analysis.analyse(rp, game.name, None if args.player is None else args.player - 1, args.budget,
                         args.seed, hindsight_s=args.hindsight, progress=progress)
    if sys.stderr.isatty():
        print("\r" + " " * 40 + "\r", end="", file=sys.stderr)
    if args.json:
        print(json.dumps(dict(a.as_json(), source=label), indent=1, ensure_ascii=False))
    else:
        print(text(a, label))
    return 0


def text(a: Any, label: str) -> str:
    """The analysis for a person: a table per player, the totals per mark, the hindsight."""
    lines = [f"{label}: {a.game}, {len(a.players)} player(s) ({', '.join(a.players)})"
             f"{'' if a.finished else ', not finished'}; {a.budget_s:g} s a decision"
             f" ({a.seconds:.0f} s in all)"]
    unit = a.measure        # the one measure of every value and loss (analysis.measure)
    marks = ", ".join(f"{m} >= {v:g}" for m, v in reversed(list(a.as_json()["thresholds"].items())))
    lines.append(f"measure: {unit}, the {analysis.MEASURES[unit]}, as the search values each move; "
                 f"lost = best - played on it; marks: {marks}")
    for s in a.summary():
        p = s["player"] - 1
        who = f"P{p + 1}" + (f" {s['name']}" if s["name"] != f"P{p + 1}" else "")
        lines += ["", f"{who}: final {s['final']}"]
        rows = [("turn", "round", "roll", "played", unit, "best", unit, "lost", "mark")]
        for k, t in enumerate((t for t in a.turns if t.player == p), start=1):
            rows.append((str(k), str(t.round), t.roll, t.played, analysis.value_text(t.played_value, unit),
                         "=" if t.best == t.played else t.best, analysis.value_text(t.best_value, unit),
                         f"{t.lost:.{analysis.DIGITS}f}", "forced" if t.forced else t.mark))
        w = [max(len(r[c]) for r in rows) for c in range(len(rows[0]))]
        for r in rows:
            lines.append("  " + "  ".join(cell.rjust(w[c]) if c in (0, 1, 4, 6, 7) else cell.ljust(w[c])
                                          for c, cell in enumerate(r)).rstrip())
        per = ", ".join(f"{m['turns']} {name}(s) -{m['lost']:g}" for name, m in reversed(list(s["marks"].items())))
        lines.append(f"  lost {s['lost']:g} ({unit}) in {s['turns']} turns ({s['mean_lost']:g} a turn): {per}; "
                     f"{s['on_the_mark']} of {s['turns']} turns within {a.as_json()['near']:g} of the best")
    if a.skipped:
        lines += ["", f"{len(a.skipped)} turn(s) not analysed, played out of turn or against the rules "
                      f"(doodlebox validate lists them): " + ", ".join(f"P{p + 1} round {r}" for p, r in a.skipped)]
    h = a.hindsight
    if h is not None:
        lines += ["", f"hindsight best on the same rolls: {h.points} (played {h.played}"
                      + ("; the beam found no better line than the one played, below" if h.played_line else "") + "); "
                      f"beam search: width {h.width}, {h.branch} moves a state, greedy playouts for the "
                      f"leaves, {h.seconds:.1f} s of {h.budget_s:g}"
                      + ("" if h.complete else ", stopped by its time bound")
                      + f"; {h.rounds} rounds, the record's rolls (a line still going when they run out is scored then)"
                      + ". An estimate (a line found), not a proof of the best."]
        lines += [f"  {m}" for m in h.line]
    return "\n".join(lines)


def hint(args: argparse.Namespace) -> int:
    """Exit 0 with the hint, 2 (one line) when no game is being played or it is not a player's
    decision now."""
    if args.budget <= 0:
        raise InputError("--budget must be above 0 seconds")
    store = open_store(args)
    try:
        playing = [g for g in store.games() if g["state"] == game_records.PLAYING]
        if not playing:
            raise InputError(f"{store.path}: no game is being played")
        gid = max(g["id"] for g in playing)
        data = game_records.record(store, gid)
    finally:
        store.close()
    rec, game = read_record(data, f"game {gid}")
    state = game.replay(rec).state
    if game.edition in NO_HINT:
        raise InputError(f"game {gid}: {game.name}: hints are for the dice editions")
    if state.is_chance_node() or state.is_terminal():
        raise InputError(f"game {gid}: no player is to move (" + ("the dice are to be rolled" if state.is_chance_node()
                                                                  else "the game is over") + ")")
    who = state.current_player()
    d = analysis.decide(state, who, budget_s=args.budget, seed=args.seed)
    name = rec.players[who]
    who_text = f"P{who + 1}" + (f" {name}" if name != f"P{who + 1}" else "")
    m = analysis.measure(len(rec.players))
    print(f"game {gid}, round {state.round} ({analysis.roll_text(state)}): "
          f"{who_text}: {d.best.text}  ({m} {analysis.value_text(d.best.value, m)})")
    if d.second is not None:
        below = round(d.best.value, analysis.DIGITS) - round(d.second.value, analysis.DIGITS)
        print(f"  next best: {d.second.text}  ({m} {analysis.value_text(d.second.value, m)}, "
              f"{below:.{analysis.DIGITS}f} less)")
    print(f"  {m}: the {analysis.MEASURES[m]}; {d.considered} move(s) considered, {d.playouts} playouts, "
          f"{args.budget:g} s")
    return 0


def _analyse_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", metavar="GAME|RECORD",
                   help="a stored game's number from `doodlebox games`, or last; or a record file")
    p.add_argument("--player", type=int, help="only this player's turns (1-based)")
    p.add_argument("--budget", type=float, default=ANALYSE_BUDGET_S, metavar="SECONDS",
                   help=f"the search's time per decision (default {ANALYSE_BUDGET_S:g})")
    p.add_argument("--hindsight", type=float, default=HINDSIGHT_S, metavar="SECONDS",
                   help=f"a solo game's hindsight search's time bound (default {HINDSIGHT_S:g}; 0: none)")
    p.add_argument("--seed", type=int, default=1, help="the playouts' dice (default 1)")
    p.add_argument("--json", action="store_true", help="the analysis as JSON (docs/coach.md)")
    db_argument(p)


def _hint_args(p: argparse.ArgumentParser) -> None:
    db_argument(p)
    p.add_argument("--budget", type=float, default=HINT_BUDGET_S, metavar="SECONDS",
                   help=f"the search's time (default {HINT_BUDGET_S:g})")
    p.add_argument("--seed", type=int, default=1, help="the playouts' dice (default 1)")


COMMANDS = (
    Command("analyse", "every turn of a game against the best move with the same dice: the points each choice "
            "cost", analyse, _analyse_args),
    Command("hint", "the best move for the player to act in the game being played now", hint, _hint_args),
)
