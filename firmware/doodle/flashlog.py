# doodlebox flash log: the journal's records on flash (docs/journal.md), in segment files
# journal/NNNNNNNN.seg: a record is 0xA5, length (2), boot (4), s (4), payload, CRC-32 (4),
# little-endian. Bytes that are not a whole record are skipped (a torn write, damage). A record's
# bytes are doodle/flashrec.py (what the journal needs at every event); this module, which has them
# too, is loaded at power-up and for rare steps and let go after (RAM).
# `flash` is the board's files (board/flash.py), or a dict-backed stand-in in tests.
from doodle.flashrec import (  # noqa: F401
    DIR,
    HEAD,
    MARK,
    MAX_PAYLOAD,
    PAGE,
    RECORD_MAX,
    SUFFIX,
    TAIL,
    _crc_ok,
    _put32,
    _put_crc,
    _u32,
    read_at,
    seal,
    seg_name,
)


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


def record(boot, s, payload):
    """The bytes of one record."""
    b = bytearray(HEAD + max(len(payload), 1) + TAIL)
    put(b, 0, boot, s, payload)
    return b


def put(buf, at, boot, s, payload):
    """Write the record into buf (a bytearray with room) at `at`; returns where it ends."""
    buf[at + HEAD:at + HEAD + len(payload)] = payload
    return seal(buf, at, boot, s, len(payload))


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
