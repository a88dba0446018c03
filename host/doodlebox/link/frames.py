"""The host's implementation of the doodlebox link frames (docs/protocol.md): encode, and a
strict decode (the checksum as 8 lowercase hex digits, printable ASCII, JSON without floats,
NaN, Infinity or a key twice, then every field as link/schema.py describes it)."""
from __future__ import annotations

import json
import unicodedata
import zlib
from dataclasses import dataclass

from doodlebox.errors import InputError
from doodlebox.link import schema

VERSION = 5
VERSIONS = (4, 5)   # the host also speaks version 4 to a console of version 4 (docs/protocol.md, "Versions")
MAX_FRAME = 512
WHY_MAX = 60      # the score message's `why`: what the console's panel has room for
INT_DIGITS = 10   # no field is above 2**31 - 1: longer numbers are refused before they are made


class FrameError(InputError, ValueError):
    """A line that is not a usable frame; the message says why."""


class EventRefused(FrameError):
    """An event frame that is whole (its checksum, version, `boot` and `s` are right) but whose
    event is not one the protocol allows: the console sent it as it is and would send it again
    until it is acknowledged (docs/protocol.md, "An event the host refuses"). `boot`, `s`, `g`
    (the game it names, or None) and `line` say which and what."""

    def __init__(self, why: str, boot: int, s: int, g: int | None, line: bytes):
        super().__init__(why)
        self.boot, self.s, self.g, self.line = boot, s, g, line


class VersionError(FrameError):
    """A frame of another protocol version; `version` is the one it says, `kind` its type."""

    def __init__(self, version: object, kind: object = None):
        super().__init__(f"protocol version {version}, this side speaks {' and '.join(map(str, VERSIONS))}")
        self.version = version
        self.kind = kind


def canonical(body: dict) -> bytes:
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()


def encode(kind: str, *, v: int = VERSION, **fields) -> bytes:
    """The frame of a message of type `kind` in protocol version `v`."""
    body = dict(fields, t=kind, v=v)
    raw = canonical(body)
    frame = b"@" + raw + b"*" + b"%08x" % zlib.crc32(raw) + b"\n"
    if len(frame) > MAX_FRAME:
        raise FrameError(f"frame of {len(frame)} bytes exceeds {MAX_FRAME}")
    return frame


_HEX = frozenset(b"0123456789abcdefABCDEF")
_LOWER_HEX = frozenset(b"0123456789abcdef")
_PRINTABLE = bytes(range(0x20, 0x7F))


class _Refused(ValueError):
    pass


def _no_float(text: str) -> None:
    raise _Refused(f"a number that is not a whole number ({text[:24]})")


def _no_constant(text: str) -> None:
    raise _Refused(f"{text} is not a number the link carries")


def _whole(text: str) -> int:
    if len(text.lstrip("-")) > INT_DIGITS:
        raise _Refused(f"a number of {len(text.lstrip('-'))} digits")
    return int(text)


def _object(pairs: list[tuple[str, object]]) -> dict:
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set[str] = set()
        twice = next(k for k, _ in pairs if k in seen or seen.add(k))   # type: ignore[func-returns-value]
        raise _Refused(f"the key {twice!r} twice")
    return out


_JSON = json.JSONDecoder(object_pairs_hook=_object, parse_float=_no_float, parse_constant=_no_constant,
                         parse_int=_whole)


def decode(line: bytes) -> dict:
    """One line -> the message dict, or FrameError saying what is wrong with it (VersionError
    for a frame of another protocol version)."""
    line = line.rstrip(b"\r\n")
    if len(line) + 1 > MAX_FRAME:
        raise FrameError(f"frame longer than {MAX_FRAME} bytes")
    if not line.startswith(b"@"):
        raise FrameError("not a frame (no '@')")
    body, star, crc = line[1:].rpartition(b"*")
    if not star or len(crc) != 8:
        raise FrameError("no '*' and 8-digit checksum")
    if not _HEX.issuperset(crc):
        raise FrameError("checksum is not hex")
    if not _LOWER_HEX.issuperset(crc):
        raise FrameError(f"checksum is not lowercase hex ({crc.decode()})")
    got = zlib.crc32(body)
    if got != int(crc, 16):
        raise FrameError(f"checksum mismatch ({got:08x}, frame says {crc.decode()})")
    if body.translate(None, _PRINTABLE):
        raise FrameError("body is not printable ASCII")
    try:
        msg = _JSON.decode(body.decode("ascii"))
    except _Refused as exc:
        _event_refused(f"body refused: {exc}", body, line)
        raise FrameError(f"body refused: {exc}") from None
    except (ValueError, RecursionError):
        raise FrameError("body is not JSON") from None
    if not isinstance(msg, dict) or "t" not in msg or "v" not in msg:
        raise FrameError("body lacks 't' or 'v'")
    v = msg["v"]
    if type(v) is not int:
        raise FrameError(f"'v' is {schema.show(v)}, not a version number")
    if v not in VERSIONS:
        raise VersionError(v, msg["t"] if type(msg["t"]) is str else None)
    try:
        schema.check(msg)
        if v < VERSION:
            _older(msg)
        return msg
    except schema.SchemaError as exc:
        if msg["t"] == "ev":
            _event_refused(str(exc), body, line)
        raise FrameError(str(exc)) from None


def _older(msg: dict) -> None:
    """A frame of version 4 has nothing of version 5's: no message of the table's sheets, no `game`
    event naming a sheet."""
    if msg["t"] in schema.V5_MESSAGES:
        raise schema.SchemaError(f"{msg['t']!r} is a message of protocol version 5, in a frame of version {msg['v']}")
    e = msg.get("e")
    if msg["t"] == "ev" and isinstance(e, dict) and e.get("k") == "game" and ("sh" in e or "sx" in e):
        raise schema.SchemaError(f"e(game) names a sheet (protocol version 5) in a frame of version {msg['v']}")


class _Once(dict):
    """An object of the lenient reading that had a key twice."""


def _lenient(pairs: list[tuple[str, object]]) -> dict:
    out = dict(pairs)
    return _Once(out) if len(out) != len(pairs) else out


_LENIENT = json.JSONDecoder(object_pairs_hook=_lenient, parse_constant=lambda text: None)


def _event_refused(why: str, body: bytes, line: bytes) -> None:
    """EventRefused when `body` (checksum right, printable ASCII) is an event frame of this
    version whose envelope is right (exactly t, v, boot and s in range, and e), whatever is
    wrong inside its event; nothing when the envelope itself is not (then no one can say which
    event it is)."""
    try:
        msg = _LENIENT.decode(body.decode("ascii"))
    except (ValueError, RecursionError):
        return
    if type(msg) is not dict or set(msg) != {"t", "v", "boot", "s", "e"} or msg["t"] != "ev":
        return
    boot, s, v = msg["boot"], msg["s"], msg["v"]
    if type(v) is not int or v not in VERSIONS or type(boot) is not int or type(s) is not int:
        return
    if not (0 <= boot <= schema.INT32 and 1 <= s <= schema.INT32):
        return
    e = msg["e"]
    g = e.get("g") if isinstance(e, dict) else None
    raise EventRefused(why, boot, s, g if type(g) is int and 1 <= g <= schema.INT32 else None, line)


_PUNCTUATION = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u2013": "-",
                              "\u2014": "-", "\u2026": "...", "\u00d7": "x"})


def short_ascii(text: str, limit: int = WHY_MAX) -> str:
    """`text` as printable ASCII of at most `limit` characters: accents dropped, typographic
    quotes and dashes plain, other characters as '?', runs of blanks as one space, cut with
    "..." when too long."""
    flat = " ".join(unicodedata.normalize("NFKD", text.translate(_PUNCTUATION)).split())
    out = "".join(ch if " " <= ch <= "~" else ("" if unicodedata.combining(ch) else "?") for ch in flat)
    return out if len(out) <= limit else out[:limit - 3].rstrip() + "..."


def score(g: int, r: int, totals: list[int], bad: int, why: str = "", gid: int | None = None) -> dict:
    """The host's `score` message (docs/protocol.md): the PC's totals for game `g` of the
    console's current boot after round `r`, how many violations it found, the first in a few
    words (printable ASCII, at most WHY_MAX characters), and the store's number of the game
    (`id`, when it has one: the number `doodlebox games` and the page give it)."""
    msg = {"t": "score", "g": int(g), "r": int(r), "p": [int(x) for x in totals], "bad": int(bad),
           "why": short_ascii(why)}
    if gid:
        msg["id"] = int(gid)
    return msg


def hint(g: int, text: str) -> dict:
    """The host's `hint` message (docs/protocol.md): the PC's hint for game `g` of the console's
    current boot, in printable ASCII of at most schema.HINT_MAX characters."""
    return {"t": "hint", "g": int(g), "text": short_ascii(text, schema.HINT_MAX)}


def bot(g: int, p: int, m: list[int] | None, text: str) -> dict:
    """The host's `bot` message (docs/protocol.md): the PC's move `m` for its seat `p` in game `g`
    ([die, row, col, face, value], [] for a tree; None: no move, the table enters the turn) and
    the panel's text for it."""
    msg: dict = {"t": "bot", "g": int(g), "p": int(p), "text": short_ascii(text, schema.HINT_MAX)}
    if m is not None:
        msg["m"] = [int(x) for x in m]
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
