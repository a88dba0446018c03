"""The `game` event's sheet of the table's own in the link's schema (docs/protocol.md, `game` and
"What the host checks"; rules/events.py's SHEET and Events.check_sheet): `sh` and `sx` both or
neither, of their exact forms, in the games played on a sheet only; Deadly Doodles' `map` `own`
with them only, and they only with it. What the games' translations make of a game on a table's
sheet the schema takes."""
from __future__ import annotations

import pytest
from own_sheets import deadly_events, dice_events, own_city, own_map

from doodlebox.link import frames, schema
from doodlebox.rules.events import SchemaError
from doodlebox.store import sheet_hash

X = "0123456789ab"
CITY = {"k": "game", "g": 1, "ed": "city", "n": 2, "var": ""}
DEADLY = {"k": "game", "g": 1, "ed": "deadly", "n": 2, "var": "", "map": "a", "rec": "full"}
PUZZLE = {"k": "game", "g": 1, "ed": "puzzle", "n": 3, "var": "", "subj": "standard"}


@pytest.mark.parametrize("e", [
    dict(CITY, sh="ourcity", sx=X),
    dict(CITY, ed="monsters", n=5, sh="a", sx="ffffffffffff", hint=1, bots=[4]),
    dict(CITY, sh="-_0123456789abcd", sx=X),                    # 16 characters
    dict(DEADLY, map="own", sh="our-side-a", sx=X),
    dict(DEADLY, map="own", rec="tally", sh="z", sx="000000000000"),
    CITY, DEADLY, dict(DEADLY, map="b"),
])
def test_the_schema_takes_a_game_on_a_sheet_of_the_tables_own(e):
    line = frames.encode("ev", boot=1, s=1, e=e)
    assert frames.decode(line)["e"] == schema.check_event(e) == e


@pytest.mark.parametrize("e,says", [
    (dict(CITY, sh="ourcity"), "has 'sh' without 'sx'"),
    (dict(CITY, sx=X), "has 'sx' without 'sh'"),
    (dict(CITY, sh="ourcity", sx=X.upper()), "not 12 lowercase hex digits"),
    (dict(CITY, sh="ourcity", sx=X[:11]), "not 12 lowercase hex digits"),
    (dict(CITY, sh="ourcity", sx=X + "0"), "not 12 lowercase hex digits"),
    (dict(CITY, sh="ourcity", sx=123456789012), "not a string"),
    (dict(CITY, sh="Ourcity", sx=X), "sh is 'Ourcity', not 1 to 16"),
    (dict(CITY, sh="our city", sx=X), "not 1 to 16"),
    (dict(CITY, sh="", sx=X), "not 1 to 16"),
    (dict(CITY, sh="a" * 17, sx=X), "17 characters long"),
    (dict(CITY, sh=["a"], sx=X), "not a string"),
    (dict(DEADLY, map="own"), "map is 'own' without the sheet's name and hash"),
    (dict(DEADLY, sh="ours", sx=X), "map is 'a' with a sheet of the table's own"),
    (dict(DEADLY, map="b", sh="ours", sx=X), "map is 'b' with a sheet of the table's own"),
    (dict(DEADLY, map="own", sh="ours"), "has 'sh' without 'sx'"),
    (dict(DEADLY, map="c", sh="ours", sx=X), "map is 'c', not one of 'a', 'b', 'own'"),
    (dict(PUZZLE, sh="ours", sx=X), "Doodle Puzzle is played on no sheet"),
])
def test_the_schema_refuses_a_sheet_named_otherwise(e, says):
    with pytest.raises(SchemaError, match=says.replace("(", r"\(").replace(")", r"\)")):
        schema.check_event(e)


def test_what_the_translations_make_of_a_game_on_a_tables_sheet_the_schema_takes():
    made = dice_events(own_city(), seed=1, players=2) + deadly_events(own_map(), seed=2, g=2)
    for e in made:
        assert schema.check_event(e) == e
    assert [e for e in made if e["k"] == "game"] == [
        dict(CITY, sh="ourcity", sx=sheet_hash(own_city())),
        dict(DEADLY, g=2, map="own", sh="our-side-a", sx=sheet_hash(own_map()))]
