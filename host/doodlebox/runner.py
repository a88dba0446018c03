"""Runs a HostLink on a port in a thread, with reconnects, and hands events to a queue; after
each event stored, the PC's verdict on its game (livegame.py) goes to the console as `score`."""
from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable

import serial

from doodlebox.console_record import ConsoleLogError
from doodlebox.link.session import Console, HostLink, LinkError
from doodlebox.livegame import LiveGames, Verdict
from doodlebox.ports import open_port
from doodlebox.store import Store, StoreError


class LinkThread:
    """`events` gets every event stored; then its game's verdict (livegame.Verdict), if any, goes
    to `on_verdict` (called in the link's thread) and as `score` to the console. Notes (the
    console went away, a game the PC cannot score) go to `on_note`."""

    def __init__(self, port_path: str, db_path, on_note=print, handshake_timeout: float = 10.0,
                 on_verdict: Callable[[Verdict], None] | None = None):
        self.port_path = port_path
        self.db_path = db_path
        self.on_note = on_note
        self.on_verdict = on_verdict
        self.handshake_timeout = handshake_timeout
        self.events: queue.Queue = queue.Queue()
        self.sent_scores = 0
        self.error: str | None = None
        self.link: HostLink | None = None
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._main, name="host-link", daemon=True)

    def start(self) -> LinkThread:
        self._thread.start()
        return self

    def wait_ready(self, timeout: float) -> bool:
        return self._ready.wait(timeout)

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)

    def _main(self) -> None:
        try:
            store = Store(self.db_path)
        except StoreError as exc:
            self.error = str(exc)
            self._ready.set()
            return
        self.live = LiveGames(store)
        try:
            while not self._stop.is_set():
                try:
                    port = open_port(self.port_path)
                except OSError as exc:
                    if self.link is None:
                        self.error = str(exc)
                        self._ready.set()
                        return
                    time.sleep(1.0)  # unplugged: wait for it to come back
                    continue
                try:
                    self.link = HostLink(port, store, on_event=self._stored, on_note=self.on_note)
                    self.link.handshake(self.handshake_timeout)
                    self._ready.set()
                    while not self._stop.is_set():
                        if not self.link.poll():
                            time.sleep(0.002)
                except (serial.SerialException, OSError) as exc:
                    self.on_note(f"the console went away ({exc}); every acknowledged event is stored. "
                                 "Waiting for it...")
                    time.sleep(1.0)
                except LinkError as exc:
                    self.error = str(exc)
                    self._ready.set()
                    return
                finally:
                    port.close()
        finally:
            store.close()

    def _stored(self, console: Console, boot: int, seq: int, event: dict) -> None:
        """After an event is committed and acknowledged: the event to `events`, then the PC's
        verdict on its game to `on_verdict` and, when the game is of the console's current boot,
        to the console. Validation never stops the link: what goes wrong in it is a note."""
        verdict = None
        try:
            verdict = self.live.stored(console.uid, boot, event)
        except ConsoleLogError as exc:
            self.on_note(f"{exc}; the PC cannot score this game")
        except Exception as exc:   # a bug in validation: reported, and the link goes on
            self.on_note(f"the PC's validation failed after event {seq} of boot {boot} ({exc!r}); "
                         "the event is stored, the link goes on")
        self.events.put(event)
        if verdict is None:
            return
        if self.on_verdict is not None:
            try:
                self.on_verdict(verdict)
            except Exception as exc:
                self.on_note(f"showing the PC's verdict failed ({exc!r})")
        if boot == console.boot and self.link is not None:
            self.link.send(verdict.message)
            self.sent_scores += 1
