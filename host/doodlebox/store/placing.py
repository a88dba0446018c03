"""Events put at their place, inside a write transaction of the Store (store/database.py): an
event's place is its identity (console, boot, number), kept with a hash of its body; a gap is a
note of numbers not arrived; the games rows are derived from the events (docs/stored-games.md,
"Sync"). The arithmetic of a stream (stored numbers, gaps, frontier) is store/streams.py's.

- An event at a free place is stored, whatever the frontier or the gaps (sync: `anywhere`), or,
  for a console's link, up to the frontier only: a number above it is a gap in what the console
  sent (status "gap": the link asks for it again).
- An event at a place already held is compared by its hash: the same is a duplicate, another is
  a conflict, kept apart in the `conflicts` table, never stored and never acknowledged; the rest
  of that boot's events in the same call are held back ("held").
- A games row is made from its game's first event (`game`, `resume`) and derived again from every
  stored event of that game (settle()) whenever one is stored out of order (a gap filled, ahead of
  the frontier, before that first event); while a stream's events come in order (the link's way)
  it is kept up to date event by event. So the games come out the same whatever order their
  events arrived in.
- A new games row's number is one more than the highest (no sequence's cache: PostgreSQL's
  identity loses 32 numbers at a crash)."""
from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass, field
from typing import Any

from doodlebox.store.gamelog import Gap
from doodlebox.store.streams import Range, covers, frontier, merged, outside, subtract, without

Store = Any      # store/database.py's Store (not imported: it imports this module)
NEXT_GAME_ID = "(SELECT COALESCE(MAX(id), 0) + 1 FROM games)"


def digest(body: str | bytes) -> str:
    """The hash kept with an event: SHA-256 of its body as stored, 32 hex digits."""
    return hashlib.sha256(body.encode() if isinstance(body, str) else body).hexdigest()[:32]


def body_of(event: dict) -> str:
    """An event's body as the store keeps it (and hashes it)."""
    return json.dumps(event, sort_keys=True)


@dataclass
class Stream:
    """One boot of one console as a call found it: its frontier, its gaps, the numbers stored
    that matter to the call (`have`: number -> hash), the highest number stored."""

    uid: str
    boot: int
    f: int
    gaps: list[Range]
    have: dict[int, str]
    top: int
    gaps_noted: dict[Range, float] = field(default_factory=dict)
    gaps_changed: bool = False
    blocked: int | None = None          # the first conflict of this call

    def ack(self) -> int:
        """What the console may be acknowledged for: below the frontier, and below a conflict."""
        top = self.f - 1
        return min(top, self.blocked - 1) if self.blocked is not None else top


def load(store: Store, uid: str, boot: int, numbers: list[int]) -> Stream:
    """The stream as stored, with the stored numbers among `numbers` (and every one from the
    frontier on, when some are stored above it)."""
    db = store.db
    # one round trip to the server for what a console's batch in order needs (the link's way)
    f, top, gapped = db.execute(
        "SELECT (SELECT next_seq FROM streams WHERE uid=? AND boot=?), "
        "(SELECT MAX(seq) FROM events WHERE uid=? AND boot=?), "
        "(SELECT COUNT(*) FROM gaps WHERE uid=? AND boot=?)", (uid, boot) * 3).fetchone()
    f, top = f or 1, top or 0
    have: dict[int, str] = {}
    if numbers and (min(numbers) < f or top >= min(numbers)):
        have.update(_hashes(store, "seq BETWEEN ? AND ?", (uid, boot, min(numbers), max(numbers))))
    if top >= f:          # stored ahead of the frontier (a sync): every one from it on
        have.update(_hashes(store, "seq >= ?", (uid, boot, f)))
    noted = {(a, b): t for a, b, t in db.execute(
        "SELECT from_seq, to_seq, noted FROM gaps WHERE uid=? AND boot=?", (uid, boot)).fetchall()} if gapped else {}
    return Stream(uid, boot, f, merged(noted), have, top, noted)


def _hashes(store: Store, where: str, args: tuple) -> dict[int, str]:
    rows = store.db.execute(f"SELECT seq, hash, {store._blob.format('body')} FROM events "
                            f"WHERE uid=? AND boot=? AND {where}", args).fetchall()
    return {seq: h if isinstance(h, str) else digest(body if isinstance(body, bytes) else b"")
            for seq, h, body in rows}


def put(store: Store, st: Stream, seq: int, event: dict, when: float, anywhere: bool) -> tuple[str, bool]:
    """Event `seq` of the stream at its place: its status, and whether its game row must be
    derived again (it was not stored in order)."""
    if st.blocked is not None:
        return "held", False
    body = body_of(event)
    h = digest(body)
    held = st.have.get(seq)
    if held is not None:
        if held == h:
            return "duplicate", False
        store.db.execute("INSERT INTO conflicts (uid, boot, seq, hash, body, received, noted) VALUES (?,?,?,?,?,?,?) "
                         "ON CONFLICT DO NOTHING", (st.uid, st.boot, seq, h, body, when, time.time()))
        st.blocked = seq
        return "conflict", False
    if seq > st.f and not anywhere and not covers(st.gaps, seq):
        return "gap", False
    in_order = seq == st.f and st.top < seq
    kind = str(event.get("k", "?"))
    game = event.get("g") if type(event.get("g")) is int else None
    store.db.execute("INSERT INTO events (uid, boot, seq, game, kind, body, received, hash) VALUES (?,?,?,?,?,?,?,?)",
                     (st.uid, st.boot, seq, game, kind, body, when, h))
    st.have[seq] = h
    st.top = max(st.top, seq)
    if covers(st.gaps, seq):
        st.gaps = without(st.gaps, [seq])
        st.gaps_changed = True
    if seq == st.f:
        st.f = frontier(seq + 1, (n for n in st.have if n > seq), st.gaps)
    # a game's first event (its `game`, its `resume`) is derived whole: a later boot may hold the
    # game that resumes it, or one begun after it, already (another stream's events came first)
    again = game is not None and (not in_order or kind in ("game", "resume"))
    if game is not None and not again:
        update_game(store, st.uid, st.boot, game, kind, event, when)
    return "stored", again


def add_gap(store: Store, st: Stream, first: int, last: int, now: float) -> list[Gap]:
    """Numbers first..last of the stream recorded as a gap, but for those stored and those in a
    gap already; the frontier moved past it. The ranges newly recorded."""
    if first > last:
        return []
    stored = [n for n in st.have if first <= n <= last]
    if len(stored) < last - first + 1 and st.top >= first:
        stored = [r[0] for r in store.db.execute(
            "SELECT seq FROM events WHERE uid=? AND boot=? AND seq BETWEEN ? AND ?", (st.uid, st.boot, first, last))]
    new = subtract(outside(first, last, stored), st.gaps)
    if not new:
        return []
    for r in new:
        st.gaps_noted[r] = now
    st.gaps = merged(st.gaps + new)
    st.gaps_changed = True
    st.f = frontier(st.f, (n for n in st.have if n >= st.f), st.gaps)
    return [Gap(st.boot, a, b) for a, b in new]


def save(store: Store, st: Stream) -> None:
    """The stream's frontier and (when they changed) its gaps, each gap range with the time it
    was first noted."""
    db = store.db
    db.execute("INSERT INTO streams VALUES (?,?,?) ON CONFLICT(uid, boot) DO UPDATE SET next_seq=excluded.next_seq",
               (st.uid, st.boot, st.f))
    if not st.gaps_changed:
        return
    db.execute("DELETE FROM gaps WHERE uid=? AND boot=?", (st.uid, st.boot))
    for a, b in st.gaps:
        when = min((t for (x, y), t in st.gaps_noted.items() if x <= b and a <= y), default=time.time())
        db.execute("INSERT INTO gaps VALUES (?,?,?,?,?)", (st.uid, st.boot, a, b, when))


# -- the games rows ---------------------------------------------------------------------------------
def update_game(store: Store, uid: str, boot: int, g: int, kind: str, event: dict, now: float) -> None:
    """Game `g`'s row after one more of its events, stored in order (the link's way); a game's
    `game` and `resume` events are settle()'s."""
    r = event.get("r")
    store.db.execute(f"UPDATE games SET events = events + 1, rounds = {store._greatest}(rounds, ?) "
                     "WHERE uid=? AND boot=? AND g=?", (r if type(r) is int else 0, uid, boot, g))
    if kind == "end":
        store.db.execute("UPDATE games SET ended=?, end_reason=?, state='ended' WHERE uid=? AND boot=? AND g=?",
                         (now, event.get("why"), uid, boot, g))


def settle(store: Store, uid: str, boot: int, g: int, follow: bool = True) -> None:
    """Game `g` of a console's boot derived again from every stored event of it: its row (made
    when its `game` or `resume` event is stored), its counts, its state (ended by its `end`;
    resumed when a later game goes on with it; abandoned when a later boot began another game;
    else playing), and its links to the game it resumes and the one that resumes it (`follow`:
    those are derived again too). The same row as the events stored in order make."""
    db = store.db
    events = [(seq, kind, _lenient(body), when) for seq, kind, body, when in db.execute(
        f"SELECT seq, kind, {store._blob.format('body')}, received FROM events WHERE uid=? AND boot=? AND game=? "
        "ORDER BY seq", (uid, boot, g)).fetchall()]
    head = next((e for e in events if e[1] in ("game", "resume")), None)
    if head is None:
        return
    _, kind, first, started = head
    rounds = max([e[2]["r"] for e in events if type(e[2].get("r")) is int] + [0])
    end = next((e for e in reversed(events) if e[1] == "end"), None)
    values: dict[str, Any] = {"edition": first.get("ed"), "players": first.get("n"), "variant": first.get("var"),
                              "started": started, "events": len(events), "continues": None, "of_boot": None,
                              "of_g": None, "resume_at": None}
    old = None
    if kind == "resume" and _pair(first.get("of")):
        of_boot, of_g = first["of"]
        old = db.execute("SELECT id, edition, players, variant, rounds FROM games WHERE uid=? AND boot=? AND g=?",
                         (uid, of_boot, of_g)).fetchone()
        values.update(of_boot=of_boot, of_g=of_g, resume_at=first.get("at"), edition=None, players=None, variant=None)
        if old is not None:
            values.update(continues=old[0], edition=old[1], players=old[2], variant=old[3])
            rounds = max(rounds, old[4] or 0)
    values["rounds"] = rounds
    resumer = db.execute("SELECT id, boot, g FROM games WHERE uid=? AND of_boot=? AND of_g=? AND boot>?",
                         (uid, boot, g, boot)).fetchone()
    later = db.execute("SELECT MIN(started) FROM games WHERE uid=? AND boot>? AND of_boot IS NULL",
                       (uid, boot)).fetchone()[0]
    if end is not None:
        values.update(state="ended", ended=end[3], end_reason=end[2].get("why"))
    elif resumer is not None:
        values.update(state="resumed", ended=None, end_reason=None)
    elif later is not None:
        values.update(state="abandoned", ended=later, end_reason=None)
    else:
        values.update(state="playing", ended=None, end_reason=None)
    values["continued_by"] = resumer[0] if resumer else None
    names = sorted(values)
    found = db.execute("SELECT id FROM games WHERE uid=? AND boot=? AND g=?", (uid, boot, g)).fetchone()
    if found:
        db.execute(f"UPDATE games SET {', '.join(f'{n}=?' for n in names)} WHERE id=?",
                   tuple(values[n] for n in names) + (found[0],))
    else:
        db.execute(f"INSERT INTO games (id, uid, boot, g, {', '.join(names)}) "
                   f"VALUES ({NEXT_GAME_ID},?,?,?,{','.join('?' * len(names))})",
                   (uid, boot, g, *(values[n] for n in names)))
    if kind == "game":
        db.execute("UPDATE games SET state='abandoned', ended=? WHERE uid=? AND boot<? AND state='playing'",
                   (started, uid, boot))
    if follow:
        if old is not None:
            settle(store, uid, values["of_boot"], values["of_g"], follow=False)
        if resumer is not None:
            settle(store, uid, resumer[1], resumer[2], follow=False)


def _lenient(body: bytes | None) -> dict:
    """An event's body for its game's row: {} for one that cannot be read (the reading commands
    say the damage; a row is still derived from the rest)."""
    try:
        e = json.loads(body) if isinstance(body, bytes) else None
    except ValueError:
        return {}
    return e if isinstance(e, dict) else {}


def _pair(value: object) -> bool:
    return isinstance(value, list) and len(value) == 2 and all(type(v) is int for v in value)
