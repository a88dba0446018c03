"""What the PC's replay of a stored game's record says: its totals, winners, violations,
a solo game's rank and achievements, a Behave game's verdict (`doodlebox games`, `stats`)."""
from __future__ import annotations

from dataclasses import dataclass, field

from doodlebox.errors import DoodleboxError


@dataclass(frozen=True)
class Outcome:
    """What the PC's replay of a game's record says (games(), games_view): `totals` per seat
    (None when the game has no record: `error` says why, e.g. a log that cannot become one),
    the `winners`' seats (none before the rules say the game is over, and none in a solo game),
    `finished`, how many `violations`; a solo dice game's `rank` and `achievements`, a Behave
    game's `verdict` (Doodle Puzzle's shared scorecard)."""

    totals: list[int] | None
    winners: list[int] = field(default_factory=list)
    finished: bool = False
    violations: int = 0
    rank: str = ""
    achievements: tuple[str, ...] = ()
    verdict: str = ""
    error: str = ""


def outcome_of(data: dict, source: str) -> Outcome:
    """Replay a record (of any game: rules/games.py) and say how it stands."""
    from doodlebox.rules.games import read_record

    try:
        rec, game = read_record(data, source)
    except DoodleboxError as exc:
        return Outcome(None, error=str(exc))
    rp = game.replay(rec)
    res = rp.state.result()
    report = game.as_json(rp)
    solo = len(rec.players) == 1
    sheets = report.get("sheets") or [{}]
    return Outcome(totals=list(res.totals), winners=list(res.winners) if rp.finished and not solo else [],
                   finished=bool(rp.finished), violations=len(rp.violations),
                   rank=(sheets[0].get("rank") or "") if solo else "",
                   achievements=tuple(sheets[0].get("achievements") or ()) if solo else (),
                   verdict=(report.get("shared") or {}).get("verdict") or "")

