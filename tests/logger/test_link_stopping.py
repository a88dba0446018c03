"""A link that is stopping says nothing of the console going away: `demo` stopped by Ctrl-C
switches its virtual console off once the link was asked to stop (table/dice.py, its finally),
and a session still in the middle of a read (a slow machine: the 5 s join over) then met the
closed port and said "the console went away ...; Waiting for it" before "stopped" (CI, the
password sweep's demo). The console going away while the link runs is still said."""
from __future__ import annotations

import serial

from doodlebox.logger.link_thread import LinkThread
from doodlebox.virtual.pty_port import PtyPort


def _link_whose_console_goes(tmp_path, monkeypatch, stopping: bool) -> tuple[LinkThread, list[str]]:
    """A LinkThread on a real pty whose session ends with the port gone (as a closed pty reads);
    with `stopping`, the link was asked to stop first (the main thread's Ctrl-C)."""
    notes: list[str] = []
    pty = PtyPort()
    link = LinkThread(pty.path, tmp_path / "games.sqlite3", on_note=notes.append)

    def session(self, port, store, path):
        if stopping:
            self._stop.set()
        elif notes:                  # the second session: the test has seen the first note
            self._stop.set()
            return
        raise serial.SerialException("device reports readiness to read but returned no data")

    monkeypatch.setattr(LinkThread, "_session", session)
    try:
        link.start()
        link._thread.join(10)
    finally:
        link.stop()
        pty.close()
    assert not link.alive
    return link, notes


def test_a_stopping_link_does_not_say_the_console_went_away(tmp_path, monkeypatch):
    link, notes = _link_whose_console_goes(tmp_path, monkeypatch, stopping=True)
    assert notes == [] and link.error is None


def test_a_running_link_says_the_console_went_away(tmp_path, monkeypatch):
    link, notes = _link_whose_console_goes(tmp_path, monkeypatch, stopping=False)
    assert len(notes) == 1 and notes[0].startswith("the console went away (device reports"), notes
    assert link.error is None
