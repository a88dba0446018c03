# doodlebox Doodle Puzzle after a power cut: a game's events read back from the journal
# applied again (docs/journal.md); doodle/puzzle.py loads this only for a game resumed (RAM).
# owner Game (doodle/puzzle.py) as g: _challenge, _changed, _dealt, _end, _guess, _mischief,
#   _place, _subject, asides, behave, cards, current, emit, phase, placed, players, roles, round,
#   slots
from doodle.link import quiet
from doodle.puzzle import CHALLENGE, DEAL, ERASE, GUESS, NUMBER, OVER, PLACE, SLOTS, SUBJECT


def replay(g, ev):
    """Apply to Game g an event it sent before a power cut: the same state as when it was
    made, nothing sent, no tone. A drawing minute the power cut is not resumed: the round is
    back at the timer's start. Raises ValueError for an event that does not fit the game as
    replayed so far."""
    k = ev["k"]
    emit = g.emit
    g.emit = quiet
    ph = g.phase
    try:
        if k == "roles":
            r = ev["roles"]
            if ph != DEAL or ev["r"] != g.round + 1 or len(r) != g.players:
                raise ValueError("roles out of turn")
            if r.count("S") != 1 or r.count("G") != 1 or r.count("B") != (0 if g.behave else 1) \
                    or r.count("D") != g.players - (2 if g.behave else 3):
                raise ValueError("not a deal")
            for i in range(g.players):
                g.roles[i] = ord(r[i])
            g._dealt(ev["r"])
        elif k == "subject":
            if ph < NUMBER or ph > SUBJECT or not 1 <= ev["num"] <= 12 or not 1 <= ev["card"] <= g.cards:
                raise ValueError("subject out of turn")
            if ph == SUBJECT:
                g.asides += 1
            g._subject(ev["num"], ev["card"])
        elif k == "timer":
            if ph != SUBJECT:
                raise ValueError("timer out of turn")
            g.phase = PLACE
            g.placed = 0
            g._changed()
        elif k == "place":
            s = ev["slot"]
            if ph != PLACE or ev["p"] != g.current() or not 1 <= s <= SLOTS or g.slots[s - 1]:
                raise ValueError("place out of turn")
            g._place(s)
        elif k == "mischief":
            if ph != ERASE or not 0 <= ev["erase"] <= SLOTS or not 0 <= ev["draw"] <= SLOTS:
                raise ValueError("mischief out of turn")
            g._mischief(ev["erase"], ev["draw"])
        elif k == "guess":
            if ph != GUESS:
                raise ValueError("guess out of turn")
            g._guess(ev["res"] == "right")
        elif k == "challenge":
            if ph != CHALLENGE or not 0 <= ev["board"] <= SLOTS:
                raise ValueError("challenge out of turn")
            g._challenge(ev["board"])
        elif k == "end":
            if ph != OVER:
                g._end(ev["why"])
    finally:
        g.emit = emit
