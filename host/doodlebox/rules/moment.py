"""Where a game stands now, as every view says it (ruling V1, docs/rulings.md): the round, whose turn
it is and what is to be done, read from the rules' state of any game. The page's live game, `show`
and the agreement test read it here, and the console's panel says the same (docs/console.md).

**The round** is the round being played; between two rounds (its dice not rolled, its cards not
turned up, its roles not dealt) it is the round to come, as the console's "ROLL for round 8" says;
before the first round it is 0 (the start roads, the first deal); once the game is over, the
round it ended in."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from doodlebox.rules.api import CHANCE, TERMINAL
from doodlebox.rules.deadly import engine as deadly
from doodlebox.rules.dice import engine as dice
from doodlebox.rules.puzzle import engine as puzzle


@dataclass(frozen=True)
class Moment:
    round: int             # ruling V1 (above)
    player: int | None     # whose turn (0-based); None: the dice, the cards, several at once, over
    to_play: str           # what is to be done now, in a few words ("P2: take a die")
    over: bool


def moment(state: Any, names: list[str] | None = None) -> Moment:
    """Where the game of `state` (a dice edition's, Deadly Doodles' or Doodle Puzzle's rules state)
    stands now; `names` the players' (P1, P2, ... when not given)."""
    phase = state.phase
    who = state.current_player()

    def name(p: int) -> str:
        given = names[p] if names and p < len(names) else f"P{p + 1}"
        return given if given == f"P{p + 1}" else f"{given} (P{p + 1})"

    over = state.is_terminal()
    text = "the game is over"
    if isinstance(state, dice.State):
        r = state.round + (1 if phase == dice.ROLL else 0)
        if phase == dice.START:
            text = "ROLL: the start roads"
        elif phase == dice.ROLL:
            text = f"ROLL: round {r}'s dice"
        elif phase == dice.CIRCLE:
            text = f"{name(who)}: circle a value"
        elif not over:
            text = f"{name(who)}: take a die"
    elif isinstance(state, deadly.State):
        r = state.round + (1 if phase == deadly.REVEAL and not state.revealed and not over else 0)
        text = f"ROLL: turn up round {r}'s cards" if phase == deadly.REVEAL else "each player: draw the round's cards"
        who = CHANCE                    # (every player at once)
    elif isinstance(state, puzzle.State):
        r = state.round + (1 if phase == puzzle.DEAL and not over else 0)
        text = f"ROLL: deal round {r}'s roles" if phase == puzzle.DEAL else puzzle.PHASE_TEXT[phase]
        if who >= 0 and not over:
            text = f"{name(who)}: {text}"
    else:
        raise TypeError(f"no moment for {type(state).__name__}")
    if over:
        return Moment(r, None, "the game is over", True)
    return Moment(r, who if who not in (CHANCE, TERMINAL) and who >= 0 else None, text, False)
