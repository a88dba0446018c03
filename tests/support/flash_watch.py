"""The console's journal folder read by the host, by the format (docs/journal.md, "Records"), not
by the firmware's code: every record written whole, by (boot, s); a write torn by a power cut
(`Watch.tear`). Used by tests/tools/vm_faults.py (make faults' VM lines) and tests/virtual/test_power_cut.py."""
from __future__ import annotations

import json
import os
import random
from pathlib import Path

from journal_bytes import MARK, SEGMENT_SUFFIX, record


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
                r = record(data, at)
                if r is None:                 # a torn or damaged part (or one being written):
                    at = data.find(MARK, at + 1)      # a whole record after it is whole all the same
                    while at >= 0 and record(data, at) is None:
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
