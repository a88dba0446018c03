"""The stored games from the command line (docs/stored-games.md): `games`, `show`, `export` (a
record with the names, or a scores table), `import` (records played on paper: valid ones stored,
one that breaks the rules refused or, with --with-violations, stored with its violations),
`names`, and the issue's end-to-end check: a console game and an imported record, then import,
show last, export last, stats --plot. Each command runs as its own process."""
from __future__ import annotations

import csv
import json
import re
import shutil
from pathlib import Path

import pytest
from cli_run import doodlebox
from console_events import console_events
from PIL import Image
from randomplay import random_game
from test_console_record import city_events, expected_record, store_events

from doodlebox.rules.games import find_game, replay_file
from doodlebox.store import Store

pytestmark = pytest.mark.slow      # (tests/conftest.py: the quick tier)

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden"
SUZHOU = GOLDEN / "suzhou-bonuses.json"


def ok(r) -> str:
    assert r.returncode == 0, (r.stdout, r.stderr)
    assert r.stderr == "", r.stderr
    return r.stdout


def one_line(r, code: int = 2) -> str:
    assert r.returncode == code, (r.stdout, r.stderr)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("doodlebox: ") and "Traceback" not in r.stderr, r.stderr
    return lines[0]


def games_table(db: Path) -> list[dict]:
    """`doodlebox games` read back as rows (columns are two or more spaces apart)."""
    head, *rows = [re.split(r"\s{2,}", line.strip()) for line in ok(doodlebox("games", "--db", str(db))).splitlines()]
    return [dict(zip(head, row)) for row in rows]


def console_game(db: Path, seed: int = 3, edition: str = "city", players: int = 3):
    """A whole game as the console sends it, stored as `doodlebox log` stores it; its state."""
    state = random_game(find_game(edition), seed, players)
    store = Store(db)
    store.hello("c0ffee", "0.4.0", [])
    store_events(store, console_events(state))
    store.close()
    return state


def png_with_content(path: Path, width: int = 300) -> None:
    """A real PNG (Pillow reads it), of some size, and not one colour: something is drawn."""
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    with Image.open(path) as im:
        im.load()
        assert im.format == "PNG" and im.width >= width and im.height >= 200
        colours = im.convert("RGB").getcolors(maxcolors=1 << 20)
    assert colours is not None and len(colours) > 50


def test_the_issue_example_a_console_game_and_an_imported_record(tmp_path):
    """What issue 12 must show: import, show last, export last -o x.json and stats --plot s.png."""
    db = tmp_path / "games.sqlite3"
    state = console_game(db)
    out = ok(doodlebox("import", str(SUZHOU), "--db", str(db)))
    assert out.strip() == f"{SUZHOU}: imported as game 2 (suzhou, Li, Mei, Tao)"

    rows = games_table(db)
    assert [(r["#"], r["edition"], r["players"], r["status"]) for r in rows] == [
        ("1", "city", "P1, P2, P3", "ended (" + console_events(state)[-1]["why"] + ")"),
        ("2", "suzhou", "Li, Mei, Tao", "imported")]
    assert rows[0]["scores"] == " ".join(map(str, state.scores()))
    rp, _ = replay_file(SUZHOU)
    assert rows[1]["scores"] == " ".join(map(str, rp.state.scores())) == "46 32 26"
    assert rows[1]["winner"] == "Li" and rows[1]["from"] == "suzhou-bonuses.json"

    shown = ok(doodlebox("show", "last", "--db", str(db)))
    assert shown.startswith(f"game 2 (imported from {SUZHOU}): Doodle China: Suzhou, 3 player(s) (Li, Mei, Tao)")
    assert re.search(r"^  Li +46 .*winner$", shown, re.M)
    rounds = [line.strip() for line in shown.splitlines() if re.match(r"  round \d+: ", line)]
    assert len(rounds) == len(json.loads(SUZHOU.read_text())["rounds"])
    assert rounds[0].startswith("round 1: roll column 2, white 1 4 4 2; Li: die 1 at [1, 2] EW;")
    assert rounds[-1].endswith("| totals Li 46, Mei 32, Tao 26")
    assert shown.rstrip().endswith("no violations")

    x = tmp_path / "x.json"
    ok(doodlebox("export", "last", "--db", str(db), "-o", str(x)))
    assert json.loads(x.read_text()) == json.loads(SUZHOU.read_text())
    y = tmp_path / "y.json"
    ok(doodlebox("export", "1", "--db", str(db), "-o", str(y)))
    assert json.loads(y.read_text()) == expected_record(state)

    s = tmp_path / "s.png"
    text = ok(doodlebox("stats", "--db", str(db), "--plot", str(s)))
    assert "console c0ffee" in text and re.search(r"^ +column +\d+ ", text, re.M)
    assert "suzhou: Li 1/1 (100%)" in text
    png_with_content(s, 1000)


def test_names_are_carried_into_games_show_export_and_stats(tmp_path):
    db = tmp_path / "g.sqlite3"
    state = console_game(db, seed=5)
    assert ok(doodlebox("names", "1", "--db", str(db))).strip() == "game 1: 1 P1, 2 P2, 3 P3"
    assert ok(doodlebox("names", "last", "Ann", "Ben Bo", "Cat", "--db", str(db))).strip() == \
        "game 1: 1 Ann, 2 Ben Bo, 3 Cat"
    assert games_table(db)[0]["players"] == "Ann, Ben Bo, Cat"
    assert "(Ann, Ben Bo, Cat)" in ok(doodlebox("show", "1", "--db", str(db))).splitlines()[0]
    x = tmp_path / "x.json"
    ok(doodlebox("export", "1", "--db", str(db), "-o", str(x)))
    assert json.loads(x.read_text()) == dict(expected_record(state), players=["Ann", "Ben Bo", "Cat"])
    text = ok(doodlebox("stats", "--db", str(db)))
    for name, total in zip(("Ann", "Ben Bo", "Cat"), state.scores()):
        assert f"  {name}: {total} (city #1)" in text
    # fewer names than seats: the rest keep theirs; --clear: all back
    assert ok(doodlebox("names", "1", "Zed", "--db", str(db))).strip() == "game 1: 1 Zed, 2 P2, 3 P3"
    assert ok(doodlebox("names", "1", "--clear", "--db", str(db))).strip() == "game 1: 1 P1, 2 P2, 3 P3"


@pytest.mark.parametrize("names,says", [
    (["A", "B", "C", "D"], "game 1 has 3 player(s): 4 names given"),
    (["Ann", "ann"], "the name 'Ann' is given to two seats of game 1"),
    (["P2"], "the name 'P2' is given to two seats"),
    (["  "], "name 1 is empty"),
    (["x" * 25], "longer than 24 characters"),
    (["Ann\x1b[2J"], "cannot be printed"),
])
def test_names_a_game_cannot_take_are_one_line_and_exit_2(tmp_path, names, says):
    db = tmp_path / "g.sqlite3"
    console_game(db)
    assert says in one_line(doodlebox("names", "1", *names, "--db", str(db)))
    assert games_table(db)[0]["players"] == "P1, P2, P3"        # nothing changed


def test_an_unknown_game_is_one_line_and_exit_2_everywhere(tmp_path):
    db = tmp_path / "g.sqlite3"
    out = tmp_path / "x.json"
    for cmd in (["show", "1"], ["export", "1", "-o", str(out)], ["names", "1", "Ann"], ["games"], ["stats"]):
        assert "no database" in one_line(doodlebox(*cmd, "--db", str(db)))
    Store(db).close()
    assert "no games stored" in one_line(doodlebox("show", "last", "--db", str(db)))
    console_game(db)
    for cmd in (["show", "9"], ["export", "9", "-o", str(out)], ["export", "9", "--csv", "-o", str(out)],
                ["names", "9", "Ann"]):
        assert one_line(doodlebox(*cmd, "--db", str(db))) == f"doodlebox: {db}: no game 9 (see `doodlebox games`)"
    assert "'first' is not a game" in one_line(doodlebox("show", "first", "--db", str(db)))
    assert "'-1' is not a game" in one_line(doodlebox("names", "-1", "--db", str(db)))
    assert not out.exists()


def test_a_record_that_breaks_the_rules_is_refused_or_stored_with_its_violations(tmp_path):
    db = tmp_path / "g.sqlite3"
    bad = GOLDEN / "violations.json"
    rp, _ = replay_file(bad)
    n = len(rp.violations)
    line = one_line(doodlebox("import", str(SUZHOU), str(bad), "--db", str(db)))
    assert line.startswith(f"doodlebox: {bad}: {n} violation(s), not imported (the first: round 1, P1 Ann, turn 1:")
    assert "--with-violations" in line
    assert ok(doodlebox("games", "--db", str(db))).strip() == "no games stored"    # all or nothing

    out = ok(doodlebox("import", str(bad), "--with-violations", "--db", str(db)))
    assert out.strip() == f"{bad}: imported as game 1 (city, Ann, Ben, Cat), with {n} violation(s) (doodlebox show 1)"
    shown = ok(doodlebox("show", "1", "--db", str(db)))
    assert f"{n} violation(s):" in shown and "[rule square]" in shown and "refused:" in shown
    row = games_table(db)[0]
    assert row["status"] == "imported" and row["scores"] == " ".join(map(str, rp.state.scores()))
    x = tmp_path / "x.json"
    ok(doodlebox("export", "1", "--db", str(db), "-o", str(x)))
    assert json.loads(x.read_text()) == json.loads(bad.read_text())      # as typed, to be corrected
    assert doodlebox("validate", str(x)).returncode == 1


def test_show_numbers_the_rounds_as_the_record_does_when_a_deal_is_void(tmp_path):
    """Doodle Puzzle: a round whose deal the rulebook does not allow is void and never dealt
    (ruling P11); `show` numbered the rounds by the deals the engine took, so every round after
    it was shown under the number before its own, beside violations that name the record's."""
    db = tmp_path / "g.sqlite3"
    bad = GOLDEN / "puzzle-violations.json"
    rp, _ = replay_file(bad)
    ok(doodlebox("import", str(bad), "--with-violations", "--db", str(db)))
    shown = ok(doodlebox("show", "1", "--db", str(db)))
    rounds = [line for line in shown.splitlines() if line.startswith("  round ")]
    assert rounds[0] == "  round 1: void, not dealt (a deal the rulebook does not allow)"
    record = json.loads(bad.read_text())["rounds"]
    names = json.loads(bad.read_text())["players"]
    for line, number in zip(rounds[1:], range(2, 6)):        # each round with the record's deal
        roles = ", ".join(f"{n} {r}" for n, r in zip(names, record[number - 1]["roles"]))
        assert line.startswith(f"  round {number}: roles {roles};"), line
    totals = ", ".join(f"{n} {t}" for n, t in zip(names, rp.state.scores()))
    assert len(rounds) == 5 and rounds[-1].endswith(f"| totals {totals}")


def test_records_that_cannot_be_read_are_one_line_and_exit_2_and_nothing_is_stored(tmp_path):
    db = tmp_path / "g.sqlite3"
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "doodlebox-record/1", "edition": "city", "players": ["A"], "start": [7]}')
    notjson = tmp_path / "notjson.json"
    notjson.write_text("rounds: many")
    for path, says in ((broken, "start[0]: 7 is not a die face"), (notjson, "not JSON"),
                       (tmp_path / "missing.json", "missing.json")):
        line = one_line(doodlebox("import", str(SUZHOU), str(path), "--db", str(db)))
        assert says in line and str(path) in line, line
    assert ok(doodlebox("games", "--db", str(db))).strip() == "no games stored"
    assert "give the record files" in one_line(doodlebox("import", "--db", str(db)))
    assert "--date 'May 5'" in one_line(doodlebox("import", str(SUZHOU), "--date", "May 5", "--db", str(db)))


def test_import_of_every_game_with_a_date_and_the_same_record_twice(tmp_path):
    db = tmp_path / "g.sqlite3"
    files = [GOLDEN / f for f in ("city-solo.json", "deadly-duel.json", "puzzle-behave.json", "treasures-shared.json")]
    out = ok(doodlebox("import", *map(str, files), "--date", "2026-05-04 19:30", "--db", str(db)))
    assert [line.split(": imported as game ")[1].split(" ")[0] for line in out.splitlines()] == ["1", "2", "3", "4"]
    rows = games_table(db)
    assert [r["date"] for r in rows] == ["2026-05-04 19:30"] * 4
    assert [r["edition"] for r in rows] == ["city", "deadly", "puzzle", "treasures"]
    for row, f in zip(rows, files):
        rp, _ = replay_file(f)
        assert row["scores"] == " ".join(map(str, rp.state.scores())), f
    assert rows[0]["winner"] == "Landlord"                   # a solo game: its rank
    assert rows[2]["winner"] == "-"                          # Behave: the table plays together
    again = ok(doodlebox("import", str(files[1]), str(SUZHOU), str(SUZHOU), "--db", str(db)))
    assert again.splitlines() == [
        f"{SUZHOU}: imported as game 5 (suzhou, Li, Mei, Tao)",
        f"{files[1]}: imported before as game 2: not imported again",
        f"{SUZHOU}: imported before (the same record twice on the command line): not imported again"]
    assert len(games_table(db)) == 5
    deadly = ok(doodlebox("show", "2", "--db", str(db)))
    assert "  round 1: revealed 1 straight, 9 corner, 10 corner, 19 tee; Ann: 4 segment(s); Ben: 4 segment(s)" in deadly
    assert re.search(r"^  round 2: .*Ann: 3 segment\(s\), trap at E4; Ben: 3 segment\(s\), trap at D2 ", deadly, re.M)
    behave = ok(doodlebox("show", "3", "--db", str(db)))
    assert "the table (shared Scorecard)" in behave and "roles Ann star, Ben drawy" in behave


def test_export_csv_is_a_scores_table_with_the_names(tmp_path):
    db = tmp_path / "g.sqlite3"
    state = console_game(db, seed=8, edition="monsters", players=2)
    ok(doodlebox("names", "1", "Ann", "Ben", "--db", str(db)))
    ok(doodlebox("import", str(SUZHOU), "--date", "2026-01-02", "--db", str(db)))
    out = tmp_path / "scores.csv"
    said = ok(doodlebox("export", "all", "--csv", "-o", str(out), "--db", str(db)))
    assert said.strip() == f"{out}: 5 row(s) of 2 game(s): game, edition, date, player, seat, total, winner, status"
    rows = list(csv.DictReader(out.open()))
    totals = state.scores()
    won = state.result().winners
    assert [(r["game"], r["edition"], r["player"], r["seat"], r["total"], r["winner"]) for r in rows] == [
        ("2", "suzhou", "Li", "1", "46", "1"), ("2", "suzhou", "Mei", "2", "32", "0"),   # played first
        ("2", "suzhou", "Tao", "3", "26", "0"),
        ("1", "monsters", "Ann", "1", str(totals[0]), str(int(0 in won))),
        ("1", "monsters", "Ben", "2", str(totals[1]), str(int(1 in won)))]
    assert rows[0]["date"] == "2026-01-02 00:00"
    assert {r["status"] for r in rows} == {"finished"}         # each ended by its rules (ruling G1)
    ok(doodlebox("export", "1", "--csv", "-o", str(out), "--db", str(db)))
    assert [r["player"] for r in csv.DictReader(out.open())] == ["Ann", "Ben"]
    assert "cannot be written" in one_line(doodlebox("export", "1", "--csv", "-o", str(tmp_path / "no" / "x.csv"),
                                                     "--db", str(db)))


def test_a_game_whose_log_cannot_be_a_record_is_listed_and_shown_without_scores(tmp_path):
    db = tmp_path / "g.sqlite3"
    store = Store(db)
    events = city_events()
    events.insert(6, dict(events[7]))       # a claim before the roll
    store_events(store, events)
    store.close()
    row = games_table(db)[0]
    assert (row["edition"], row["scores"], row["winner"], row["status"]) == ("city", "-", "-", "playing")
    shown = ok(doodlebox("show", "1", "--db", str(db)))
    assert shown.splitlines()[1] == ("no record of it: game 1 (console c0ffee boot 2): event 7 (claim): "
                                     "no roll before it")
    assert "Not in the scores: game 1 (city, playing): game 1 (console c0ffee boot 2): event 7" in \
        ok(doodlebox("stats", "--db", str(db)))


def test_a_version_2_database_is_listed_shown_and_named_after_its_upgrade(tmp_path):
    db = tmp_path / "old.sqlite3"
    shutil.copy(ROOT / "tests" / "vectors" / "store-v2.sqlite3", db)
    rows = games_table(db)
    assert [(r["edition"], r["status"]) for r in rows] == [
        ("city", "ended (trees)"), ("treasures", "ended (trees)"), ("suzhou", "abandoned"),
        ("monsters", "ended (trees)"), ("shanghai", "playing")]
    assert rows[1]["winner"] != "-"                                 # a solo game: its rank
    assert (rows[2]["scores"], rows[2]["winner"]) == ("0 0", "-")    # cut after its first turn
    assert (rows[4]["players"], rows[4]["from"]) == ("P1, P2", "beef boot 1")
    ok(doodlebox("names", "4", "Ann", "Ben", "--db", str(db)))
    assert "(Ann, Ben)" in ok(doodlebox("show", "4", "--db", str(db))).splitlines()[0]
