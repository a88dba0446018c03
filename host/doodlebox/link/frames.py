"""The host's implementation of the doodlebox link frames (docs/protocol.md)."""
from __future__ import annotations

import json
import zlib
from dataclasses import dataclass

from doodlebox.errors import InputError

VERSION = 1
MAX_FRAME = 512


class FrameError(InputError, ValueError):
    """A line that is not a usable frame; the message says why."""


def canonical(body: dict) -> bytes:
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()


def encode(kind: str, **fields) -> bytes:
    body = dict(fields, t=kind, v=VERSION)
    raw = canonical(body)
    frame = b"@" + raw + b"*" + b"%08x" % zlib.crc32(raw) + b"\n"
    if len(frame) > MAX_FRAME:
        raise FrameError(f"frame of {len(frame)} bytes exceeds {MAX_FRAME}")
    return frame


def decode(line: bytes) -> dict:
    """One line -> the message dict, or FrameError saying what is wrong with it."""
    line = line.rstrip(b"\r\n")
    if len(line) + 1 > MAX_FRAME:
        raise FrameError(f"frame longer than {MAX_FRAME} bytes")
    if not line.startswith(b"@"):
        raise FrameError("not a frame (no '@')")
    body, star, crc = line[1:].rpartition(b"*")
    if not star or len(crc) != 8:
        raise FrameError("no '*' and 8-digit checksum")
    try:
        want = int(crc, 16)
    except ValueError:
        raise FrameError("checksum is not hex") from None
    got = zlib.crc32(body)
    if got != want:
        raise FrameError(f"checksum mismatch ({got:08x}, frame says {want:08x})")
    try:
        msg = json.loads(body)
    except ValueError:
        raise FrameError("body is not JSON") from None
    if not isinstance(msg, dict) or "t" not in msg or "v" not in msg:
        raise FrameError("body lacks 't' or 'v'")
    if msg["v"] != VERSION:
        raise FrameError(f"protocol version {msg['v']}, this side speaks {VERSION}")
    return msg


@dataclass
class LineSplitter:
    """Cuts a byte stream into lines; over-long lines are dropped and reported."""

    limit: int = MAX_FRAME

    def __post_init__(self) -> None:
        self._buf = bytearray()
        self._skip = False

    def feed(self, data: bytes) -> list[bytes | FrameError]:
        out: list[bytes | FrameError] = []
        *lines, rest = data.split(b"\n")
        for part in lines:
            if self._skip or len(self._buf) + len(part) >= self.limit:
                out.append(FrameError(f"frame longer than {self.limit} bytes"))
            elif self._buf or part:
                out.append(bytes(self._buf + part))
            self._buf.clear()
            self._skip = False
        if not self._skip:
            self._buf += rest
            if len(self._buf) >= self.limit:
                self._skip = True
                self._buf.clear()
        return out
