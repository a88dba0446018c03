"""A console's events as a person reads them at the table (docs/protocol.md, version 4).
Events reach it checked by the link's schema; an odd field still prints, never raises."""
from __future__ import annotations

WHY = {
    # refuse.why: the rule ids of the PC's engine (rules/dice/sentences.py)
    "taken": "die already taken", "six_tree": "no tree left for a white 6", "park_tree": "no tree left for a park",
    "park_barrel": "no barrel left for a breaker", "drawn": "nothing can be drawn there",
    "houses": "every house there is crossed", "third_time": "the sky scraper has all its floors",
    "must_take": "a die can still be used", "no_tree": "no tree left to pass",
    # tree.why
    "forced": "no die fits", "pass": "passes",
    # end.why
    "trees": "a player crossed out the last tree", "hotel": "the top hotel value is circled",
    "shop": "the top shop value is circled", "skyscraper": "the 18 of the sky scraper track is circled",
    "menu": "ended early on the console (MENU): scored as it stood, no winner (ruling G1)",
    "rounds": "the last round was played",
    # the card games' refusals (rules/deadly/sentences.py, rules/puzzle/sentences.py)
    "trap_room": "a Trap needs an empty room", "own_trap": "the player's Trap is there",
    "wall": "an end on a wall", "entry": "linked to neither the path nor an entryway",
    "one_per_room": "one path segment per room", "card": "not a card of this round", "draw2": "already drawn",
    "unused": "a card can still be drawn", "trap_must": "the Trap must be drawn", "slot_twice": "the slot is filled",
}


NAMED = ("game", "resume", "end")     # the events whose line names their game


class Stored(dict):
    """An event as the store holds it (a dict equal to the event), with the store's number of
    its game: `game` is the number `doodlebox games`, `show` and the page give it (None when
    the store has no row for it), `boot` the console's boot it came from, `resumes` the store's
    number of the game a `resume` event goes on with. The console's own `g` counts games from 1
    at each power-up, so it is printed only beside the store's number."""

    game: int | None = None
    boot: int | None = None
    resumes: int | None = None


def describe(event: dict, game: int | None = None, boot: int | None = None, resumes: int | None = None) -> str:
    """One line for a person; an event with odd fields is printed as it is (never an exception:
    the printout of `doodlebox log` must not stop). A line that names a game (NAMED) names it
    by the store's number, `game` (or a Stored event's), with the console's number beside it:
    "game 12 (console's game 1 of boot 3): city for 3 player(s)"; with no store number, by the
    console's number alone ("console's game 1: ...")."""
    if isinstance(event, Stored):
        game = event.game if game is None else game
        boot = event.boot if boot is None else boot
        resumes = event.resumes if resumes is None else resumes
    try:
        return _describe(event, game, boot, resumes)
    except Exception:
        return f"  {event!r}"[:200]


def game_name(g: object, game: int | None = None, boot: int | None = None) -> str:
    """A game as the terminal names it: the store's number first, the console's beside it."""
    console = f"console's game {g}" + (f" of boot {boot}" if boot is not None else "")
    return f"game {game} ({console})" if game is not None else console


def _describe(event: dict, game: int | None, boot: int | None, resumes: int | None) -> str:
    k = event.get("k")
    p = f"P{event.get('p', 0) + 1}" if isinstance(event.get("p"), int) else "?"
    if k == "game":
        players = f"{event.get('n')} player(s) {event.get('var') or ''}".rstrip()
        side = "the table's own" if event.get("map") == "own" else str(event.get("map")).upper()
        extra = (f", map side {side}, drawings {event.get('rec')}" if "map" in event
                 else f", {event.get('subj')} subjects" if "subj" in event else "")
        if "sx" in event:        # played on a sheet of the table's own (docs/sheets.md)
            extra += f", on the table's sheet {event.get('sh')} ({event.get('sx')})"
        return f"{game_name(event.get('g'), game, boot)}: {event.get('ed')} for {players}{extra}"
    if k in CARD_EVENTS:
        return CARD_EVENTS[k](event, p)
    if k == "start":
        return f"  start road, column {event.get('col')}: die {event.get('d')}"
    if k == "roll":
        return (f"round {event.get('r')}: P{event.get('sp', 0) + 1} rolls column {event.get('c')}, "
                f"white {' '.join(str(w) for w in event.get('w', []))}")
    if k == "claim":
        via = event.get("via")
        park = f" via the park at row {via[0]}, column {via[1]}" if isinstance(via, list) and len(via) == 2 else ""
        what = f" {event['pc']}" if "pc" in event else (" a floor" if event.get("fl") else " a house crossed")
        circled = f", circles {event['v']}" if event.get("v") else ""
        where = f"row {event.get('row')}, column {event.get('col')}"
        return f"  {p} takes die {event.get('i')} ({event.get('d')}){park} -> {where}:{what}{circled}"
    if k == "tree":
        return f"  {p} crosses out a tree: {WHY.get(str(event.get('why')), event.get('why'))}"
    if k == "refuse":
        return f"  {p} refused: {WHY.get(str(event.get('why')), event.get('why'))}"
    if k == "end":
        totals = event.get("p")
        shown = (": the console's scores " + ", ".join(f"P{i + 1} {t}" for i, t in enumerate(totals))
                 if isinstance(totals, list) else "")
        over = f"game {game} over" if game is not None else "game over"
        return f"{over} after round {event.get('r')}: {WHY.get(str(event.get('why')), event.get('why'))}{shown}"
    if k == "refused":
        return f"  event refused by the host, stored as sent: {event.get('why')}"
    if k == "resume":
        of_boot, of_g = event["of"]
        old = game_name(of_g, resumes, of_boot) if resumes is not None else f"its game {of_g} of boot {of_boot}"
        return (f"{game_name(event.get('g'), game, boot)} resumes {old} after a power cut, in round "
                f"{event.get('r')} (from its event {event.get('at')})")
    return f"  {event}"


def _cards(event: dict) -> str:
    return " ".join(str(c) for c in event.get("cards", []))


ROLES = {"S": "star", "D": "Drawy", "B": "Baddy", "G": "Guessy"}

# Deadly Doodles and Doodle Puzzle (docs/protocol.md, version 4): one line each
CARD_EVENTS = {
    "reveal": lambda e, p: f"round {e.get('r')}: cards {_cards(e)} revealed",
    "trap": lambda e, p: f"  {p} sets a Trap in {e.get('room')}",
    "draw": lambda e, p: f"  {p} draws card {e.get('card')} in {e.get('room')}, open {e.get('ends')}",
    "done": lambda e, p: f"  {p} ends round {e.get('r')}",
    "tally": lambda e, p: f"  {p} counts {' '.join(str(n) for n in e.get('t', []))}",
    "roles": lambda e, p: f"round {e.get('r')}: roles dealt (" + ", ".join(
        f"P{i + 1} {ROLES.get(c, c)}" for i, c in enumerate(str(e.get("roles", "")))) + ")",
    "subject": lambda e, p: f"  the star chooses {e.get('num')}: subject card {e.get('card')}",
    "timer": lambda e, p: (f"  the drawing minute ran out ({(e['end'] - e['start'] - e['paused']) / 1000:g} s, "
                           f"paused {e['paused'] / 1000:g} s)"),
    "place": lambda e, p: f"  {p} places a board in slot {e.get('slot')}",
    "mischief": lambda e, p: "  Baddy's Mischief: " + (", ".join(
        f"{what} on board {e[key]}" for key, what in (("erase", "erases"), ("draw", "draws")) if e.get(key))
        or "nothing"),
    "guess": lambda e, p: f"  Guessy's guess is {e.get('res')}",
    "challenge": lambda e, p: f"  Guessy challenges board {e.get('board')}" if e.get("board") else "  no challenge",
}
