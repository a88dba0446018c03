"""The journal's records read from bytes as docs/journal.md "Records" describes them, written
here apart from the firmware (doodle/flashlog.py) on purpose, so the tests check the one against
the doc: the one reader of the format on the tests' side (tests/support/flash_watch.py, make_flash_vector.py).

A record: 0xA5, the payload's length n (2 bytes, 1..480), boot (4), s (4), the payload, and the
CRC-32 of the 10 bytes after 0xA5 and the payload (4), all little-endian."""
from __future__ import annotations

from binascii import crc32

MARK, HEAD, TAIL, MAX_PAYLOAD = 0xA5, 11, 4, 480
SEGMENT_SUFFIX = ".seg"


def record(data: bytes | bytearray, at: int) -> tuple[int, int, int, int, int] | None:
    """The whole record at `at`: (boot, s, payload start, payload end, next), else None."""
    if at + HEAD + TAIL > len(data) or data[at] != MARK:
        return None
    n = int.from_bytes(data[at + 1:at + 3], "little")
    end = at + HEAD + n
    if not 0 < n <= MAX_PAYLOAD or end + TAIL > len(data):
        return None
    if crc32(bytes(data[at + 1:end])) != int.from_bytes(data[end:end + TAIL], "little"):
        return None
    return (int.from_bytes(data[at + 3:at + 7], "little"), int.from_bytes(data[at + 7:at + 11], "little"),
            at + HEAD, end, end + TAIL)


def records(data: bytes | bytearray) -> list[tuple[int, int, int, int, int]]:
    """(boot, s, payload start, payload end, next) of the whole records from the start of a
    segment's bytes, up to the first that is not whole (a torn write ends a segment)."""
    out = []
    at = 0
    while (r := record(data, at)) is not None:
        out.append(r)
        at = r[4]
    return out
