"""The firmware's link under CPython: the frames, against the golden vectors the host tests too
(tests/vectors/frames.json). The journal: tests/firmware/test_journal.py."""
import json
from pathlib import Path

import fw_events
import pytest

from doodle import link

VECTORS = json.loads((Path(__file__).resolve().parents[1] / "vectors" / "frames.json").read_text())


@pytest.mark.parametrize("case", VECTORS["valid"], ids=lambda c: c["message"]["t"])
def test_firmware_frames_match_golden_vectors(case):
    msg = dict(case["message"])
    assert link.encode(dict(msg)) == case["frame"].encode()
    assert link.decode(case["frame"].encode()) == (msg, None)


@pytest.mark.parametrize("case", VECTORS["invalid"], ids=lambda c: c["name"])
def test_firmware_refuses_bad_lines_with_a_reason(case):
    msg, why = link.decode(case["line"].encode())
    assert msg is None and why.startswith(case["reason"])


def test_line_splitter_drops_overlong_lines_and_keeps_the_next():
    lines = link.Lines(limit=16)
    out = lines.feed(b"x" * 40 + b"\n@ok\n")
    assert out[0][0] is None and out[1] == (b"@ok", None)


@pytest.mark.parametrize("case", [c for c in VECTORS["valid"] if c["message"]["t"] == "ev"],
                         ids=lambda c: str(c["message"]["e"].get("k")))
def test_journal_frames_written_directly_match_the_golden_vectors(case):
    m = case["message"]
    assert fw_events.frame(m["boot"], m["s"], dict(m["e"])) == case["frame"].encode()
