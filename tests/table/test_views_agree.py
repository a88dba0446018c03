"""Every view says the same (issue 36; ruling V1, docs/rulings.md): random games played on the
console's core (under CPython, pressed as a person would) beside the PC's rules engine. The dice
editions: after every step the round and whose turn it is read the same on the console's panel, in
the rules' state (rules/moment.py) and on the page's path (the console's events made a record,
replayed: what the page's live game and `show` read); at the end the winners are the same
everywhere, and every value circled on the PC's sheets (`validate`'s and `score`'s) is said in
`show`'s rounds. Deadly Doodles and Doodle Puzzle: at every step where console and engine stand
together, the panel's round is the page's path's; at the end the same totals and winners."""
from __future__ import annotations

import random
import re

import pytest
from test_console_agrees import EDITIONS, SIX_BY_SIX, Table, choose

from doodle import deadly_view, rounds, rounds_final, score
from doodle import puzzle as P
from doodlebox.history.console_record import to_record
from doodlebox.history.games_view import round_lines
from doodlebox.rules.dice import report
from doodlebox.rules.games import read_record
from doodlebox.rules.moment import moment
from doodlebox.rules.puzzle import engine as E
from doodlebox.store.gamelog import GameLog

TITLE = re.compile(r"^\S+ (?:round (\d+)|setup)$")     # "City round 8", "City setup"


def panel(t: Table) -> tuple[int, int | None]:
    """(the round, the player to act (0-based) or None) as the console's panel says them."""
    lines = t.app.screen()
    m = TITLE.match(lines[0])
    assert m, lines
    # the action on top ("^"); what the console did for a player is said there until the next
    # press, the next player's action a line under it (docs/console.md, "The panel")
    acts = [line.lstrip("^") for line in lines[1:5] if re.match(r"\^?P\d+[: ]", line)]
    who = re.match(r"P(\d+): ", acts[-1]) if acts else None
    return int(m.group(1) or 0), (int(who.group(1)) - 1 if who else None)


def page(t: Table, names: list[str]):
    """The page's path: the console's events stored, made a record and replayed by the rules."""
    log = GameLog(1, "c0ffee", 1, 1, list(enumerate(t.events, start=1)))
    parsed, game = read_record(to_record(log), "the record")
    return parsed, game, game.replay(parsed)


@pytest.mark.parametrize("edition,players", [(ed, n) for ed in EDITIONS for n in ((1, 3) if ed not in SIX_BY_SIX
                                                                                   else (2, 4))])
def test_the_round_the_turn_what_was_circled_and_the_winner_read_the_same_in_every_view(edition, players):
    rng = random.Random(f"views {edition} {players}")
    t = Table(edition, players, False, rng.randrange(10**6))
    names = [f"P{p + 1}" for p in range(players)]
    steps = 0
    while not t.state.is_terminal():
        if t.state.is_chance_node():
            t.chance()
        else:
            t.turn(choose(t, rng))
        steps += 1
        if t.state.phase == "circle":              # mid-turn: the console takes the turn whole (C5)
            continue
        now = moment(t.state, names)
        if not t.state.is_terminal():
            r, who = panel(t)
            assert r == now.round, (t.app.screen(), now)
            if t.state.phase == "turn":
                assert who == now.player, (t.app.screen(), now)
        if steps % 7 == 0 or t.state.is_terminal():
            _, _, rp = page(t, names)
            seen = moment(rp.state, names)
            assert (seen.round, seen.player, seen.to_play) == (now.round, now.player, now.to_play)
        assert steps < 2000
    # the end: the winners, and every value circled said in `show`'s rounds
    _, _, rp = page(t, names)
    c = t.console
    assert c.phase == rounds.OVER and rp.state.is_terminal()
    assert rounds_final.winners(c, score.totals(c)) == t.state.result().winners == rp.state.result().winners
    assert moment(rp.state).round == t.state.round == t.last("end")["r"]
    shown = round_lines(to_record(GameLog(1, "c0ffee", 1, 1, list(enumerate(t.events, start=1)))), rp)
    by_round = {int(line.split(":")[0].split()[1]): line for line in shown if line.startswith("round ")}
    for p, sheet in enumerate(rp.state.sheets):
        for s in sheet.scored:
            if s.value:
                turns = [part for part in by_round[s.round].split("  | ")[0].split("; ")
                         if part.startswith(f"P{p + 1}: ")]
                assert any(f"circled {s.value}" in part for part in turns), (s, by_round[s.round])
    assert "circled" in report.sheets_text(rp)


# -- the card games -------------------------------------------------------------------------------
def page_of(events: list[dict]):
    """The page's path for a card game's events so far: a record made of them, replayed."""
    log = GameLog(1, "c0ffee", 1, events[0]["g"], list(enumerate(events, start=1)))
    parsed, game = read_record(to_record(log), "the record")
    return game.replay(parsed)


@pytest.mark.parametrize("seed", range(3))
def test_deadly_doodles_reads_the_same_round_and_winners_in_every_view(seed):
    from test_console_deadly import Side

    side = Side(3, "ab"[seed % 2], "full", 500 + seed)
    seen: list[tuple[int, str]] = []
    checked = side.same_round

    def same_round() -> None:          # at each round's boundary: the panel's title, held to the rules'
        checked()
        seen.append((len(side.events), deadly_view._title(side.g)))

    side.same_round = same_round       # type: ignore[method-assign]
    side.play()
    assert len(seen) >= 6
    for n, title in seen:              # ... and the page's path at that moment says the same round
        assert title == f"Deadly Doodles {moment(page_of(side.events[:n]).state).round}/7", (n, title)
    rp = page_of(side.events)
    assert side.s.is_terminal() and rp.state.is_terminal()
    assert rp.state.result().winners == side.s.result().winners
    assert list(rp.state.result().totals) == side.g.points()


@pytest.mark.parametrize("players,var", [(4, ""), (5, "showdown"), (3, "behave")])
def test_doodle_puzzle_reads_the_same_round_in_every_view(players, var):
    from puzzle_duo import Duo

    duo = Duo(players, var, "standard", seed=77 + players)
    seen: list[tuple[int, str]] = []
    checked = duo.agree

    def agree() -> None:
        checked()
        if not duo.g.over() and (duo.g.phase == P.DEAL) == (duo.state.phase == E.DEAL):
            seen.append((len(duo.events), duo.look()[0]))

    duo.agree = agree                  # type: ignore[method-assign]
    end = duo.play()
    assert len(seen) >= 10
    for n, title in seen[::3]:
        assert title == f"Puzzle R{moment(page_of(duo.events[:n]).state).round}/5", (n, title)
    rp = page_of(duo.events)
    assert rp.state.is_terminal() and list(rp.state.result().totals) == end["p"] == duo.state.scores()
    assert rp.state.result().winners == duo.state.result().winners
