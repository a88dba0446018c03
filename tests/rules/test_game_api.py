"""One conformance test for every game of the registry (rules/api.py, rules/games.py), in the
spirit of OpenSpiel's random_sim_test: random playouts with the interface's invariants after
every action, clones that stay independent, refused actions that change nothing, records that
round-trip. The golden games and each game's own rules are tested in test_golden_*, test_rules,
test_deadly and test_puzzle."""
from __future__ import annotations

import json
import random
import re
from pathlib import Path

import invariants as rules_invariants
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from randomplay import NAMES, choose, players_to_act, random_action, random_record, step

from doodlebox.rules import api
from doodlebox.rules.api import CHANCE, TERMINAL, IllegalAction
from doodlebox.rules.dice import layout
from doodlebox.rules.games import EDITIONS, GAMES, UnknownEdition, find_game, game_of_record

ROOT = Path(__file__).resolve().parents[2]


def combos():
    """(edition, players, variant): the fewest and most players of every game, and each variant."""
    out = []
    for g in GAMES:
        low, high = g.players
        out += [(g.edition, low, ""), (g.edition, high, "")]
        for v in g.variants:
            players = 5 if g.edition == "puzzle" else 3
            out.append((g.edition, players, v))
    return out


def fingerprint(game, state) -> tuple:
    """Everything a caller can see of a state."""
    cp = state.current_player()
    return (cp, state.is_chance_node(), state.is_terminal(), [str(a) for _, a in state.history],
            [w for w, _ in state.history], state.scores(), state.result().winners,
            json.dumps(game.to_record(state, list(NAMES[:state.game.players])), sort_keys=True),
            [sorted(map(str, state.legal_actions(p))) for p in range(state.game.players)])


def interface_invariants(state, players: int) -> None:
    cp = state.current_player()
    assert cp in (CHANCE, TERMINAL) or 0 <= cp < players
    assert state.is_chance_node() == (cp == CHANCE)
    assert state.is_terminal() == (cp == TERMINAL)
    scores = state.scores()
    assert len(scores) == players and all(isinstance(s, int) for s in scores)
    res = state.result()
    assert isinstance(res, api.Result) and res.totals == scores
    assert all(0 <= w < players for w in res.winners)
    if state.is_terminal():
        assert state.legal_actions() == [] and state.chance_outcomes() == []
        assert all(state.legal_actions(p) == [] for p in range(players))
    elif state.is_chance_node():
        assert all(state.legal_actions(p) == [] for p in range(players))
    else:
        acting = players_to_act(state)
        assert cp in acting
        assert state.legal_actions() == state.legal_actions(cp)
        assert state.legal_text(cp)
        assert state.chance_outcomes() == []


@pytest.mark.slow
@pytest.mark.parametrize("edition,players,variant", combos())
@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_random_playouts_keep_the_invariants_after_every_action(edition, players, variant, seed):
    """The interface's invariants and the game's own (tests/support/invariants.py) after every action."""
    game = find_game(edition)
    rules = rules_invariants.of(edition)
    rng = random.Random(seed)
    state = game.new_game(players, variant).new_state()
    assert isinstance(state, api.State) and state.history == []
    chance_checked = 0
    steps = 0
    while not state.is_terminal():
        interface_invariants(state, players)
        rules(state)
        before = len(state.history)
        if state.is_chance_node():
            if chance_checked < 3:  # a roll of six dice has 46,656 outcomes: a few nodes are enough
                outcomes = state.chance_outcomes()
                assert outcomes and abs(sum(p for _, p in outcomes) - 1) < 1e-9
                chance_checked += 1
            a = state.sample_chance(rng)
            state.check(a)
            state.apply(a)
            assert state.history[-1] == (CHANCE, a)
        else:
            p = rng.choice(players_to_act(state))
            legal = state.legal_actions(p)
            for x in rng.sample(legal, min(3, len(legal))):  # every listed action passes check
                state.check(x, p)
            a = random_action(state, rng, p)
            state.apply(a, p)
            assert state.history[-1] == (p, a)
        assert len(state.history) == before + 1
        steps += 1
        assert steps < 5000, "the game does not end"
    interface_invariants(state, players)
    rules(state)


@pytest.mark.parametrize("edition,players,variant", combos())
def test_clones_stay_independent(edition, players, variant):
    game = find_game(edition)
    rng = random.Random(f"clone{edition}{players}")
    state = game.new_game(players, variant).new_state()
    n = 0
    while not state.is_terminal():
        if n % 7 == 3:
            seen = fingerprint(game, state)
            twin = state.clone()
            assert fingerprint(game, twin) == seen
            who, a = choose(twin, rng)
            twin.apply(a, who)
            assert fingerprint(game, state) == seen, "acting on a clone changed the original"
            state.apply_unchecked(a, who)   # a legal action: unchecked does the same
            assert fingerprint(game, state) == fingerprint(game, twin), "the same action, different states"
        else:
            step(state, rng, any_order=True)
        n += 1


def candidates(state, rng):
    """Actions that are often illegal now: earlier actions again, and other players' actions."""
    past = [a for _, a in state.history]
    out = rng.sample(past, min(4, len(past)))
    for p in range(state.game.players):
        out += state.legal_actions(p)[:2]
    return out


@pytest.mark.slow
@pytest.mark.parametrize("edition,players,variant", combos())
def test_a_refused_action_changes_nothing_and_says_why(edition, players, variant):
    game = find_game(edition)
    rng = random.Random(f"refuse{edition}{players}")
    state = game.new_game(players, variant).new_state()
    refused = 0
    while not state.is_terminal():
        for bad in candidates(state, rng):
            who = None if state.is_chance_node() else rng.choice(range(players))
            try:
                state.check(bad, who)
            except IllegalAction as exc:
                seen = fingerprint(game, state)
                with pytest.raises(IllegalAction):
                    state.apply(bad, who)
                assert fingerprint(game, state) == seen
                assert exc.reason and exc.rule and isinstance(exc.legal, list)
                refused += 1
        step(state, rng, any_order=True)
    with pytest.raises(IllegalAction) as over:
        state.apply(state.history[-1][1])
    assert over.value.rule
    assert refused > 10


@pytest.mark.parametrize("edition,players,variant", combos())
def test_records_round_trip(edition, players, variant):
    game = find_game(edition)
    for seed in range(2):
        data = json.loads(json.dumps(random_record(game, seed, players, variant)))
        assert game_of_record(data) is game
        rp = game.replay(game.parse(data, "random"))
        assert rp.violations == [] and rp.finished
        assert game.to_record(rp.state, data["players"]) == data
        assert rp.state.scores() == rp.state.result().totals
        # and what validate and score print for it
        assert game.table_text(rp) and game.sheets_text(rp)
        assert game.as_json(rp)["valid"] is True
        again = rp.state.game.new_state()      # the replay's history, played again, is the same game
        for _, a in rp.state.history:
            again.apply(a)
        assert again.scores() == rp.state.scores() and again.is_terminal()


def test_the_registry_has_every_game_once_and_agrees_with_the_layouts():
    assert [g.edition for g in GAMES] == ["city", "suzhou", "treasures", "shanghai", "monsters", "deadly", "puzzle"]
    assert len(EDITIONS) == len(GAMES) == 7
    for ed in layout.DEFAULT_FILES:
        lay = layout.load(ed)
        g = find_game(ed)
        assert g.name == lay.name
        assert g.players == ((1, 5) if lay.solo else (2, 5))
        assert ("control" in g.variants) == bool(lay.jokers)
    with pytest.raises(UnknownEdition, match="not an edition"):
        find_game("chess")
    for g in GAMES:
        low, high = g.players
        for bad in (low - 1, high + 1):
            with pytest.raises(api.GameConfigError):
                g.new_game(bad)


def test_chance_terminal_and_illegal_action_are_defined_once():
    sources = "\n".join(p.read_text() for p in (ROOT / "host").rglob("*.py"))
    assert len(re.findall(r"^CHANCE = ", sources, re.M)) == 1
    assert len(re.findall(r"^TERMINAL = ", sources, re.M)) == 1
    assert len(re.findall(r"^class IllegalAction\b", sources, re.M)) == 1


@pytest.mark.parametrize("edition", [g.edition for g in GAMES])
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), cut=st.integers(0, 400), data=st.data())
def test_a_game_cut_anywhere_round_trips_through_its_record(edition, seed, cut, data):
    """A game in progress is a record too (a console's game while it is played). Deadly Doodles
    records hold whole rounds (docs/deadly-doodles.md), so its games are cut between rounds; a
    dice record holds whole turns (a drawing and its circled value are one turn, C5, R10), so a
    cut while a value is being chosen is moved past the choice."""
    game = find_game(edition)
    players = data.draw(st.integers(*game.players))
    rng = random.Random(seed)
    state = game.new_game(players).new_state()
    for _ in range(cut):
        if state.is_terminal():
            break
        step(state, rng, any_order=True)
    if edition == "deadly":
        while not state.is_terminal() and not (state.is_chance_node() and not state.revealed):
            step(state, rng, any_order=True)
    while getattr(state, "phase", None) == "circle":
        step(state, rng, any_order=True)
    names = list(NAMES[:players])
    record = json.loads(json.dumps(game.to_record(state, names)))
    rp = game.replay(game.parse(record, "cut.json"))
    assert rp.violations == []
    assert game.to_record(rp.state, names) == record
    assert rp.state.scores() == state.scores() and rp.finished == state.is_terminal()
