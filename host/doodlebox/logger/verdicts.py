"""The PC's verdict on a console's games while they are played: after each event stored that can
change a score (a turn of a dice game; a Trap, a segment, the end of a player's round or their
counts in Deadly Doodles; a guess or a challenge in Doodle Puzzle), the game's record so far
(history/console_record.py) replayed through its game's rules engine (rules/games.py), as the `score`
message (docs/protocol.md) and the violations found since the last one. A resumed game is one
game: its verdict after the `resume` counts the earlier boot's events too.

Each game is followed in memory, its state kept (_Live): for a verdict only the events stored
since the last one are read, taken by the game's ConsoleGame (history/console_record.py) and the record
they grow handed to its game's Stream (rules/*/record.py), which plays only what was added, with
the code that replays a whole record. The whole game is read and replayed as `doodlebox export`
and `validate` do (to_record, then its rules' parse and replay) only when the game is first
seen (its start; a game resumed after a power cut; a game begun before the logger started),
after anything the live state could not take (an event that cannot make a record, a record that
changed otherwise than by growing, any error), or for an event older than the last one taken:
that verdict is the whole replay's, and the game is followed again from there. A game whose
live state would not give the whole replay's verdict is replayed whole after every event."""
from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field

from doodlebox.history.console_record import (
    ConsoleGame,
    ConsoleLogError,
    MissingSheet,
    RecordStream,
    game_of,
    to_record,
)
from doodlebox.link import frames
from doodlebox.rules.common import Replay, Violation
from doodlebox.rules.games import find_game
from doodlebox.store import GameLog, Store

# the events after which the PC sends its scores
SCORED = ("game", "end", "resume", "claim", "tree", "trap", "draw", "done", "tally", "guess", "challenge",
          "refused")      # a refused event: the game makes no record, said at once
KEEP = 16                 # games followed in memory at once (one let go is replayed whole if it goes on)


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
    missing: str | None = None   # ... the hash of its sheet of the table's own, not held (yet): looked for again
    gid: int | None = None       # the store's number of the game (the console shows it beside the PC's scores)
    whole: bool = False          # its live state did not give the whole replay's verdict: replayed whole


class _Live:
    """One game followed event by event: its events taken (ConsoleGame), its record's Stream,
    the last event taken of its latest part (`part`: the boot and game number it is stored
    under)."""

    def __init__(self, label: str, part: tuple[int, int], console: ConsoleGame, stream: RecordStream,
                 last: int):
        self.label, self.part, self.console, self.stream, self.last = label, part, console, stream, last

    @staticmethod
    def of(log: GameLog, whole: Replay) -> _Live | None:
        """The game as `log` holds it, taken event by event (once, where it was replayed whole);
        None when that does not give `whole`'s verdict."""
        try:
            console = game_of(log)
            stream = console.stream()
            rp = stream.update(console.so_far())
        except Exception:
            return None
        if _verdict_of(rp) != _verdict_of(whole):
            return None
        part = (log.boot, log.g)
        own = [s for (s, _), origin in zip(log.events, log.origins()) if origin == part]
        return _Live(log.label(), part, console, stream, own[-1] if own else 0)

    def update(self, store: Store, uid: str, seq: int | None) -> Replay:
        """The replay after event `seq` (None: the last stored): the events stored since the
        last one taken, taken, and what they added played. Anything it cannot do raises."""
        if seq is not None and seq < self.last:
            raise ValueError(f"event {seq} is older than the last one taken ({self.last})")
        boot, g = self.part
        for s, e in store.game_events(uid, boot, g, after=self.last, upto=seq):
            self.console.take(s, e, self.part)
            self.last = s
        return self.stream.update(self.console.so_far())


def _verdict_of(rp: Replay) -> tuple:
    """What a verdict is made of: the violations, the round, the scores, the end."""
    return [v.as_dict() for v in rp.violations], rp.state.round, rp.state.scores(), rp.state.is_terminal()


class LiveGames:
    """Follows the games of the consoles logged into `store` (in the thread that owns it): call
    stored() after each event is committed. With `incremental` False every verdict is the
    game's whole replay (what the live state is tested against); `replays` counts those made."""

    def __init__(self, store: Store, incremental: bool = True):
        self.store = store
        self.incremental = incremental
        self.replays = 0
        self._seen: dict[tuple[str, int, int], _Seen] = {}
        self._live: OrderedDict[tuple[str, int, int], _Live] = OrderedDict()

    def stored(self, uid: str, boot: int, event: dict, seq: int | None = None) -> Verdict | None:
        """The verdict after `event` (stored for console `uid`, `boot`, as its number `seq`: the
        game as it stood then, although later events may be stored already): None for events
        that change no score (start roads, rolls, refusals) or that belong to no game.
        ConsoleLogError, once per game, when its events cannot make a record."""
        g = event.get("g")
        if event.get("k") not in SCORED or isinstance(g, bool) or not isinstance(g, int):
            return None
        key = (uid, boot, g)
        seen = self._seen.get(key)
        if seen is not None and seen.missing is not None and self.store.sheet(seen.missing) is not None:
            seen.broken = seen.missing = None          # its sheet is held now (added, synced): validated on it
        if seen is not None and seen.broken is not None:
            return None
        live = self._live.pop(key, None)
        rp = None
        if live is not None and seen is not None:
            label = live.label
            try:
                rp = live.update(self.store, uid, seq)
            except Exception:     # in doubt: the whole replay says what is wrong, if anything is
                rp = None
        if rp is None:
            rp, live, label = self._replay(uid, boot, g, seq)
        seen = self._seen[key]
        if live is not None and event.get("k") != "end":
            self._live[key] = live
            while len(self._live) > KEEP:
                self._live.popitem(last=False)
        new = []
        for v in rp.violations:
            vkey = (v.place, v.rule, v.reason)
            if vkey not in seen.violations:
                seen.violations.add(vkey)
                new.append(v)
        first = rp.violations[0] if rp.violations else None
        why = f"R{first.round} P{first.player + 1}: {first.reason}" if first and first.player >= 0 \
            else (f"R{first.round}: {first.reason}" if first else "")
        message = frames.score(g, rp.state.round, rp.state.scores(), len(rp.violations), why, seen.gid)
        return Verdict(label, uid, boot, event["k"], message, new)

    def _replay(self, uid: str, boot: int, g: int, seq: int | None) -> tuple[Replay, _Live | None, str]:
        """The game replayed whole from what the store holds, followed from there, its label."""
        log = self.store.game_log_of(uid, boot, g)
        if seq is not None:
            log = log.upto(boot, seq)
        key = (uid, boot, g)
        seen = self._seen.get(key)
        if seen is None:
            seen = self._seen[key] = _Seen()
            for b, earlier, _ in log.parts[:-1]:      # a resumed game is one game: found before is found
                seen.violations |= self._seen.get((uid, b, earlier), _Seen()).violations
        seen.gid = log.id or None
        try:
            data = to_record(log)
        except ConsoleLogError as exc:
            seen.broken = str(exc)
            seen.missing = exc.sx if isinstance(exc, MissingSheet) else None
            raise
        game = find_game(data["edition"])
        rp = game.replay(game.parse(data, log.label()))
        self.replays += 1
        live = _Live.of(log, rp) if self.incremental and not seen.whole else None
        seen.whole = self.incremental and live is None
        return rp, live, log.label()


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
