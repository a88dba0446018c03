"""Runs a HostLink on a port in a thread, with reconnects, and hands events to a queue."""
from __future__ import annotations

import queue
import threading
import time

import serial

from doodlebox.link.session import HostLink, LinkError
from doodlebox.ports import open_port
from doodlebox.store import Store, StoreError


class LinkThread:
    def __init__(self, port_path: str, db_path, on_note=print, handshake_timeout: float = 10.0):
        self.port_path = port_path
        self.db_path = db_path
        self.on_note = on_note
        self.handshake_timeout = handshake_timeout
        self.events: queue.Queue = queue.Queue()
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
                    self.link = HostLink(port, store, on_event=lambda c, s, e: self.events.put(e), on_note=self.on_note)
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
