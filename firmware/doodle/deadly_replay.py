# doodlebox Deadly Doodles after a power cut: a game's events read back from the journal
# applied again (docs/journal.md); doodle/deadly.py loads this only for a game resumed (RAM).
# owner Game (doodle/deadly.py) as g: _begin, _done, _drawn, _tallied, boards, card, card_id,
#   drawn, emit, ending, kind, left, n, passed, phase, player, round, tallies, tones
from doodle.deadly import CARD, DEAL, OVER, TALLY, TRAP, TURN, X, ends_mask, room_index
from doodle.link import quiet


def replay(g, ev):
    """Apply to Game g an event it sent before a power cut: the same state as when it was
    made, nothing sent again. Raises ValueError for an event that does not fit the game as
    replayed so far."""
    k = ev["k"]
    emit = g.emit
    g.emit = quiet
    try:
        if k == "reveal":
            if g.phase != DEAL or ev["r"] != g.round + 1:
                raise ValueError("reveal out of turn")
            cards = list(ev["cards"])
            for c in cards:
                if not 0 < c < len(g.left) or not g.left[c]:
                    raise ValueError("card %d is not in the deck" % c)
            g._begin(cards)
        elif k == "trap" or k == "draw":
            if g.phase < CARD or g.phase > TURN or ev["p"] != g.player or ev["r"] != g.round:
                raise ValueError(k + " out of turn")
            i = room_index(ev["room"])
            g.card = _number_of(g, ev, k == "trap")
            b = g.boards[g.player]
            b[i] = X if k == "trap" else ends_mask(ev["ends"])
            g._drawn()
        elif k == "done":
            if g.phase < CARD or g.phase > TURN or ev["p"] != g.player:
                raise ValueError("done out of turn")
            g._done()
        elif k == "tally":
            if g.phase != TALLY or ev["p"] != g.player:
                raise ValueError("tally out of turn")
            t = g.tallies[g.player]
            for j in range(8):
                t[j] = ev["t"][j]
            g._tallied()
        elif k == "end":
            g.phase = OVER
            g.ending = ev["why"]
    finally:
        g.emit = emit
        del g.tones[:]
        g.passed = False


def _number_of(g, ev, trap):
    """The number of the card an event drew: the first Trap not yet drawn, or its card id."""
    p = g.player
    for k in range(1, g.n + 1):
        if g.drawn(p, k):
            continue
        if (g.kind(k) == TRAP) if trap else g.card_id(k) == ev["card"]:
            return k
    raise ValueError("no such card to draw")
