"""Each game declares the events the console sends for it in its package (rules/<game>/events.py,
docs/adding-a-game.md "The console's events"): they are exactly the kinds and fields
link/schema.py takes for that game, the ones docs/protocol.md lists for it, and the ones
history/console_record.py knows for it; what its translation (rules/<game>/console.py) makes of an
engine's game is what the schema takes."""
import importlib
import json
import random
from pathlib import Path

import pytest
from console_games import timed
from protocol_doc import event_table
from randomplay import random_game
from test_host_link import _doc_events

from doodlebox.history import console_record
from doodlebox.link import schema
from doodlebox.rules.events import SchemaError, fields
from doodlebox.rules.games import find_game
from doodlebox.rules.specs import SPECS

ROOT = Path(__file__).resolve().parents[2]
VECTORS = json.loads((ROOT / "tests" / "vectors" / "frames.json").read_text())
PACKAGES = [s.package for s in SPECS]
# docs/protocol.md: the dice editions' events are in the first table with those every game sends
TABLES = {"dice": None, "deadly": "Deadly Doodles", "puzzle": "Doodle Puzzle"}


def declared(package: str):
    return importlib.import_module(f"doodlebox.rules.{package}.events").EVENTS


def _first_table() -> dict[str, set[str]]:
    """The event table under "## Events" in docs/protocol.md: kind -> the fields it lists."""
    return event_table("## Events (`ev.e`)")


def test_every_game_has_a_package_that_declares_its_events():
    assert PACKAGES == ["dice", "deadly", "puzzle"] == list(TABLES)
    assert schema.GAMES == tuple(declared(p) for p in PACKAGES)


def test_the_schema_is_the_games_events_and_those_every_game_sends():
    every: list[str] = []
    for p in PACKAGES:
        for kind, spec in declared(p).kinds.items():
            assert schema.EVENTS[kind] is spec, kind        # the package's fields, not a copy
            every.append(kind)
    assert len(every) == len(set(every)), "an event kind declared by two games"
    assert set(schema.COMMON) == {"game", "refuse", "end", "resume"}
    assert set(schema.EVENTS) == set(every) | set(schema.COMMON) and not set(every) & set(schema.COMMON)
    # the words the schema's refuse and end take are every game's, in the games' order
    assert schema.EVERY_REFUSAL == tuple(w for p in PACKAGES for w in declared(p).refusals)
    assert schema.ENDINGS == tuple(dict.fromkeys(w for p in PACKAGES for w in declared(p).endings))


@pytest.mark.parametrize("package", PACKAGES)
def test_a_games_events_are_the_ones_docs_protocol_lists_for_it(package):
    events = declared(package)
    table = _first_table() if TABLES[package] is None else _doc_events(TABLES[package])
    if TABLES[package] is None:
        table = {k: f for k, f in table.items() if k not in schema.COMMON and k != "lost"}
        first = _first_table()      # (its `game` row names the card games' own fields by their editions)
        assert all(set(f) == first[k] or (k == "game" and set(f) <= first[k]) for k, f in schema.COMMON.items())
    assert {k: set(f) for k, f in events.kinds.items()} == table


@pytest.mark.parametrize("package", PACKAGES)
def test_the_schema_takes_a_games_golden_events_by_its_declaration_and_refuses_what_it_leaves_out(package):
    events = declared(package)
    valid = [c["message"]["e"] for c in VECTORS["valid"] if c["message"]["t"] == "ev"]
    own = [e for e in valid if e["k"] in events.kinds]
    assert {e["k"] for e in own} == set(events.kinds)           # a golden frame of each
    for e in own:
        spec = events.kinds[e["k"]]
        assert fields(spec, e, "e", also=("k",)) == schema.check_event(e) == e
        for name, (_, required) in spec.items():
            if required:
                with pytest.raises(SchemaError, match=f"has no '{name}'"):
                    schema.check_event({k: v for k, v in e.items() if k != name})
        with pytest.raises(SchemaError, match="does not list"):
            schema.check_event({**e, "zz": 1})


def test_the_console_record_knows_each_games_declared_events_and_picks_its_record_by_edition():
    for spec in SPECS:
        record = console_record.RECORDS[spec.package]
        assert record.EVENTS is declared(spec.package)
        assert console_record.KINDS[record] == console_record.COMMON + tuple(record.EVENTS.kinds)
        for e in spec.editions:
            assert console_record.BY_EDITION[e.edition] is record
    assert console_record.COMMON == tuple(schema.COMMON)


def test_the_dice_translation_has_the_schemas_variant_words():
    from doodlebox.rules.dice import console, events

    for ed in schema.DICE:
        assert schema.GAME_KINDS[ed][1] == events.VARIANTS == tuple(console.RECORD_VARIANT)


@pytest.mark.parametrize("seed", range(3))
def test_what_each_games_translation_makes_of_an_engine_game_the_schema_takes(seed):
    from doodlebox.rules.deadly import console as deadly
    from doodlebox.rules.dice import console as dice
    from doodlebox.rules.puzzle import console as puzzle

    made = dice.events(random_game(find_game("suzhou"), seed, 1 + seed, "control"), g=seed + 1)
    state = random_game(find_game("deadly"), seed, 1 + seed, map="ab"[seed % 2])
    made += deadly.events(state, counted=[deadly.counts(s) for s in state.result().sheets] if seed else None)
    state = find_game("puzzle").new_game(3 + 2 * seed).new_state()
    timed(state, random.Random(seed))
    made += puzzle.events(state)
    for e in made:
        assert schema.check_event(e) == e
    assert {e["k"] for e in made} >= {"game", "claim", "reveal", "roles", "timer", "end"}
