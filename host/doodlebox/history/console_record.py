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

A game played on a sheet of the table's own names it in its `game` event (`sh` its name, `sx` its
hash: docs/protocol.md): the sheet is looked up by its hash (`sheets`: the store's, GameLog.sheets)
and the record carries it whole (a dice record's "layout", Deadly Doodles' "map"), so every command
and view that reads the record plays that sheet. A sheet the lookup does not have, or whose content
does not hash to `sx` (it is never used), makes no record: a ConsoleLogError naming the game, the
sheet and what to do.
"""
from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from doodlebox.link.schema import COMMON as COMMON_EVENTS
from doodlebox.rules import ending
from doodlebox.rules.console import ConsoleEvent, ConsoleLogError, ConsoleRecord, Stream
from doodlebox.rules.deadly.console import DeadlyRecord
from doodlebox.rules.dice.console import DiceRecord
from doodlebox.rules.puzzle.console import PuzzleRecord
from doodlebox.rules.specs import SPECS
from doodlebox.store import GameLog, sheet_hash

__all__ = ["ConsoleGame", "ConsoleLogError", "MissingSheet", "RecordStream", "game_of", "to_record"]

# Each game's translation (rules/<game>/console.py) by its package, and by each edition it plays
RECORDS: dict[str, type[ConsoleRecord]] = {"dice": DiceRecord, "deadly": DeadlyRecord, "puzzle": PuzzleRecord}
BY_EDITION: dict[str, type[ConsoleRecord]] = {e.edition: RECORDS[s.package] for s in SPECS for e in s.editions}
COMMON = tuple(COMMON_EVENTS)      # the events every game sends: game, refuse, end, resume
KINDS = {r: COMMON + tuple(r.EVENTS.kinds) for r in RECORDS.values()}
EVERY_KIND = tuple(dict.fromkeys(k for kinds in KINDS.values() for k in kinds))
RecordStream = Stream          # a game's Stream (rules/*/record.py)
Sheets = Callable[[str], Any]   # a sheet's hash -> its data (parsed JSON), or None when it is not held
# what to do about a sheet that is not held (the library's command; a sync brings the venue's sheets)
MISSING_SHEET = "add it to this PC's library: doodlebox sheets add FILE, or sync from the PC that sent it"


def _none(_: str) -> Any:
    return None


class MissingSheet(ConsoleLogError):
    """A game played on a sheet of the table's own that the lookup does not hold (`sx`, its hash):
    it makes a record once the sheet is there (game_records and live validation try again)."""

    def __init__(self, text: str, sx: str):
        super().__init__(text)
        self.sx = sx


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
    game = ConsoleGame(log.label(), log.boot, origins[0] if origins else (log.boot, log.g), log.sheets.get)
    for n, (seq, e) in enumerate(log.events):
        game.take(seq, e, origins[n])
    return game


class ConsoleGame:
    """One game the console played, taken event by event in the order the store holds them
    (`label`: GameLog.label(); `boot`: the boot it is now in; `first`: (boot, g) of its first
    part): each event checked as it comes (ConsoleLogError naming it), the record built as it
    goes. record() is the record, so_far() the record as a Stream replays it while the game is
    played. `sheets`: the sheets of the table's own it may name, by hash (GameLog.sheets; none
    when not given)."""

    def __init__(self, label: str, boot: int, first: tuple[int, int], sheets: Sheets | None = None):
        self.label, self.boot, self.part = label, boot, first
        self.sheets: Sheets = sheets or _none
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
            record = BY_EDITION[ed]
            self.game = record(ev, self._sheet(ev, record), str(e.get("sh", "")))
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

    def _sheet(self, ev: ConsoleEvent, record: type[ConsoleRecord]) -> Any:
        """The sheet of the table's own the `game` event names (`sh`, `sx`), found by its hash;
        None for the edition's default (neither). ConsoleLogError when it cannot be played on: one
        of them without the other, a game played on no sheet, a sheet not held, or one whose
        content does not hash to `sx` (never used)."""
        e = ev.e
        if "sh" not in e and "sx" not in e:
            return None
        name, sx = e.get("sh"), e.get("sx")
        if not record.EVENTS.sheets:
            raise ev.bad(f"it names a sheet ({name!r}), and {record.EVENTS.name} is played on no sheet")
        if not isinstance(name, str) or not isinstance(sx, str):
            raise ev.bad(f"a sheet's name {name!r} and hash {sx!r}: both are needed")
        data = self.sheets(sx)
        if data is None:
            raise MissingSheet(f"{ev.where}: it was played on the sheet {name!r} (hash {sx}), which this PC does "
                               f"not hold: {MISSING_SHEET}", sx)
        found = sheet_hash(data)
        if found != sx:
            raise ev.bad(f"the sheet {name!r} given for hash {sx} hashes to {found}: not used")
        return copy.deepcopy(data)       # the record's own (a record may be changed: its names)

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
