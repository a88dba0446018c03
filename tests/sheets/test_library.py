"""The library of the table's sheets (docs/sheets.md): the defaults always there and never
changed, a sheet added only when `layout check` finds nothing, refused with every problem and its
place, names, hashes, remove and export, and a library folder spoilt by hand."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from doodlebox.rules.dice import layout
from doodlebox.sheets import console, library


@pytest.fixture(autouse=True)
def data_home(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    return tmp_path / "data" / "doodlebox"


def city(**change) -> dict:
    data = json.loads(layout.default_path("city").read_text())
    data.update(change)
    return data


def write(tmp_path: Path, name: str, data) -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return path


def test_the_defaults_are_listed_as_reconstructions():
    got = {s.name: s for s in library.sheets()}
    assert list(got) == ["city", "suzhou", "treasures", "shanghai", "monsters", "deadly-a", "deadly-b"]
    assert all(s.default and not s.problem and "reconstruction" in s.source for s in got.values())
    assert got["monsters"].what == "monsters sheet" and got["deadly-b"].what == "Deadly Doodles map side"
    assert got["city"].hash == library.sheet_hash(json.loads(layout.default_path("city").read_text()))


def test_the_hash_is_of_the_content_not_of_its_spelling():
    data = city()
    spelled_otherwise = json.loads(json.dumps(data, indent=4, sort_keys=False))
    assert library.sheet_hash(spelled_otherwise) == library.sheet_hash(data)
    assert library.sheet_hash(city(trees=11)) != library.sheet_hash(data)
    assert len(library.sheet_hash(data)) == 12


def test_a_sheet_added_is_kept_with_where_it_came_from(tmp_path, data_home):
    src = write(tmp_path, "Our Town.json", city(name="Our Town", trees=12))
    added = library.add(src)
    assert (added.name, added.kind, added.edition, added.title) == ("our-town", "sheet", "city", "Our Town")
    assert (data_home / "sheets" / "our-town.json").exists()
    again = library.find("our-town")
    assert again.hash == library.sheet_hash(city(name="Our Town", trees=12)) and not again.default
    assert str(src.resolve()) in again.source
    src.unlink()                                      # the library keeps its own copy
    assert library.find("our-town").data["trees"] == 12


def test_a_sheet_with_problems_is_refused_with_every_problem_and_nothing_is_added(tmp_path, data_home):
    data = city()
    data["squares"][0]["kind"] = "castle"
    data["trees"] = -1
    with pytest.raises(library.SheetError) as refused:
        library.add(write(tmp_path, "bad.json", data))
    problems = refused.value.problems
    assert len(problems) == 2, problems
    assert any("squares[0].kind" in p and "castle" in p for p in problems)
    assert any(p.endswith("trees: -1 is below 1") for p in problems)
    assert "2 problem(s)" in str(refused.value)
    assert not (data_home / "sheets").exists()


@pytest.mark.parametrize("content, says", [
    ("{not json", "bad.json"),
    (json.dumps(json.loads((Path(layout.default_path("city")).parent / "deadly-deck.json").read_text())),
     "a Deadly Doodles deck"),
    ("[1, 2]", "bad.json"),
])
def test_what_is_no_sheet_is_refused(tmp_path, content, says):
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(library.SheetError) as refused:
        library.add(path)
    assert says in str(refused.value) + " ".join(refused.value.problems)
    assert [s.name for s in library.sheets() if not s.default] == []


def test_names(tmp_path):
    src = write(tmp_path, "x.json", city(name="Mine"))
    for bad in ("", "UPPER", "a b", "x" * 17, "../up"):
        with pytest.raises(library.SheetError, match="not a sheet's name"):
            library.add(src, bad)
    with pytest.raises(library.SheetError, match="a default's name"):
        library.add(src, "city")
    library.add(src, "mine")
    with pytest.raises(library.SheetError, match="already"):
        library.add(src, "mine")
    assert library.add(write(tmp_path, "y.json", city(name="Mine, again")), "mine", replace=True).title == "Mine, again"
    assert library.name_for("Our Printed Sheet (2019)!") == "our-printed-shee"
    assert library.name_for("***") == "sheet"


def test_a_map_side_of_ones_own(tmp_path):
    data = json.loads(Path(library.DEFAULTS["deadly-a"]).read_text())
    data["name"] = "Our dungeon"
    data["dragon"], data["loot"][0] = data["loot"][0], data["dragon"]
    added = library.add(write(tmp_path, "dungeon.json", data))
    assert (added.name, added.kind, added.edition) == ("dungeon", "map", "deadly")


def test_remove_and_export(tmp_path):
    library.add(write(tmp_path, "mine.json", city(name="Mine")))
    out = tmp_path / "out.json"
    library.export("city", out)                                   # a default, as the start of one's own
    assert library.sheet_hash(json.loads(out.read_text())) == library.find("city").hash
    with pytest.raises(library.SheetError, match="cannot be removed"):
        library.remove("city")
    library.remove("mine")
    with pytest.raises(library.SheetError, match="no sheet 'mine'"):
        library.find("mine")
    with pytest.raises(library.SheetError, match="no sheet 'mine' was added"):
        library.remove("mine")
    with pytest.raises(library.SheetError, match="there is no folder"):
        library.export("city", tmp_path / "nowhere" / "x.json")


def test_a_library_spoilt_by_hand_says_what_and_uses_nothing_spoilt(tmp_path, data_home):
    library.add(write(tmp_path, "mine.json", city(name="Mine")))
    folder = data_home / "sheets"
    (folder / "mine.json").write_text('{"format": "doodlebox-layout/2", "trees": ')   # torn by hand
    (folder / "stray.json").write_text(json.dumps(city()))                            # never added
    got = {s.name: s for s in library.sheets()}
    assert got["mine"].problem and got["stray"].problem.startswith("not in library.json")
    with pytest.raises(library.SheetError, match="cannot be used"):
        library.find("mine")
    assert library.find("city").default                                               # the rest still works
    (folder / "library.json").write_text("{torn")
    with pytest.raises(library.SheetError, match=r"library\.json: cannot be read"):
        library.sheets()


def test_choices_made_in_one_second_are_each_later_than_the_one_before(tmp_path):
    library.add(write(tmp_path, "a.json", city(name="A", trees=11)))
    side = json.loads(library.find("deadly-a").path.read_text()) | {"name": "B"}
    library.add_data(side, "b", "a test")
    library.use("a")
    library.use("b")
    got = library.choices()
    assert got["deadly"][1] > got["city"][1]       # the console takes each (docs/protocol.md, `use`)



@pytest.mark.parametrize("word, fits", [("seaside boutique", True), ("S" * 16, True), ("s-b [c]!", True),
                                        ("W" * 17, False), ("Häuser", False), ('the "tower"', False),
                                        ("a\\b", False), ("", False), (" shop", False), ("5 shop", False),
                                        ("   ", False)])
def test_a_printed_word_is_one_the_panel_can_show(tmp_path, word, fits):
    """The sheet's words go to the console's panel, whose font is printable ASCII and whose lines
    write '"' and '\\' as nothing (link.put_ascii: the line was garbled); a word longer than 16
    characters made a sheet too big to send (the logger said so only when it tried); a word of
    spaces stopped the link (the column die's word's first word, an IndexError)."""
    data = city()
    data["names"] = dict(data["names"], shop=word, column_die=word)
    if fits:
        sheet = library.add(write(tmp_path, "ours.json", data), replace=True)
        assert sheet.data["names"]["shop"] == word and console.content(sheet)
        return
    with pytest.raises(library.SheetError) as refused:
        library.add(write(tmp_path, "ours.json", data))
    problem = refused.value.problems[0]
    assert len(refused.value.problems) == 2 and "names.shop" in problem, refused.value.problems
    assert "is not a printed word the panel can show: 1 to 16" in problem, problem


def test_a_sheet_with_its_longest_words_fits_the_console(tmp_path):
    """Every edition's default with every printed word 16 characters long is within what the
    console takes (sheets/console.py MAX_CONTENT): a sheet `sheets add` takes can be sent."""
    for edition in ("city", "suzhou", "treasures", "shanghai", "monsters"):
        data = json.loads(layout.default_path(edition).read_text())
        data["names"] = {k: chr(65 + i) * layout.WORD_MAX for i, k in enumerate(layout.NAME_KEYS)}
        sheet = library.add_data(data, f"long-{edition}", "test")
        assert len(console.content(sheet)) <= console.MAX_CONTENT


def test_two_kinds_on_the_sheet_whose_words_begin_with_one_letter_are_refused(tmp_path):
    """The console's map marks a hotel "H" and a shop "S": a sheet with hotels and a shop called
    "Hall" passed `sheets add`, then its content could not be made (a ValueError the link's
    courier did not catch: the link failed, again at each hello, then gave up)."""
    data = city()
    data["names"] = dict(data["names"], shop="Hall")
    with pytest.raises(library.SheetError) as refused:
        library.add(write(tmp_path, "hall.json", data))
    (problem,) = refused.value.problems
    assert "squares[0].kind: 'hotel' (hotel) and 'Hall' (shop) begin with one letter, H" in problem, problem
    assert problem.endswith("keep one of these kinds on the sheet, or give one of them another word (names.hotel, "
                            "names.shop)")
    data["names"]["hotel"] = "Inn"                           # the shop's word free again: taken
    assert console.content(library.add(write(tmp_path, "inn.json", data)))
    data = city()
    data["names"] = dict(data["names"], park="Hall")        # no park on this sheet: no clash on its map
    assert "park" not in {s["kind"] for s in data["squares"]}
    assert console.content(library.add(write(tmp_path, "park.json", data)))
