"""Before `doodlebox flash` replaces a console's firmware: the events it holds that the PC has not
stored are stored first (docs/install.md, "Updating the firmware"). A firmware update keeps the
console's journal (docs/journal.md), but a game is only safe once the PC has it too.

A link session on the port (link/session.py, the store's own append path) takes every event the
console sends; the console is asked `hi` again and again until its hello says it holds nothing
more. A port where nothing answers as a doodlebox console (a Pico with MicroPython alone, or a
board with no firmware yet) holds nothing to store. A console that still holds events when the
time is up is one line (HeldEvents, exit 2): nothing is flashed."""
from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from doodlebox.errors import InputError
from doodlebox.link.ports import PortError, open_port
from doodlebox.link.session import HostLink, LinkError
from doodlebox.store import Store

ANSWER_S = 3.0      # a console answers `hi` within this, or it runs no doodlebox firmware
ASK_EVERY_S = 1.0   # while it sends what it held, its hello is asked for again this often


class HeldEvents(InputError):
    """The console still holds events the PC could not store."""


def held(link: HostLink) -> int:
    """How many events the console's last hello said it holds, of every boot."""
    console = link.console
    return 0 if console is None else sum(nxt - first for first, nxt in console.held.values())


def store_held(port: str, db: Path | str, say: Callable[[str], None] = print, timeout: float = 60.0) -> int | None:
    """Store what the console on `port` holds; how many events it held (None: no doodlebox console
    answered). HeldEvents when some are still held after `timeout` seconds."""
    try:
        serial = open_port(port)
    except PortError as exc:
        raise InputError(f"{exc}: is it a Pico's serial port? Nothing flashed") from None
    store = Store(db)
    try:
        link = HostLink(serial, store, on_note=lambda text: say(f"  note: {text}"))
        try:
            link.handshake(timeout=ANSWER_S)
        except LinkError:
            return None
        first = held(link)
        if not first:
            return 0
        say(f"the console holds {first} event(s) the PC has not stored: storing them first")
        deadline = time.monotonic() + timeout
        asked = time.monotonic()
        while held(link):
            now = time.monotonic()
            if now > deadline:
                raise HeldEvents(f"{port}: the console still holds {held(link)} event(s) that could not be stored in "
                                 f"{store.path} within {timeout:g} s: nothing flashed (run `doodlebox log` until they "
                                 "are stored, then flash again)")
            link.poll()
            if now - asked >= ASK_EVERY_S:
                asked = now
                link.console = None          # its next hello says what it holds now
                link.handshake(timeout=ANSWER_S)
        say(f"stored {link.counts['stored']} event(s) in {store.path} ({link.counts['duplicate']} there already)")
        return first
    finally:
        store.close()
        serial.close()
