"""Damage is one line (docs/stored-games.md, "Damage"): real databases made by the real Store,
then damaged (bits flipped in the file, one events.body, imported.record, players.name or
games row overwritten, the file cut short), and every command that reads them run through the
command line's entry point: no traceback, one line naming the file, the game and the row, exit
2 for the command that hit the damage; a listing (`games`, `stats`) still shows the other games.
Also: game ids only of ASCII digits and within SQLite's range, and a full stdout said in one
line (exit 1), as its own process."""
from __future__ import annotations

import io
import random
import shutil
import sqlite3
import subprocess
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest
from cli_run import ENV, ROOT
from test_games_cli import console_game

from doodlebox.cli import main

GOLDEN = ROOT / "tests" / "golden"
SUZHOU = GOLDEN / "suzhou-bonuses.json"      # imported as game 2: Li, Mei, Tao
CITY_SOLO = GOLDEN / "city-solo.json"
LAYOUT = ROOT / "host" / "doodlebox" / "layouts" / "doodle-city.json"


def run(*args: str | Path) -> tuple[int, str, str]:
    """`doodlebox ARGS` through doodlebox.cli.main: (exit code, stdout, stderr). An exception
    that escapes main() fails the test (it would be a traceback)."""
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main([str(a) for a in args])
    return code, out.getvalue(), err.getvalue()


def one_line(result: tuple[int, str, str], code: int = 2) -> str:
    got, out, err = result
    assert got == code, (got, out, err)
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("doodlebox: ") and "Traceback" not in err, err
    return lines[0]


def ok(result: tuple[int, str, str]) -> str:
    code, out, err = result
    assert code == 0 and err == "", (code, out, err)
    return out


@pytest.fixture(scope="module")
def made(tmp_path_factory) -> Path:
    """Game 1: a console's city game (started last); game 2: suzhou-bonuses.json, imported as
    played in 2020."""
    db = tmp_path_factory.mktemp("made") / "games.sqlite3"
    console_game(db)
    ok(run("import", SUZHOU, "--db", db, "--date", "2020-01-01"))
    return db


@pytest.fixture
def db(made, tmp_path) -> Path:
    out = tmp_path / "games.sqlite3"
    shutil.copy(made, out)
    return out


def sql(db: Path, query: str, args: tuple = ()) -> list[tuple]:
    con = sqlite3.connect(db)
    try:
        rows = con.execute(query, args).fetchall()
        con.commit()
    finally:
        con.close()
    return rows


def roll_row(db: Path) -> int:
    """The events row of the third roll of game 1."""
    return sql(db, "SELECT id FROM events WHERE kind='roll' ORDER BY seq LIMIT 1 OFFSET 2")[0][0]


def table(out: str) -> dict[str, str]:
    """`doodlebox games`' rows: game number -> its line."""
    return {line.split()[0]: line for line in out.splitlines()[1:]}


# -- game ids -----------------------------------------------------------------------------
def reading(db: Path, game: str, tmp_path: Path) -> list[tuple]:
    return [("show", game, "--db", db), ("names", game, "--db", db),
            ("export", game, "--db", db, "-o", tmp_path / "x.json"),
            ("export", game, "--csv", "--db", db, "-o", tmp_path / "x.csv")]


@pytest.mark.parametrize("game", [str(10 ** 30), str(2 ** 63), "9223372036854775807", "0"])
def test_a_number_beyond_the_games_is_no_game(db, tmp_path, game):
    for args in reading(db, game, tmp_path):
        line = one_line(run(*args))
        assert line == f"doodlebox: {db}: no game {game} (see `doodlebox games`)", args
    assert not (tmp_path / "x.json").exists() and not (tmp_path / "x.csv").exists()


# Arabic-Indic one, fullwidth one, superscript two (int() takes the first two, str.isdigit() all three)
@pytest.mark.parametrize("game", ["\u0661", "\uff11", "\u00b2", "1\u0661", " 1", "LAST", "-1"])
def test_only_ascii_digits_make_a_game_number(db, tmp_path, game):
    for args in reading(db, game, tmp_path):
        line = one_line(run(*args))
        assert line == f"doodlebox: {game!r} is not a game: give its number from `doodlebox games`, or last", args
    assert ok(run("names", "1", "--db", db)) == "game 1: 1 P1, 2 P2, 3 P3\n"
    assert ok(run("show", "last", "--db", db)).startswith("game 1 (console c0ffee boot 2): ")


# -- one damaged events row ---------------------------------------------------------------
EVENT_DAMAGE = [
    ('{"c": 5, "g": 1, "k": "roll", "r"', "not JSON"),
    (b'{"g": 1, "k": "r\xffll"}', "not UTF-8 text"),
    ("[4, 6, 5]", "[4, 6, 5] is not an event (a JSON object)"),
    ("17", "17 is not an event (a JSON object)"),
    ("null", "null is not an event (a JSON object)"),
    ('{"g": 1, "r": 3}', "its event has no 'k', the row's kind is 'roll'"),
    ('{"g": 1, "k": "rolm", "r": 3}', "its event says 'k' \"rolm\", the row's kind is 'roll'"),
    ('{"k": "roll", "r": 3}', "its event has no 'g', the row's game is 1"),
]


def damage_event(db: Path, body: str | bytes) -> int:
    rid = roll_row(db)
    sql(db, "UPDATE events SET body=CAST(? AS TEXT) WHERE id=?", (body, rid))
    return rid


@pytest.mark.parametrize("body,said", EVENT_DAMAGE)
def test_a_damaged_event_is_one_line_naming_the_game_and_the_row(db, tmp_path, body, said):
    rid = damage_event(db, body)
    line = f"doodlebox: {db}: game 1: damaged: events row {rid}: {said}"
    x, c = tmp_path / "x.json", tmp_path / "x.csv"
    for args in (("show", "1"), ("show", "last"), ("export", "1", "-o", x), ("export", "all", "--csv", "-o", c)):
        assert one_line(run(*args, "--db", db)) == line, args
    assert not x.exists() and not c.exists()
    # the listings: the other game as it is, the damaged one marked, then the line
    code, out, err = run("games", "--db", db)
    assert one_line((code, out, err)) == line
    rows = table(out)
    assert f"damaged: events row {rid}: {said}" in rows["1"] and "imported" in rows["2"] and "46 32 26" in rows["2"]
    code, out, err = run("stats", "--db", db)
    assert one_line((code, out, err)) == line
    assert "Li: 46 (suzhou #2)" in out and f"game 1 (city, ended): damaged: events row {rid}: {said}" in out
    # what does not read the damaged row is not stopped by it
    ok(run("show", "2", "--db", db))
    ok(run("export", "2", "--db", db, "-o", x))
    assert ok(run("names", "1", "--db", db)) == "game 1: 1 P1, 2 P2, 3 P3\n"
    assert "imported as game 3" in ok(run("import", CITY_SOLO, "--db", db))


def test_a_damaged_event_of_no_game_is_left_out_of_the_dice_and_named(db):
    """A roll whose row no longer says its game: the listing cannot tell whose it was, the dice
    statistics can, and name it."""
    rid = roll_row(db)
    sql(db, "UPDATE events SET game=NULL WHERE id=?", (rid,))
    line = one_line(run("stats", "--db", db))
    assert line == f"doodlebox: {db}: damaged: events row {rid}: its event says 'g' 1, the row's game is None"


# -- a damaged imported record, a damaged name, a damaged games row -------------------------
RECORD_DAMAGE = [
    ('{"edition": "suzhou", "players": ["Li"', "not JSON"),
    ("[1, 2]", "[1, 2] is not a record (a JSON object with its players)"),
    ("3", "3 is not a record (a JSON object with its players)"),
    ('{"edition": "suzhou"}', '{"edition": "suzhou"} is not a record (a JSON object with its players)'),
    ('{"players": ["Li", "Mei", "Tao"]}', "format: None is not 'doodlebox-record/1'"),
]


@pytest.mark.parametrize("record,said", RECORD_DAMAGE)
def test_a_damaged_imported_record_is_one_line_naming_the_game_and_the_row(db, tmp_path, record, said):
    sql(db, "UPDATE imported SET record=? WHERE game=2", (record,))
    line = f"doodlebox: {db}: game 2: damaged: imported row 2: {said}"
    x = tmp_path / "x.json"
    for args in (("show", "2"), ("export", "2", "-o", x), ("export", "all", "--csv", "-o", tmp_path / "x.csv")):
        assert one_line(run(*args, "--db", db)) == line, args
    assert not x.exists()
    code, out, err = run("games", "--db", db)
    assert one_line((code, out, err)) == line
    assert f"damaged: imported row 2: {said}" in table(out)["2"] and "ended (" in table(out)["1"]
    code, out, err = run("stats", "--db", db)
    assert one_line((code, out, err)) == line and "console c0ffee" in out
    ok(run("show", "1", "--db", db))
    ok(run("export", "1", "--db", db, "-o", x))


def test_a_name_that_is_not_text_is_one_line(db):
    sql(db, "UPDATE players SET name=CAST(? AS TEXT) WHERE game=2 AND seat=1", (b"M\xffi",))
    line = f"doodlebox: {db}: game 2: damaged: players rows of game 2: text that is not UTF-8"
    assert one_line(run("names", "2", "--db", db)) == line
    assert one_line(run("show", "2", "--db", db)) == line
    code, out, err = run("games", "--db", db)
    assert one_line((code, out, err)) == line and "damaged: players rows of game 2" in table(out)["2"]
    assert "P1, P2, P3" in table(out)["2"]      # the seats, without the names that cannot be read


@pytest.mark.parametrize("column,value,said", [
    ("edition", b"cit\xff", "games row 1: text that is not UTF-8"),
    ("players", 1 << 40, f"games row 1: {1 << 40} players"),
    ("started", 1e300, "games row 1: the start time 1e+300 is not a time"),
])
def test_a_damaged_games_row_is_listed_as_damaged(db, column, value, said):
    sql(db, f"UPDATE games SET {column}=" + ("CAST(? AS TEXT)" if isinstance(value, bytes) else "?") + " WHERE id=1",
        (value,))
    line = f"doodlebox: {db}: game 1: damaged: {said}"
    code, out, err = run("games", "--db", db)
    assert one_line((code, out, err)) == line
    assert f"damaged: {said}" in table(out)["1"] and "imported" in table(out)["2"]
    assert one_line(run("show", "1", "--db", db)) == line
    assert one_line(run("names", "1", "--db", db)) == line
    assert one_line(run("stats", "--db", db)) == line


# -- the file itself ------------------------------------------------------------------------
def flip(db: Path, near: bytes, at: int, bit: int) -> None:
    data = bytearray(db.read_bytes())
    where = data.index(near)
    assert data.find(near, where + 1) == -1, "the text to damage is not one place in the file"
    data[where + at] ^= bit
    db.write_bytes(bytes(data))


@pytest.mark.slow
def test_a_bit_flipped_in_an_event_through_the_real_command(db):
    """The `doodlebox` command as its own process: ':' of an event turned into ';' on the disk."""
    rid = roll_row(db)
    body = sql(db, "SELECT body FROM events WHERE id=?", (rid,))[0][0].encode()
    flip(db, body, body.index(b'"k":') + 3, 0x01)
    line = f"doodlebox: {db}: game 1: damaged: events row {rid}: not JSON"
    for args in (["games"], ["stats"], ["show", "1"], ["show", "last"]):
        r = doodlebox(*args, "--db", str(db))
        assert r.returncode == 2 and r.stderr == line + "\n", (args, r.stderr)
    r = doodlebox("export", "1", "--db", str(db), "-o", str(db.parent / "x.json"))
    assert r.returncode == 2 and r.stderr == line + "\n"
    r = doodlebox("names", "1", "--db", str(db))
    assert r.returncode == 0 and r.stderr == ""


def test_a_bit_flipped_in_an_imported_record(db):
    flip(db, b'"players":["Li","Mei","Tao"]', len(b'"players"'), 0x01)
    line = f"doodlebox: {db}: game 2: damaged: imported row 2: not JSON"
    assert one_line(run("games", "--db", db)) == line
    assert one_line(run("export", "2", "--db", db, "-o", db.parent / "x.json")) == line


def test_a_file_cut_short_is_one_line(db):
    db.write_bytes(db.read_bytes()[:db.stat().st_size // 2])
    for args in (["games"], ["stats"], ["show", "1"], ["names", "1"], ["import", CITY_SOLO]):
        line = one_line(run(*args, "--db", db))
        assert line.startswith(f"doodlebox: {db}: damaged: SQLite finds the file malformed"), line


@pytest.mark.slow
def test_bits_flipped_anywhere_never_make_a_traceback(made, tmp_path):
    """One bit flipped at random places of the file (seeded), every reading command run on
    each: it answers, or says one line (exit 1: not a database at all; 2: damaged)."""
    data = made.read_bytes()
    rng = random.Random(18)
    db = tmp_path / "flipped.sqlite3"
    commands = [["games"], ["show", "1"], ["show", "2"], ["export", "1", "-o", tmp_path / "x.json"],
                ["export", "all", "--csv", "-o", tmp_path / "x.csv"], ["names", "2"], ["stats"],
                ["import", CITY_SOLO]]
    for _ in range(12):
        damaged = bytearray(data)
        damaged[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
        for args in commands:
            db.write_bytes(damaged)
            code, _, err = run(*args, "--db", db)
            assert code in (0, 1, 2) and "Traceback" not in err and len(err.splitlines()) == (code != 0), (args, err)


# -- records -----------------------------------------------------------------------------------
def test_a_damaged_record_file_is_one_line(tmp_path):
    cut = tmp_path / "cut.json"
    cut.write_bytes(CITY_SOLO.read_bytes()[:300])
    flipped = tmp_path / "flipped.json"
    data = bytearray(CITY_SOLO.read_bytes())
    data[200] ^= 0x80
    flipped.write_bytes(bytes(data))
    for record in (cut, flipped):
        for command in ("validate", "score"):
            assert str(record) in one_line(run(command, record))


# -- stdout -------------------------------------------------------------------------------------
def doodlebox(*args: str, stdout=subprocess.PIPE) -> subprocess.CompletedProcess:
    return subprocess.run([str(ROOT / ".venv" / "bin" / "python"), "-m", "doodlebox.cli", *args], stdout=stdout,
                          stderr=subprocess.PIPE, text=True, env=ENV, timeout=120, stdin=subprocess.DEVNULL)


@pytest.mark.slow
def test_a_full_stdout_is_one_line(db):
    full = Path("/dev/full")      # (Linux's: every write to it fails with ENOSPC)
    for args in (["games", "--db", str(db)], ["show", "1", "--db", str(db)], ["stats", "--db", str(db)],
                 ["validate", str(CITY_SOLO)], ["score", str(CITY_SOLO)], ["layout", "check", str(LAYOUT)]):
        with full.open("w") as out:
            r = doodlebox(*args, stdout=out)
        assert r.returncode == 1, (args, r.stderr)
        assert r.stderr == "doodlebox: the output cannot be written (No space left on device)\n", (args, r.stderr)


def test_a_closed_pipe_stays_silent(db):
    proc = subprocess.Popen([str(ROOT / ".venv" / "bin" / "python"), "-m", "doodlebox.cli", "games", "--db", str(db)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV, stdin=subprocess.DEVNULL)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()             # the reader goes away before doodlebox writes
    err = proc.stderr.read()
    assert proc.wait(timeout=120) == 1 and err == b""
