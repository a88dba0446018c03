# doodlebox journal records' bytes (docs/journal.md): a record made in place and read back, and a
# segment file's name: what the journal does at every event. A record is 0xA5, length (2), boot
# (4), s (4), payload, CRC-32 (4), little-endian. doodle/flashlog.py has the rest (a segment read
# through, the segments listed, a RAM stand-in for the flash): loaded at power-up and for rare
# steps, let go after (RAM).
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
