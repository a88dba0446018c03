"""Runs a HostLink on a port in a thread, with reconnects, and hands events to a queue; the PC's
verdict on each game (logger/verdicts.py) is worked out in a thread of its own and goes to the console
as `score`, so validation never holds up an acknowledgement.

The link never dies silently: a port that goes away is waited for, the console found again by
who it is, not where it was (ports.Follow: its USB serial number, or its hello's uid), under
any device name, and said when it is back; another console plugged in is said once and not
followed. The database locked or full is retried by the session; anything else that goes
wrong is a note and a new session, and when it keeps going wrong (or the database cannot be
used at all: read-only, deleted or replaced under it) `error` says so in one line and the
thread ends (`doodlebox log` exits with it). Every console one `doodlebox log` follows has a
LinkThread of its own (logger/club.py)."""
from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable

import serial

from doodlebox.history.console_record import ConsoleLogError
from doodlebox.link.describe import NAMED, Stored
from doodlebox.link.ports import Follow, open_port
from doodlebox.link.session import RETRY_FIRST, RETRY_MAX, Console, HostLink, LinkError, OtherConsole
from doodlebox.logger.answers import Coach
from doodlebox.logger.sheets import Courier
from doodlebox.logger.verdicts import SCORED, LiveGames, Verdict
from doodlebox.store import Store, StoreError
from doodlebox.store.postgres import PgConnection

STORE_TIMEOUT = 0.5     # s: SQLite's own wait for a lock, before the session's retries take over
FAILURES_MAX = 3        # unexpected failures within FAILURES_WINDOW s: the link gives up ...
FAILURES_WINDOW = 60.0  # ... with one line, instead of trying again
BURST_GAP = 0.1         # s: a game whose events come faster than validation is validated this often
LOOK_EVERY = 1.0        # s: while the console is away, where it is looked for this often
OTHERS_EVERY = 2.0      # s: while connected, the ports listed this often for another console


class LinkThread:
    """`events` gets every event stored; then its game's verdict (livegame.Verdict), if any, goes
    to `on_verdict` (called in the validation thread) and as `score` to the console. Notes (the
    console went away, a game the PC cannot score) go to `on_note`. `error` is set, once, when
    the link has stopped for good (the thread has ended)."""
    def __init__(self, port_path: str, db_path, on_note=print, handshake_timeout: float = 10.0,
                 on_verdict: Callable[[Verdict], None] | None = None, follow: Follow | None = None,
                 others: bool = True):
        """`follow`: the console followed (default: the one at `port_path`, known by its USB
        serial number when the ports listed give it one, else by its first hello's uid).
        `others`: another Pico plugged in is told of (not when a Club follows every one)."""
        self.port_path = port_path
        self.follow = follow if follow is not None else Follow(port_path)
        self.db_path = db_path
        self.on_note = on_note
        self.on_verdict = on_verdict
        self.handshake_timeout = handshake_timeout
        self.events: queue.Queue = queue.Queue()
        self.sent_scores = 0
        self.error: str | None = None
        self.link: HostLink | None = None
        self.failures: list[float] = []
        self.sessions = 0                      # handshakes made
        self.tell_others = others
        self._other_uids: set[tuple[str, str | None]] = set()   # (uid, path) of other consoles told of
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, name="host-link", daemon=True)
        self._checker = _Checker(self)
        self._coach = Coach(self)      # the console's hint? and bot? (logger/answers.py)
        self.courier = Courier(on_note)  # the table's sheets sent to the console (logger/sheets.py)
        self.sent_answers = 0          # the coach's answers sent: hints and the PC's seats' moves

    def start(self) -> LinkThread:
        self._thread.start()
        return self

    def wait_ready(self, timeout: float) -> bool:
        return self._ready.wait(timeout)

    @property
    def alive(self) -> bool:
        return self._thread.is_alive()

    def stop(self, wait: bool = True) -> None:
        """Stops the link; without `wait` only asks it to (a Club stopping all its links at once)."""
        self._stop.set()
        if not wait:
            return
        self._thread.join(timeout=5)
        self._checker.stop()
        self._coach.stop()

    def _fail(self, text: str) -> None:
        if self.error is None:
            self.error = text
        self._ready.set()

    def _run(self) -> None:
        try:
            self._main()
        except BaseException as exc:   # never a silent end: whatever it was, `error` says it
            self._fail(f"the link stopped: {exc!r} (every event acknowledged is stored)")
        finally:
            if not self._stop.is_set() and self.error is None:
                self._fail("the link stopped without a reason (a bug in doodlebox)")

    def _main(self) -> None:
        try:
            port = open_port(self.port_path)   # first the port: a wrong port creates no database
        except OSError as exc:
            self._fail(str(exc))
            return
        store = self._open_store()
        if store is None:
            port.close()
            return
        if isinstance(store.db, PgConnection):
            store.db.on_note = self.on_note     # a server that stops answering, said (store/postgres.py)
        self._checker.start()
        path: str | None = self.port_path
        try:
            while not self._stop.is_set():
                if port is None:
                    self._others()
                    path = self.follow.where()
                    try:
                        if path is None:
                            raise OSError("not attached")
                        port = open_port(path)
                    except OSError:
                        self._stop.wait(LOOK_EVERY)  # unplugged: wait for it to come back
                        continue
                try:
                    self._session(port, store, str(path))
                except (serial.SerialException, OSError) as exc:
                    if self._stop.is_set():     # stopping (Ctrl-C): the console switched off after it is
                        break                   # no news, and nothing is waited for
                    self.on_note(f"the console went away ({exc}); every acknowledged event is stored. "
                                 f"Waiting for it ({self._known_by()}, on any port)...")
                    self._stop.wait(LOOK_EVERY)
                except OtherConsole as exc:
                    if (exc.uid, path) not in self._other_uids:
                        self._other_uids.add((exc.uid, path))
                        self.on_note(f"another console, {exc.uid}, on {path}: not followed (this doodlebox log "
                                     f"follows console {self.follow.uid}; nothing of it is stored)")
                    self._stop.wait(LOOK_EVERY)
                except LinkError as exc:
                    self._fail(str(exc))
                    return
                except StoreError as exc:     # not locked or full (the session waits for those)
                    self._fail(str(exc))
                    return
                except Exception as exc:     # a bug: said, and a new session; again and again: the end
                    now = time.monotonic()
                    self.failures = [t for t in self.failures if now - t < FAILURES_WINDOW] + [now]
                    if len(self.failures) >= FAILURES_MAX:
                        self._fail(f"the link failed {len(self.failures)} times in {FAILURES_WINDOW:.0f} s, last: "
                                   f"{exc!r} (every event acknowledged is stored)")
                        return
                    self.on_note(f"the link failed ({exc!r}); every event acknowledged is stored; starting again")
                    time.sleep(0.2)
                finally:
                    try:
                        port.close()
                    except Exception:
                        pass
                    port = None
        finally:
            store.close()

    def _known_by(self) -> str:
        f = self.follow
        return f"USB serial {f.serial}" if f.serial else f"console {f.uid}" if f.uid else "the console"

    def _others(self) -> None:
        """Another Pico plugged in: said once, not followed (one console per doodlebox log)."""
        if not self.tell_others:
            return
        for other in self.follow.others():
            self.on_note(f"another console on {other.label()}: not followed (this doodlebox log follows "
                         f"{self._known_by()}; `doodlebox log --port {other.device}` would log it)")

    def _open_store(self) -> Store | None:
        """The database, waited for (with back-off) while another program has it locked."""
        wait, said = RETRY_FIRST, False
        while True:
            try:
                return Store(self.db_path, timeout=STORE_TIMEOUT)
            except StoreError as exc:
                if not exc.transient:
                    self._fail(str(exc))
                    return None
                if not said:
                    self.on_note(f"{exc}; retrying")
                    said = True
            if self._stop.wait(wait):
                return None
            wait = min(wait * 2, RETRY_MAX)

    def _session(self, port, store: Store, path: str) -> None:
        follow = self.follow
        self.link = HostLink(port, store, on_event=self._stored, on_note=self.on_note, stopping=self._stop.is_set,
                             expect_uid=follow.expect_uid(), on_ask=self._coach.add, on_sheets=self.courier.on_sheets)
        self.courier.begin(self.link)
        console = self.link.handshake(self.handshake_timeout)
        self.courier.hello(console)
        if self.sessions and follow.uid == console.uid:
            self.on_note(f"console {console.uid} back on {path}")
        elif self.sessions:
            self.on_note(f"console {console.uid} on {path}: the same board (USB serial {follow.serial}) with a new "
                         f"uid, was {follow.uid} (its flash was wiped?); followed")
        follow.uid = console.uid
        self.sessions += 1
        self._ready.set()
        looked = time.monotonic() - OTHERS_EVERY     # the first look at once
        while not self._stop.is_set():
            self.link.poll()     # waits up to the port's timeout for a byte, no longer
            self.courier.tick()
            if time.monotonic() - looked >= OTHERS_EVERY:
                looked = time.monotonic()
                self._others()

    def _stored(self, console: Console, boot: int, seq: int, event: dict) -> None:
        """After an event is committed and acknowledged: the event to `events`; its game to the
        validation thread. An event whose line names its game (live.NAMED) goes as a live.Stored,
        with the store's number of its game (`doodlebox games`'), not only the console's own."""
        link, shown = self.link, event
        try:
            if link is not None:
                shown = numbered(link.store, console.uid, boot, event)
        except Exception:      # the printout's numbers are a help: never a reason to stop the link
            shown = event
        self.events.put(shown)
        if event.get("k") == "game":
            self.courier.game(event)      # a game on a table's sheet: the sheet in the store first
        if event.get("k") == "game" and (event.get("hint") == 1 or event.get("bots")):
            self._coach.warm()            # the table may ask for hints or moves: the coach loaded now
        if event.get("k") in SCORED:
            self._checker.add(console.uid, boot, seq, event)

    def _verdict(self, uid: str, boot: int, seq: int, event: dict, live: LiveGames) -> None:
        """The PC's verdict on the game of `event` (in the validation thread), to `on_verdict` and,
        when the game is of the console's current boot, to the console. Validation never stops
        the link: what goes wrong in it is a note."""
        try:
            verdict = live.stored(uid, boot, event, seq)
        except ConsoleLogError as exc:
            self.on_note(f"{exc}; the PC cannot score this game")
            return
        except Exception as exc:   # a bug in validation: reported, and the link goes on
            self.on_note(f"the PC's validation failed after event {seq} of boot {boot} ({exc!r}); "
                         "the event is stored, the link goes on")
            return
        if verdict is None:
            return
        if self.on_verdict is not None:
            try:
                self.on_verdict(verdict)
            except Exception as exc:
                self.on_note(f"showing the PC's verdict failed ({exc!r})")
        link = self.link
        if link is not None and link.console is not None and boot == link.console.boot:
            try:
                link.send(verdict.message)
                self.sent_scores += 1
            except (serial.SerialException, OSError):
                pass      # the console went away; the link thread says so


def numbered(store: Store, uid: str, boot: int, event: dict) -> dict:
    """`event` (stored by console `uid` in `boot`) as a live.Stored with the store's number of
    its game, and of the game a `resume` goes on with, when it names its game (live.NAMED);
    other events as they are. A number the store cannot give is left out (the line then
    names the console's number alone): printing never stops the link."""
    if event.get("k") not in NAMED:
        return event
    out = Stored(event)
    out.boot = boot
    out.game = _game_id(store, uid, boot, event.get("g"))
    of = event.get("of")
    if event.get("k") == "resume" and isinstance(of, list) and len(of) == 2:
        out.resumes = _game_id(store, uid, of[0], of[1])
    return out


def _game_id(store: Store, uid: str, boot: object, g: object) -> int | None:
    """The store's number (games.id) of game `g` of console `uid`'s `boot`, or None."""
    if type(boot) is not int or type(g) is not int:
        return None
    try:
        row = store.db.execute("SELECT id FROM games WHERE uid=? AND boot=? AND g=?", (uid, boot, g)).fetchone()
    except Exception:       # a locked or damaged database: the line names the console's number
        return None
    return row[0] if row and type(row[0]) is int else None


class _Checker:
    """The validation thread. Each game's latest event waits to be validated (the verdict after
    it counts every turn before it): at the table's pace that is every turn; when events of a
    game come faster than it validates (a console sending what it held), the ones in between
    are left out, and that game is validated at most every BURST_GAP s, so validation never
    takes the link's time."""
    def __init__(self, owner: LinkThread):
        self.owner = owner
        self._waiting: dict[tuple, tuple] = {}       # game -> its latest event not validated yet
        self._burst: set[tuple] = set()              # games with an event left out since validated
        self._last: dict[tuple, float] = {}          # game -> when it was validated last
        self._cond = threading.Condition()
        self._stop = False
        self._thread = threading.Thread(target=self._run, name="host-validation", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        with self._cond:
            self._stop = True
            self._cond.notify()
        if self._thread.is_alive():
            self._thread.join(timeout=5)

    def add(self, uid: str, boot: int, seq: int, event: dict) -> None:
        key = (uid, boot, event.get("g"))
        with self._cond:
            if key in self._waiting:
                self._burst.add(key)
            self._waiting[key] = (uid, boot, seq, event)
            self._cond.notify()

    def _next(self):
        with self._cond:
            while not self._stop:
                now = time.monotonic()
                soonest = None
                for key in self._waiting:      # oldest waiting first
                    ready = self._last.get(key, 0.0) + BURST_GAP if key in self._burst else now
                    if ready <= now:
                        self._burst.discard(key)
                        self._last[key] = now
                        return self._waiting.pop(key)
                    soonest = ready if soonest is None else min(soonest, ready)
                self._cond.wait(None if soonest is None else soonest - now)
            return None

    def _run(self) -> None:
        owner = self.owner
        try:
            store = Store(owner.db_path, timeout=5.0)
        except StoreError as exc:
            owner.on_note(f"the PC cannot validate games: {exc}")
            return
        live = LiveGames(store)
        try:
            while True:
                item = self._next()
                if item is None:
                    return
                uid, boot, seq, event = item
                try:
                    owner._verdict(uid, boot, seq, event, live)
                except Exception as exc:    # the store unreadable, ...: said, and the next game
                    owner.on_note(f"the PC's validation failed ({exc!r}); the link goes on")
        finally:
            store.close()
