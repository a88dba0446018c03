# doodlebox flash log: the journal's records on flash (docs/journal.md), in segment files
# journal/NNNNNNNN.seg: a record is 0xA5, length (2), boot (4), s (4), payload, CRC-32 (4),
# little-endian. Bytes that are not a whole record are skipped (a torn write, damage).
# `flash` is the board's files (board/flash.py), or a dict-backed stand-in in tests.
from binascii import crc32

MARK = 0xA5
HEAD = 11            # mark, length, boot, s
TAIL = 4             # CRC-32
MAX_PAYLOAD = 480
RECORD_MAX = HEAD + MAX_PAYLOAD + TAIL
DIR = "journal/"
SUFFIX = ".seg"


def seg_name(n):
    return DIR + "%08d" % n + SUFFIX


def seg_number(name):
    """The number in a segment's file name, or -1 for another file."""
    base = name[len(DIR):] if name.startswith(DIR) else name
    if not base.endswith(SUFFIX) or len(base) != 8 + len(SUFFIX):
        return -1
    digits = base[:8]
    for c in digits:
        if c < "0" or c > "9":
            return -1
    return int(digits)


def _u32(b, at):
    return b[at] | b[at + 1] << 8 | b[at + 2] << 16 | b[at + 3] << 24


def _put32(b, at, v):
    b[at] = v & 255
    b[at + 1] = v >> 8 & 255
    b[at + 2] = v >> 16 & 255
    b[at + 3] = v >> 24 & 255


# A CRC-32 is a big integer in MicroPython (over 30 bits): each operation on it allocates, so
# it is split in two 16-bit halves at once.
def _put_crc(b, at, c):
    lo = c & 0xFFFF
    hi = c >> 16
    b[at] = lo & 255
    b[at + 1] = lo >> 8
    b[at + 2] = hi & 255
    b[at + 3] = hi >> 8


def _crc_ok(b, at, c):
    return c & 0xFFFF == b[at] | b[at + 1] << 8 and c >> 16 == b[at + 2] | b[at + 3] << 8


def record(boot, s, payload):
    """The bytes of one record."""
    b = bytearray(HEAD + max(len(payload), 1) + TAIL)
    put(b, 0, boot, s, payload)
    return b


def put(buf, at, boot, s, payload):
    """Write the record into buf (a bytearray with room) at `at`; returns where it ends."""
    buf[at + HEAD:at + HEAD + len(payload)] = payload
    return seal(buf, at, boot, s, len(payload))


def seal(buf, at, boot, s, n):
    """The record whose n-byte payload is already in buf at at + HEAD: its header and CRC
    written around it; returns where it ends."""
    if not 0 < n <= MAX_PAYLOAD:
        raise ValueError("a record's payload is 1 to %d bytes" % MAX_PAYLOAD)
    buf[at] = MARK
    buf[at + 1] = n & 255
    buf[at + 2] = n >> 8
    _put32(buf, at + 3, boot)
    _put32(buf, at + 7, s)
    end = at + HEAD + n
    _put_crc(buf, end, crc32(memoryview(buf)[at + 1:end]))
    return end + TAIL


def read_at(data, at):
    """The record starting at `at` in `data`: (boot, s, payload start, payload end, next), or
    None when there is no whole record there."""
    if at + HEAD + TAIL > len(data) or data[at] != MARK:
        return None
    n = data[at + 1] | data[at + 2] << 8
    if not 0 < n <= MAX_PAYLOAD or at + HEAD + n + TAIL > len(data):
        return None
    end = at + HEAD + n
    if not _crc_ok(data, end, crc32(memoryview(data)[at + 1:end])):
        return None
    return _u32(data, at + 3), _u32(data, at + 7), at + HEAD, end, end + TAIL


PAGE = 1024          # segments are read through a buffer this big (at least one whole record)


def scan(flash, name, page, fn, start=0):
    """Read segment `name` from byte `start` through `page` (a bytearray of PAGE bytes), a
    window at a time, and call fn(page, boot, s, a, e, at) for each whole record: its payload
    is page[a:e], `at` is where the record starts in the file; fn returns True to stop there.
    Bytes that are not a whole record are skipped to the next whole one (a CRC-32 must match:
    a flipped byte costs only its own record). Returns (where the last whole record read ends
    in the file, damaged bytes skipped): a part at the end shorter than one record is a write
    torn by a power cut, not counted as damage."""
    pos = start          # the file's byte at page[0]
    n = flash.readinto(name, page, pos)
    at = 0
    end = start
    bad = -1             # where the run of damaged bytes began (file offset), -1: none
    skipped = 0
    view = memoryview(page)[:n]
    while True:
        if n - at < RECORD_MAX and n == len(page):      # the window runs out: read on from at
            pos += at
            n = flash.readinto(name, page, pos)
            at = 0
            view = memoryview(page)[:n]
        if at >= n:
            break
        r = read_at(view, at)
        if r is None:
            if bad < 0:
                bad = pos + at
            k = page.find(b"\xa5", at + 1, n)
            at = n if k < 0 else k
            continue
        if bad >= 0:
            skipped += pos + at - bad
            bad = -1
        boot, s, a, e, nxt = r
        if fn(page, boot, s, a, e, pos + at):
            return pos + at, skipped
        end = pos + nxt
        at = nxt
    if bad >= 0 and pos + n - bad >= RECORD_MAX:
        skipped += pos + n - bad
    return end, skipped


def segments(flash):
    """The segment numbers on flash, oldest first."""
    nums = []
    for name in flash.files(DIR):
        n = seg_number(name)
        if n >= 0:
            nums.append(n)
    nums.sort()
    return nums


class RamFlash:
    """Files in RAM with the board's Flash interface (board/flash.py): for a console with no
    flash, tests and benchmarks. `cut` makes the next append write only that many bytes, as
    a power cut during a write would."""

    def __init__(self):
        self.data = {}
        self.cut = -1

    def load(self, name):
        d = self.data.get(name)
        return None if d is None else bytes(d).decode()

    def save(self, name, text):
        self.data[name] = bytearray(text.encode())
        return True

    def files(self, folder):
        return [n for n in self.data if n.startswith(folder)]

    def readinto(self, name, buf, at=0):
        d = self.data.get(name, b"")[at:at + len(buf)]
        buf[:len(d)] = d
        return len(d)


    def append(self, name, data):
        if self.cut >= 0:
            data = data[:self.cut]
            self.cut = -1
        if name not in self.data:
            self.data[name] = bytearray()
        self.data[name].extend(data)

    def remove(self, name):
        self.data.pop(name, None)
