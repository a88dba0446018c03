"""Every console one `doodlebox log` follows (a Club): a LinkThread each (logger/link_thread.py),
all on the one database (each thread with its Store connection of its own), each console's lines
labelled by its name, and (ports.Watch) a Pico plugged in while it logs followed too."""
from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable

from doodlebox import versions
from doodlebox.errors import DoodleboxError
from doodlebox.link.ports import Follow, UsbPort, Watch
from doodlebox.logger.link_thread import LOOK_EVERY, LinkThread


class Followed:
    """One console of a Club: its `name` (its lines' label), its LinkThread, and the Pico's port
    as first found (`pico`) or its virtual console (`vc`)."""

    def __init__(self, name: str, pico: UsbPort | None = None, vc=None):
        self.name, self.pico, self.vc = name, pico, vc
        self.link: LinkThread | None = None
        self.printer: threading.Thread | None = None
        self.connected = False          # its `connected:` line said (then its events are printed)
        self.over = False               # its link ended, or its virtual console stopped
        self.error: str | None = None   # why it ended, when that is a failure


class Club:
    """Every console one `doodlebox log` follows. `say` prints one line (from any thread);
    `show(item)` gives the lines an event or a verdict (LinkThread.events) prints as. While one
    console is followed its lines are as they always were; from the second one on, each line
    begins with its console's `[name]`. With `watch` (ports.Watch) every Pico attached is
    followed: `poll()` adds the ones plugged in since it last looked, and a link of a Pico
    known by its USB serial number follows it itself when it is pulled and plugged in again."""

    def __init__(self, db_path, say: Callable[[str], None], show: Callable[[object], list[str]],
                 handshake_timeout: float = 10.0, watch: Watch | None = None):
        self.db_path, self.say, self.show = db_path, say, show
        self.handshake_timeout = handshake_timeout
        self.watch = watch
        self.consoles: list[Followed] = []
        self.many = False
        self._looked = time.monotonic()
        self._stop = threading.Event()
        self._printout_failed = False

    # -- who is followed ---------------------------------------------------------------------
    def line(self, c: Followed | None, text: str) -> None:
        self.say(f"[{c.name}] {text}" if self.many and c is not None else text)

    def add(self, port_path: str, follow: Follow, name: str, pico: UsbPort | None = None, vc=None) -> Followed:
        """Follow the console on `port_path` too (its link started now)."""
        taken = {c.name for c in self.consoles if not c.over}
        unique, k = name, 2
        while unique in taken:
            unique, k = f"{name}~{k}", k + 1
        c = Followed(unique, pico, vc)
        if len(self.consoles) == 1 and not self.many:      # a second console plugged in
            self.many = True
            first = self.consoles[0]
            self.say(f"several consoles: each line begins with its console's name ([{first.name}] until now "
                     f"unnamed, [{c.name}] the new one)")
        self.consoles.append(c)
        link = LinkThread(port_path, self.db_path, on_note=lambda t: self.line(c, f"  note: {t}"),
                          handshake_timeout=self.handshake_timeout, follow=follow,
                          on_verdict=lambda v: link.events.put(v),       # printed after its event
                          others=self.watch is None)
        c.link = link
        link.start()
        return c

    def add_pico(self, port: UsbPort, later: bool = False) -> Followed:
        """A Pico found on USB, known by its serial number (its name: the serial's last four
        digits, which the console's uid has too)."""
        if self.watch is not None:
            self.watch.take(port)
            follow = Follow(port.device, serial=port.serial, listed=self.watch.ports)
        else:
            follow = Follow(port.device, serial=port.serial)
        name = port.serial[-4:].lower() if port.serial else port.device.rsplit("/", 1)[-1]
        if later:
            self.say(f"console: Pico on {port.label()} plugged in: followed too")
        return self.add(port.device, follow, name, pico=port)

    # -- running -----------------------------------------------------------------------------
    def wait_ready(self, timeout: float) -> None:
        """The consoles added so far answered within `timeout` s (together), each said as
        connected; raises DoodleboxError when none of them did (one console: when it did not)."""
        end = time.monotonic() + timeout
        for c in self.consoles:
            assert c.link is not None
            c.link.wait_ready(max(0.0, end - time.monotonic()))
        failed = [c for c in self.consoles if not self._answered(c)]
        if self.consoles and len(failed) == len(self.consoles):
            link = failed[0].link
            assert link is not None
            raise DoodleboxError(link.error or "the console did not answer")
        for c in self.consoles:
            if c in failed:
                assert c.link is not None
                if c.link.error:
                    self._over(c, c.link.error)
            else:
                self._connected(c)

    @staticmethod
    def _answered(c: Followed) -> bool:
        link = c.link
        return link is not None and link.wait_ready(0) and link.error is None and link.link is not None

    def _connected(self, c: Followed) -> None:
        assert c.link is not None and c.link.link is not None
        c.connected = True
        console = c.link.link.console
        if console is not None:
            self.line(c, f"connected: console {console.uid}, firmware {console.fw}, boot {console.boot}")
            try:
                update = versions.compare(console.fw, console.uid)    # which side to update, if either
            except DoodleboxError:
                update = None     # the firmware this doodlebox carries cannot be read: nothing to compare
            if update:
                self.line(c, f"  note: {update}")
        c.printer = threading.Thread(target=self._printout, args=(c,), name=f"printer-{c.name}", daemon=True)
        c.printer.start()

    def _over(self, c: Followed, error: str | None, said: str | None = None) -> None:
        c.over, c.error = True, error
        if self.running():          # the others go on: said here (the last one's end is log's)
            self.line(c, f"stopped: {said or error}")
        if c.pico is not None and self.watch is not None:
            self.watch.forget(c.pico)    # new again once it was unplugged

    def poll(self) -> None:
        """Picos plugged in since the last look (every LOOK_EVERY s), consoles connected or
        ended since the last poll: followed and said."""
        if self.watch is not None and time.monotonic() - self._looked >= LOOK_EVERY:
            self._looked = time.monotonic()
            for port in self.watch.look():
                self.add_pico(port, later=True)
        for c in self.consoles:
            link = c.link
            if c.over or link is None:
                continue
            if not c.connected and self._answered(c):
                self._connected(c)
            if link.error or not link.alive:
                self._over(c, link.error or "the link stopped without a reason (a bug in doodlebox)")
            elif c.vc is not None and not c.vc.running:
                self._over(c, None, said="the virtual console stopped" + (f": {c.vc.error}" if c.vc.error else ""))

    def running(self) -> bool:
        """Whether a console is still followed (or, watching for Picos, none was yet) and the
        printout goes on."""
        if self._printout_failed:
            return False
        return any(not c.over for c in self.consoles) or (self.watch is not None and not self.consoles)

    def end_error(self) -> str | None:
        """Why logging ended, when it ended on its own: the last console's failure, a printout
        that stopped; None when it ended well (a virtual console switched off)."""
        if self._printout_failed:
            return "the printout stopped (a bug in doodlebox); every acknowledged event is stored"
        ended = [c for c in self.consoles if c.over]
        return ended[-1].error if ended and not any(not c.over for c in self.consoles) else None

    def _printout(self, c: Followed) -> None:
        """Prints each event stored and each verdict of `c`, in order; a line it cannot make is a
        note. When stopping, what is queued is printed first."""
        link = c.link
        assert link is not None
        try:
            while not (self._stop.is_set() and link.events.empty()):
                try:
                    e = link.events.get(timeout=0.2)
                except queue.Empty:
                    continue
                try:
                    lines = self.show(e)
                except Exception as exc:
                    lines = [f"  note: an event could not be printed ({exc!r}); it is stored"]
                for text in lines:
                    self.line(c, text)
        except BaseException:        # stdout gone (BrokenPipeError): logging ends
            self._printout_failed = True

    def stop(self, switched_off: Callable[[object], None] = lambda vc: None) -> None:
        """Every link stopped (what each read committed and acknowledged), every virtual console
        switched off (then `switched_off(vc)`), the printouts finished, and one line per
        console: what it stored."""
        for c in self.consoles:
            if c.link is not None:
                c.link.stop(wait=False)     # all at once; each stop() below then waits for its thread
        for c in self.consoles:
            if c.link is not None:
                c.link.stop()
        for c in self.consoles:
            if c.vc is not None:
                c.vc.stop()
                switched_off(c.vc)
        self._stop.set()
        for c in self.consoles:
            if c.printer is not None:
                c.printer.join(timeout=2)
        for c in self.consoles:
            if c.link is not None and c.link.link is not None:
                n = c.link.link.counts
                refused = f", {n['refused']} of them an event stored as refused" if n["refused"] else ""
                conflicts = (f"; {n['conflict']} conflict(s) kept apart, not acknowledged (another event is stored "
                             "at their place)" if n["conflict"] else "")
                self.line(c, f"stored {n['stored']} event(s); {n['duplicate']} duplicate(s) ignored; {n['bad']} bad "
                             "frame(s)" + refused + conflicts)
