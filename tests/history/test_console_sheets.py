"""A console game played on a sheet of the table's own (docs/records.md and docs/deadly-doodles.md,
"From the console's log"; docs/stored-games.md "The sheets"): its `game` event names the sheet
(`sh`, `sx`), the record carries the whole sheet from the store, and `export`, `validate`, the
games' list, live validation and the PC's hints read the game on it. The same events on the
default sheet break the rules (so the sheet is the one used). A sheet the store does not hold: one
clear line for that game, the others unaffected, and the game a record once the sheet is added."""
from __future__ import annotations

import json
import sqlite3
import time

import pytest
from own_sheets import CITY_NAME, MAP_NAME, deadly_events, dice_events, own_city, own_map, unnamed

from doodlebox.cli import main
from doodlebox.history import game_records
from doodlebox.history.console_record import ConsoleLogError, MissingSheet, to_record
from doodlebox.logger import answers
from doodlebox.logger.verdicts import LiveGames
from doodlebox.store import GameLog, Store, sheet_hash
from doodlebox.store.errors import Damaged

UID = "c0ffee"


def stored(store: Store, events: list[dict], uid: str = UID, boot: int = 1) -> int:
    """The events appended as the link does; the game's id."""
    store.hello(uid, "0.9.0", [(boot, 1, 1)])
    store.append_many(uid, [(boot, s, e) for s, e in enumerate(events, start=1)])
    return store.find("last")


def add(store: Store, sheet: dict, edition: str, name: str) -> str:
    return store.add_sheet(sheet_hash(sheet), edition, name, json.dumps(sheet))


def validate(path, capsys) -> tuple[int, str]:
    capsys.readouterr()
    code = main(["validate", str(path)])
    return code, capsys.readouterr().out


def exported(db, gid: int, out, capsys) -> tuple[int, str]:
    capsys.readouterr()
    code = main(["export", str(gid), "--db", str(db), "-o", str(out)])
    return code, capsys.readouterr().err


@pytest.mark.parametrize("game", ["dice", "deadly"])
def test_a_game_on_a_sheet_of_the_tables_own_is_recorded_and_validated_on_it(game, tmp_path, capsys):
    db = tmp_path / "games.sqlite3"
    store = Store(db)
    if game == "dice":
        sheet, edition, name, field = own_city(), "city", CITY_NAME, "layout"
        events = dice_events(sheet, seed=0)
    else:
        sheet, edition, name, field = own_map(), "deadly", MAP_NAME, "map"
        events = deadly_events(sheet, seed=1)
    x = add(store, sheet, edition, name)
    assert {k: events[0][k] for k in ("sh", "sx")} == {"sh": name, "sx": x}
    own = stored(store, events)
    log = store.game_log(own)
    assert log is not None and log.sheets == {x: sheet}
    assert to_record(log)[field] == sheet                         # the whole sheet, not the edition's name
    assert exported(db, own, tmp_path / "own.json", capsys)[0] == 0
    record = json.loads((tmp_path / "own.json").read_text())
    assert record[field] == sheet
    code, said = validate(tmp_path / "own.json", capsys)
    assert code == 0 and "valid" in said and "violation" not in said
    totals = next(g for g in game_records.games(store) if g["id"] == own)["totals"]
    for argv in (["score", str(tmp_path / "own.json")], ["show", str(own), "--db", str(db)]):
        assert main(argv) == 0
        out = capsys.readouterr().out
        assert all(str(t) in out for t in totals)
    assert main(["render", str(tmp_path / "own.json"), "-o", str(tmp_path / "p1.png")]) == 0
    assert (tmp_path / "p1.png").read_bytes()[:4] == b"\x89PNG"
    # the same events on the default sheet (or map side A) break the rules: the sheet is the one played
    other = stored(store, unnamed(events), uid="beef")
    assert to_record(store.game_log(other))[field] == ("city" if game == "dice" else "a")
    assert exported(db, other, tmp_path / "default.json", capsys)[0] == 0
    code, said = validate(tmp_path / "default.json", capsys)
    assert code == 1 and "violation" in said
    rows = {g["id"]: g for g in game_records.games(store)}
    assert rows[own]["violations"] == 0 and rows[other]["violations"] > 0
    assert rows[own]["totals"] != rows[other]["totals"]


@pytest.mark.slow
def test_analyse_values_every_turn_on_the_tables_sheet(tmp_path, capsys):
    db = tmp_path / "games.sqlite3"
    store = Store(db)
    add(store, own_city(), "city", CITY_NAME)
    own = stored(store, dice_events(own_city(), seed=0))
    assert main(["analyse", str(own), "--db", str(db), "--budget", "0.002", "--hindsight", "0", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    totals = next(g for g in game_records.games(store) if g["id"] == own)["totals"]
    assert data["totals"] == totals and data["finished"] and data["turns"]     # (the default's are others)


def test_a_game_whose_sheet_is_not_held_makes_no_record_said_once_and_the_others_stand(tmp_path, capsys):
    db = tmp_path / "games.sqlite3"
    store = Store(db)
    city = own_city()
    x = sheet_hash(city)
    plain = stored(store, unnamed(dice_events(city, seed=3)), uid="beef")
    lost = stored(store, dice_events(city, seed=3))
    rows = {g["id"]: g for g in game_records.games(store)}
    assert rows[plain]["totals"] is not None and rows[lost]["totals"] is None
    want = (f"game {lost} (console {UID} boot 1): event 1 (game): it was played on the sheet {CITY_NAME!r} (hash {x}), "
            "which this PC does not hold: add it to this PC's library: doodlebox sheets add FILE, or sync from the "
            "PC that sent it")
    assert rows[lost]["error"] == want
    code, err = exported(db, lost, tmp_path / "lost.json", capsys)
    assert code == 2 and err == f"doodlebox: {want}\n" and not (tmp_path / "lost.json").exists()
    assert exported(db, plain, tmp_path / "plain.json", capsys)[0] == 0
    with pytest.raises(MissingSheet) as found:
        to_record(store.game_log(lost))
    assert found.value.sx == x
    add(store, city, "city", CITY_NAME)           # then added: the same store open, the game is a record now
    rows = {g["id"]: g for g in game_records.games(store)}
    assert rows[lost]["error"] == "" and rows[lost]["violations"] == 0 and rows[lost]["totals"] is not None


def test_a_sheet_that_is_not_its_hash_or_of_another_game_is_never_used(tmp_path):
    city = own_city()
    events = dice_events(city, seed=4)
    x = events[0]["sx"]

    def log(sheets: dict) -> GameLog:
        return GameLog(1, UID, 1, 1, list(enumerate(events, start=1)), sheets=sheets)
    with pytest.raises(ConsoleLogError, match=f"the sheet {CITY_NAME!r} given for hash {x} hashes to "
                                              "[0-9a-f]{12}: not used"):
        to_record(log({x: dict(city, trees=9)}))
    suzhou = json.loads(json.dumps(city))
    suzhou["edition"] = "suzhou"
    bad = dict(events[0], sx=sheet_hash(suzhou))
    with pytest.raises(ConsoleLogError, match="is a sheet of 'suzhou', and the game is 'city'"):
        to_record(GameLog(1, UID, 1, 1, [(1, bad), *list(enumerate(events, start=1))[1:]],
                          sheets={bad["sx"]: suzhou}))
    side = own_map()
    bad = dict(events[0], sx=sheet_hash(side))
    with pytest.raises(ConsoleLogError, match="is not a sheet that can be played: "):
        to_record(GameLog(1, UID, 1, 1, [(1, bad)], sheets={bad["sx"]: side}))
    deadly = deadly_events(side, seed=1)
    with pytest.raises(ConsoleLogError, match="is not a map side that can be played: "):
        to_record(GameLog(1, UID, 1, 1, [(1, dict(deadly[0], sx=x))], sheets={x: city}))
    puzzle = {"k": "game", "g": 1, "ed": "puzzle", "n": 3, "var": "", "subj": "standard", "sh": "x", "sx": x}
    with pytest.raises(ConsoleLogError, match="Doodle Puzzle is played on no sheet"):
        to_record(GameLog(1, UID, 1, 1, [(1, puzzle)], sheets={x: city}))


def test_a_spoilt_sheets_row_is_the_games_damage(tmp_path, capsys):
    db = tmp_path / "games.sqlite3"
    store = Store(db)
    x = add(store, own_city(), "city", CITY_NAME)
    gid = stored(store, dice_events(own_city(), seed=2))
    sqlite3.connect(db, isolation_level=None).execute("UPDATE sheets SET body = '{}' WHERE hash = ?", (x,))
    with pytest.raises(Damaged, match=f"game {gid}: damaged: sheets row {x}: "):
        store.game_log(gid)
    code, err = exported(db, gid, tmp_path / "out.json", capsys)
    assert code == 2 and f"damaged: sheets row {x}" in err


def test_live_validation_plays_the_tables_sheet_and_waits_for_one_not_held(tmp_path):
    store = Store(tmp_path / "games.sqlite3")
    city = own_city()
    events = dice_events(city, seed=6)
    store.hello(UID, "0.9.0", [(1, 1, 1)])
    live = LiveGames(store)
    store.append_many(UID, [(1, 1, events[0])])
    with pytest.raises(MissingSheet):
        live.stored(UID, 1, events[0], 1)
    add(store, city, "city", CITY_NAME)           # the PC's library puts it in the store (or a sync brings it)
    verdict = None
    for s, e in enumerate(events[1:], start=2):
        store.append_many(UID, [(1, s, e)])
        verdict = live.stored(UID, 1, e, s) or verdict
    assert verdict is not None and verdict.kind == "end"
    assert verdict.message["bad"] == 0 and verdict.message["p"] == events[-1]["p"]   # the console's own totals


def test_the_pcs_hint_and_seat_read_the_game_on_the_tables_sheet(tmp_path):
    store = Store(tmp_path / "games.sqlite3")
    city = own_city()
    add(store, city, "city", CITY_NAME)
    events = dice_events(city, seed=7)
    at = next(k for k, e in enumerate(events) if e["k"] == "roll" and e["r"] == 3) + 1   # round 3 rolled
    stored(store, events[:at])
    turn = answers._turn(store, UID, 1, 1, at, time.monotonic())
    assert turn.state is not None and turn.state.game.layout.name == "Our city"
    assert answers.hint_text(store, UID, 1, 1, at, budget_s=0.05).startswith("Hint: D")
    assert main(["hint", "--db", str(tmp_path / "games.sqlite3"), "--budget", "0.05"]) == 0
    frame = answers.bot_frame(store, UID, 1, 1, at, turn.state.current_player(), budget_s=0.05)
    assert "m" in frame and "(PC)" in frame["text"]
