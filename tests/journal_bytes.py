"""The journal's records read from bytes as docs/journal.md "Records" describes them, written
here apart from the firmware (doodle/flashlog.py) so the tests check the one against the doc."""
from __future__ import annotations

from binascii import crc32

MARK, HEAD, TAIL, MAX_PAYLOAD = 0xA5, 11, 4, 480


def records(data: bytes | bytearray) -> list[tuple[int, int, int, int, int]]:
    """(boot, s, payload start, payload end, next) of the whole records from the start of a
    segment's bytes, up to the first that is not whole (a torn write ends a segment)."""
    out = []
    at = 0
    while at + HEAD + TAIL <= len(data) and data[at] == MARK:
        n = int.from_bytes(data[at + 1:at + 3], "little")
        end = at + HEAD + n
        if not 0 < n <= MAX_PAYLOAD or end + TAIL > len(data):
            break
        if crc32(bytes(data[at + 1:end])) != int.from_bytes(data[end:end + TAIL], "little"):
            break
        out.append((int.from_bytes(data[at + 3:at + 7], "little"), int.from_bytes(data[at + 7:at + 11], "little"),
                    at + HEAD, end, end + TAIL))
        at = end + TAIL
    return out
