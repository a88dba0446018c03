"""The table's sheets sent to a console (docs/protocol.md, "The table's sheets"; docs/sheets.md): after
each hello the console says what it holds (`sheets`); each sheet the table chose (`doodlebox sheets
use`) that it lacks is sent, chunk by chunk, stop and wait (`got`), again after 1 s without an
answer and 5 times at most; then the choices made since the console last took one (`use`). A
sheet sent is kept in the store, so the games played on it are validated on it; so is a sheet a
game names that the library holds. Everything here runs in the link thread and returns at once."""
from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass

from doodlebox.link.session import Console, HostLink
from doodlebox.sheets import console as console_form
from doodlebox.sheets import library
from doodlebox.store import Store, StoreError

RESEND_AFTER = 1.0      # s without a `got`: the chunk again
TRIES = 5               # ... at most this often; then the sheet is said not to have arrived


@dataclass
class _Sending:
    sheet: library.Sheet
    frames: list[dict]
    next: int = 0
    sent_at: float = 0.0
    tries: int = 0
    began: float = 0.0


class Courier:
    """The table's sheets for one console's link (a LinkThread's): `begin(link)` as a session
    begins, `hello(console)` once its handshake is made, `on_sheets(console, msg)` for the console's
    `sheets`, `got` and `err`, `tick()` as the link polls."""

    def __init__(self, on_note: Callable[[str], None], clock: Callable[[], float] = time.monotonic):
        self.on_note = on_note
        self.clock = clock
        self.link: HostLink | None = None
        self.store: Store | None = None
        self.queue: list[library.Sheet] = []        # to send, in order
        self.uses: list[tuple[str, str, int]] = []  # (game, hash or "", at) to tell once the sheets are there
        self.sending: _Sending | None = None
        self.told_old: set[str] = set()             # consoles of version 4 told that they take no sheets
        self.chosen: dict[str, library.Sheet] = {}  # the table's choices it last went by ({game: sheet})
        self.sent = 0                               # sheets that arrived, this run
        self.failed: list[str] = []                 # the sheets that did not arrive, said
        self.unmade: set[str] = set()               # hashes of the sheets that cannot be made for a console

    # -- the session ------------------------------------------------------------------------------
    def begin(self, link: HostLink) -> None:
        """A new session (before its handshake: the console's `sheets` may come with its hello)."""
        self.link, self.store = link, link.store
        self.queue, self.uses, self.sending = [], [], None

    def hello(self, console: Console) -> None:
        """The handshake made: a console of version 4 is said once, when the table chose sheets."""
        if console.protocol < 5 and console.uid not in self.told_old and self._wanted():
            self.told_old.add(console.uid)
            self.on_note(f"console {console.uid} runs firmware {console.fw} (protocol {console.protocol}): it cannot "
                         "take the table's sheets and plays the defaults; update it with `doodlebox flash`")

    def _wanted(self) -> dict[str, library.Sheet]:
        """{game: sheet} of the table's choices that can be used (a problem said, the default played)."""
        try:
            chosen = library.choices()
        except library.SheetError as exc:
            self.on_note(f"the table's sheets: {exc}")
            return {}
        out = {}
        for game, (name, _) in chosen.items():
            try:
                sheet = library.find(name)
            except library.SheetError as exc:
                self.on_note(f"the table's sheet for {game}: {exc}; the default is played")
                continue
            if library.game_of(sheet) != game:     # the name given since to another game's sheet
                self.on_note(f"the table's sheet for {game}, {name}, is now a sheet of {library.game_of(sheet)}: "
                             f"the default is played (choose again: doodlebox sheets use NAME)")
                continue
            out[game] = sheet
        self.chosen = dict(out)
        return out

    def on_sheets(self, console: Console, msg: dict) -> None:
        t = msg["t"]
        if t == "sheets":
            self._held(console, msg)
        elif t == "got":
            self._got(msg)
        elif t == "err" and self.sending is not None and self.sending.sheet.hash in msg["why"]:
            self._failed(msg["why"])

    def _held(self, console: Console, msg: dict) -> None:
        """What the console holds: the sheets it lacks queued (room made by dropping the ones the
        table no longer chose), the choices it has not taken."""
        held = {x: (ed, n) for ed, n, x in msg["held"]}
        if self.sending is not None:
            if self.sending.sheet.hash in held:     # the last chunk's answer: it arrived
                s = self.sending.sheet
                self.sent += 1
                self.on_note(f"sheet {s.name} (hash {s.hash}) sent to console {console.uid}: it holds it now "
                             f"({len(self.sending.frames)} frames, {self.clock() - self.sending.began:.1f} s)")
                self.sending = None
            else:
                return                               # a `sheets` sent for another reason mid-way: go on
        wanted = self._wanted()
        chosen = {s.hash for s in wanted.values() if not s.default}
        self.queue = [s for s in wanted.values() if not s.default and s.hash not in held and s.hash not in self.unmade]
        room = console_form.MOST_HELD - len(held)
        for x in [x for x in held if x not in chosen][:max(0, len(self.queue) - room)]:
            self._send({"t": "drop", "x": x})
            self.on_note(f"sheet {held[x][1]} dropped from console {console.uid} (not the table's choice; "
                         f"room for the ones it is)")
        try:
            when = {g: at for g, (_, at) in library.choices().items()}
        except library.SheetError:
            when = {}
        self.uses = sorted(((g, "" if s.default else s.hash, when.get(g, 0)) for g, s in wanted.items()
                            if when.get(g, 0) > msg["at"] and s.hash not in self.unmade), key=lambda u: u[2])
        self._next()

    def _next(self) -> None:
        """The next sheet, or once all are there, the choices."""
        if self.sending is not None:
            return
        while self.queue:
            sheet = self.queue.pop(0)
            try:
                frames = console_form.frames(sheet)
            except Exception as exc:
                self._unmade(sheet, exc)
                continue
            self._keep(sheet)
            self.sending = _Sending(sheet, frames, began=self.clock())
            self._chunk()
            return
        for game, x, at in self.uses:
            self._send({"t": "use", "ed": game, "x": x, "at": at})
        self.uses = []

    def _chunk(self) -> None:
        s = self.sending
        assert s is not None
        s.sent_at, s.tries = self.clock(), s.tries + 1
        self._send(s.frames[s.next])

    def _got(self, msg: dict) -> None:
        s = self.sending
        if s is None or msg["x"] != s.sheet.hash:
            return
        i = msg["i"]
        if i >= len(s.frames):
            return                                   # all there: its `sheets` says it is kept
        if i == s.next and self.clock() - s.sent_at < RESEND_AFTER / 2:
            return                                   # the answer to a chunk sent twice: the one sent is on its way
        s.next, s.tries = i, 0
        self._chunk()

    def tick(self) -> None:
        s = self.sending
        if s is None or self.clock() - s.sent_at < RESEND_AFTER:
            return
        if s.tries >= TRIES:
            self._failed(f"no answer to chunk {s.next + 1} of {len(s.frames)} after {TRIES} tries")
            return
        self._chunk()

    def _unmade(self, sheet: library.Sheet, exc: Exception) -> None:
        """A sheet whose console form cannot be made: too big (SheetError), or one the check passed
        and the generator cannot make (a bug). Said once a run, never sent, and not chosen: the
        console plays the default (a choice of a sheet it lacks is answered with its `sheets`,
        which would queue it again: a note and a `use` at every answer, without end)."""
        self.unmade.add(sheet.hash)
        self.uses = [u for u in self.uses if u[1] != sheet.hash]
        if isinstance(exc, library.SheetError):
            self.on_note(f"{exc}; the console plays the default")
        else:
            self.on_note(f"sheet {sheet.name!r} cannot be made for the console ({exc!r}, a bug in "
                         "doodlebox): not sent; the console plays the default")

    def _failed(self, why: str) -> None:
        s = self.sending
        assert s is not None
        self.sending = None
        text = f"sheet {s.sheet.name} (hash {s.sheet.hash}) did not arrive: {why}; the console keeps the sheets " \
               "it had, and it is sent again at its next hello"
        self.failed.append(text)
        self.on_note(text)
        self.uses = [u for u in self.uses if u[1] != s.sheet.hash]    # not a choice of a sheet it lacks
        self._next()

    def _send(self, msg: dict) -> None:
        if self.link is not None:
            self.link.send(msg)

    # -- the store ---------------------------------------------------------------------------------
    def _keep(self, sheet: library.Sheet) -> None:
        """The sheet in the store (its games are validated on it); a store that cannot take it now is
        said, and a game on it finds it in the library later."""
        if self.store is None:
            return
        try:
            self.store.add_sheet(sheet.hash, library.game_of(sheet), sheet.name, json.dumps(sheet.data))
        except StoreError as exc:
            self.on_note(f"sheet {sheet.name} not kept in the database now: {exc}")

    def game(self, event: dict) -> None:
        """A `game` event naming a sheet: the sheet put in the store from the library, if the store
        lacks it (a sheet sent by another PC, or before this run)."""
        x = event.get("sx")
        if not x or self.store is None:
            return
        try:
            if self.store.sheet(x) is not None:
                return
        except StoreError:
            return
        for s in library.sheets():
            if s.hash == x and not s.problem:
                self._keep(s)
                return
