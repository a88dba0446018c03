"""The console's journal folder read by the host, by the format (docs/journal.md, "Records"), not
by the firmware's code: every record written whole, by (boot, s); a write torn by a power cut
(`Watch.tear`). Used by tests/vm_faults.py (make faults' VM lines) and tests/test_power_cut.py."""
from __future__ import annotations

import json
import os
import random
import zlib
from pathlib import Path

# A journal record (docs/journal.md, "Records"), read here by the format, not by the firmware's
# code: 0xA5, the payload's length n (2 bytes, 1..480), boot (4), s (4), the payload, and the
# CRC-32 of the 10 bytes after 0xA5 and the payload (4), all little-endian.
MARK, HEAD_BYTES, TAIL_BYTES, MAX_PAYLOAD = 0xA5, 11, 4, 480
SEGMENT_SUFFIX = ".seg"


def read_record(data: bytes, at: int) -> tuple[int, int, int, int, int] | None:
    """The whole record at `at`: (boot, s, payload start, payload end, next), else None."""
    if at + HEAD_BYTES + TAIL_BYTES > len(data) or data[at] != MARK:
        return None
    n = int.from_bytes(data[at + 1:at + 3], "little")
    end = at + HEAD_BYTES + n
    if not 0 < n <= MAX_PAYLOAD or end + TAIL_BYTES > len(data):
        return None
    if zlib.crc32(data[at + 1:end]) != int.from_bytes(data[end:end + TAIL_BYTES], "little"):
        return None
    return (int.from_bytes(data[at + 3:at + 7], "little"), int.from_bytes(data[at + 7:at + 11], "little"),
            at + HEAD_BYTES, end, end + TAIL_BYTES)


def read_records(data: bytes) -> list[tuple[int, int, int, int, int]]:
    """The whole records of a segment from its start, to the first that is not whole."""
    out = []
    at = 0
    while (r := read_record(data, at)) is not None:
        out.append(r)
        at = r[4]
    return out


def canonical(text: str | bytes) -> str:
    """An event's JSON, canonical (sorted keys, no spaces): a payload and the PC's body compare."""
    try:
        return json.dumps(json.loads(text), sort_keys=True, separators=(",", ":"))
    except ValueError:
        return repr(text)


class Watch:
    """The console's journal folder read by the host: every record written whole, by (boot, s),
    with its payload (a set: a reused boot number writes two records under one key)."""

    def __init__(self, flash: Path):
        self.dir = flash / "journal"
        self.files: dict[str, list] = {}     # name -> [inode, bytes read, offset parsed to]
        self.written: dict[tuple[int, int], set[str]] = {}   # (boot, s) -> the payloads (canonical)
        self.torn = 0

    def _entries(self) -> list[os.DirEntry]:
        try:
            return [e for e in os.scandir(self.dir) if e.name.endswith(SEGMENT_SUFFIX)]
        except FileNotFoundError:
            return []

    def scan(self) -> None:
        for e in self._entries():
            try:
                st = e.stat()
                known = self.files.get(e.name)
                if known is not None and known[0] == st.st_ino and len(known[1]) == st.st_size:
                    continue
                data = Path(e.path).read_bytes()
            except FileNotFoundError:        # reclaimed meanwhile (it was read before)
                continue
            if known is None or known[0] != st.st_ino or not data.startswith(known[1]):
                known = [st.st_ino, b"", 0]    # a new file (a number used again)
            at = known[2]
            while at < len(data):
                r = read_record(data, at)
                if r is None:                 # a torn or damaged part (or one being written):
                    at = data.find(MARK, at + 1)      # a whole record after it is whole all the same
                    while at >= 0 and read_record(data, at) is None:
                        at = data.find(MARK, at + 1)
                    if at < 0:
                        break
                    continue
                boot, s, a, end, at = r
                self.written.setdefault((boot, s), set()).add(canonical(data[a:end]))
                known[2] = at
            known[1] = data
            self.files[e.name] = known

    def grown(self) -> list[tuple[str, int, int, str]]:
        """The segments that grew since the last scan: (name, size then, size now, path)."""
        out = []
        for e in self._entries():
            try:
                st = e.stat()
            except FileNotFoundError:
                continue
            known = self.files.get(e.name)
            old = len(known[1]) if known is not None and known[0] == st.st_ino else 0
            if st.st_size > old:
                out.append((e.name, old, st.st_size, e.path))
        return out

    def tear(self, rng: random.Random) -> bool:
        """The power went during the last write: of the segments that grew since the last scan,
        the newest is cut at a random byte of what it gained."""
        grown = self.grown()
        if not grown:
            return False
        _, old, size, path = max(grown)
        os.truncate(path, rng.randrange(old, size))
        self.torn += 1
        return True

    def events(self) -> int:
        return sum(len(p) for p in self.written.values())
