"""`layout check`, `sheets add` and the page's sheet editor read files a person made (docs/layouts.md,
docs/deadly-doodles.md): whatever value stands anywhere in a sheet or a map side, the checker says
what is wrong and where, and never fails itself (a list where a word was crashed it: an unhashable
value in a group's kinds, an entryway's side; a number where the solo ranks were)."""
from __future__ import annotations

import copy
import json

import pytest

from doodlebox.rules import datafiles
from doodlebox.sheets import library

ODD = [[], {}, [[1]], None, "x", 1.5, True, -1, {"a": [1]}, [{"x": 1}], 10**20, "", [None]]


def places(value, at=()):
    yield at
    if isinstance(value, dict):
        for k, v in value.items():
            yield from places(v, (*at, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from places(v, (*at, i))


def with_value(data, at, new):
    if not at:
        return new
    out = copy.deepcopy(data)
    here = out
    for k in at[:-1]:
        here = here[k]
    here[at[-1]] = new
    return out


@pytest.mark.parametrize("name", ["city", "treasures", "shanghai", "deadly-a"])
def test_any_value_anywhere_is_a_problem_said_never_a_crash(name):
    data = json.loads(library.DEFAULTS[name].read_text())
    for at in places(data):
        for odd in ODD:
            _what, problems = datafiles.check(with_value(data, at, odd))
            for where, text in problems:
                assert isinstance(where, str) and isinstance(text, str) and text
