"""The coach at the console: the PC's answers to a console's `hint?` (docs/console.md, "Hints")
and `bot?` (docs/console.md, "The PC's seats"; docs/protocol.md), from a thread of its own so the
link thread goes on reading and acknowledging meanwhile.

Both read the game as the PC stores it (waiting a moment for the event the console had made when
it asked), replay it through the rules engine and ask the coach's search (coach/analysis.decide)
for the best move of the player to act: a hint is that move as a short text for the panel, a
PC's seat's move is the move in the console's terms (the die, the square, the piece's face and
the value circled: the console presses them itself) and the text the panel shows for it."""
from __future__ import annotations

import queue
import threading
import time
from dataclasses import dataclass
from typing import Any, Protocol

import serial

from doodlebox.coach import analysis
from doodlebox.errors import DoodleboxError
from doodlebox.history.console_record import ConsoleLogError, to_record
from doodlebox.link import frames
from doodlebox.link.session import Console
from doodlebox.rules.common import FORMAT
from doodlebox.rules.dice import engine as dice
from doodlebox.rules.games import read_record
from doodlebox.store import Store

HINT_BUDGET_S = 0.5     # s: the search's time for a hint, less the waiting: `doodlebox hint`'s
#                         (coach/analysis.HINT_BUDGET_S), whose p95 is ~0.8 s (make bench: the search
#                         overruns its budget on a turn of many plans), so the answer comes within 1 s
BOT_BUDGET_S = 1.0      # s: a PC's seat's search (the strongest level's time a move: coach/levels.py)
HINT_WAIT_S = 0.3       # s: the most an answer waits for the events the console made before it asked
HINT_LEAST_S = 0.15     # s: the search's time at least, however long the wait was
BOT_WAIT_S = 2.0        # s: a PC's seat is asked for right after the move before it: its wait


class Owner(Protocol):
    """What the coach's thread needs of the link it answers for (link_thread.LinkThread)."""
    db_path: Any
    link: Any
    sent_answers: int

    def on_note(self, text: str) -> None: ...


class Coach:
    """The answers' thread: each `hint?` is answered with `hint`, each `bot?` with `bot`, in the
    order asked. The link thread only hands a request over (`add`, returns at once)."""
    def __init__(self, owner: Owner):
        self.owner = owner
        self._queue: queue.Queue = queue.Queue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._asked = 0                          # requests added so far
        self._newest: dict[str, int] = {}       # a console's newest `hint?` (its number among them)

    def add(self, console: Console, msg: dict) -> None:
        """A `hint?` or `bot?` of `console` (called in the link thread: returns at once). Of a
        console's `hint?`s still waiting only the newest is answered (a chord pressed again and
        again: the console shows one answer, and a PC's seat's `bot?` must not wait behind the rest)."""
        with self._lock:
            self._asked += 1
            n = self._asked
            if msg.get("t") == "hint?":
                self._newest[console.uid] = n
        self._queue.put((console.uid, console.boot, msg, time.monotonic(), n))
        self._start()

    def _stale(self, uid: str, msg: dict, n: int) -> bool:
        """A `hint?` a newer one of the same console is waiting behind."""
        with self._lock:
            return msg.get("t") == "hint?" and self._newest.get(uid, n) != n

    def warm(self) -> None:
        """A game begun with hints on or the PC's seats: the coach loaded now (~0.5 s), not at the
        first request."""
        self._queue.put(())
        self._start()

    def _start(self) -> None:
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="host-coach", daemon=True)
                self._thread.start()

    def stop(self) -> None:
        with self._lock:
            thread = self._thread
        if thread is not None:
            self._queue.put(None)
            thread.join(timeout=5)

    def _run(self) -> None:
        owner = self.owner
        store = None
        try:
            while True:
                item = self._queue.get()
                if item is None:
                    return
                if not item:
                    _warm()
                    continue
                uid, boot, msg, asked, n = item
                if self._stale(uid, msg, n):
                    continue
                try:
                    if store is None:
                        store = Store(owner.db_path, timeout=5.0)
                    if msg["t"] == "bot?":
                        out = bot_frame(store, uid, boot, msg["g"], msg["s"], msg["p"], asked)
                    else:
                        out = frames.hint(msg["g"], hint_text(store, uid, boot, msg["g"], msg["s"], asked))
                except Exception as exc:   # a help: what goes wrong is a note, never the link's end
                    owner.on_note(f"the PC's {'move' if msg['t'] == 'bot?' else 'hint'} failed ({exc!r}); "
                                  "the link goes on")
                    out = (frames.bot(msg["g"], msg["p"], None, f"P{msg['p'] + 1}: the PC failed (see its log)")
                           if msg["t"] == "bot?" else frames.hint(msg["g"], "no hint: the PC failed (see its log)"))
                link = owner.link
                if link is None:
                    continue
                try:
                    link.send(out)
                    owner.sent_answers += 1
                except (serial.SerialException, OSError):
                    pass       # the console went away; the link thread says so
        finally:
            if store is not None:
                store.close()


def _warm() -> None:
    """What an answer needs loaded and made once: the coach and a first search (its caches)."""
    data = {"format": FORMAT, "edition": "city", "players": ["P1", "P2"], "start": [2, 2, 1, 1, 2],
            "rounds": [{"roll": {"column": 2, "white": [1, 3, 4]}}]}
    try:
        rec, game = read_record(data, "the hints' warm-up")
        state = game.replay(rec).state
        analysis.decide(state, state.current_player(), budget_s=0.05)
    except Exception:        # a warm-up: the first request then does it
        pass


@dataclass
class _Turn:
    """The game to move in, as the PC stores it: its state (None: `why` there is none)."""
    state: Any = None
    why: str = ""
    yet: bool = False       # the PC has not yet stored what the console had made


def _turn(store: Store, uid: str, boot: int, g: int, s: int, asked: float, wait_s: float = HINT_WAIT_S) -> _Turn:
    """Game `g` of console `uid`'s `boot` replayed once the PC holds the console's event `s`
    (waited for up to `wait_s` from `asked`), at a dice turn; or why not (the hint's words)."""
    while store.next_seq(uid, boot) <= s:
        if time.monotonic() - asked >= wait_s:
            return _Turn(why="the PC is still taking the moves", yet=True)
        time.sleep(0.02)
    log = store.game_log_of(uid, boot, g)
    if not log.events:
        return _Turn(why="the PC has not this game")
    try:
        data = to_record(log)
        rec, game = read_record(data, log.label())
    except (ConsoleLogError, DoodleboxError) as exc:
        return _Turn(why=str(exc).rsplit(": ", 1)[-1])
    if game.edition == "puzzle":
        return _Turn(why="a drawing game has no moves to value")
    state = game.replay(rec).state
    if not isinstance(state, dice.State):
        return _Turn(why=f"{game.name} is outside the coach")
    if state.is_terminal():
        return _Turn(why="the game is over")
    if state.is_chance_node():
        return _Turn(why="ROLL first")
    return _Turn(state)


def _best(state: Any, asked: float, budget_s: float) -> Any:
    left = budget_s - (time.monotonic() - asked)
    return analysis.decide(state, state.current_player(), budget_s=max(HINT_LEAST_S, left)).best


def hint_text(store: Store, uid: str, boot: int, g: int, s: int, asked: float | None = None,
              budget_s: float = HINT_BUDGET_S) -> str:
    """The hint for game `g` of console `uid`'s `boot` as the console's panel shows it (at most
    two lines of 23 characters): "Hint: D2 row 5 col 2: piece D4, circle 4", or why there is
    none. `s`: the console's last event when it asked (waited for up to HINT_WAIT_S from `asked`)."""
    asked = time.monotonic() if asked is None else asked
    turn = _turn(store, uid, boot, g, s, asked)
    if turn.state is None:
        return ("no hint yet: " if turn.yet else "no hint: ") + turn.why
    best = _best(turn.state, asked, budget_s)
    return "Hint: " + move_hint(turn.state, best.action, best.circle)


def bot_frame(store: Store, uid: str, boot: int, g: int, s: int, p: int, asked: float | None = None,
              budget_s: float = BOT_BUDGET_S) -> dict:
    """The PC's `bot` for seat `p` of game `g` (docs/protocol.md): its move in the console's terms
    (`m`: [die, row, col, the piece's legend face (0: a floor, or none), the value circled (0:
    none to choose)], [] to cross out a tree) and the panel's text ("P2 (PC): D2 row 5 col 2:
    piece D4, circle 4"); without `m`, why it does not play (the table then enters the turn)."""
    asked = time.monotonic() if asked is None else asked
    turn = _turn(store, uid, boot, g, s, asked, BOT_WAIT_S)
    who = f"P{p + 1}"
    if turn.state is None:
        return frames.bot(g, p, None, f"{who}: no move from the PC: {turn.why}")
    state = turn.state
    if state.current_player() != p:
        return frames.bot(g, p, None, f"{who}: not its turn on the PC")
    best = _best(state, time.monotonic(), budget_s)      # (its whole budget after the wait)
    return frames.bot(g, p, console_move(state, best.action, best.circle),
                      f"{who} (PC): " + move_hint(state, best.action, best.circle))


def console_move(state: Any, action: Any, circle: int | None = None) -> list[int]:
    """A dice move as the console enters it (firmware/doodle/app_seats.py): [die, row, col, face,
    value], [] for a tree."""
    if action.kind == "pass":
        return []
    face = 0
    if action.kind not in ("house", "floor"):
        face = legend_face(state.game.layout, action.piece)
        if not face:
            raise ValueError(f"the piece {action.piece!r} is not on the sheet's legend")
    return [action.die, action.row, action.col, face, circle or 0]


def legend_face(lay: Any, piece: Any) -> int:
    """The face of the sheet's legend (its button D1..D6) that draws `piece`; 0 if none does."""
    return next((f for f, p in sorted(lay.legend.items()) if p == piece), 0)


def move_hint(state: Any, action: Any, circle: int | None = None) -> str:
    """A dice move as the console's buttons enter it: the die's button, the square, then the
    piece's legend face (its button), the floor (D0) or the house; and the value to circle."""
    lay = state.game.layout
    if action.kind == "pass":
        return f"PASS, cross out a {lay.word('tree')}"
    where = f"D{action.die} row {action.row} col {action.col}:"
    if action.kind == "house":
        what = f"cross a {lay.word('house')}"
    elif action.kind == "floor":
        what = "D0, a floor"
    else:
        face = legend_face(lay, action.piece)
        what = f"piece D{face}" if face else f"piece {action.piece}"
    return f"{where} {what}" + (f", circle {circle}" if circle is not None else "")
