"""Each game is declared once (host/doodlebox/rules/<game>/spec.py, docs/adding-a-game.md): the
registry, the engines, the command line, the bots' lobby, the link's schema and the console's
generated lobby table (firmware/doodle/games.py) all say what the specs say, and every limit
(Baddy, Please Behave: 3 to 7 players, not with the Showdown; ruling P9) is kept by each of them."""
from __future__ import annotations

import ast
import itertools
import re
from pathlib import Path

import pytest

from doodle.app import App
from doodle.flashlog import RamFlash
from doodlebox.cli import main, parser
from doodlebox.deploy import firmware_data
from doodlebox.link import schema
from doodlebox.rules import games, specs
from doodlebox.rules.api import GameConfigError
from doodlebox.rules.deadly import maps
from doodlebox.rules.dice import layout
from doodlebox.rules.puzzle import engine as puzzle
from doodlebox.rules.puzzle import record as puzzle_record
from doodlebox.rules.puzzle.sentences import sentence
from doodlebox.rules.puzzle.spec import PUZZLE
from doodlebox.table import lobby as lobby_table

ROOT = Path(__file__).resolve().parents[2]
PLAYER_LIMITS = [(e, lim) for e in specs.EDITIONS for lim in e.limits if lim.players is not None]


def fresh_app() -> App:
    return App(lambda n: 0, 1, "c0ffee", RamFlash())


# -- the specs themselves -----------------------------------------------------------------------
def test_the_registry_is_the_specs():
    assert [g.edition for g in games.GAMES] == [e.edition for e in specs.EDITIONS]
    for g in games.GAMES:
        e = specs.BY_EDITION[g.edition]
        assert g.spec is e and (g.name, g.players, g.variants) == (e.name, e.players, e.variants)


def test_the_specs_agree_with_the_data_files_and_the_rulings():
    rulings = (ROOT / "docs" / "rulings.md").read_text()
    dice = [e for e in specs.EDITIONS if e.dice]
    assert [e.edition for e in dice] == list(layout.DEFAULT_FILES)
    for e in dice:
        lay = layout.load(e.edition)
        assert e.name == lay.name
        assert e.players[0] == (1 if lay.solo else 2)                 # R16
        assert e.has("variant") == bool(lay.jokers)                   # More control: the 5x5 editions (R24)
    assert specs.BY_EDITION["deadly"].option("map").values == tuple(maps.DEFAULT_FILES)
    assert set(PUZZLE.option("subjects").values) == set(puzzle.SUBJECT_SETS)
    assert puzzle.VARIANTS == PUZZLE.variants == ("behave", "showdown")
    for e in specs.EDITIONS:
        for lim in e.limits:
            assert f"### {lim.ruling}." in rulings
            if e.edition == "puzzle":
                assert sentence(lim.rule)


def test_a_spec_that_contradicts_itself_is_refused_where_it_is_written():
    from doodlebox.rules.api import Choice, Edition, Limit, Option

    option = Option("variant", "var", "--variant", "Variant", "", (Choice("", "base", "base"), Choice("x", "X", "x")))
    with pytest.raises(ValueError, match="default"):
        Option("map", "map", "--map", "Map", "", (Choice("a", "A", "a"),), default="b")
    with pytest.raises(ValueError, match="names a choice"):
        Edition("g", "G", "G", "G", (1, 4), (option,), (Limit("r", "X1", "variant", "y", players=(1, 2)),))
    with pytest.raises(ValueError, match="within 1 to 4"):
        Edition("g", "G", "G", "G", (1, 4), (option,), (Limit("r", "X1", "variant", "x", players=(1, 5)),))


# -- the engines --------------------------------------------------------------------------------
def test_behave_with_8_players_is_refused_by_the_engine_and_reported_in_a_record():
    for lim in PUZZLE.limits:
        assert lim.ruling == "P9"
    with pytest.raises(GameConfigError, match="8 players"):
        puzzle.Game(8, "behave")
    with pytest.raises(GameConfigError, match="8 players"):
        games.find_game("puzzle").new_game(8, "behave")
    with pytest.raises(GameConfigError, match="cannot be combined"):
        games.find_game("puzzle").new_game(5, "behave+showdown")
    for low, high in [lim.players for _, lim in PLAYER_LIMITS]:
        puzzle.Game(high, "behave")
        puzzle.Game(low, "behave")
    g = puzzle.Game(8, "behave", strict=False)
    assert [rule for rule, _ in g.problems] == ["behave_8"] and g.behave
    rp = puzzle_record.replay(puzzle_record.parse({"format": "doodlebox-record/1", "edition": "puzzle",
                                                   "variant": "behave", "subjects": "standard",
                                                   "players": list("abcdefgh"), "rounds": []}, "r"))
    v = rp.violations[0]
    assert (v.rule, v.legal) == ("behave_8", ["Baddy, Please Behave with 3 to 7 players"])
    assert v.reason.endswith("the game is checked as Baddy, Please Behave (ruling P9)")


def test_options_not_declared_or_not_among_the_choices_are_refused():
    deadly, puzzle_type, city = (games.find_game(e) for e in ("deadly", "puzzle", "city"))
    for bad in ({"map": "c"}, {"colour": "red"}, {"drawings": "some"}):
        with pytest.raises(GameConfigError):
            deadly.new_game(2, **bad)
    with pytest.raises(GameConfigError, match="has no variants"):
        deadly.new_game(2, "behave")
    with pytest.raises(GameConfigError, match="not an option"):
        puzzle_type.new_game(4, map="a")
    with pytest.raises(GameConfigError, match="not a subjects"):
        puzzle_type.new_game(4, subjects="expert")
    with pytest.raises(GameConfigError, match="not a variant"):
        city.new_game(2, "behave")
    game = deadly.new_game(2, map="b", drawings="tally")
    assert game.map.name == maps.load("b").name and game.tallies
    assert puzzle_type.new_game(4, subjects="beginner").cards == puzzle.SUBJECT_SETS["beginner"]


# -- the command line ---------------------------------------------------------------------------
def _demo_parser():
    sub = next(a for a in parser()._actions if a.dest == "command")
    return sub.choices["demo"]


def test_the_demos_choices_are_the_specs():
    actions = {a.dest: a for a in _demo_parser()._actions}
    assert list(actions["edition"].choices) == [e.edition for e in specs.EDITIONS]
    for flag, having in specs.options_by_flag().items():
        a = actions[flag[2:]]
        o = having[0][1]
        if o.switch:
            assert a.const is True and a.default is False
        else:
            assert tuple(a.choices) == o.values and a.default == o.default


@pytest.mark.parametrize("e,lim", PLAYER_LIMITS, ids=[lim.rule for _, lim in PLAYER_LIMITS])
def test_the_demo_refuses_players_a_limit_forbids(e, lim, capsys):
    o = e.option(lim.option)
    for n in (lim.players[0] - 1, lim.players[1] + 1):
        if e.players[0] <= n <= e.players[1]:
            code = main(["demo", "--edition", e.edition, "--players", str(n), o.flag, lim.choice])
            assert code == 2
            err = capsys.readouterr().err
            assert f"is for {lim.players[0]} to {lim.players[1]} players" in err, err


# -- the bots' lobby ----------------------------------------------------------------------------
def test_the_bots_lobby_is_the_specs_and_a_fresh_consoles():
    from doodle import lobby

    assert lobby_table.GAMES == tuple(e.edition for e in specs.EDITIONS)
    assert lobby_table.NAMES == {e.lobby: e.edition for e in specs.EDITIONS}
    app = fresh_app()
    assert lobby_table.lobby_of(lobby.screen(app, "")) == {
        k: lobby_table.DEFAULT_LOBBY[k] for k in ("game", "players", "control")}
    assert app.opts == {k: v for k, v in lobby_table.DEFAULT_LOBBY.items() if k not in ("game", "players", "control")}


@pytest.mark.parametrize("e,lim", PLAYER_LIMITS, ids=[lim.rule for _, lim in PLAYER_LIMITS])
def test_the_bot_refuses_what_a_limit_forbids(e, lim):
    key = e.option(lim.option).key
    for n in (lim.players[0] - 1, lim.players[1] + 1):
        if e.players[0] <= n <= e.players[1]:
            with pytest.raises(lobby_table.TableError, match=lim.ruling):
                lobby_table.choose_lobby(lambda name: None, dict(lobby_table.DEFAULT_LOBBY),
                                       {"game": e.edition, "players": n, key: lim.choice})


# -- the console's lobby, generated -------------------------------------------------------------
def test_the_generated_lobby_table_is_not_stale():
    assert (ROOT / "firmware" / "doodle" / "games.py").read_text() == firmware_data.lobby_module(), \
        "firmware/doodle/games.py is stale: run make firmware-data"


def test_the_generated_lobby_table_says_what_the_specs_say():
    import doodle.games as t

    assert t.ED.split() == [e.edition for e in specs.EDITIONS]
    assert t.NAME.split("/") == [e.lobby for e in specs.EDITIONS]
    table = [row.split("/") for row in t.OPT.split("|")]
    for i, e in enumerate(specs.EDITIONS):
        low, high, kind, first, second = t.GAME[5 * i:5 * i + 5]
        assert (low, high) == e.players
        if e.dice:
            assert kind == (firmware_data.KIND_CONTROL if e.options else firmware_data.KIND_DICE)
            continue
        assert kind == firmware_data.KIND_CARDS
        mine = [k for k in (first, second) if k != firmware_data.NO_OPTION]
        assert [(table[k][0], table[k][1], tuple(table[k][2].split(",")), table[k][4]) for k in mine] == [
            (o.key, o.label, o.values, o.default) for o in e.options]
        assert [x.split(",") for x in (table[k][3] for k in mine)] == [[c.label for c in o.choices]
                                                                       for o in e.options]
        limits = [(table[k][0], table[k][2].split(",")[c], lo, hi, rule) for k, c, lo, hi, rule in t.LIMIT
                  if k in mine]
        assert limits == [(e.option(lim.option).key, lim.choice, *lim.players, lim.rule)
                          for lim in e.limits if lim.players]
    control = next(e.options[0] for e in specs.EDITIONS if e.dice and e.options)
    assert t.CONTROL.split("/") == [control.label, *(c.label for c in control.choices)]


@pytest.mark.parametrize("e,lim", PLAYER_LIMITS, ids=[lim.rule for _, lim in PLAYER_LIMITS])
def test_the_consoles_lobby_refuses_players_a_limit_forbids(e, lim):
    from doodle import lobby

    key = e.option(lim.option).key
    n = lim.players[1] + 1
    assert n <= e.players[1]
    app = fresh_app()
    while app.edition != e.edition:
        lobby.button(app, "D0")
    app.opts[key] = lim.choice
    app.players = lim.players[1]
    assert lobby.button(app, "D6" if n > 6 else f"D{n}") == lim.rule
    assert app.players == lim.players[1]
    # a remembered choice that breaks the limit: the option falls back on its default
    flash = RamFlash()
    flash.save("settings.json", '{"game": "%s", "players": %d, "%s": "%s"}' % (e.edition, n, key, lim.choice))
    app = App(lambda n: 0, 1, "c0ffee", flash)
    assert (app.edition, app.players, app.opts[key]) == (e.edition, n, e.option(lim.option).default)


def test_the_consoles_refusal_texts_say_the_specs_ranges():
    from doodle.reasons import TEXT

    for e in specs.EDITIONS:
        if not e.dice:
            assert TEXT[f"{e.edition}_n"] == f"{e.lobby}: {e.players[0]}-{e.players[1]} players"
        for lim in e.limits:
            if lim.players:
                label = e.option(lim.option).choice(lim.choice).label
                assert TEXT[lim.rule] == f"{label}: {lim.players[0]}-{lim.players[1]} players"


def test_every_choice_the_specs_allow_is_offered_by_the_consoles_lobby():
    from doodle import lobby

    for e in specs.EDITIONS:
        options = [] if e.dice else list(e.options)
        for players, values in itertools.product(range(e.players[0], e.players[1] + 1),
                                                 itertools.product(*(o.values for o in options))):
            chosen = {o.name: v for o, v in zip(options, values)}
            allowed = not e.problems(players, chosen)
            want = {"game": e.edition, "players": players, **{o.key: v for o, v in zip(options, values)}}
            app = fresh_app()
            if not allowed:
                with pytest.raises(lobby_table.TableError):
                    lobby_table.choose_lobby(lambda name: None, lobby_table.lobby_of(lobby.screen(app, "")), want)
                continue
            lobby_table.choose_lobby(lambda name, app=app: lobby.button(app, name),
                                   lobby_table.lobby_of(lobby.screen(app, "")), want)
            assert lobby.options(app) == {k: v for k, v in want.items() if k not in ("game", "players")} or e.dice
            assert (app.edition, app.players) == (e.edition, players)


# -- the link and the sources -------------------------------------------------------------------
def test_the_links_game_event_takes_the_specs_words():
    assert schema.EDITIONS == tuple(e.edition for e in specs.EDITIONS)
    assert schema.SEATS == max(e.players[1] for e in specs.EDITIONS)
    for e in specs.EDITIONS:
        if not e.dice:
            (low, high), variants, own = schema.GAME_KINDS[e.edition]
            assert (low, high) == e.players and variants == ("", *e.variants)
            assert own == tuple(o.key for o in e.options if o.name != "variant")


def test_the_behave_limit_is_written_in_the_spec_alone():
    """No module but the spec pairs Behave with a player count (the generated table and the
    console's refusal texts, checked above, aside)."""
    pattern = re.compile(r"behave\W.{0,60}\b[78]\b|\b[78]\b.{0,60}\bbehave", re.I)
    skip = {ROOT / "host/doodlebox/rules/puzzle/spec.py", ROOT / "firmware/doodle/games.py",
            ROOT / "firmware/doodle/reasons.py"}
    found = []
    for base in (ROOT / "host" / "doodlebox", ROOT / "firmware"):
        for p in base.rglob("*.py"):
            if p in skip or "__pycache__" in p.parts:
                continue
            found += [f"{p.relative_to(ROOT)}:{n}: {line.strip()}"
                      for n, line in enumerate(p.read_text().splitlines(), 1) if pattern.search(line)]
    assert not found, "\n".join(found)


def test_the_tables_import_their_lobby_not_each_other():
    """table/dice.py plays on the console with the three tables; they share table/lobby.py, and none
    of them imports table/dice.py back (no import inside a function to break a circle)."""
    table = ROOT / "host" / "doodlebox" / "table"
    for name in ("lobby", "deadly", "puzzle"):
        tree = ast.parse((table / f"{name}.py").read_text())
        imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)} | {
            f"{n.module}.{a.name}" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) for a in n.names}
        assert not {"doodlebox.table.dice", "doodlebox.table.deadly", "doodlebox.table.puzzle"} & imported - {
            f"doodlebox.table.{name}"}, name
    tree = ast.parse((table / "dice.py").read_text())
    inner = [n for f in ast.walk(tree) if isinstance(f, ast.FunctionDef) for n in ast.walk(f)
             if isinstance(n, ast.ImportFrom) and n.module and n.module.startswith("doodlebox.table")]
    assert not inner
