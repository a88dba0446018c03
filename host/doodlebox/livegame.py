"""The PC's verdict on a console's games while they are played: after each event stored that can
change a score (a turn of a dice game; a Trap, a segment, the end of a player's round or their
counts in Deadly Doodles; a guess or a challenge in Doodle Puzzle), the game's record so far
(console_record.py) replayed through its game's rules engine (rules/games.py), as the `score`
message (docs/protocol.md) and the violations found since the last one. A resumed game is one
game: its verdict after the `resume` counts the earlier boot's events too."""
from __future__ import annotations

from dataclasses import dataclass, field

from doodlebox.console_record import ConsoleLogError, to_record
from doodlebox.link import frames
from doodlebox.rules.common import Violation
from doodlebox.rules.games import find_game
from doodlebox.store import Store

# the events after which the PC sends its scores
SCORED = ("game", "end", "resume", "claim", "tree", "trap", "draw", "done", "tally", "guess", "challenge",
          "refused")      # a refused event: the game makes no record, said at once


@dataclass
class Verdict:
    """What the PC found after one event of a game: the `score` message for the console (g, r,
    p, bad, why), the violations not reported before (in the order found), the game's label."""
    label: str
    uid: str
    boot: int
    kind: str                  # the event's kind
    message: dict
    new: list[Violation] = field(default_factory=list)


@dataclass
class _Seen:
    violations: set[tuple[str, str, str]] = field(default_factory=set)
    broken: str | None = None    # why the log cannot be a record (reported once)


class LiveGames:
    """Follows the games of the consoles logged into `store` (in the thread that owns it): call
    stored() after each event is committed."""

    def __init__(self, store: Store):
        self.store = store
        self._seen: dict[tuple[str, int, int], _Seen] = {}

    def stored(self, uid: str, boot: int, event: dict, seq: int | None = None) -> Verdict | None:
        """The verdict after `event` (stored for console `uid`, `boot`, as its number `seq`: the
        game as it stood then, although later events may be stored already): None for events
        that change no score (start roads, rolls, refusals) or that belong to no game.
        ConsoleLogError, once per game, when its events cannot make a record."""
        g = event.get("g")
        if event.get("k") not in SCORED or isinstance(g, bool) or not isinstance(g, int):
            return None
        seen = self._seen.get((uid, boot, g))
        if seen is not None and seen.broken is not None:
            return None
        log = self.store.game_log_of(uid, boot, g)
        if seq is not None:
            log = log.upto(boot, seq)
        if seen is None:
            seen = self._seen[(uid, boot, g)] = _Seen()
            for b, earlier, _ in log.parts[:-1]:      # a resumed game is one game: found before is found
                seen.violations |= self._seen.get((uid, b, earlier), _Seen()).violations
        try:
            data = to_record(log)
        except ConsoleLogError as exc:
            seen.broken = str(exc)
            raise
        game = find_game(data["edition"])
        rp = game.replay(game.parse(data, log.label()))
        new = []
        for v in rp.violations:
            key = (v.place, v.rule, v.reason)
            if key not in seen.violations:
                seen.violations.add(key)
                new.append(v)
        first = rp.violations[0] if rp.violations else None
        why = f"R{first.round} P{first.player + 1}: {first.reason}" if first and first.player >= 0 \
            else (f"R{first.round}: {first.reason}" if first else "")
        message = frames.score(g, rp.state.round, rp.state.scores(), len(rp.violations), why)
        return Verdict(log.label(), uid, boot, event["k"], message, new)


def verdict_lines(verdict: Verdict) -> list[str]:
    """What `doodlebox log` prints of a verdict: each violation found, and the PC's totals at the
    game's end."""
    out = [f"PC: violation in {verdict.label}: {violation_line(v)}" for v in verdict.new]
    if verdict.kind == "end":
        m = verdict.message
        totals = ", ".join(f"P{i + 1} {t}" for i, t in enumerate(m["p"]))
        out.append(f"PC: final scores {totals} ({m['bad']} violation(s); doodlebox export to see them all)"
                   if m["bad"] else f"PC: final scores {totals} (no violations)")
    return out


def violation_line(v: Violation) -> str:
    """One violation as `doodlebox log` prints it."""
    who = f"P{v.player + 1}" if v.player >= 0 else "the game"
    return f"round {v.round}, {who}: {v.action}: {v.reason} [rule {v.rule}]"
