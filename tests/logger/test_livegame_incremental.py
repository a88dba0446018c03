"""Live validation that applies (host/doodlebox/logger/verdicts.py, issue 19): each game is followed in
memory and only what each event adds is played (console_record.ConsoleGame, the rules' Stream),
and the verdict after every event is the one the whole game's replay gives (to_record, parse,
replay), for random games of every game family, with broken turns, lost events, players out of
their seats' order and subjects set aside; an event the live state cannot take is replayed whole,
with the same verdict."""
from __future__ import annotations

import random

import pytest
from console_events import console_events
from console_games import counts_of, deadly_events, puzzle_events, timed
from randomplay import random_game

from doodlebox.history import console_record
from doodlebox.history.console_record import ConsoleLogError, to_record
from doodlebox.logger.verdicts import SCORED, LiveGames
from doodlebox.rules.common import StreamError
from doodlebox.rules.dice import record as dice_record
from doodlebox.rules.games import find_game
from doodlebox.store import GameLog, Store

UID = "c0ffee"
BOOT = 2
DICE = [("city", 1), ("city", 4), ("suzhou", 3), ("treasures", 5), ("shanghai", 2), ("monsters", 3)]


# -- event streams ---------------------------------------------------------------------------------------
def broken(events: list[dict], rng: random.Random, size: int = 7) -> list[dict]:
    """A console's events with faults the rules must find, each still an event a record can take:
    moves lost (a turn, a drawing, the end of a player's round, a placing), squares, rooms and
    slots changed, guesses and challenges changed, a subject set aside now and then."""
    out = []
    for e in events:
        e = dict(e)
        r = rng.random()
        if r < 0.05 and e["k"] in ("claim", "tree", "trap", "draw", "done", "place", "guess", "challenge", "mischief"):
            continue
        if r < 0.15:
            if e["k"] == "claim":
                e["row"], e["col"] = rng.randint(1, size), rng.randint(1, size)
            elif e["k"] in ("trap", "draw"):
                e["room"] = rng.choice("ABCDEF") + str(rng.randint(1, 6))
            elif e["k"] == "place":
                e["slot"] = rng.randint(1, 6)
            elif e["k"] == "guess":
                e["res"] = rng.choice(["right", "wrong"])
            elif e["k"] == "challenge":
                e["board"] = rng.randint(0, 6)
        out.append(e)
        if r > 0.95 and e["k"] == "subject":
            out.append(dict(e, num=rng.randint(1, 12), card=rng.randint(1, 6)))     # the first set aside
    return out


def out_of_seat_order(events: list[dict], rng: random.Random) -> list[dict]:
    """Deadly Doodles: each round's drawings and ends of rounds of different players interleaved
    (each player's own in order), as a table entering them as it likes would send them."""
    out: list[dict] = []
    per: dict[int, list[dict]] = {}

    def flush() -> None:
        queues = [q for q in per.values() if q]
        while queues:
            q = rng.choice(queues)
            out.append(q.pop(0))
            queues = [q for q in queues if q]
        per.clear()

    for e in events:
        if e["k"] in ("trap", "draw", "done", "refuse"):
            per.setdefault(e["p"], []).append(e)
        else:
            flush()
            out.append(e)
    flush()
    return out


def dice_game(edition: str, players: int, seed: int) -> list[dict]:
    rng = random.Random(seed)
    state = random_game(find_game(edition), seed, players)
    size = state.game.n
    return broken(console_events(state, refusals=rng), rng, size) if seed % 2 else console_events(state, refusals=rng)


def deadly_game(players: int, seed: int, tallies: bool) -> list[dict]:
    rng = random.Random(seed)
    state = random_game(find_game("deadly"), seed, players)
    events = deadly_events(state, tallies=counts_of(state) if tallies else None, refusals=rng)
    return out_of_seat_order(broken(events, rng), rng) if seed % 2 else events


def puzzle_game(players: int, variant: str, seed: int) -> list[dict]:
    rng = random.Random(seed)
    state = find_game("puzzle").new_game(players, variant).new_state()
    timed(state, rng)
    return broken(puzzle_events(state, refusals=rng), rng) if seed % 2 else puzzle_events(state, refusals=rng)


GAMES = ([pytest.param(lambda ed=ed, n=n, s=s: dice_game(ed, n, s), id=f"{ed}-{n}p-{s}")
          for ed, n in DICE for s in (1, 2)]
         + [pytest.param(lambda n=n, s=s, t=t: deadly_game(n, s, t), id=f"deadly-{n}p-{'tally' if t else 'full'}-{s}")
            for n, t in ((1, False), (2, True), (4, False), (4, True)) for s in (1, 2)]
         + [pytest.param(lambda n=n, v=v, s=s: puzzle_game(n, v, s), id=f"puzzle-{n}p-{v or 'plain'}-{s}")
            for n, v in ((3, ""), (5, "showdown"), (6, "behave"), (8, "")) for s in (1, 2)])


def verdicts(live: LiveGames, uid: str, boot: int, event: dict, seq: int) -> tuple:
    """What stored() says: the verdict (its label, kind, message, the violations new to it), or
    the ConsoleLogError's message."""
    try:
        v = live.stored(uid, boot, event, seq)
    except ConsoleLogError as exc:
        return ("error", str(exc))
    return None if v is None else (v.label, v.kind, v.message, [x.as_dict() for x in v.new])


# -- the live state and the whole replay agree after every event -------------------------------------------
@pytest.mark.parametrize("make", GAMES)
def test_the_live_verdict_is_the_whole_replays_after_every_event(tmp_path, make):
    """Each event's verdict asked with its number (the game as it stood then: the store holds the
    whole game already, in one transaction, to spare the disk)."""
    events = make()
    store = Store(tmp_path / "g.sqlite3")
    store.append_many(UID, [(BOOT, seq, e) for seq, e in enumerate(events, start=1)])
    live, whole = LiveGames(store), LiveGames(store, incremental=False)
    said = 0
    for seq, e in enumerate(events, start=1):
        got = verdicts(live, UID, BOOT, e, seq)
        assert got == verdicts(whole, UID, BOOT, e, seq), f"event {seq}: {e}"
        said += got is not None
    store.close()
    assert said == sum(e["k"] in SCORED for e in events)
    assert live.replays == 1           # the game replayed whole once, at its start; every other event applied


def stream_and_whole(events: list[dict]):
    """After each event: the record so far as its Stream plays it, and as replay(parse(to_record))."""
    console = console_record.ConsoleGame(f"game 1 (console {UID} boot {BOOT})", BOOT, (BOOT, 1))
    stream = None
    log: list[tuple[int, dict]] = []
    for seq, e in enumerate(events, start=1):
        log.append((seq, e))
        try:
            console.take(seq, e, (BOOT, 1))
        except ConsoleLogError:
            return
        stream = stream or console.stream()
        rp = stream.update(console.so_far())
        data = to_record(GameLog(1, UID, BOOT, 1, list(log)))
        game = find_game(data["edition"])
        yield e, rp, game.replay(game.parse(data, console.label))


@pytest.mark.parametrize("make", GAMES)
def test_each_familys_stream_plays_what_a_whole_replay_plays(make):
    """The same state (its whole history of actions), violations, scores and end, after every event."""
    for e, rp, full in stream_and_whole(make()):
        assert [v.as_dict() for v in rp.violations] == [v.as_dict() for v in full.violations], e
        assert rp.state.history == full.state.history, e
        assert (rp.state.round, rp.state.scores(), rp.finished) == (full.state.round, full.state.scores(),
                                                                      full.finished), e


def test_a_stream_refuses_a_record_that_did_not_only_grow():
    events = console_events(random_game(find_game("city"), 3, 2))
    console = console_record.ConsoleGame("game 1", BOOT, (BOOT, 1))
    for seq, e in enumerate(events[:30], start=1):
        console.take(seq, e, (BOOT, 1))
    data = console.so_far()
    stream = dice_record.Stream(data)
    stream.update(data)
    last = data["rounds"][-1]
    assert last["turns"]
    with pytest.raises(StreamError):        # a turn taken back
        stream.update(dict(data, rounds=data["rounds"][:-1] + [dict(last, turns=last["turns"][:-1])]))
    with pytest.raises(StreamError):        # a round
        stream.update(dict(data, rounds=data["rounds"][:-1]))


# -- in doubt, the whole replay ----------------------------------------------------------------------------
def play(tmp_path, events: list[dict], before=None) -> tuple[list, list, LiveGames]:
    """Every event stored and validated by a live LiveGames and by whole replays; `before(live,
    seq)` is called before each event's verdict."""
    store = Store(tmp_path / "g.sqlite3")
    live, whole = LiveGames(store), LiveGames(store, incremental=False)
    got, want = [], []
    for seq, e in enumerate(events, start=1):
        store.append(UID, BOOT, seq, e)
        if before is not None:
            before(live, seq)
        got.append(verdicts(live, UID, BOOT, e, seq))
        want.append(verdicts(whole, UID, BOOT, e, seq))
    return got, want, live


def test_an_event_the_live_state_cannot_apply_is_replayed_whole_with_the_same_verdict(tmp_path, monkeypatch):
    state = random_game(find_game("suzhou"), 5, 3)
    events = broken(console_events(state), random.Random(5), state.game.n)
    real = dice_record.Stream.update
    failing = {40, 41, 90}
    now = {"seq": 0}
    failed: set[int] = set()

    def update(self, data):
        if now["seq"] in failing - failed:        # once: the game followed again from its whole replay
            failed.add(now["seq"])
            raise StreamError("the live state cannot take it")
        return real(self, data)

    monkeypatch.setattr(dice_record.Stream, "update", update)

    def before(live: LiveGames, seq: int) -> None:
        now["seq"] = seq

    got, want, live = play(tmp_path, events, before)
    assert got == want and not any(w is not None and w[0] == "error" for w in want)
    assert any(w is not None and w[3] for w in want)                      # violations found, the same
    scored = [seq for seq, e in enumerate(events, start=1) if e["k"] in SCORED]
    assert failed == failing & set(scored)
    assert live.replays == 1 + len(failed)                                # each, and only it, replayed whole


def test_an_event_that_cannot_make_a_record_is_found_as_the_whole_replay_finds_it(tmp_path):
    events = console_events(random_game(find_game("city"), 6, 2))
    k = next(k for k, e in enumerate(events) if k > 20 and e["k"] == "claim")
    events.insert(k + 1, dict(events[k], r=events[k]["r"] + 1))      # a claim of a round not rolled yet
    got, want, live = play(tmp_path, events)
    assert got == want
    errors = [g for g in got if g is not None and g[0] == "error"]
    assert errors == [got[k + 1]] and f"event {k + 2} (claim): round {events[k]['r'] + 1}, but the last roll" \
        in errors[0][1]
    assert got[k + 2:] == [None] * len(got[k + 2:])                    # said once; the game is not scored
    assert live.replays == 1                                           # (the bad event's replay made no record)


def test_events_left_out_are_read_from_the_store_and_an_older_one_is_replayed_whole(tmp_path):
    """The logger validates only a game's latest event when they come faster (link_thread._Checker):
    the live state reads the ones it did not see; an event older than the last one taken is the
    game as it stood then, replayed whole."""
    events = deadly_events(random_game(find_game("deadly"), 8, 3))
    store = Store(tmp_path / "g.sqlite3")
    live, whole = LiveGames(store), LiveGames(store, incremental=False)
    for seq, e in enumerate(events, start=1):
        store.append(UID, BOOT, seq, e)
    asked = [1, 7, 8, 30, 31, 64, len(events)]
    for seq in asked:
        e = events[seq - 1]
        assert verdicts(live, UID, BOOT, e, seq) == verdicts(whole, UID, BOOT, e, seq)
    assert live.replays == 1
    e = events[19]
    assert verdicts(live, UID, BOOT, e, 20) == verdicts(whole, UID, BOOT, e, 20)      # older: replayed whole
    assert live.replays == 2


def test_a_game_begun_before_the_logger_is_replayed_whole_once_then_followed(tmp_path):
    state = find_game("puzzle").new_game(5, "showdown").new_state()
    timed(state, random.Random(3))
    events = puzzle_events(state)
    store = Store(tmp_path / "g.sqlite3")
    for seq, e in enumerate(events[:30], start=1):
        store.append(UID, BOOT, seq, e)
    live, whole = LiveGames(store), LiveGames(store, incremental=False)
    for seq, e in enumerate(events[30:], start=31):
        store.append(UID, BOOT, seq, e)
        assert verdicts(live, UID, BOOT, e, seq) == verdicts(whole, UID, BOOT, e, seq)
    assert live.replays == 1
