"""Every view says the same (issue 36; ruling V1, docs/rulings.md): random games of the dice
editions played on the console's core (its App under CPython, pressed as a person would) beside the
PC's rules engine; after every step the round and whose turn it is read the same on the console's
panel, in the rules' state (rules/moment.py) and on the page's path (the console's events made a
record, replayed: what the page's live game and `show` read); at the end the winners are the same
everywhere, and every value circled on the PC's sheets (`validate`'s and `score`'s) is said in
`show`'s rounds."""
from __future__ import annotations

import random
import re

import pytest
from test_console_agrees import EDITIONS, SIX_BY_SIX, Table, choose

from doodle import rounds, rounds_final, score
from doodlebox.history.console_record import to_record
from doodlebox.history.games_view import round_lines
from doodlebox.rules.dice import report
from doodlebox.rules.games import read_record
from doodlebox.rules.moment import moment
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
