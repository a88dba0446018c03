"""The host end of the link: hello (and the boots it holds), store-then-ack, duplicates, conflicts
and gaps (docs/protocol.md), and the frames the host sends of its own (the PC's scores, its hints), from
any thread.

What one read brings is handled as a batch: its events are committed in one transaction, then
each boot gets one `ack` of the highest event committed (and a `nak` where a gap was seen).
While the database is locked or full the batch is retried with back-off, and nothing of it is
acknowledged until it is committed. Every ack follows Store.check_file() (append_many makes it
after its commit; the keepalive before it sends): no ack for a database deleted or replaced."""
from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol, TypeVar

from doodlebox.errors import DoodleboxError
from doodlebox.link import frames
from doodlebox.store import Store, StoreError

T = TypeVar("T")
READ_MAX = 65536
HI_EVERY = 0.5          # s: at most one `hi` this often when the console's state is unknown
KEEPALIVE = 2.0         # s: with nothing sent for this long, an `ack` of what is held says "still here"
RETRY_FIRST = 0.05      # s: the first wait when the database is locked or full ...
RETRY_MAX = 5.0         # ... doubled up to this
REMIND_EVERY = 60.0     # s: while it lasts, say so again this often


class LinkError(DoodleboxError):
    """A problem a person can act on; printed as one line."""


class OtherConsole(Exception):
    """A hello of another console than the one followed (HostLink.expect_uid): nothing of it is
    stored or acknowledged."""

    def __init__(self, uid: str):
        super().__init__(uid)
        self.uid = uid


class Stopped(Exception):
    """The link was asked to stop while it waited for the database."""


class Port(Protocol):
    def read(self, size: int = 1) -> bytes: ...
    def write(self, data: bytes) -> int | None: ...


@dataclass
class Console:
    uid: str
    fw: str
    boot: int
    held: dict[int, tuple[int, int]] = field(default_factory=dict)   # boot -> (first, next) as the hello said
    protocol: int = frames.VERSION       # the version its hello spoke: 4 takes no sheets (docs/protocol.md)


@dataclass
class HostLink:
    port: Port
    store: Store
    on_event: Callable[[Console, int, int, dict], None] = lambda c, b, s, e: None   # console, boot, s, event
    on_note: Callable[[str], None] = lambda text: None
    stopping: Callable[[], bool] = lambda: False
    console: Console | None = None
    expect_uid: str | None = None        # a hello of another uid: OtherConsole (doodlebox log follows one)
    # the console's `hint?` and `bot?` (docs/protocol.md): called in the link thread, must return at
    # once (logger/answers.py answers from a thread of its own); None: the request is said, not answered
    on_ask: Callable[[Console, dict], None] | None = None
    # the console's `sheets` and `got` (the table's sheets, docs/protocol.md): called in the link thread,
    # must return at once (logger/sheets.py); None: said
    on_sheets: Callable[[Console, dict], None] | None = None
    counts: dict = field(default_factory=lambda: {"stored": 0, "duplicate": 0, "gap": 0, "bad": 0, "noise": 0,
                                                  "refused": 0, "retries": 0, "conflict": 0, "held": 0})

    def __post_init__(self) -> None:
        self._lines = frames.LineSplitter()
        self._write_lock = threading.Lock()   # one frame at a time on the port, whichever thread sends
        self._pending: list[tuple[int, int, dict]] = []
        self._reported: set[bytes] = set()
        self._versions: set[object] = set()
        self._hi_at = -HI_EVERY
        self.last_ack: dict[int, int] = {}    # boot -> the highest s acknowledged in this session
        self._conflicts: set[tuple[int, int]] = set()   # (boot, s) said to be another event than the one stored
        self._sent_at = time.monotonic()      # when a frame last went to the console
        self.version = frames.VERSION         # the protocol spoken: the console's, once it says it

    def _write(self, frame: bytes) -> None:
        with self._write_lock:
            self.port.write(frame)
            self._sent_at = time.monotonic()

    def send(self, msg: dict) -> None:
        """Send one message to the console (a dict with "t", e.g. frames.score(...)); safe to call
        from any thread while the link thread reads and acknowledges. FrameError for a message
        that cannot be a frame (too long)."""
        fields = dict(msg)
        kind = fields.pop("t")
        fields.pop("v", None)
        self._write(frames.encode(kind, v=self.version, **fields))

    def handshake(self, timeout: float = 5.0) -> Console:
        """Send hi until a hello arrives; events that come first are handled as usual. A console
        that answers with a hello of another protocol version: LinkError saying what to update."""
        deadline = time.monotonic() + timeout
        next_hi = 0.0
        while self.console is None:
            now = time.monotonic()
            if now >= deadline:
                raise LinkError(f"the console did not answer within {timeout:g} s "
                                "(is it a doodlebox running its firmware?)")
            if now >= next_hi:
                self._write(frames.encode("hi", v=self.version))
                self._hi_at = now
                next_hi = now + 1.0
            self.poll()
        return self.console

    def _read(self) -> bytes:
        """What is waiting, without waiting longer than the port's timeout for the first byte
        (a pyserial port: read(1) returns as soon as a byte comes, then the rest that waits)."""
        port = self.port
        waiting = getattr(port, "in_waiting", None)
        if waiting is None:
            return port.read(READ_MAX)
        if waiting:
            return port.read(min(waiting, READ_MAX))
        data = port.read(1)
        if data:
            more = getattr(port, "in_waiting", 0)
            if more:
                data += port.read(min(more, READ_MAX))
        return data

    def poll(self) -> int:
        """Read what is waiting and handle it; returns the number of messages handled."""
        data = self._read()
        if not data:
            self._keepalive()
            return 0
        handled = 0
        for item in self._lines.feed(data):
            if isinstance(item, frames.FrameError):
                self._bad(str(item), b"")
                continue
            try:
                msg = frames.decode(item)
            except frames.VersionError as exc:
                self._other_version(exc, item)
                continue
            except frames.EventRefused as exc:
                self._bad(str(exc), item)
                self._pending.append((exc.boot, exc.s, refused_event(exc)))
                continue
            except frames.FrameError as exc:
                self._bad(str(exc), item)
                continue
            if msg["t"] == "ev":
                self._pending.append((msg["boot"], msg["s"], msg["e"]))
            else:
                self._flush()
                self._handle(msg)
            handled += 1
        self._flush()
        return handled

    def _keepalive(self) -> None:
        """An idle link: the console counts a PC gone 5 s after its last frame (its panel then
        says "offline"), so a quiet host repeats its `ack` of the highest event it holds of the
        console's current boot (0: none yet) every KEEPALIVE s (docs/protocol.md)."""
        console = self.console
        if console is None or time.monotonic() - self._sent_at < KEEPALIVE:
            return
        self.store.check_file()      # an ack says "stored in the file you named": still that file?
        s = self.last_ack.get(console.boot)
        if s is None:
            # nothing acknowledged yet in this session: nothing the console still holds is
            # acknowledged unseen (what the store holds at its place may be another event)
            first = console.held.get(console.boot, (1, 1))[0]
            try:
                s = min(self.store.next_seq(console.uid, console.boot), first) - 1
            except StoreError:       # the database is busy: "still here" is said with nothing acked
                s = 0
        self._write(frames.encode("ack", v=self.version, boot=console.boot, s=max(0, s)))

    def _other_version(self, exc: frames.VersionError, line: bytes) -> None:
        """A frame of another protocol version is ignored (docs/protocol.md); a console that
        answers the handshake with one is of that version: LinkError."""
        if exc.kind == "hello" and self.console is None:
            raise LinkError(version_problem(exc.version))
        self.counts["bad"] += 1
        if exc.version not in self._versions and len(self._versions) < 16:
            self._versions.add(exc.version)
            self.on_note(f"a frame of protocol version {exc.version} ignored: {version_problem(exc.version)}")

    def _bad(self, why: str, line: bytes) -> None:
        """Counted every time; said once per distinct line (the console sends a frame again and
        again until it is acknowledged)."""
        if line.startswith(b"@") or not line:
            self.counts["bad"] += 1
            text = f"bad frame: {why}: {line[:80]!r}" if line else f"bad frame: {why}"
        else:
            self.counts["noise"] += 1
            text = f"console says: {line.decode('ascii', 'replace')[:120]}"
        key = line[:200] or why.encode()
        if key in self._reported:
            return
        if len(self._reported) >= 1024:
            self._reported.clear()
        self._reported.add(key)
        self.on_note(text)

    def _hi(self) -> None:
        """Ask the console who it is (at most every HI_EVERY s): its hello says what it holds."""
        now = time.monotonic()
        if now - self._hi_at >= HI_EVERY:
            self._hi_at = now
            self._write(frames.encode("hi", v=self.version))

    def _handle(self, msg: dict) -> None:
        t = msg["t"]
        if t == "hello":
            self._hello(msg)
        elif t == "test":  # the console's self-test (MENU held at boot; docs/protocol.md)
            details = " ".join(f"{k}={v}" for k, v in msg.items() if k not in ("t", "v", "step"))
            self.on_note(f"self-test {msg['step']}: {details}")
        elif t == "err":
            if msg["v"] < self.version and self.console is None:
                # a console of an older version refused our `hi`: it is asked again in its version
                self.version = msg["v"]
                self._hi_at = -HI_EVERY
                self._hi()
                return
            self.on_note(f"the console refused a frame: {msg['why']}")
            if self.on_sheets is not None and self.console is not None:
                self.on_sheets(self.console, msg)      # a sheet it could not take (docs/protocol.md)
        elif t == "sheets" or t == "got":
            if self.on_sheets is not None and self.console is not None:
                self.on_sheets(self.console, msg)
            elif t == "sheets":
                self.on_note(f"the console holds {len(msg['held'])} sheet(s) of the table's own")
        elif t == "hint?" or t == "bot?":
            if self.on_ask is not None and self.console is not None:
                self.on_ask(self.console, msg)
            else:
                what = "a hint" if t == "hint?" else f"P{msg['p'] + 1}'s move"
                self.on_note(f"the console asked for {what} in game {msg['g']}: not answered here")
        else:
            self.on_note(f"unexpected message type {t!r}")

    def _hello(self, msg: dict) -> None:
        if self.expect_uid is not None and msg["uid"] != self.expect_uid:
            raise OtherConsole(msg["uid"])
        boot, first, nxt = msg["boot"], msg["first"], msg["next"]
        held = [(b, f, n) for b, f, n in msg["held"] if b != boot] + [(boot, first, nxt)]
        said = self._retrying(lambda: self.store.hello(msg["uid"], msg["fw"], held), "recording the hello")
        if said is None:
            return
        self.version = msg["v"]
        self.console = Console(msg["uid"], msg["fw"], boot, {b: (f, n) for b, f, n in held}, msg["v"])
        self._hi_at = -HI_EVERY      # answered: the next question may come at once
        for gap in said.gaps:
            self.on_note(f"events {gap.first}..{gap.last} of boot {gap.boot} are no longer held by the console "
                         "(another host acknowledged them); not here")
        for b, console_next, store_next in said.behind:
            self.on_note(f"boot {b}: the console numbers its events up to {console_next - 1} but this database holds "
                         f"up to {store_next - 1} (its journal was lost, or another console has its id); each event "
                         "it sends is compared with the one stored at its place: another one is a conflict, kept "
                         "apart and not acknowledged")

    def _flush(self) -> None:
        """Commit the pending events in one transaction, then acknowledge: per boot, an `ack` of
        the highest event held, and a `nak` from the one expected where a gap was seen."""
        batch, self._pending = self._pending, []
        if not batch:
            return
        console = self.console
        if console is None:
            self._hi()        # events before any hello: who is it, and what does it hold?
            return
        mine = [item for item in batch if item[0] <= console.boot]
        if len(mine) < len(batch):
            self._hi()        # a boot after the hello's: the console rebooted; its new hello first
        if mine:
            self._commit(console, mine)

    def _commit(self, console: Console, mine: list[tuple[int, int, dict]]) -> None:
        results = self._retrying(lambda: self.store.append_many(console.uid, mine), "storing events")
        if results is None:
            return
        held: dict[int, int] = {}      # boot -> the highest s held after the batch
        acked: set[int] = set()         # boots with an event stored or seen again: acknowledged
        dropped: dict[int, int] = {}    # boot -> the highest s dropped as a gap
        for (boot, seq, _), r in zip(mine, results):
            self.counts[r.status] += 1
            held[boot] = r.ack
            if r.status == "gap":
                dropped[boot] = max(seq, dropped.get(boot, 0))
            elif r.status == "conflict":
                self._conflict(console, boot, seq)
            elif r.status != "held":
                acked.add(boot)
        for boot, top in held.items():
            if boot in acked:
                self._write(frames.encode("ack", v=self.version, boot=boot, s=top))
                self.last_ack[boot] = top
            if dropped.get(boot, 0) > top:      # a frame dropped as a gap is still missing: send again from it
                self._write(frames.encode("nak", v=self.version, boot=boot, s=top + 1))
        for (boot, seq, event), r in zip(mine, results):
            if r.status == "stored":
                if event.get("k") == "refused":
                    self.counts["refused"] += 1
                self.on_event(console, boot, seq, event)

    def _conflict(self, console: Console, boot: int, seq: int) -> None:
        """Said once per event: another event is stored at its place. It is kept apart (the
        store's `conflicts` table), not acknowledged, and nothing after it of its boot is: the
        console keeps it and sends it again."""
        if (boot, seq) in self._conflicts:
            return
        if len(self._conflicts) >= 1024:
            self._conflicts.clear()
        self._conflicts.add((boot, seq))
        self.on_note(f"console {console.uid} boot {boot} event {seq} is not the event {self.store.path} holds under "
                     "that number (two consoles with one id?): kept apart (the conflicts table), not acknowledged; "
                     "the console keeps it and every later event of its boot")

    def _retrying(self, work: Callable[[], T], doing: str) -> T | None:
        """work() until it succeeds; while the database is locked or full, again after a wait
        that doubles (RETRY_FIRST..RETRY_MAX), saying so; None when the link is stopped
        meanwhile. Any other StoreError is raised."""
        wait = RETRY_FIRST
        began = last_said = 0.0
        while True:
            try:
                out = work()
            except StoreError as exc:
                if not exc.transient:
                    raise
                now = time.monotonic()
                if not began:
                    began = last_said = now
                    self.on_note(f"{exc}; {doing}: retrying, nothing is acknowledged until it is stored")
                elif now - last_said >= REMIND_EVERY:
                    last_said = now
                    self.on_note(f"still retrying after {now - began:.0f} s: {exc}")
                self.counts["retries"] += 1
                end = now + wait
                while time.monotonic() < end:
                    if self.stopping():
                        return None
                    time.sleep(min(0.05, max(0.0, end - time.monotonic())))
                wait = min(wait * 2, RETRY_MAX)
                continue
            if began:
                self.on_note(f"{self.store.path}: the database took the events again after "
                             f"{time.monotonic() - began:.1f} s; {doing}: done")
            return out


def refused_event(exc: frames.EventRefused) -> dict:
    """What is stored in the place of an event the schema refuses (docs/protocol.md, "An event
    the host refuses"): kind `refused`, why, the frame as the console sent it and, where it named
    one, its game. Stored and acknowledged like any event, so the console goes on with the next;
    the game it belongs to then makes no record, and says why."""
    event: dict = {"k": "refused", "why": str(exc), "frame": exc.line.decode("ascii", "replace")}
    if exc.g is not None:
        event["g"] = exc.g
    return event


def version_problem(version: object) -> str:
    """What a person does about a console of another protocol version, in one line."""
    if isinstance(version, int) and not isinstance(version, bool) and version < min(frames.VERSIONS):
        return (f"the console speaks protocol version {version}; this doodlebox needs {frames.VERSION}: "
                "update its firmware with doodlebox flash")
    return (f"the console speaks protocol version {version}; this doodlebox speaks {frames.VERSION}: "
            "update doodlebox (or flash the firmware that came with it: doodlebox flash)")
