"""What `doodlebox validate` and `doodlebox score` print for Doodle Puzzle: every Scorecard
round by round (or the shared one and its verdict), the table, and the same as JSON."""
from __future__ import annotations

from doodlebox.rules.ending import ending, seat
from doodlebox.rules.puzzle import engine as E
from doodlebox.rules.puzzle import roles as R
from doodlebox.rules.puzzle.record import Replay

MARK = {E.CHECK: "check", E.CROSS: "cross", "": "-"}


def _title(rp: Replay) -> str:
    rec = rp.record
    g = rp.state.game
    v = " + ".join(E.VARIANT_NAMES[x] for x in g.variants) if g.variants else "base game"
    return f"Doodle Puzzle, {len(rec.players)} players, {v}, {rec.subjects} subjects"


def _rounds_played(rp: Replay) -> int:
    return len(rp.state.results)


def as_json(rp: Replay) -> dict:
    rec = rp.record
    st = rp.state
    res = st.result()
    out = {
        "record": rec.source,
        "edition": rec.edition,
        "variant": rec.variant,
        "subjects": rec.subjects,
        "players": rec.players,
        "rounds": _rounds_played(rp),
        "finished": rp.finished,
        "status": ending(rp).status,
        "valid": not rp.violations,
        "violations": [v.as_dict() for v in rp.violations],
        "round_results": [
            {"round": r.round, "roles": list(r.roles), "number": r.number, "card": r.card,
             "rejected": [list(x) for x in r.rejected], "slots": [s if s >= 0 else None for s in r.slots],
             "erased": r.erased or None, "drawn": r.drawn or None, "guess": _guess(r.right),
             "challenge": r.challenge or None, "challenge_won": r.challenge_won, "void": r.void}
            for r in st.results],
        "cards": [
            {"player": rec.players[p], "marks": c.marks, "check_marks": c.checks, "crosses": c.crosses,
             "slashes": {"guessy_correct": c.correct, "guessy_incorrect": c.incorrect, "baddy": c.baddy},
             "total": res.totals[p]}
            for p, c in enumerate(st.cards)],
        "winners": [rec.players[p] for p in ending(rp).winners],
    }
    if res.shared is not None:
        out["shared"] = {"marks": res.shared.marks, "check_marks": res.shared.checks,
                         "points": res.shared.total, "verdict": res.verdict}
    return out


def _guess(right: bool | None) -> str | None:
    return None if right is None else ("right" if right else "wrong")


def _n(k: int, word: str) -> str:
    """'1 check mark', '3 check marks', '1 slash', '0 slashes'."""
    if k == 1:
        return f"{k} {word}"
    return f"{k} {word}es" if word.endswith("sh") else f"{k} {word}s"


def _name(rp: Replay, p: int) -> str:
    return seat(rp.record.players, p)


def sheets_text(rp: Replay) -> str:
    """Each player's Scorecard round by round (Behave: the shared Scorecard and its verdict)."""
    st = rp.state
    res = st.result()
    out = [_title(rp)]
    for r in st.results:
        if r.void:
            out.append(f"round {r.round}: not scored ({r.void})")
            continue
        extra = []
        if r.sabotaged:
            extra.append("Baddy: " + ", ".join(
                ([f"erased {r.erased}"] if r.erased else []) + ([f"drew on {r.drawn}"] if r.drawn else [])))
        elif not st.game.behave:
            extra.append("Baddy did nothing")
        if r.challenge:
            extra.append(f"challenge board {r.challenge}: {'won' if r.challenge_won else 'lost'}")
        out.append(f"round {r.round}: number {r.number}, card {r.card}, guess {_guess(r.right)}"
                   + ("; " + "; ".join(extra) if extra else ""))
    if st.shared is not None:
        out.append("shared Scorecard: " + " ".join(MARK[m] for m in st.shared.marks))
        out.append(f"  {_n(st.shared.checks, 'check mark')} ({st.shared.total} points): {res.verdict}")
        return "\n".join(out)
    for p, c in enumerate(st.cards):
        out.append(_name(rp, p))
        for r, m in zip(st.results, c.marks):
            role = R.NAMES.get(r.roles[p], "-") if r.roles else "-"
            out.append(f"  round {r.round}: {role:<10} {MARK[m]}")
        out.append(f"  {c.checks * E.CHECK_POINTS:>+4}  {_n(c.checks, 'check mark')} x {E.CHECK_POINTS}")
        if st.game.showdown:
            out.append(f"  {c.correct:>+4}  {_n(c.correct, 'slash')} in the Guessy-correct box (+1 each)")
            out.append(f"  {-c.incorrect:>+4}  {_n(c.incorrect, 'slash')} in the Guessy-incorrect box (-1 each)")
            out.append(f"  {-c.baddy:>+4}  {_n(c.baddy, 'slash')} in the Baddy box (-1 each)")
        out.append(f"  {res.totals[p]:>4}  total" + ("   winner" if p in ending(rp).winners else ""))
    return "\n".join(out)


def table_text(rp: Replay) -> str:
    rec = rp.record
    st = rp.state
    res = st.result()
    end = ending(rp)
    head = f"{_title(rp)}: {_rounds_played(rp)} rounds" + end.heading()
    out = [head]
    if res.shared is not None:
        out.append(f"  the table (shared Scorecard): {_n(res.shared.checks, 'check mark')}, "
                   f"{res.shared.total} points")
        out.append(f"  {res.verdict}")
        return "\n".join(out)
    width = max(len(n) for n in rec.players)
    order = sorted(range(len(rec.players)), key=lambda p: -res.totals[p])
    for p in order:
        mark = ("  winner" if p in end.winners else
                "  leading" if not end.over and p in res.winners else "")
        out.append(f"  {rec.players[p]:<{width}}  {res.totals[p]:>4}{mark}")
    if len(end.winners) > 1:
        out.append("  a tie: the tied players share the victory")
    return "\n".join(out)
