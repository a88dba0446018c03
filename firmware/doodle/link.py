# doodlebox link frames: canonical JSON lines with a CRC-32 (docs/protocol.md).
# Pure code: runs on the Pico, in the MicroPython VM and under CPython.
import json
from binascii import crc32

VERSION = 2
MAX_FRAME = 512


def dump(obj):
    """Canonical JSON: sorted keys, no spaces, ASCII, ints only."""
    if isinstance(obj, dict):
        return "{" + ",".join(json.dumps(k) + ":" + dump(obj[k]) for k in sorted(obj)) + "}"
    if isinstance(obj, (list, tuple)):
        return "[" + ",".join(dump(x) for x in obj) + "]"
    if obj is True:
        return "true"
    if obj is False:
        return "false"
    if obj is None:
        return "null"
    if isinstance(obj, int):
        return str(obj)
    if isinstance(obj, str):
        return _ascii(json.dumps(obj))
    raise ValueError("cannot encode " + type(obj).__name__)


def _ascii(s):
    # MicroPython's json.dumps leaves non-ASCII as is; escape it ourselves.
    for ch in s:
        if ord(ch) > 126:
            break
    else:
        return s
    out = []
    for ch in s:
        o = ord(ch)
        if o > 126:
            if o > 0xFFFF:
                o -= 0x10000
                out.append("\\u%04x\\u%04x" % (0xD800 + (o >> 10), 0xDC00 + (o & 0x3FF)))
            else:
                out.append("\\u%04x" % o)
        else:
            out.append(ch)
    return "".join(out)


def encode(msg):
    """msg (a dict with "t") -> one frame as bytes, "v" added."""
    msg["v"] = VERSION
    body = dump(msg).encode()
    return b"@" + body + b"*" + (b"%08x" % (crc32(body) & 0xFFFFFFFF)) + b"\n"


def decode(line):
    """One line (bytes, without or with its \\n) -> (msg, None) or (None, reason)."""
    line = line.rstrip(b"\r\n")
    if len(line) + 1 > MAX_FRAME:
        return None, "frame longer than %d bytes" % MAX_FRAME
    if not line.startswith(b"@"):
        return None, "not a frame (no '@')"
    star = line.rfind(b"*")
    if star < 0 or len(line) - star != 9:
        return None, "no '*' and 8-digit checksum"
    body = line[1:star]
    try:
        want = int(line[star + 1:], 16)
    except ValueError:
        return None, "checksum is not hex"
    got = crc32(body) & 0xFFFFFFFF
    if got != want:
        return None, "checksum mismatch (%08x, frame says %08x)" % (got, want)
    try:
        msg = json.loads(body)
    except ValueError:
        return None, "body is not JSON"
    if not isinstance(msg, dict) or "t" not in msg or "v" not in msg:
        return None, "body lacks 't' or 'v'"
    if msg["v"] != VERSION:
        return None, "protocol version %s, this side speaks %d" % (msg["v"], VERSION)
    return msg, None


class Lines:
    """Splits a byte stream into lines; drops and reports over-long ones."""

    def __init__(self, limit=MAX_FRAME):
        self.limit = limit
        self._buf = bytearray()
        self._skip = False

    def feed(self, data):
        """Returns [(line, None) for each complete line, (None, reason) for a dropped one]."""
        out = []  # type: list[tuple[bytes | None, str | None]]
        start = 0
        while True:
            nl = data.find(b"\n", start)
            end = len(data) if nl < 0 else nl
            if not self._skip:
                self._buf.extend(data[start:end])
                if len(self._buf) >= self.limit:
                    self._skip = True
                    self._buf = bytearray()
            if nl < 0:
                return out
            if self._skip:
                out.append((None, "frame longer than %d bytes" % self.limit))
                self._skip = False
            elif self._buf:
                out.append((bytes(self._buf), None))
                self._buf = bytearray()
            start = nl + 1
