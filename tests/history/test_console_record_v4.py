"""From the console's log to a record, for Deadly Doodles and Doodle Puzzle (docs/deadly-doodles.md
and docs/doodle-puzzle.md, "From the console's log"; the events are docs/protocol.md, version 4):
random games played on the engines, sent as the console's events (tests/support/console_games.py),
stored in SQLite, exported and replayed; tallies; every variant; resumed games and games in
progress; logs that cannot be records; `doodlebox export` then `validate`; live validation."""
from __future__ import annotations

import copy
import json
import random

import pytest
from cli_run import doodlebox
from console_games import counts_of, deadly_events, puzzle_events, timed
from randomplay import random_game

from doodlebox.errors import InputError
from doodlebox.history.console_record import ConsoleLogError, to_record
from doodlebox.link import schema
from doodlebox.logger.verdicts import SCORED, LiveGames, verdict_lines
from doodlebox.rules.deadly import record as deadly_record
from doodlebox.rules.games import find_game
from doodlebox.rules.puzzle import record as puzzle_record
from doodlebox.store import GameLog, Store

UID = "c0ffee"
DEADLY, PUZZLE = find_game("deadly"), find_game("puzzle")


def store_events(store: Store, events: list[dict], boot: int = 2, first: int = 1) -> int:
    """Append events as the link does (numbered from `first`), each as the schema takes it."""
    for s, e in enumerate(events, start=first):
        schema.check_event(e)
        assert store.append(UID, boot, s, e).status == "stored"
    return first + len(events)


def log_of(events: list[dict]) -> GameLog:
    return GameLog(3, UID, 2, 1, list(enumerate(events, start=1)))


def traps_unnamed(data: dict) -> dict:
    """A Deadly Doodles record as the console's log gives it: the `trap` event names no card."""
    data = copy.deepcopy(data)
    for rd in data["rounds"]:
        for drawn in rd["drawings"]:
            for d in drawn:
                if "trap" in d:
                    d["card"] = "trap"
    return data


def baddy_in_order(data: dict) -> dict:
    """A Doodle Puzzle record with Baddy's erase before the board drawn on, as the console enters them."""
    data = copy.deepcopy(data)
    for rd in data["rounds"]:
        if "baddy" in rd:
            rd["baddy"] = {k: rd["baddy"][k] for k in ("erase", "draw") if k in rd["baddy"]}
    return data


def replay(data: dict):
    game = find_game(data["edition"])
    return game.replay(game.parse(json.loads(json.dumps(data)), "exported"))


# -- Deadly Doodles -----------------------------------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize("players,side", [(1, "a"), (2, "b"), (3, "a"), (4, "b")])
def test_deadly_games_round_trip_through_the_console_log(tmp_path, players, side):
    store = Store(tmp_path / "games.sqlite3")
    nxt = 1
    for seed in range(3):
        state = random_game(DEADLY, seed, players, map=side)
        events = deadly_events(state, g=seed + 1, refusals=random.Random(seed))
        nxt = store_events(store, events, first=nxt)
        log = store.game_log("last")
        assert log is not None and [e for _, e in log.events] == events
        data = to_record(log)
        assert data == traps_unnamed(deadly_record.from_state(state))
        rp = replay(data)
        assert rp.violations == [] and rp.finished
        assert rp.state.scores() == state.scores() == events[-1]["p"]
    store.close()


@pytest.mark.parametrize("players", [1, 2, 4])
def test_deadly_games_recorded_with_tallies(tmp_path, players):
    """Only the Traps are sent during the rounds, each player's counts after round 7: the record
    has the Traps and the counts, and scores as the maps drawn on paper."""
    for seed in range(4):
        state = random_game(DEADLY, 10 + seed, players, map="ab"[seed % 2])
        counts = counts_of(state)
        events = deadly_events(state, tallies=counts)
        assert {e["k"] for e in events} >= {"game", "reveal", "done", "tally", "end"} and "draw" not in {
            e["k"] for e in events}
        store = Store(tmp_path / f"g{seed}.sqlite3")
        store_events(store, events)
        data = to_record(store.game_log("last"))
        assert data["tallies"] == [dict(zip(("loot", "dragon", "weapons", "matched", "unmatched", "entryways",
                                             "unused", "hits"), t)) for t in counts]
        assert all("trap" in d for rd in data["rounds"] for drawn in rd["drawings"] for d in drawn)
        rp = replay(data)
        assert rp.violations == [] and rp.finished and rp.state.scores() == state.scores() == events[-1]["p"]
        store.close()


def test_a_deadly_game_in_progress_is_a_record_so_far():
    """Cut anywhere: the players of the last round without `done` are still drawing
    ("unfinished"), so nothing of theirs is unused, and the record so far has no violation."""
    state = random_game(DEADLY, 7, 3)
    events = deadly_events(state)
    dones = 0
    for cut in range(2, len(events)):
        data = to_record(log_of(events[:cut]))
        rp = replay(data)
        assert rp.violations == [], (cut, rp.violations[0])
        last = events[cut - 1]
        if last["k"] == "reveal":
            assert data["rounds"][-1]["unfinished"] == [0, 1, 2]
        elif last["k"] == "done" and last["p"] < 2:
            dones += 1
            assert data["rounds"][-1]["unfinished"] == list(range(last["p"] + 1, 3))
    assert dones == 14
    half = to_record(log_of(events[:-1]))                  # all of round 7 done, no `end` yet
    assert "unfinished" not in half["rounds"][-1] and replay(half).finished


def test_a_trap_names_no_card_so_it_is_the_rounds_first_trap_not_drawn():
    events = copy.deepcopy(DEADLY_LOG)
    events[1]["cards"] = [34, 1, 33, 9]
    events[3:4] = [{"k": "trap", "g": 1, "r": 1, "p": 0, "room": "C4"},
                   {"k": "trap", "g": 1, "r": 1, "p": 0, "room": "D4"},
                   {"k": "trap", "g": 1, "r": 1, "p": 0, "room": "C1"}]       # a third: no Trap card is left
    # (and no `done`: both players are still drawing, nothing is unused yet)
    data = to_record(log_of(events))
    assert data["rounds"][0]["drawings"][0][1:] == [{"card": "trap", "trap": r} for r in ("C4", "D4", "C1")]
    rp = replay(data)
    assert [(v.round, v.player, v.place, v.rule) for v in rp.violations] == [
        (1, 0, "rounds[0].drawings[0][3]", "card")]
    assert "no trap is left to draw among round 1's cards" in rp.violations[0].reason
    m = rp.record.map
    assert [m.room_name(i) for i, t in enumerate(rp.state.boards[0].trap) if t] == ["C4", "D4"]


# -- Doodle Puzzle ------------------------------------------------------------------------------------------
PUZZLES = [(3, "", "standard"), (4, "behave", "beginner"), (5, "showdown", "standard"), (6, "", "beginner"),
           (7, "behave", "standard"), (8, "showdown", "standard"), (8, "", "beginner")]


@pytest.mark.slow
@pytest.mark.parametrize("players,variant,subjects", PUZZLES)
def test_puzzle_games_round_trip_through_the_console_log(tmp_path, players, variant, subjects):
    store = Store(tmp_path / "games.sqlite3")
    nxt = 1
    seen = set()
    for seed in range(4):
        state = PUZZLE.new_game(players, variant, subjects=subjects).new_state()
        timed(state, random.Random(f"{players}{variant}{subjects}{seed}"))
        events = puzzle_events(state, g=seed + 1, refusals=random.Random(seed))
        nxt = store_events(store, events, first=nxt)
        data = to_record(store.game_log("last"))
        names = [f"P{i + 1}" for i in range(players)]
        assert data == baddy_in_order(puzzle_record.from_state(state, names))
        rp = replay(data)
        assert rp.violations == [] and rp.finished
        assert rp.state.scores() == state.scores() == events[-1]["p"]
        for rd in data["rounds"]:
            seen |= set(rd) | set(rd.get("timer", {}))
    store.close()
    assert {"roles", "number", "card", "timer", "placements", "guess", "paused_ms", "rejected"} <= seen
    assert ("baddy" in seen) == (variant != "behave") and ("challenge" in seen) == (variant == "showdown")


def test_puzzle_events_become_the_rounds_fields():
    """One hand-made round of each kind (docs/doodle-puzzle.md, "From the console's log")."""
    g = {"k": "game", "g": 1, "ed": "puzzle", "n": 4, "var": "showdown", "subj": "beginner"}
    r1 = [{"k": "roles", "g": 1, "r": 1, "roles": "DSBG"},
          {"k": "subject", "g": 1, "r": 1, "num": 3, "card": 5},
          {"k": "subject", "g": 1, "r": 1, "num": 7, "card": 2},
          {"k": "timer", "g": 1, "r": 1, "start": 1000, "end": 66000, "paused": 5500},
          *({"k": "place", "g": 1, "r": 1, "p": p, "slot": s} for p, s in ((1, 4), (0, 2), (1, 1), (0, 6), (1, 3),
                                                                          (0, 5))),
          {"k": "mischief", "g": 1, "r": 1, "erase": 0, "draw": 5},
          {"k": "guess", "g": 1, "r": 1, "res": "wrong"},
          {"k": "challenge", "g": 1, "r": 1, "board": 5}]
    r2 = [{"k": "roles", "g": 1, "r": 2, "roles": "SBGD"},
          {"k": "subject", "g": 1, "r": 2, "num": 12, "card": 6},
          {"k": "timer", "g": 1, "r": 2, "start": 90000, "end": 150000, "paused": 0},
          {"k": "place", "g": 1, "r": 2, "p": 0, "slot": 1},
          {"k": "refuse", "g": 1, "r": 2, "p": 3, "i": 0, "why": "slot_twice"}]
    data = to_record(log_of([g, *r1, *r2]))
    assert data == {
        "format": "doodlebox-record/1", "edition": "puzzle", "variant": "showdown", "subjects": "beginner",
        "players": ["P1", "P2", "P3", "P4"],
        "rounds": [{"roles": ["drawy", "star", "baddy", "guessy"], "rejected": [{"number": 3, "card": 5}],
                    "number": 7, "card": 2, "timer": {"start_ms": 1000, "end_ms": 66000, "paused_ms": 5500},
                    "placements": [[1, 4], [0, 2], [1, 1], [0, 6], [1, 3], [0, 5]], "baddy": {"draw": 5},
                    "guess": "wrong", "challenge": 5},
                   {"roles": ["star", "baddy", "guessy", "drawy"], "number": 12, "card": 6,
                    "timer": {"start_ms": 90000, "end_ms": 150000}, "placements": [[0, 1]]}]}
    rp = replay(data)
    assert rp.violations == [] and not rp.finished
    assert rp.state.scores() == [0, 0, 1, 1]  # wrong: Baddy's check (+2); board 5 was drawn on: a slash each
    nothing = [g, *r1[:7], {"k": "mischief", "g": 1, "r": 1, "erase": 0, "draw": 0},
               {"k": "guess", "g": 1, "r": 1, "res": "wrong"}, {"k": "challenge", "g": 1, "r": 1, "board": 0}]
    rd = to_record(log_of(nothing))["rounds"][0]
    assert rd["baddy"] == {} and "challenge" not in rd


# -- resumed games --------------------------------------------------------------------------------------------
def deadly_game() -> list[dict]:
    return deadly_events(random_game(DEADLY, 3, 3, map="b"), g=2)


def puzzle_game() -> list[dict]:
    state = PUZZLE.new_game(5, "showdown").new_state()
    timed(state, random.Random(4))
    return puzzle_events(state, g=2)


@pytest.mark.parametrize("make,cut", [(deadly_game, 37), (deadly_game, 90), (puzzle_game, 20), (puzzle_game, 51)])
def test_a_resumed_game_is_one_game(tmp_path, make, cut):
    """Boot 2: the game (game 2 of the boot) is played to its event `cut`, and one more event the
    journal lost; boot 3 resumes it as its game 1 and plays on: the record is the whole game's."""
    events = make()
    whole = to_record(log_of([dict(e, g=1) for e in events]))
    store = Store(tmp_path / "g.sqlite3")
    store_events(store, [{"k": "game", "g": 1, "ed": "city", "n": 2, "var": ""}] + events[:cut + 1])
    at = cut + 1                                         # game 2's events are 2..cut+2; the last is lost
    resume = {"k": "resume", "g": 1, "of": [2, 2], "at": at, "r": max(e.get("r", 0) for e in events[:cut])}
    live = LiveGames(store)
    store_events(store, [resume], boot=3)
    verdict = live.stored(UID, 3, resume)
    so_far = replay(to_record(log_of([dict(e, g=1) for e in events[:cut]])))
    assert verdict is not None and verdict.message["p"] == so_far.state.scores() and verdict.message["bad"] == 0
    store_events(store, [dict(e, g=1) for e in events[cut:]], boot=3, first=2)
    log = store.game_log("last")
    assert log is not None and log.parts == ((2, 2, cut), (3, 1, len(events) - cut + 1))
    data = to_record(log)
    assert data == whole
    rp = replay(data)
    assert rp.violations == [] and rp.finished and rp.state.scores() == events[-1]["p"]


# -- logs that cannot be records -------------------------------------------------------------------------------
DEADLY_LOG = [{"k": "game", "g": 1, "ed": "deadly", "n": 2, "var": "", "map": "a", "rec": "full"},
              {"k": "reveal", "g": 1, "r": 1, "cards": [1, 9, 19, 29]},
              {"k": "draw", "g": 1, "r": 1, "p": 0, "card": 1, "room": "B1", "ends": "NS"},
              {"k": "done", "g": 1, "r": 1, "p": 0},
              {"k": "draw", "g": 1, "r": 1, "p": 1, "card": 1, "room": "E1", "ends": "NS"}]
PUZZLE_LOG = [{"k": "game", "g": 1, "ed": "puzzle", "n": 3, "var": "", "subj": "standard"},
              {"k": "roles", "g": 1, "r": 1, "roles": "SBG"},
              {"k": "subject", "g": 1, "r": 1, "num": 4, "card": 9},
              {"k": "timer", "g": 1, "r": 1, "start": 0, "end": 60000, "paused": 0},
              {"k": "place", "g": 1, "r": 1, "p": 0, "slot": 1}]
BROKEN = {
    "deadly with a variant": (DEADLY_LOG, lambda ev: ev[0].update(var="solo"),
                              "event 1 (game): variant 'solo': Deadly Doodles has none"),
    "deadly of 5 players": (DEADLY_LOG, lambda ev: ev[0].update(n=5), "event 1 (game): 'n' is 5, not 1..4"),
    "deadly without map": (DEADLY_LOG, lambda ev: ev[0].pop("map"), "event 1 (game): no 'map'"),
    "deadly recorded by hand": (DEADLY_LOG, lambda ev: ev[0].update(rec="hand"),
                                "event 1 (game): 'rec' is 'hand', not one of 'full', 'tally'"),
    "a drawing before any reveal": (DEADLY_LOG, lambda ev: ev.pop(1), "event 2 (draw): no cards revealed before it"),
    "a drawing of another round": (DEADLY_LOG, lambda ev: ev[2].update(r=2),
                                   "event 3 (draw): round 2, but the cards revealed last were round 1's"),
    "a round skipped": (DEADLY_LOG, lambda ev: ev[1].update(r=2),
                        "event 2 (reveal): round 2, but the round before it was 0"),
    "a drawing after done": (DEADLY_LOG, lambda ev: ev.append(dict(ev[2], card=9, room="B2", ends="NE")),
                             "event 6 (draw): P1 had ended round 1 before it"),
    "a player not in the game": (DEADLY_LOG, lambda ev: ev[4].update(p=2), "event 5 (draw): 'p' is 2, not 0..1"),
    "a room off the map": (DEADLY_LOG, lambda ev: ev[2].update(room="G1"),
                           "event 3 (draw): 'room' is 'G1', not a room A1..F6"),
    "ends out of order": (DEADLY_LOG, lambda ev: ev[2].update(ends="SN"),
                          "event 3 (draw): 'ends' is 'SN', not sides in the order N, E, S, W"),
    "cards that are not a round's": (DEADLY_LOG, lambda ev: ev[1].update(cards=[1, 2]),
                                     "event 2 (reveal): 'cards' is [1, 2], not 4 to 8 numbers 1..36"),
    "a segment with tallies": (DEADLY_LOG, lambda ev: ev[0].update(rec="tally"),
                               "event 3 (draw): a path segment entered in a game recorded with tallies"),
    "counts in a full game": (DEADLY_LOG, lambda ev: ev.append({"k": "tally", "g": 1, "p": 0, "t": [0] * 8}),
                              "event 6 (tally): counts in a game recorded in full"),
    "counts of 7": (DEADLY_LOG, lambda ev: ev.__setitem__(slice(0, None), [dict(ev[0], rec="tally"), {
                        "k": "tally", "g": 1, "p": 0, "t": [0] * 7}]),
                    "event 2 (tally): 't' is [0, 0, 0, 0, 0, 0, 0], not 8 numbers 0..99"),
    "a puzzle event in a deadly game": (DEADLY_LOG, lambda ev: ev.append({"k": "guess", "g": 1, "r": 1}),
                                        "event 6 (guess): not an event of Deadly Doodles"),
    "puzzle of 2 players": (PUZZLE_LOG, lambda ev: ev[0].update(n=2), "event 1 (game): 'n' is 2, not 3..8"),
    "puzzle behave and showdown": (PUZZLE_LOG, lambda ev: ev[0].update(var="behave+showdown"),
                                   "event 1 (game): 'var' is 'behave+showdown', not one of"),
    "puzzle without subjects": (PUZZLE_LOG, lambda ev: ev[0].pop("subj"), "event 1 (game): no 'subj'"),
    "roles for another table": (PUZZLE_LOG, lambda ev: ev[1].update(roles="SBGD"),
                                "event 2 (roles): 'roles' is 'SBGD', not one of the letters SDBG for each of 3 seats"),
    "a subject before the roles": (PUZZLE_LOG, lambda ev: ev.pop(1), "event 2 (subject): no roles dealt before it"),
    "a timer before the subject": (PUZZLE_LOG, lambda ev: ev.pop(2),
                                   "event 3 (timer): round 1 has no subject before it"),
    "a subject after the minute": (PUZZLE_LOG, lambda ev: ev.append(dict(ev[2])),
                                   "event 6 (subject): after round 1's place"),
    "a second minute": (PUZZLE_LOG, lambda ev: ev.insert(4, dict(ev[3])), "event 5 (timer): after round 1's timer"),
    "a placement of another round": (PUZZLE_LOG, lambda ev: ev[4].update(r=2),
                                     "event 5 (place): round 2, but the roles dealt last were round 1's"),
    "a slot 7": (PUZZLE_LOG, lambda ev: ev[4].update(slot=7), "event 5 (place): 'slot' is 7, not 1..6"),
    "a dice event in a puzzle game": (PUZZLE_LOG, lambda ev: ev.append({"k": "tree", "g": 1}),
                                      "event 6 (tree): not an event of Doodle Puzzle"),
    "after the end": (PUZZLE_LOG, lambda ev: ev.insert(4, {"k": "end", "g": 1, "r": 1, "why": "menu", "p": [0] * 3}),
                      "event 6 (place): after the game's end (event 5)"),
}


@pytest.mark.parametrize("name", list(BROKEN))
def test_a_log_that_cannot_make_a_record_is_one_line_naming_the_game_and_the_event(name):
    events, change, message = BROKEN[name]
    events = copy.deepcopy(events)
    change(events)
    with pytest.raises(ConsoleLogError) as err:
        to_record(log_of(events))
    text = str(err.value)
    assert isinstance(err.value, InputError) and "\n" not in text
    assert text.startswith("game 3 (console c0ffee boot 2): "), text
    assert message in text, text


def test_the_logs_above_are_records_as_they_stand():
    rp = replay(to_record(log_of(DEADLY_LOG)))     # P1 left the corner, tee and dead end that fit: unused
    assert [(v.player, v.rule) for v in rp.violations] == [(0, "unused")] and rp.state.to_act() == [1]
    rp = replay(to_record(log_of(PUZZLE_LOG)))
    assert rp.violations == [] and not rp.finished


# -- the command line ----------------------------------------------------------------------------------------
@pytest.mark.slow
def test_export_then_validate_score_and_render_for_both_games(tmp_path):
    """The issue's check: `doodlebox export last -o r.json`, then `doodlebox validate r.json`:
    exit 0 for a finished game of each (Deadly Doodles in full and with tallies, Doodle Puzzle)."""
    db = tmp_path / "g.sqlite3"
    store = Store(db)
    full = random_game(DEADLY, 21, 4)
    tally = random_game(DEADLY, 22, 1)
    puzzle = PUZZLE.new_game(5).new_state()
    timed(puzzle, random.Random(5))
    nxt = store_events(store, deadly_events(full, g=1))
    nxt = store_events(store, deadly_events(tally, g=2, tallies=counts_of(tally)), first=nxt)
    store_events(store, puzzle_events(puzzle, g=3), first=nxt)
    store.close()
    for number, state, kind in ((1, full, "deadly"), (2, tally, "deadly"), (3, puzzle, "puzzle")):
        out = tmp_path / f"r{number}.json"
        r = doodlebox("export", str(number) if number < 3 else "last", "--db", str(db), "-o", str(out))
        assert r.returncode == 0, r.stderr
        assert f"game {number} (console c0ffee boot 2), {kind} for" in r.stdout
        v = doodlebox("validate", str(out))
        assert v.returncode == 0 and "valid" in v.stdout.splitlines()[0], v.stdout
        js = json.loads(doodlebox("validate", "--json", str(out)).stdout)
        assert js["valid"] and js["finished"]
        if kind == "deadly":
            assert [sheet["total"] for sheet in js["sheets"]] == state.scores()
        s = doodlebox("score", str(out))
        assert s.returncode == 0 and ("winner" in s.stdout or number == 2), s.stdout
        if kind == "deadly":
            png = tmp_path / f"p{number}.png"
            assert doodlebox("render", str(out), "--player", "1", "-o", str(png)).returncode == 0
            assert png.read_bytes()[:4] == b"\x89PNG"


# -- live validation -----------------------------------------------------------------------------------------
def test_live_scores_after_each_event_that_changes_them(tmp_path):
    """Deadly Doodles: after each Trap, segment, end of a round, count and the end; Doodle Puzzle:
    after each guess and challenge. The scores are the engine's as the game stood then."""
    store = Store(tmp_path / "g.sqlite3")
    live = LiveGames(store)
    state = random_game(DEADLY, 4, 2)
    puzzle = PUZZLE.new_game(4, "showdown").new_state()
    timed(puzzle, random.Random(8))
    events = deadly_events(state, g=1) + puzzle_events(puzzle, g=2)
    for s, e in enumerate(events, start=1):
        store_events(store, [e], first=s)
        verdict = live.stored(UID, 2, e)
        assert (verdict is not None) == (e["k"] in SCORED)
        if verdict is None:
            continue
        upto = [x for x in events[:s] if x["g"] == e["g"]]
        rp = replay(to_record(log_of([dict(x, g=1) for x in upto])))
        assert verdict.message == {"t": "score", "g": e["g"], "r": rp.state.round, "p": rp.state.scores(),
                                   "bad": 0, "why": "", "id": verdict.message["id"]}
        assert verdict.message["id"] == store.game_log_of(UID, 2, e["g"]).id
    assert verdict.kind == "end" and verdict_lines(verdict) == [
        "PC: final scores " + ", ".join(f"P{i + 1} {t}" for i, t in enumerate(puzzle.scores())) + " (no violations)"]
    assert not {"reveal", "roles", "subject", "timer", "place", "mischief"} & set(SCORED)


def test_live_violations_are_found_once(tmp_path):
    """A Trap in a room with Loot (P2, round 1), and in a game with tallies counts no map can give."""
    store = Store(tmp_path / "g.sqlite3")
    live = LiveGames(store)
    events = copy.deepcopy(DEADLY_LOG[:3])
    events[1]["cards"] = [1, 9, 33, 19]
    events += [{"k": "trap", "g": 1, "r": 1, "p": 1, "room": "D1"},         # Loot on map A
               {"k": "refuse", "g": 1, "r": 1, "p": 1, "i": 0, "why": "trap_room"},
               {"k": "draw", "g": 1, "r": 1, "p": 0, "card": 9, "room": "B2", "ends": "NE"},
               {"k": "end", "g": 1, "r": 1, "why": "menu", "p": [0, 0]}]
    verdicts = []
    for s, e in enumerate(events, start=1):
        store_events(store, [e], first=s)
        verdicts.append(live.stored(UID, 2, e))
    assert [v is not None for v in verdicts] == [True, False, True, True, False, True, True]
    bad = verdicts[3]
    assert bad is not None and bad.message["bad"] == 1 and [v.rule for v in bad.new] == ["trap_room"]
    assert bad.message["why"].startswith("R1 P2: D1 holds Loot: a Trap goes in an empty room")
    assert [len(v.new) for v in verdicts[5:] if v is not None] == [0, 0]      # found once
    end = verdicts[-1]
    assert end is not None and end.message["bad"] == 1 and end.kind == "end"
    lines = verdict_lines(bad)
    assert lines == ["PC: violation in game 1 (console c0ffee boot 2): round 1, P2: Trap at D1: D1 holds Loot: a "
                     "Trap goes in an empty room [rule trap_room]"]
    tally = [{"k": "game", "g": 2, "ed": "deadly", "n": 1, "var": "", "map": "a", "rec": "tally"},
             {"k": "reveal", "g": 2, "r": 1, "cards": [1, 9, 19, 29]}, {"k": "done", "g": 2, "r": 1, "p": 0},
             {"k": "tally", "g": 2, "p": 0, "t": [5, 1, 0, 0, 0, 6, 0, 0]}]
    store_events(store, tally, first=len(events) + 1)
    verdict = live.stored(UID, 2, tally[-1])
    assert verdict is not None and [v.place for v in verdict.new] == ["tallies[0].loot", "tallies[0]"]
    assert verdict.message["p"] == [26] and verdict.message["bad"] == 2
    assert verdict.message["why"].startswith("R1 P1: 5 Loot rooms entered, but the map has 4")
