"""The host's implementation of the doodlebox link frames (docs/protocol.md)."""
from __future__ import annotations

import json
import unicodedata
import zlib
from dataclasses import dataclass

from doodlebox.errors import InputError

VERSION = 2
MAX_FRAME = 512
WHY_MAX = 60      # the score message's `why`: what the console's panel has room for


class FrameError(InputError, ValueError):
    """A line that is not a usable frame; the message says why."""


class VersionError(FrameError):
    """A frame of another protocol version; `version` is the one it says."""

    def __init__(self, version: object):
        super().__init__(f"protocol version {version}, this side speaks {VERSION}")
        self.version = version


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
        raise VersionError(msg["v"])
    return msg


_PUNCTUATION = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u2013": "-",
                              "\u2014": "-", "\u2026": "...", "\u00d7": "x"})


def short_ascii(text: str, limit: int = WHY_MAX) -> str:
    """`text` as printable ASCII of at most `limit` characters: accents dropped, typographic
    quotes and dashes plain, other characters as '?', runs of blanks as one space, cut with
    "..." when too long."""
    flat = " ".join(unicodedata.normalize("NFKD", text.translate(_PUNCTUATION)).split())
    out = "".join(ch if " " <= ch <= "~" else ("" if unicodedata.combining(ch) else "?") for ch in flat)
    return out if len(out) <= limit else out[:limit - 3].rstrip() + "..."


def score(g: int, r: int, totals: list[int], bad: int, why: str = "") -> dict:
    """The host's `score` message (docs/protocol.md): the PC's totals for game `g` of the
    console's current boot after round `r`, how many violations it found, the first in a few
    words (printable ASCII, at most WHY_MAX characters)."""
    return {"t": "score", "g": int(g), "r": int(r), "p": [int(x) for x in totals], "bad": int(bad),
            "why": short_ascii(why)}


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
