# doodlebox link frames: canonical JSON lines with a CRC-32 (docs/protocol.md).
# Pure code: runs on the Pico, in the MicroPython VM and under CPython.
import json
from binascii import crc32

from doodle import drop, load

try:
    from micropython import const
except ImportError:  # CPython without the tests' stand-in (tests/support/fakeconsole.py)
    def const(x):  # type: ignore[misc]
        return x

VERSION = 5
MAX_FRAME = 512


def quiet(ev):
    """The emit of a game being played again from the journal: its events are sent already."""


def dump(obj, room=4096):
    """Canonical JSON: sorted keys, no spaces, ASCII, ints only (as str)."""
    b = bytearray(room)
    return bytes(memoryview(b)[:_put(obj, b, 0)]).decode()


# encode() writes a frame into this one buffer by position, so a frame costs one allocation
# (its bytes); keys and words are written a character at a time and a dict's keys are taken in
# order without a list. Nothing is kept between frames (RAM: a cache of the keys and words the
# frames used grew to ~1.4 KB in a game just begun, more as it went on).
_buf = bytearray(MAX_FRAME)
_mv = memoryview(_buf)


def _put(obj, b, n):
    """Write obj's JSON into b from position n; returns the position after it."""
    if isinstance(obj, bool) or obj is None:
        return _raw(b, n, b"true" if obj is True else b"false" if obj is False else b"null")
    if isinstance(obj, int):
        return _int(obj, b, n)
    if isinstance(obj, str):
        return _str(obj, b, n)
    if isinstance(obj, dict):
        b[n] = 123  # {
        k = None
        for _ in range(len(obj)):   # the keys in order, each the least after the last: nothing allocated
            last, k = k, None
            for key in obj:
                if (last is None or key > last) and (k is None or key < k):
                    k = key
            n = _str(k, b, n + 1)
            b[n] = 58  # :
            n = _put(obj[k], b, n + 1)
            b[n] = 44  # ,
        b[n if obj else n + 1] = 125  # } (over the last comma)
        return n + 1 if obj else n + 2
    if isinstance(obj, (list, tuple)):
        b[n] = 91  # [
        for v in obj:
            n = _put(v, b, n + 1)
            b[n] = 44  # ,
        b[n if obj else n + 1] = 93  # ] (over the last comma)
        return n + 1 if obj else n + 2
    raise ValueError("cannot encode " + type(obj).__name__)


def _raw(b, n, data):
    k = len(data)
    if n + k > len(b):
        raise ValueError("frame longer than %d bytes" % len(b))
    b[n:n + k] = data
    return n + k


def _int(v, b, n):
    """The decimal digits of v, written into b without a string."""
    if v < 0:
        b[n] = 45
        n += 1
        v = -v
    start = n
    while True:
        b[n] = 48 + v % 10
        n += 1
        v //= 10
        if not v:
            break
    i, j = start, n - 1
    while i < j:
        b[i], b[j] = b[j], b[i]
        i += 1
        j -= 1
    return n


put_int = _int


def _str(s, b, n):
    b[n] = 34
    end = put_ascii(s, b, n + 1)
    if end < 0:                                   # control, non-ASCII, quote or backslash
        text = load("link_json").dumps(s)         # (rare: loaded for it and let go)
        drop("link_json")
        return _raw(b, n, text.encode())
    b[end] = 34
    return end + 1


def put_ascii(s, b, n):
    """Write str s into b at n, a character at a time (nothing allocated); the position after
    it, or -1 if s needs escaping in JSON."""
    k = len(s)
    if n + k > len(b):
        raise ValueError("frame longer than %d bytes" % len(b))
    for i in range(k):
        c = ord(s[i])
        if c < 32 or c > 126 or c == 34 or c == 92:
            return -1
        b[n + i] = c
    return n + k


def encode(msg):
    """msg (a dict with "t") -> one frame as bytes, "v" added."""
    msg["v"] = VERSION
    _buf[0] = 64  # @
    return _finish(_put(msg, _buf, 1))


def put_event(event, b, n):
    """Write an event's canonical JSON into bytearray b from position n (a journal record's
    payload, docs/journal.md); returns the position after it."""
    return _put(event, b, n)


def event_frame(boot, s, payload):
    """The frame of journal event s of `boot` whose canonical JSON is `payload` (bytes or a
    memoryview, as the journal read it back from flash)."""
    b = _buf
    n = _raw(b, 0, b'@{"boot":')
    n = _int(boot, b, n)
    n = _raw(b, n, b',"e":')
    n = _raw(b, n, payload)
    n = _raw(b, n, b',"s":')
    n = _int(s, b, n)
    n = _raw(b, n, b',"t":"ev","v":')
    n = _int(VERSION, b, n)
    b[n] = 125  # }
    return _finish(n + 1)


_HEX = const(b"0123456789abcdef")


def _finish(n):
    """The CRC after the body in _buf[1:n], the end of line; the frame as bytes."""
    b = _buf
    crc = crc32(_mv[1:n])
    if n + 10 > len(b):
        raise ValueError("frame longer than %d bytes" % len(b))
    b[n] = 42  # *
    half = crc >> 16          # a big integer in MicroPython: split once, the digits from small ones
    k = 12
    while k >= 0:
        n += 1
        b[n] = _HEX[(half >> k) & 15]
        k -= 4
    half = crc & 0xFFFF
    k = 12
    while k >= 0:
        n += 1
        b[n] = _HEX[(half >> k) & 15]
        k -= 4
    b[n + 1] = 10
    return bytes(_mv[:n + 2])


# why a line is refused, beyond its length: doodle/reasons.py's FRAME[why] (a line refused is rare:
# the texts are not kept in RAM)
_NO_AT = const(0)
_NO_CRC = const(1)
_CRC_HEX = const(2)
_CRC = const(3)
_JSON = const(4)
_FIELDS = const(5)
_VERSION = const(6)


def _bad(why, *a):
    """(None, the text of `why` with `a` put in): doodle/reasons.py is loaded for it and let go."""
    text = load("reasons").FRAME[why] % a
    drop("reasons")
    return None, text


def decode(line):
    """One line (bytes, without or with its \\n) -> (msg, None) or (None, reason)."""
    line = line.rstrip(b"\r\n")
    if len(line) + 1 > MAX_FRAME:
        return None, "frame longer than %d bytes" % MAX_FRAME
    if not line.startswith(b"@"):
        return _bad(_NO_AT)
    star = line.rfind(b"*")
    if star < 0 or len(line) - star != 9:
        return _bad(_NO_CRC)
    body = line[1:star]
    try:
        want = int(line[star + 1:], 16)
    except ValueError:
        return _bad(_CRC_HEX)
    got = crc32(body)
    if got != want:
        return _bad(_CRC, got, want)
    try:
        msg = json.loads(body)
    except ValueError:
        return _bad(_JSON)
    if not isinstance(msg, dict) or "t" not in msg or "v" not in msg:
        return _bad(_FIELDS)
    if msg["v"] != VERSION:
        return _bad(_VERSION, msg["v"], VERSION)
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
