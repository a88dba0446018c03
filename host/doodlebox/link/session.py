"""The host end of the link: hello, store-then-ack, duplicates and gaps (docs/protocol.md), and
the frames the host sends of its own (the PC's scores), from any thread."""
from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from doodlebox.errors import DoodleboxError
from doodlebox.link import frames
from doodlebox.store import Store


class LinkError(DoodleboxError):
    """A problem a person can act on; printed as one line."""


class Port(Protocol):
    def read(self, size: int = 1) -> bytes: ...
    def write(self, data: bytes) -> int | None: ...


@dataclass
class Console:
    uid: str
    fw: str
    boot: int


@dataclass
class HostLink:
    port: Port
    store: Store
    on_event: Callable[[Console, int, int, dict], None] = lambda c, b, s, e: None   # console, boot, s, event
    on_note: Callable[[str], None] = lambda text: None
    console: Console | None = None
    counts: dict = field(default_factory=lambda: {"stored": 0, "duplicate": 0, "gap": 0, "bad": 0, "noise": 0})

    def __post_init__(self) -> None:
        self._lines = frames.LineSplitter()
        self._write_lock = threading.Lock()   # one frame at a time on the port, whichever thread sends

    def _write(self, frame: bytes) -> None:
        with self._write_lock:
            self.port.write(frame)

    def send(self, msg: dict) -> None:
        """Send one message to the console (a dict with "t", e.g. frames.score(...)); safe to call
        from any thread while the link thread reads and acknowledges. FrameError for a message
        that cannot be a frame (too long)."""
        fields = dict(msg)
        kind = fields.pop("t")
        fields.pop("v", None)
        self._write(frames.encode(kind, **fields))

    def handshake(self, timeout: float = 5.0) -> Console:
        """Send hi until a hello arrives; events that come first are handled as usual."""
        deadline = time.monotonic() + timeout
        next_hi = 0.0
        while self.console is None:
            now = time.monotonic()
            if now >= deadline:
                raise LinkError(f"the console did not answer within {timeout:g} s "
                                "(is it a doodlebox running its firmware?)")
            if now >= next_hi:
                self._write(frames.encode("hi"))
                next_hi = now + 1.0
            self.poll()
        return self.console

    def poll(self) -> int:
        """Read what is waiting and handle it; returns the number of messages handled."""
        data = self.port.read(4096)
        if not data:
            return 0
        handled = 0
        for item in self._lines.feed(data):
            if isinstance(item, frames.FrameError):
                self._bad(str(item), b"")
                continue
            try:
                msg = frames.decode(item)
            except frames.VersionError as exc:
                raise LinkError(version_problem(exc.version)) from None
            except frames.FrameError as exc:
                self._bad(str(exc), item)
                continue
            self._handle(msg)
            handled += 1
        return handled

    def _bad(self, why: str, line: bytes) -> None:
        if line.startswith(b"@") or not line:
            self.counts["bad"] += 1
            self.on_note(f"bad frame: {why}: {line[:80]!r}")
        else:
            self.counts["noise"] += 1
            self.on_note(f"console says: {line.decode('ascii', 'replace')[:120]}")

    def _handle(self, msg: dict) -> None:
        t = msg["t"]
        if t == "hello":
            try:
                self.console = Console(str(msg["uid"]), str(msg["fw"]), int(msg["boot"]))
                gap = self.store.console_seen(self.console.uid, self.console.fw, self.console.boot, int(msg["first"]))
            except (KeyError, TypeError, ValueError) as exc:
                self._bad(f"hello without {exc}", b"@")
                return
            if gap is not None:
                self.on_note(f"events {gap}..{int(msg['first']) - 1} of boot {self.console.boot} were "
                             "acknowledged by another host; not here")
            return
        if t == "ev":
            if self.console is None:
                self._write(frames.encode("hi"))
                return
            try:
                boot, seq, event = int(msg["boot"]), int(msg["s"]), msg["e"]
                if not isinstance(event, dict):
                    raise TypeError("e")
            except (KeyError, TypeError, ValueError) as exc:
                self._bad(f"event without a valid {exc}", b"@")
                return
            result = self.store.append(self.console.uid, boot, seq, event)
            self.counts[result.status] += 1
            if result.status == "gap":
                self._write(frames.encode("nak", boot=boot, s=result.ack + 1))
                return
            self._write(frames.encode("ack", boot=boot, s=result.ack))
            if result.status == "stored":
                self.on_event(self.console, boot, seq, event)
            return
        if t == "test":  # the console's self-test (MENU held at boot; docs/protocol.md)
            details = " ".join(f"{k}={v}" for k, v in msg.items() if k not in ("t", "v", "step"))
            self.on_note(f"self-test {msg.get('step', '?')}: {details}")
            return
        if t == "err":
            self.on_note(f"the console refused a frame: {msg.get('why')}")
            return
        self.on_note(f"unexpected message type {t!r}")


def version_problem(version: object) -> str:
    """What a person does about a console of another protocol version, in one line."""
    if isinstance(version, int) and not isinstance(version, bool) and version < frames.VERSION:
        return (f"the console speaks protocol version {version}; this doodlebox needs {frames.VERSION}: "
                "update its firmware with make flash")
    return (f"the console speaks protocol version {version}; this doodlebox speaks {frames.VERSION}: "
            "update doodlebox (or flash the firmware that came with it: make flash)")
