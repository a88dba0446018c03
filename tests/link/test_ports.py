"""The console found by who it is, not where it was (issue 18): a Pico by its USB VID/PID and
serial number (serial.tools.list_ports, faked here), whatever device name it comes back on; a
console without one (a pty: the virtual console, a --port) by its hello's uid; another console
plugged in told once and not followed."""
from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
from fakeconsole import FakeConsole
from logger_rig import Stream
from usb_ports import SERIAL, Listed, pico

from doodlebox.link.ports import Follow, UsbPort, find_picos
from doodlebox.logger.link_thread import LOOK_EVERY, LinkThread

pytestmark = pytest.mark.slow      # (tests/conftest.py: the quick tier)


def test_a_pico_is_a_micropython_board_by_its_usb_ids():
    listed = Listed(pico("/dev/ttyACM0"), UsbPort("/dev/ttyUSB0", 0x0403, 0x6001, "FT1"),
                    pico("/dev/ttyACM3", pid=0x0003), UsbPort("/dev/ttyS0", None, None, None))
    assert [p.device for p in find_picos(listed)] == ["/dev/ttyACM0"]


def test_a_pico_is_followed_by_its_serial_number_to_any_device_name():
    listed = Listed(pico("/dev/ttyACM0"))
    follow = Follow("/dev/ttyACM0", serial=SERIAL, listed=listed)
    assert follow.by == "serial" and follow.where() == "/dev/ttyACM0"
    listed.ports = []                                       # pulled
    assert follow.where() is None
    listed.ports = [pico("/dev/ttyACM1", "E66138935F4D2E2A"), pico("/dev/ttyACM2")]   # another Pico came first
    assert follow.where() == "/dev/ttyACM2" and follow.path == "/dev/ttyACM2"
    follow.uid = "e6614c311b2c4a2f"
    assert follow.expect_uid() is None        # the board is it, whatever its uid (a wiped flash: a new one)


def test_a_port_given_is_looked_up_for_its_serial_number(tmp_path):
    dev = tmp_path / "ttyACM0"
    dev.touch()
    link = tmp_path / "doodlebox"
    link.symlink_to(dev)
    follow = Follow(str(link), listed=Listed(pico(str(dev))))
    assert follow.serial == SERIAL and follow.by == "serial"
    follow = Follow(str(tmp_path / "pts-7"), listed=Listed(pico(str(dev))))   # no USB device: its hello's uid
    assert follow.serial is None and follow.by == "uid" and follow.where() is None
    follow.uid = "fa1ce0"
    assert follow.expect_uid() == "fa1ce0"


def test_the_virtual_console_is_found_where_it_is_now():
    now = {"pty": "/dev/pts/3"}
    follow = Follow("/dev/pts/3", locate=lambda: now["pty"], listed=Listed())
    now["pty"] = "/dev/pts/9"
    assert follow.where() == "/dev/pts/9" and follow.by == "uid"


def test_another_pico_is_told_of_once_while_it_stays_plugged_in():
    listed = Listed(pico("/dev/ttyACM0"))
    follow = Follow("/dev/ttyACM0", serial=SERIAL, listed=listed)
    assert follow.others() == []
    other = pico("/dev/ttyACM1", "E66138935F4D2E2A")
    listed.ports.append(other)
    assert follow.others() == [other] and follow.others() == []
    listed.ports.remove(other)
    assert follow.others() == []
    listed.ports.append(other)                       # plugged in again: told again
    assert follow.others() == [other]


def test_a_port_list_that_fails_is_nothing_attached():
    def broken() -> list[UsbPort]:
        raise OSError("no /sys")

    follow = Follow("/dev/ttyACM0", serial=SERIAL, listed=broken)
    assert follow.where() is None and follow.others() == []


# -- end to end: the shipped link thread, a console on a pty -------------------------------------------
def _linked(tmp_path: Path, console: FakeConsole, follow: Follow) -> tuple[LinkThread, list[str]]:
    notes: list[str] = []
    link = LinkThread(console.path, tmp_path / "g.sqlite3", on_note=notes.append, handshake_timeout=10,
                      follow=follow).start()
    assert console.run_until(lambda: link.wait_ready(0), 15) and link.error is None
    return link, notes


def test_a_console_back_on_a_new_pty_is_followed_and_nothing_is_lost(tmp_path):
    console = FakeConsole(uid="fa1ce0")
    other = FakeConsole(uid="5ec0d0")
    listed = Listed(pico(console.path))
    link, notes = _linked(tmp_path, console, Follow(console.path, serial=SERIAL, listed=listed))
    stream = Stream(console, random.Random(3))
    try:
        for _ in range(2):
            stream.run(0.3)
            old = console.path
            console.pull()
            listed.ports = [pico(other.path, "E66138935F4D2E2A")]     # another console plugged in meanwhile
            stream.run(0.5)
            console.plug()
            assert console.path != old
            listed.ports = [pico(other.path, "E66138935F4D2E2A"), pico(console.path)]
            assert console.run_until(lambda: f"console fa1ce0 back on {console.path}" in notes, 15), notes
        assert stream.finish(30)
        told = [n for n in notes if n.startswith("another console on")]
        assert told == [f"another console on {other.path} (USB serial E66138935F4D2E2A): not followed (this doodlebox "
                        f"log follows USB serial {SERIAL}; `doodlebox log --port {other.path}` would log it)"]
    finally:
        link.stop()
        console.pull()
        other.pull()
    assert not other.got_hi                                     # never opened
    got = console.check(tmp_path / "g.sqlite3")
    assert (got["lost"], got["duplicated"], got["wrong"]) == (0, 0, 0) and got["made"] > 100
    assert console.acked_not_stored(tmp_path / "g.sqlite3") == 0


def test_another_console_on_the_port_of_a_console_known_by_its_uid_is_not_followed(tmp_path):
    path = tmp_path / "ttyDOODLE"
    console = FakeConsole(path, uid="fa1ce0")
    link, notes = _linked(tmp_path, console, Follow(str(path), listed=Listed()))
    stranger = None
    try:
        console.pull()
        stranger = FakeConsole(path, uid="5ec0d0")
        stranger.add({"k": "game", "g": 1, "ed": "city", "n": 2, "var": ""})
        said = f"another console, 5ec0d0, on {path}: not followed (this doodlebox log follows console fa1ce0; " \
               "nothing of it is stored)"
        assert stranger.run_until(lambda: said in notes, 15), notes
        assert stranger.run_until(lambda: False, 1.5) is False and notes.count(said) == 1   # said once
        stranger.pull()
        console.plug()
        console.add({"k": "game", "g": 1, "ed": "city", "n": 3, "var": ""})
        back = f"console fa1ce0 back on {path}"    # said once the handshake is over: its events may be acked first
        assert console.run_until(lambda: console.all_acked() and back in notes, 15), notes
    finally:
        link.stop()
        console.pull()
        if stranger is not None:
            stranger.pull()
    assert stranger.acks == [] and stranger.rows(tmp_path / "g.sqlite3") == {}
    assert console.check(tmp_path / "g.sqlite3")["lost"] == 0


def held(device: str) -> bool:
    """Whether a file descriptor of this process is open on `device` (a /dev/pts/N)."""
    for fd in os.listdir("/proc/self/fd"):
        try:
            if os.readlink(f"/proc/self/fd/{fd}") == device:
                return True
        except OSError:
            pass
    return False


def test_a_logger_waiting_for_a_console_gone_never_greets_the_next_console_opened(tmp_path):
    """The kernel hands a closed /dev/pts/N to the next pty opened. A logger following a console
    that went away by its port (a --port that is no USB device) looked for it at that number
    and greeted and held whatever console came there next: in the same test run, or in another
    program (`make demo`: "/dev/pts/2 is busy"; the self-test test: a hello it never asked for).
    A pty's port is a name of its own (PtyPort.path, a link removed when it closes)."""
    gone = FakeConsole(uid="fa1ce0")
    link, notes = _linked(tmp_path, gone, Follow(gone.path, listed=Listed()))
    old, device = gone.path, gone.pty.device
    nxt = None
    try:
        gone.pull()
        assert gone.run_until(lambda: any(n.startswith("the console went away") for n in notes), 10), notes
        # the logger has let the old port go: nothing here holds its pty, whose number is free again
        assert gone.run_until(lambda: not held(device), 10 * LOOK_EVERY)
        nxt = FakeConsole(uid="5ec0d0")                     # the next console opened on this machine
        assert nxt.path != old and not Path(old).exists()
        assert nxt.run_until(lambda: nxt.got_hi, 3) is False   # the logger keeps looking for its own
    finally:
        link.stop()
        if nxt is not None:
            nxt.pull()
    assert not nxt.got_hi and nxt.acks == []
