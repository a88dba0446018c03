"""What a console sends for a game of Deadly Doodles or Doodle Puzzle played on the PC's rules engine:
its events (docs/protocol.md, version 4), for the tests of the console's log into records. The
dice editions' are tests/console_events.py."""
from __future__ import annotations

import random

from doodlebox.rules.deadly import tallies as tallies_mod
from doodlebox.rules.deadly.engine import State as DeadlyState
from doodlebox.rules.deadly.tallies import FIELDS
from doodlebox.rules.puzzle import engine as P
from doodlebox.rules.puzzle.engine import State as PuzzleState

LETTERS = {"star": "S", "drawy": "D", "baddy": "B", "guessy": "G"}


def counts_of(state: DeadlyState) -> list[list[int]]:
    """Each player's eight counts (docs/protocol.md, `tally.t`) as their map scores them now."""
    out = []
    for ss in state.result().sheets:
        c = {"loot": len(ss.loot), "dragon": int(ss.dragon), "weapons": len(ss.weapons), "matched": len(ss.killed),
             "unmatched": len(ss.mauled), "entryways": ss.free_entryways, "unused": ss.unused,
             "hits": len(ss.hits)}
        out.append([c[f] for f in FIELDS])
    return out


def deadly_events(state: DeadlyState, g: int = 1, tallies: list[list[int]] | None = None,
                  refusals: random.Random | None = None) -> list[dict]:
    """The events of the game `state` has played: `game`, each round's `reveal`, then each
    player's `trap`s and `draw`s in the order drawn and their `done`, seat by seat (the console
    takes the players in turn); `tally` per player (with `tallies`, the game recorded with
    tallies: segments are not sent) and `end` once the game is over. With `refusals`, a refused
    Trap now and then too."""
    game = state.game
    rec = "tally" if tallies is not None else "full"
    out: list[dict] = [{"k": "game", "g": g, "ed": "deadly", "n": game.players, "var": "",
                        "map": game.map.spec or "a", "rec": rec}]
    per: list[list[dict]] = [[] for _ in range(game.players)]
    revealed: list[int] = []
    r = 0

    def flush() -> None:
        for p in range(game.players):
            out.extend(per[p])
            per[p].clear()

    for who, a in state.history:
        if a.kind == "reveal":
            if not revealed or revealed[-1] < 0:
                flush()
                revealed.clear()
                r += 1
            revealed.append(a.card)
            continue
        if revealed and revealed[-1] > 0:
            out.append({"k": "reveal", "g": g, "r": r, "cards": list(revealed)})
            revealed.append(-1)              # sent
        if a.kind == "done":
            per[who].append({"k": "done", "g": g, "r": r, "p": who})
        elif a.kind == "trap":
            if refusals is not None and refusals.random() < 0.3:
                per[who].append({"k": "refuse", "g": g, "r": r, "p": who, "i": 0, "why": "trap_room"})
            per[who].append({"k": "trap", "g": g, "r": r, "p": who, "room": a.room})
        elif tallies is None:
            per[who].append({"k": "draw", "g": g, "r": r, "p": who, "card": a.card, "room": a.room, "ends": a.ends})
    if revealed and revealed[-1] > 0:
        out.append({"k": "reveal", "g": g, "r": r, "cards": list(revealed)})
    flush()
    if state.is_terminal():
        for p, t in enumerate(tallies or []):
            out.append({"k": "tally", "g": g, "p": p, "t": list(t)})
        totals = ([tallies_mod.total(tallies_mod.Counts.of(t)) for t in tallies] if tallies is not None
                  else state.scores())
        out.append({"k": "end", "g": g, "r": state.round, "why": "rounds", "p": totals})
    return out


def timed(state: PuzzleState, rng: random.Random) -> None:
    """Play a Doodle Puzzle game to its end at random, the drawing minute always timed by the
    console (paused now and then)."""
    clock = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply(state.sample_chance(rng))
            continue
        legal = state.legal_actions()
        if state.phase == P.DRAWING and rng.random() > 0.25:
            clock += rng.randrange(5_000, 100_000)
            paused = rng.choice([0, 0, rng.randrange(1, 20_000)])
            a = P.drawing((clock, clock + P.MINUTE_MS + paused + rng.randint(-900, 900), paused))
            clock += P.MINUTE_MS + paused + 1000
        elif state.phase == P.DRAWING:
            a = P.AGAIN
        else:
            a = rng.choice(legal)
        state.apply(a)


def puzzle_events(state: PuzzleState, g: int = 1, refusals: random.Random | None = None) -> list[dict]:
    """The events of the game `state` has played: `game`, then per round `roles`, a `subject`
    per card drawn, `timer`, a `place` per board, `mischief` (outside Behave, once Baddy is done:
    the erase and the board drawn on, 0 for none), `guess`, `challenge` (Showdown, after a wrong
    guess: 0 for none), and `end` once the game is over."""
    game = state.game
    var = "+".join(game.variants)
    out: list[dict] = [{"k": "game", "g": g, "ed": "puzzle", "n": game.players, "var": var, "subj": game.subjects}]
    r = 0
    number = 0
    mischief: dict[str, int] = {}
    for who, a in state.history:
        k = a.kind
        if k == "deal":
            r += 1
            mischief = {}
            out.append({"k": "roles", "g": g, "r": r, "roles": "".join(LETTERS[x] for x in a.roles)})
        elif k == "number":
            number = a.value
        elif k == "card":
            out.append({"k": "subject", "g": g, "r": r, "num": number, "card": a.value})
        elif k == "drawing":
            assert a.timer is not None, "the console always times the minute"
            start, end, paused = a.timer
            out.append({"k": "timer", "g": g, "r": r, "start": start, "end": end, "paused": paused})
        elif k == "place":
            if refusals is not None and refusals.random() < 0.2:
                out.append({"k": "refuse", "g": g, "r": r, "p": who, "i": 0, "why": "slot_twice"})
            out.append({"k": "place", "g": g, "r": r, "p": who, "slot": a.value})
        elif k in ("erase", "draw"):
            mischief[k] = a.value
            if len(mischief) == 2:
                out.append({"k": "mischief", "g": g, "r": r, "erase": mischief["erase"], "draw": mischief["draw"]})
        elif k == "done":
            out.append({"k": "mischief", "g": g, "r": r, "erase": mischief.get("erase", 0),
                        "draw": mischief.get("draw", 0)})
        elif k == "guess":
            out.append({"k": "guess", "g": g, "r": r, "res": "right" if a.value else "wrong"})
        elif k in ("challenge", "decline"):
            out.append({"k": "challenge", "g": g, "r": r, "board": a.value if k == "challenge" else 0})
    if state.is_terminal():
        out.append({"k": "end", "g": g, "r": state.round, "why": "rounds", "p": state.scores()})
    return out
