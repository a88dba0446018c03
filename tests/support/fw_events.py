"""The firmware's own bytes of an event: its canonical JSON as the journal writes a record's payload
(doodle/link.py put_event) and its frame as the journal sends it (event_frame), for the tests that
compare them with what a console wrote or sent. (The firmware keeps no such helper: RAM.)"""
from __future__ import annotations

from doodle import link


def payload(event: dict) -> bytes:
    """The event's canonical JSON, written by the firmware's encoder."""
    buf = bytearray(link.MAX_FRAME)
    return bytes(buf[:link.put_event(event, buf, 0)])


def frame(boot: int, s: int, event: dict) -> bytes:
    """The frame of event s of `boot`, as the journal sends it."""
    return link.event_frame(boot, s, payload(event))
