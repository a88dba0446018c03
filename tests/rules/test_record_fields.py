"""Records refuse fields they do not know, at every level, naming the field and where it is, and
docs/records.md lists exactly the fields each reader knows (issue 18). The fields come from the
readers' own declarations (FIELDS next to each parser), so neither the doc nor the readers can
drift from them."""
from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest
from cli_run import doodlebox

from doodlebox.cli import main
from doodlebox.rules import datafiles
from doodlebox.rules.common import KnownFields, RecordError, unknown_field
from doodlebox.rules.deadly import record as deadly_record
from doodlebox.rules.dice import record as dice_record
from doodlebox.rules.puzzle import record as puzzle_record

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden"
LAYOUTS = ROOT / "host" / "doodlebox" / "layouts"

# The record families, each with its reader and the title docs/records.md gives its tables.
FAMILIES = {"dice": (dice_record, "Dice editions"), "deadly": (deadly_record, "Deadly Doodles"),
            "puzzle": (puzzle_record, "Doodle Puzzle")}


def golden(name: str) -> dict:
    data: dict = json.loads((GOLDEN / name).read_text())
    return data


def full_dice() -> dict:
    return golden("monsters-kraken.json")


def full_deadly() -> dict:
    """A golden game with a tally too: its drawings are then the Traps only (ruling D14)."""
    data = golden("deadly-traps.json")
    for rd in data["rounds"]:
        rd["drawings"] = [[a for a in d if "trap" in a] for d in rd["drawings"]]
    counts = dict.fromkeys(deadly_record.FIELDS["tallies[]"], 0)
    data["tallies"] = [counts] + [None] * (len(data["players"]) - 1)
    return data


def full_puzzle() -> dict:
    """A golden Showdown game whose first round also set a subject aside and was timed."""
    data = golden("puzzle-showdown.json")
    rd = data["rounds"][0]
    rd["rejected"] = [{"number": 3, "card": 5}]
    rd["timer"] = {"start_ms": 1000, "end_ms": 61000, "paused_ms": 0}
    return data


FULL = {"dice": full_dice, "deadly": full_deadly, "puzzle": full_puzzle}


def objects_at(data: Any, pattern: str) -> list[tuple[str, dict]]:
    """(place, object) for every object at a place pattern of KnownFields ("rounds[].turns[]")."""
    found: list[tuple[str, Any]] = [("", data)]
    for step in pattern.split(".") if pattern else []:
        name, lists = step.rstrip("[]"), step.count("[]")
        found = [(f"{w}.{name}" if w else name, o[name]) for w, o in found if isinstance(o, dict) and name in o]
        for _ in range(lists):
            found = [(f"{w}[{i}]", x) for w, o in found if isinstance(o, list) for i, x in enumerate(o)]
    return [(w, o) for w, o in found if isinstance(o, dict)]


def test_objects_at_finds_the_places():
    data = {"rounds": [{"turns": [{}, {"a": 1}]}, {"turns": []}], "x": {"y": {}}}
    assert objects_at(data, "") == [("", data)]
    assert [w for w, _ in objects_at(data, "rounds[].turns[]")] == ["rounds[0].turns[0]", "rounds[0].turns[1]"]
    assert [w for w, _ in objects_at(data, "x.y")] == ["x.y"]
    assert objects_at(data, "rounds[].roll") == []


# -- (1) an unknown field at every level of every family is refused, with its name and place -------------
@pytest.mark.parametrize("family", FAMILIES)
def test_the_full_records_are_readable_and_hold_every_kind_of_object(family):
    module, _ = FAMILIES[family]
    data = FULL[family]()
    module.parse(data, "r.json")          # no error: the records below differ by one field only
    for pattern in module.FIELDS:
        assert objects_at(data, pattern), f"the {family} test record has no object at {pattern!r}"


CASES = [(family, pattern) for family, (module, _) in FAMILIES.items() for pattern in module.FIELDS]


@pytest.mark.parametrize("family, pattern", CASES, ids=[f"{f}:{p or 'top'}" for f, p in CASES])
@pytest.mark.parametrize("which", ["first", "last"])
def test_an_unknown_field_is_refused_with_its_name_and_place(family, pattern, which):
    module, _ = FAMILIES[family]
    known = module.FIELDS[pattern]
    data = FULL[family]()
    where, obj = objects_at(data, pattern)[0 if which == "first" else -1]
    obj["zzyzx"] = 1
    with pytest.raises(RecordError) as exc:
        module.parse(data, "r.json")
    msg = str(exc.value)
    place = f"{where}.zzyzx" if where else "zzyzx"
    at = f"in {where}" if where else "at the top level"
    assert msg == f"r.json: {place}: unknown field \"zzyzx\" {at} (known: {', '.join(known)})"


# the objects with a field name long enough to misspell by swapping two letters
MISSPELT = [(f, p) for f, p in CASES if any(len(k) >= 4 for k in FAMILIES[f][0].FIELDS[p])]


@pytest.mark.parametrize("family, pattern", MISSPELT, ids=[f"{f}:{p or 'top'}" for f, p in MISSPELT])
def test_a_misspelt_field_is_refused_with_the_name_meant(family, pattern):
    module, _ = FAMILIES[family]
    data = FULL[family]()
    where, obj = objects_at(data, pattern)[0]
    meant = max((k for k in module.FIELDS[pattern] if len(k) >= 4), key=len)
    typo = meant[0] + meant[2] + meant[1] + meant[3:]   # two letters swapped
    obj[typo] = obj.pop(meant, 1)
    with pytest.raises(RecordError) as exc:
        module.parse(data, "r.json")
    msg = str(exc.value)
    assert f"unknown field \"{typo}\"" in msg and f"did you mean \"{meant}\"?" in msg, msg
    assert msg.startswith(f"r.json: {where + '.' if where else ''}{typo}: "), msg


def test_varient_is_not_the_base_game():
    """The bug: a misspelt "variant" was read as the base game."""
    data = golden("suzhou-control.json")
    assert data["variant"] == "control"
    data["varient"] = data.pop("variant")
    with pytest.raises(RecordError, match=r'^g.json: varient: unknown field "varient" at the top level '
                                          r'\(did you mean "variant"\? known: format, edition, variant, '):
        dice_record.parse(data, "g.json")


@pytest.mark.parametrize("change, place", [
    (lambda lay: lay.update(sise=5), "sise"),
    (lambda lay: lay["tracks"]["hotel"].update(colour="red"), "tracks.hotel.colour"),
    (lambda lay: lay["groups"][0].update(bonus=1), "groups[0].bonus"),
    (lambda lay: lay["groups"][0]["points"].update(ship=3), "groups[0].points.ship"),
    (lambda lay: lay["solo"].update(title="x"), "solo.title"),
    (lambda lay: lay["solo"]["achievements"][0].update(points=2), "solo.achievements[0].points"),
])
def test_an_unknown_field_of_a_sheet_layout_is_refused_in_a_record_and_by_the_checker(change, place):
    lay = json.loads((LAYOUTS / "doodle-city.json").read_text())
    assert datafiles.check(lay)[1] == []
    change(lay)
    kind, problems = datafiles.check(lay)
    assert kind == "sheet layout" and problems[0][0] == place and "unknown field" in problems[0][1], problems
    data = golden("city-hotel15.json")
    data["layout"] = lay
    with pytest.raises(RecordError) as exc:
        dice_record.parse(data, "g.json")
    assert str(exc.value).startswith(f"g.json: layout: {place}: unknown field "), str(exc.value)


def test_every_default_layout_has_only_known_fields():
    for path in sorted(LAYOUTS.glob("doodle-*.json")):
        assert datafiles.unknown_in_layout(json.loads(path.read_text())) == [], path.name


def test_the_message_names_a_key_that_is_not_text_and_shortens_a_long_one():
    assert unknown_field(3, ("a",), "x") == 'unknown field "3" in x (known: a)'
    assert len(unknown_field("k" * 10_000, ("a",))) < 100


# -- (2) through the real command ---------------------------------------------------------------------------
def test_validate_refuses_the_misspelt_variant_with_exit_2(tmp_path, capsys):
    data = golden("suzhou-control.json")
    data["varient"] = data.pop("variant")
    path = tmp_path / "record.json"
    path.write_text(json.dumps(data))
    assert main(["validate", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.splitlines() == [err], err
    assert f'{path}: varient: unknown field "varient" at the top level (did you mean "variant"?' in err


def test_validate_as_its_own_process(tmp_path):
    data = golden("puzzle-base.json")
    data["rounds"][2]["gues"] = data["rounds"][2].pop("guess")
    path = tmp_path / "p.json"
    path.write_text(json.dumps(data))
    run = doodlebox("validate", str(path))
    assert run.returncode == 2, run
    assert f'{path}: rounds[2].gues: unknown field "gues" in rounds[2] (did you mean "guess"?' in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1, run.stderr


# -- (3) the doc lists exactly the fields each reader knows -------------------------------------------------
HEADING = re.compile(r"^### (?P<family>[^,\n]+), (?P<rest>.*)$")
ROW = re.compile(r"^\| `(?P<field>[^`]+)` \| (?P<type>[^|]+?) \| (?P<required>[^|]+?) \| (?P<meaning>[^|].*) \|$")


def documented(text: str) -> dict[str, KnownFields]:
    """{family title: {place: (field, ...)}} from the "### Family, what: `place`" tables of a doc.
    A table's header must be | field | type | required | meaning |, each row name one field,
    and its "required" column say required or optional."""
    out: dict[str, dict[str, tuple[str, ...]]] = {}
    place, family, header = "", "", False
    for n, line in enumerate(text.splitlines(), start=1):
        if line.startswith("#"):
            m = HEADING.match(line)
            family = ""
            if m and m["family"] in {title for _, title in FAMILIES.values()}:
                family = m["family"]
                found = re.findall(r"`([^`]+)`", m["rest"])
                assert found or m["rest"] == "the top level", f"line {n}: which objects? {line}"
                place = found[-1] if found else ""
                assert place not in out.get(family, {}), f"line {n}: {family} {place!r} twice"
                out.setdefault(family, {})[place] = ()
                header = False
            continue
        if not family or not line.startswith("|"):
            continue
        if not header:
            assert line == "| field | type | required | meaning |", f"line {n}: {line}"
            header = True
            continue
        if set(line) <= set("|-"):
            continue
        m = ROW.match(line)
        assert m, f"line {n}: not | `field` | type | required | meaning |: {line}"
        assert m["required"].startswith(("required", "optional")), f"line {n}: {m['required']}"
        fields = out[family][place]
        assert m["field"] not in fields, f"line {n}: {m['field']} twice"
        out[family][place] = (*fields, m["field"])
    return out


RECORDS_MD = (ROOT / "docs" / "records.md").read_text()


def drift(text: str, family: str) -> list[str]:
    """How the tables of `family` in a doc differ from the fields its reader declares."""
    module, title = FAMILIES[family]
    doc = documented(text).get(title, {})
    out = [f"{title}: no table for {p or 'the top level'}" for p in module.FIELDS if p not in doc]
    out += [f"{title}: a table for {p!r}, which the reader does not know" for p in doc if p not in module.FIELDS]
    for place, fields in module.FIELDS.items():
        listed, at = set(doc.get(place, fields)), f"{title} {place or 'top level'}"
        out += [f"{at}: {f!r} documented, unknown to the reader" for f in listed - set(fields)]
        out += [f"{at}: {f!r} known to the reader, not documented" for f in set(fields) - listed]
    return out


RECORDS_MD = (ROOT / "docs" / "records.md").read_text()


@pytest.mark.parametrize("family", FAMILIES)
def test_records_md_lists_exactly_the_fields_each_reader_knows(family):
    assert drift(RECORDS_MD, family) == []


@pytest.mark.parametrize("old, new, family, problem", [
    ("| `white` | list of die faces |", "| `whit` | list of die faces |", "dice", "'whit' documented"),
    ("| `circle` | whole number | optional | the value circled", "| `circle` | whole number | optional | x |\n"
     "| `colour` | string | optional | the value circled", "dice", "'colour' documented"),
    ("| `hits` | whole number | required | Traps that hit the player |\n", "", "deadly", "'hits' known"),
    ("### Doodle Puzzle, the drawing minute: `rounds[].timer`", "### Doodle Puzzle, the minute: `rounds[].time`",
     "puzzle", "no table for rounds[].timer"),
])
def test_the_doc_check_can_fail(old, new, family, problem):
    assert old in RECORDS_MD
    found = drift(RECORDS_MD.replace(old, new), family)
    assert any(problem in p for p in found), found


def test_a_malformed_table_is_not_passed_over():
    with pytest.raises(AssertionError, match=re.escape("not | `field`")):
        documented(RECORDS_MD.replace("| `white` | list of die faces | required |", "| white | list | required |"))
    with pytest.raises(AssertionError, match="maybe"):
        documented(RECORDS_MD.replace("| `white` | list of die faces | required |", "| `white` | list | maybe |"))


def test_layouts_md_lists_exactly_the_top_level_fields_of_a_layout():
    text = (ROOT / "docs" / "layouts.md").read_text()
    table = text.split("## Fields", 1)[1].split("\n#", 1)[0]
    fields = set(re.findall(r"^\| `([^`]+)` \|", table, re.M))
    assert fields == set(datafiles.LAYOUT_FIELDS[""])


def test_the_records_made_by_the_engines_use_only_known_fields():
    """What from_state writes (the records of games played on the engines), parse reads."""
    for family, (module, _) in FAMILIES.items():
        data = FULL[family]()
        rp = module.replay(module.parse(copy.deepcopy(data), "r.json"))
        players = list(data["players"])
        again = module.from_state(rp.state, players)
        module.parse(again, "again.json")
