"""A game ended with MENU is "ended early" everywhere (ruling G1, docs/rulings.md): a finished
record, scored as it stands, with no winner and no rank. `games`, `show`, `score`, `validate`,
`stats`, the CSV of `export` and the web page (its table, the game's page, the live game) all
give the same status and no winner, while a game its rules ended keeps its winner. Each command
runs as its own process; the page is the real server, read over HTTP."""
from __future__ import annotations

import csv
import http.client
import json
import random
import re
from pathlib import Path

import pytest
from cli_run import doodlebox
from console_events import console_events
from randomplay import random_game, random_record, step

from doodlebox.rules.games import find_game, read_record
from doodlebox.store import Store
from doodlebox.web.live import Live
from doodlebox.web.server import WebServer

UID = "c0ffee"
NAMES = ["Ann", "Ben", "Cat"]


def ok(r) -> str:
    assert r.returncode == 0, (r.stdout, r.stderr)
    return r.stdout


def stopped_game(seed: int = 5):
    """A 3-player Doodle City game played into round 5, with a clear leader (the one the old
    views called the winner)."""
    for s in range(seed, seed + 50):
        state = find_game("city").new_game(3, "").new_state()
        rng = random.Random(s)
        while state.round < 5 or state.is_chance_node() or state.turn < 2:
            step(state, rng)
        totals = state.scores()
        if totals.count(max(totals)) == 1 and max(totals) > 0:
            return state
    raise AssertionError("no game with a clear leader")


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    """Game 1: ended with MENU in round 5, named Ann, Ben, Cat; game 2: ended by its rules."""
    path = tmp_path_factory.mktemp("early") / "games.sqlite3"
    stopped = stopped_game()
    finished = random_game(find_game("city"), 4, 3)
    store = Store(path)
    try:
        events = console_events(stopped, g=1)
        events.append({"k": "end", "g": 1, "r": stopped.round, "why": "menu", "p": stopped.scores()})
        for s, e in enumerate(events, start=1):
            assert store.append(UID, 1, s, e).status == "stored"
        store.set_names(1, NAMES)
        for s, e in enumerate(console_events(finished, g=1), start=1):
            assert store.append(UID, 2, s, e).status == "stored"
    finally:
        store.close()
    return path, stopped, finished


def games_rows(path: Path) -> dict[str, dict]:
    head, *rows = [re.split(r"\s{2,}", line.strip()) for line in ok(doodlebox("games", "--db", str(path))).splitlines()]
    return {row[0]: dict(zip(head, row)) for row in rows}


def test_games_lists_it_as_ended_early_with_its_scores_and_no_winner(db):
    path, stopped, finished = db
    rows = games_rows(path)
    assert (rows["1"]["status"], rows["1"]["winner"]) == ("ended early", "-")
    assert rows["1"]["scores"] == " ".join(map(str, stopped.scores()))          # scored as it stands
    won = [f"P{p + 1}" for p in finished.result().winners]
    assert rows["2"]["winner"] == ", ".join(won) and rows["2"]["status"].startswith("ended (")


def test_show_and_the_exported_records_score_and_validate_agree(db, tmp_path):
    path, stopped, _ = db
    shown = ok(doodlebox("show", "1", "--db", str(path)))
    first = shown.splitlines()[0]
    assert first.endswith(", ended early") and "(Ann, Ben, Cat)" in first
    assert "(ended early: no winner)" in shown
    assert not re.search(r"\b(winner|leading)$", shown, re.M)
    record = tmp_path / "early.json"
    ok(doodlebox("export", "1", "--db", str(path), "-o", str(record)))
    data = json.loads(record.read_text())
    assert data["ended"] == "early" and data["players"] == NAMES
    table = ok(doodlebox("score", str(record)))
    assert table.splitlines()[0].endswith("(ended early: no winner)")
    assert "winner" not in table.replace("no winner", "") and "leading" not in table
    for name, total in zip(NAMES, stopped.scores()):
        assert re.search(rf"^  {name} +{total} ", table, re.M)
    said = ok(doodlebox("validate", str(record)))
    assert said.splitlines()[0] == f"{record}: valid; ended early: scored as it stands, no winner (ruling G1)"
    assert "not finished" not in said
    js = json.loads(ok(doodlebox("validate", "--json", str(record))))
    assert (js["status"], js["winners"], js["finished"]) == ("ended early", [], False)
    # the finished game keeps its winner in both
    ok(doodlebox("export", "2", "--db", str(path), "-o", str(record)))
    assert "ended" not in json.loads(record.read_text())
    assert re.search(r"  winner$", ok(doodlebox("score", str(record))), re.M)
    assert re.search(r"  winner$", ok(doodlebox("show", "2", "--db", str(path))), re.M)


def test_validate_heads_each_sheet_with_the_seat_once(db, tmp_path):
    path, _, _ = db
    record = tmp_path / "p.json"
    ok(doodlebox("export", "2", "--db", str(path), "-o", str(record)))
    sheets = ok(doodlebox("validate", str(record))).splitlines()
    assert [line for line in sheets if re.fullmatch(r"P\d( .*)?", line)] == ["P1", "P2", "P3"]
    from doodlebox.rules.ending import seat

    assert seat(["P1", "Ann"], 1) == "P2 Ann" and seat(["P1"], 0) == "P1"


def test_the_csv_has_a_status_column(db, tmp_path):
    path, stopped, finished = db
    out = tmp_path / "s.csv"
    ok(doodlebox("export", "all", "--csv", "-o", str(out), "--db", str(path)))
    rows = list(csv.DictReader(out.open()))
    early = [r for r in rows if r["game"] == "1"]
    assert [(r["player"], r["total"], r["winner"], r["status"]) for r in early] == [
        (n, str(t), "0", "ended early") for n, t in zip(NAMES, stopped.scores())]
    done = [r for r in rows if r["game"] == "2"]
    assert {r["status"] for r in done} == {"finished"}
    assert [int(r["winner"]) for r in done] == [int(p in finished.result().winners) for p in range(3)]


def test_stats_counts_it_as_played_but_not_in_the_scores_or_wins(db):
    path, stopped, _ = db
    text = ok(doodlebox("stats", "--db", str(path)))
    assert text.splitlines()[0] == ("2 game(s) stored, 1 finished in the scores, 1 ended early "
                                    "(played; not in the scores, wins or ranks)")
    assert "not finished" not in text
    listed = ", ".join(f"{n} {t}" for n, t in zip(NAMES, stopped.scores()))
    assert re.search(rf"^  #1 .* city: {listed}: ended early$", text, re.M)
    for name in NAMES:        # the game ended early is in no one's history or win rate
        assert f"{name}:" not in text.split("Ended early")[0]
    assert "a game ended early has no winner and is not counted" in text
    # the one console, by its uid and its games
    assert re.search(rf"^  console {UID} \(2 games\)$", text, re.M)


def get(server: WebServer, path: str) -> tuple[int, bytes]:
    c = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    try:
        c.request("GET", path, headers={"Host": f"127.0.0.1:{server.port}"})
        r = c.getresponse()
        return r.status, r.read()
    finally:
        c.close()


def test_the_page_shows_it_ended_early_with_no_winner(db):
    path, stopped, finished = db
    with WebServer(path, 0, Live()) as server:
        status, body = get(server, "/")
        assert status == 200
        rows = dict(re.findall(r'<tr id="game-(\d+)">(.*?)</tr>', body.decode()))
        cells = re.findall(r"<td>(.*?)</td>", rows["1"])       # #, edition, players, date, winner, scores, status
        scores = ", ".join(f"{n} {t}" for n, t in zip(NAMES, stopped.scores()))
        assert cells[4:] == ["-", scores, "ended early"]
        assert re.findall(r"<td>(.*?)</td>", rows["2"])[4] == ", ".join(f"P{p + 1}" for p in finished.result().winners)
        games = {g["id"]: g for g in json.loads(get(server, "/api/games")[1])["games"]}
        assert (games[1]["winners"], games[1]["standing"], games[1]["status"]) == ([], "ended early", "ended early")
        assert games[2]["standing"] == "finished" and games[2]["winners"]
        page = get(server, "/game/1")[1].decode()
        assert "; ended early; winner: -</p>" in page and "(ended early: no winner)" in page
        assert not re.search(r"(winner|leading)\n", page)


def test_the_live_game_says_ended_early_and_numbers_it_as_the_store_does(tmp_path):
    path = tmp_path / "live.sqlite3"
    stopped = stopped_game(9)
    store = Store(path)
    try:
        store.append(UID, 1, 1, {"k": "game", "g": 1, "ed": "city", "n": 2, "var": ""})    # game 1, never played
        events = console_events(stopped, g=1)
        events.append({"k": "end", "g": 1, "r": stopped.round, "why": "menu", "p": stopped.scores()})
        for s, e in enumerate(events, start=1):
            assert store.append(UID, 2, s, e).status == "stored"
    finally:
        store.close()
    with WebServer(path, 0) as server:
        game = json.loads(get(server, "/api/live")[1])["game"]
    assert (game["id"], game["g"], game["status"], game["winners"]) == (2, 1, "ended early", [])
    assert game["scores"] == stopped.scores()
    starts = [line for line in game["events"] if "city for 3 player(s)" in line]
    assert all(line.startswith("game 2 (console's game 1 of boot ") for line in starts)


# -- the rules' side: every game's record may say it ended early ---------------------------------
CUT = {"city": ("city", 3, 3), "deadly": ("deadly", 3, 2), "puzzle": ("puzzle", 4, 2)}


@pytest.mark.parametrize("family", CUT)
def test_a_record_that_says_ended_early_is_scored_as_it_stands_with_no_winner(family):
    from doodlebox.rules.ending import EARLY, FINISHED, NOT_FINISHED, ending

    edition, players, rounds = CUT[family]
    game = find_game(edition)
    data = random_record(game, 7, players)
    data["rounds"] = data["rounds"][:rounds]
    if "tallies" in data:
        data["tallies"] = [None] * players
    rec, _ = read_record(data, "cut")
    cut = game.replay(rec)
    assert ending(cut).status == NOT_FINISHED and not cut.finished
    rec, _ = read_record(dict(data, ended="early"), "early")
    rp = game.replay(rec)
    end = ending(rp)
    assert (end.status, end.winners, end.over) == (EARLY, (), True)
    assert list(rp.state.result().totals) == list(cut.state.result().totals)     # scored as it stands
    table = game.table_text(rp)
    assert table.splitlines()[0].endswith("(ended early: no winner)")
    assert not re.search(r"(winner|leading)$", table, re.M)
    js = game.as_json(rp)
    assert (js["status"], js["winners"]) == (EARLY, [])
    whole = random_record(game, 7, players)
    rec, _ = read_record(dict(whole, ended="early"), "whole")     # the rules ended it: finished
    assert ending(game.replay(rec)).status == FINISHED


def test_ended_takes_only_early():
    data = random_record(find_game("city"), 7, 2)
    with pytest.raises(Exception, match=r"^bad: ended: 'menu' is not 'early'"):
        read_record(dict(data, ended="menu"), "bad")


def test_names_usage_asks_only_for_the_game():
    r = doodlebox("names")
    assert r.returncode == 2 and "required: game" in r.stderr and "NAME" not in r.stderr.splitlines()[-1]
