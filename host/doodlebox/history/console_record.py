"""A game the console played, from its stored events (docs/protocol.md), as a doodlebox-record/1:
what `doodlebox export` writes and live validation replays. The dice editions' records are
docs/records.md ("From the console's log"), Deadly Doodles' docs/deadly-doodles.md and Doodle
Puzzle's docs/doodle-puzzle.md (each "From the console's log"). A game resumed after a power cut
is one game: the earlier boot's events up to the resume's `at`, then the later boot's after its
`resume` (store.GameLog).

The events are taken one at a time (ConsoleGame), the record growing as they come: to_record()
takes a whole log, live validation (logger/verdicts.py) each event as it is stored, handing the record
so far to its game's Stream (rules/*/record.py), which replays only what was added with the code
that replays a whole record. What a game's own events mean is its package's (rules/<game>/console.py,
a ConsoleRecord); this module checks what every game shares (its start, its end, a resume, the
game and boot each event belongs to) and hands the rest to the game's edition's ConsoleRecord.

The events are taken as the console sent them; only what cannot make a record at all (a claim
before its roll, an event of another game, a missing start road, a field that is not there) is
refused, with an InputError naming the game and the event. Everything a player may have done
wrong is left to the rules engine: the record is written so that validation finds it.
"""
from __future__ import annotations

from doodlebox.link.schema import COMMON as COMMON_EVENTS
from doodlebox.rules import ending
from doodlebox.rules.console import ConsoleEvent, ConsoleLogError, ConsoleRecord, Stream
from doodlebox.rules.deadly.console import DeadlyRecord
from doodlebox.rules.dice.console import DiceRecord
from doodlebox.rules.puzzle.console import PuzzleRecord
from doodlebox.rules.specs import SPECS
from doodlebox.store import GameLog

__all__ = ["ConsoleGame", "ConsoleLogError", "RecordStream", "game_of", "to_record"]

# Each game's translation (rules/<game>/console.py) by its package, and by each edition it plays
RECORDS: dict[str, type[ConsoleRecord]] = {"dice": DiceRecord, "deadly": DeadlyRecord, "puzzle": PuzzleRecord}
BY_EDITION: dict[str, type[ConsoleRecord]] = {e.edition: RECORDS[s.package] for s in SPECS for e in s.editions}
COMMON = tuple(COMMON_EVENTS)      # the events every game sends: game, refuse, end, resume
KINDS = {r: COMMON + tuple(r.EVENTS.kinds) for r in RECORDS.values()}
EVERY_KIND = tuple(dict.fromkeys(k for kinds in KINDS.values() for k in kinds))
RecordStream = Stream          # a game's Stream (rules/*/record.py)


def to_record(log: GameLog) -> dict:
    """The record of one game the console played (players "P1".."Pn"): a dice edition's (each
    turn with its "player"; "circle" only where the value circled is not the highest the drawing
    could circle, as the engine finds it), Deadly Doodles' or Doodle Puzzle's. ConsoleLogError
    when the events cannot make one."""
    return game_of(log).record()


def game_of(log: GameLog) -> ConsoleGame:
    """A log's events taken by a ConsoleGame (ConsoleLogError as to_record())."""
    if not log.events:
        raise ConsoleLogError(f"{log.label()}: no events stored")
    origins = log.origins()
    game = ConsoleGame(log.label(), log.boot, origins[0] if origins else (log.boot, log.g))
    for n, (seq, e) in enumerate(log.events):
        game.take(seq, e, origins[n])
    return game


class ConsoleGame:
    """One game the console played, taken event by event in the order the store holds them
    (`label`: GameLog.label(); `boot`: the boot it is now in; `first`: (boot, g) of its first
    part): each event checked as it comes (ConsoleLogError naming it), the record built as it
    goes. record() is the record, so_far() the record as a Stream replays it while the game is
    played."""

    def __init__(self, label: str, boot: int, first: tuple[int, int]):
        self.label, self.boot, self.part = label, boot, first
        self.game: ConsoleRecord | None = None
        self.ended: int | None = None
        self.early = False        # its `end` says the table stopped it (ruling G1)
        self.hints = False        # its `game` says the table turned the PC's hints on (a dice edition's)
        self.bots: list[int] = []  # ... and the seats the PC played (docs/console.md, "The PC's seats")
        self.taken = 0

    def take(self, seq: int, e: dict, origin: tuple[int, int]) -> None:
        """Event `seq` of the boot and game `origin`; ConsoleLogError when it cannot be part of
        the record (nothing can be taken after that)."""
        n, self.taken = self.taken, self.taken + 1
        game = self.game
        kind = e.get("k") if isinstance(e, dict) else None
        boot, g = origin
        where = f"{self.label}: event {seq}" + (f" of boot {boot}" if boot != self.boot else "") + f" ({kind})"
        ev = ConsoleEvent(where, seq, str(kind), e if isinstance(e, dict) else {})
        if kind == "refused":      # the host stored what it could not take in its place (link/session.py)
            raise ev.bad(f"the host refused the console's frame ({e.get('why')}): {str(e.get('frame'))[:160]}")
        known = KINDS[type(game)] if game is not None else EVERY_KIND
        if kind not in known:
            raise ev.bad(f"not an event of {game.EVENTS.name if game else 'any game'} "
                         f"(known: {', '.join(known)})")
        if e.get("g") != g:
            raise ev.bad(f"an event of game {e.get('g')} of the boot, not of game {g}")
        if (boot, g) != self.part:    # the game goes on in a later boot: it begins with its resume
            if kind != "resume" or e.get("of") != list(self.part):
                raise ev.bad(f"game {g} of boot {boot} goes on with game {self.part[1]} of boot {self.part[0]} "
                             "without a resume event saying so")
            self.part = (boot, g)
            return
        if kind == "resume":
            raise ev.bad(f"it resumes game {_of(e)[1]} of boot {_of(e)[0]}, which is not stored" if n == 0
                         else "a resume in the middle of the game's own events")
        if game is None:
            if kind != "game":
                raise ev.bad("the game's first event is not its start (`game`): its start was not stored")
            ed = e.get("ed")
            if not isinstance(ed, str) or ed not in BY_EDITION:
                raise ev.bad(f"{ed!r} is not a game ({', '.join(BY_EDITION)})")
            self.game = BY_EDITION[ed](ev)
            self.hints = e.get("hint") == 1 and isinstance(self.game, DiceRecord)
            if isinstance(self.game, DiceRecord):
                self.bots = list(e.get("bots") or ())
            return
        if kind == "game":
            raise ev.bad("a second start of the same game")
        if self.ended is not None and kind != "refuse":
            raise ev.bad(f"after the game's end (event {self.ended})")
        if kind == "end":
            self.ended = seq
            self.early = e.get("why") in ending.EARLY_REASONS
        elif kind != "refuse":       # a refused press changed nothing
            game.take(ev)

    def record(self) -> dict:
        """The record of the events taken; a game the table ended with MENU says "ended": "early"
        (ruling G1, rules/ending.py), a dice game played with the PC's hints "hints": true, and with
        the PC's seats "bots": their players (0-based)."""
        assert self.game is not None
        out = self.game.record(self.label)
        if self.early:
            out[ending.FIELD] = ending.FIELD_EARLY
        if self.hints:
            out["hints"] = True
        if self.bots:
            out["bots"] = list(self.bots)
        return out

    def so_far(self) -> dict:
        """The record of the events taken as its game's Stream replays it, made cheaply: the same
        replay as record()'s (a dice claim's value circled is kept even where it is the highest,
        which the replay circles anyway), and only ever grown by take() while the game is played."""
        assert self.game is not None
        return self.game.so_far()

    def stream(self) -> RecordStream:
        """A Stream of this game's record (rules/*/record.py), begun with the record so far."""
        assert self.game is not None
        return self.game.stream(self.label)


def _of(e: dict) -> tuple:
    of = e.get("of")
    return tuple(of) if isinstance(of, list) and len(of) == 2 else ("?", "?")
