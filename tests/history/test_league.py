"""The league (host/doodlebox/history/league.py, docs/stored-games.md "A league"): openskill ratings per
edition over the games in the order they were played, which games count (a winner, two or more
seats, every seat a person), the standings' order checked by hand, each person's history, and
`doodlebox league`'s table."""
from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from openskill.models import PlackettLuce

from doodlebox.cli import main
from doodlebox.history import game_records, league
from doodlebox.store import Store

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden"
T0 = 1_700_000_000.0
HOUR = 3600.0


def date(t: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(t))


def golden(name: str, players: list[str] | None = None, **more) -> dict:
    data = json.loads((GOLDEN / f"{name}.json").read_text())
    return data | ({"players": players} if players else {}) | more


def club(path: Path) -> Store:
    """Monsters (the kraken record: seat 1 wins 49 to 15): Ann beats Ben, Ann beats Cat, Ben beats
    Cat. Treasures (shared: seats 1 and 2 win on 38, seat 3 has 31): Cat and Ben share the win over
    Ann. Left out: a solo game, a game ended early, a game with a seat not named, a Behave game."""
    store = Store(path)
    early = golden("city-hotel15")
    early = early | {"rounds": early["rounds"][:3], "ended": "early"}
    games = [golden("monsters-kraken", ["Ann", "Ben"]), golden("monsters-kraken", ["Ann", "Cat"]),
             golden("monsters-kraken", ["Ben", "Cat"]), golden("treasures-shared", ["Cat", "Ben", "Ann"]),
             golden("city-solo", ["Ann"]), early, golden("monsters-kraken", ["Cat", "P2"]), golden("puzzle-behave")]
    store.add_imported([(g, 0, f"{k}.json", T0 + HOUR * k) for k, g in enumerate(games)])
    return store


def test_the_standings_of_a_known_set_of_games(tmp_path):
    store = club(tmp_path / "club.sqlite3")
    rows = league.standings(store)
    assert [(r["edition"], r["rank"], r["name"], r["games"], r["wins"]) for r in rows] == [
        ("monsters", 1, "Ann", 2, 2), ("monsters", 2, "Ben", 2, 1), ("monsters", 3, "Cat", 2, 0),
        ("treasures", 1, "Ben", 1, 1), ("treasures", 2, "Cat", 1, 1), ("treasures", 3, "Ann", 1, 0)]
    # the figures are openskill's, its games played in order
    model = PlackettLuce()
    ann, ben, cat = model.rating(), model.rating(), model.rating()
    [[ann], [ben]] = model.rate([[ann], [ben]], ranks=[1, 2])
    [[ann], [cat]] = model.rate([[ann], [cat]], ranks=[1, 2])
    [[ben], [cat]] = model.rate([[ben], [cat]], ranks=[1, 2])
    got = {r["name"]: r for r in rows if r["edition"] == "monsters"}
    for name, r in (("Ann", ann), ("Ben", ben), ("Cat", cat)):
        assert (got[name]["mu"], got[name]["sigma"], got[name]["rating"]) == pytest.approx((r.mu, r.sigma, r.ordinal()))
    shared = {r["name"]: r for r in rows if r["edition"] == "treasures"}
    assert shared["Ben"]["mu"] == pytest.approx(shared["Cat"]["mu"]) and shared["Ann"]["mu"] < 25 < shared["Ben"]["mu"]
    assert (got["Cat"]["last"], got["Cat"]["last_game"]) == (date(T0 + 2 * HOUR), 3)
    assert set(rows[0]) >= {"person", "name", "edition", "mu", "sigma", "rating", "games", "wins", "last"}
    assert league.standings(store, "treasures") == [r for r in rows if r["edition"] == "treasures"]
    assert league.standings(store, "city") == []
    assert league.left_out(store) == {"ended early (no winner)": 1, "played together (no winner)": 1, "solo": 1,
                                      "with a seat not named": 1}


def test_a_game_with_the_pcs_seats_is_left_out_whatever_their_names(tmp_path):
    # ruling G2: the league rates people against people; the PC's seat named like a person
    # ("Ben", who also played himself) counts neither for him nor for Ann
    store = Store(tmp_path / "club.sqlite3")
    store.add_imported([(golden("monsters-kraken", ["Ann", "Ben"], bots=[1]), 0, "0.json", T0),
                        (golden("monsters-kraken", ["Cat", "Ben"]), 0, "1.json", T0 + HOUR)])
    rows = league.standings(store)
    assert [(r["name"], r["games"], r["wins"]) for r in rows] == [("Cat", 1, 1), ("Ben", 1, 0)]
    assert league.left_out(store) == {"with the PC's seats": 1}
    assert [g["bots"] for g in game_records.games(store)] == [[1], []]


def test_a_merge_changes_the_standings_at_once(tmp_path):
    store = club(tmp_path / "club.sqlite3")
    # Cat played a later game as "Cy", and beat Ann: once merged, that game is Cat's
    store.add_imported([(golden("monsters-kraken", ["Cy", "Ann"]), 0, "d.json", T0 + 20 * HOUR)])
    before = {r["name"]: r for r in league.standings(store, "monsters")}
    assert list(before) == ["Ann", "Cy", "Ben", "Cat"] and before["Cy"]["games"] == 1
    store.merge_people(store.person("Cy")["id"], store.person("Cat")["id"])
    after = {r["name"]: r for r in league.standings(store, "monsters")}
    assert {n: (r["games"], r["wins"]) for n, r in after.items()} == {"Ann": (3, 2), "Ben": (2, 1), "Cat": (3, 1)}
    assert after["Cat"]["rating"] > before["Cat"]["rating"]


def test_a_persons_history_is_their_rating_after_each_game(tmp_path):
    store = club(tmp_path / "club.sqlite3")
    ann = store.person("Ann")["id"]
    hist = league.history(store, ann, "monsters")
    assert [(h["game"], h["date"], h["place"], h["won"]) for h in hist] == [
        (1, date(T0), 1, True), (2, date(T0 + HOUR), 1, True)]
    assert hist[0]["rating"] < hist[1]["rating"] and hist[0]["sigma"] > hist[1]["sigma"]
    final = next(r for r in league.standings(store, "monsters") if r["person"] == ann)
    assert (hist[-1]["mu"], hist[-1]["sigma"], hist[-1]["rating"]) == (final["mu"], final["sigma"], final["rating"])
    assert league.history(store, ann, "city") == [] and league.history(store, 999, "monsters") == []


def test_places_put_the_winners_first_then_the_totals(tmp_path):
    g = {"winner_seats": [2], "totals": [30, 41, 30, 12]}        # a tie-break gave seat 3 the win
    assert league.places(g) == [3, 2, 1, 4]
    assert league.places({"winner_seats": [0, 1], "totals": [38, 38, 31]}) == [1, 1, 2]


def test_doodlebox_league_prints_one_table_per_edition(tmp_path, capsys):
    store = club(tmp_path / "club.sqlite3")
    store.close()
    assert main(["league", "--db", str(tmp_path / "club.sqlite3")]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0] == f"monsters: 3 player(s), last game {date(T0 + 2 * HOUR)}"
    assert lines[1].split() == ["#", "player", "rating", "mu", "sigma", "games", "wins", "last", "played"]
    assert [line.split()[:2] for line in lines[2:5]] == [["1", "Ann"], ["2", "Ben"], ["3", "Cat"]]
    assert lines[5] == "" and lines[6].startswith("treasures: 3 player(s)")
    assert lines[-1] == ("not league games: 1 ended early (no winner), 1 solo, 1 played together (no winner), "
                         "1 with a seat not named")
    assert main(["league", "--db", str(tmp_path / "club.sqlite3"), "--edition", "monsters", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["name"] for r in rows] == ["Ann", "Ben", "Cat"] and rows[0]["rating"] > 0
    assert main(["league", "--db", str(tmp_path / "club.sqlite3"), "--edition", "city"]) == 0
    assert capsys.readouterr().out.startswith("no league games of city")


def test_an_unknown_edition_is_named_and_exit_2(tmp_path, capsys):
    club(tmp_path / "g.sqlite3").close()
    assert main(["league", "--db", str(tmp_path / "g.sqlite3"), "--edition", "bogus"]) == 2
    err = capsys.readouterr().err
    assert "'bogus': no such edition (one of city," in err
