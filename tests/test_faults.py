"""The short version of `make faults` (tests/faults.py --short): every kind of fault the host
meets, against the shipped `doodlebox log` and a console that keeps its events until they are
acknowledged; nothing lost, nothing stored twice, no crash, no corrupt event stored."""
from __future__ import annotations

import random

import pytest

import faults

SHORT = {name: (fault, quick) for name, fault, _, quick in faults.FAULTS}


@pytest.mark.parametrize("name", list(SHORT))
def test_fault(name):
    fault, quick = SHORT[name]
    r = fault(quick, random.Random(f"{name} 11"))
    assert r is not None, f"{name}: tests/faults.py {fault.__name__} gave no result"
    assert not faults.failed(r), faults.line(r)


def test_a_fault_line_says_what_went_wrong():
    ok = {"what": "logger killed", "tried": 3, "lost": 0, "duplicated": 0, "wrong": 0, "events": 1200,
          "finished": True}
    assert faults.line(ok) == "logger killed: 3 tried, lost 0, duplicated 0 (1,200 events)" and not faults.failed(ok)
    for bad in ({"lost": 2}, {"duplicated": 1}, {"wrong": 1}, {"finished": False}, {"acked_before_stored": 1},
                {"said": 0}):
        assert faults.failed(dict(ok, **bad)), bad
    fuzz = {"what": "fuzzed frames", "tried": 100_000, "crashes": 0, "corrupt events accepted": 0, "decoded": 9,
            "stored": 3, "refused": 1, "bad": 99_991}
    assert faults.line(fuzz).startswith("fuzzed frames: 100,000 tried, crashes 0, corrupt events accepted 0")
    assert faults.failed(dict(fuzz, crashes=1)) and faults.failed(dict(fuzz, **{"corrupt events accepted": 1}))
