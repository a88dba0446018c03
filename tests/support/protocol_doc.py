"""docs/protocol.md's event tables as the tests read them."""
from __future__ import annotations

import re
from pathlib import Path

PROTOCOL = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


def event_table(heading: str) -> dict[str, set[str]]:
    """The event table under the line `heading` ("### Deadly Doodles", "## Events (`ev.e`)"):
    kind -> the fields it lists (the lowercase words in backticks of its fields column, what is
    in parentheses left out)."""
    section = PROTOCOL.read_text().split(heading)[1].split("\n#")[0]
    out = {}
    for line in section.splitlines():
        cells = line.split("|")
        if len(cells) > 3 and re.fullmatch(r" `\w+` ", cells[1]):
            listed = re.sub(r"\([^)]*\)", "", cells[2])
            out[cells[1].strip(" `")] = set(re.findall(r"`([a-z]+)`", listed))
    return out
