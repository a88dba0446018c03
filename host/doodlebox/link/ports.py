"""Finding a doodlebox, and finding it again: a Raspberry Pi Pico running MicroPython shows USB
VID 0x2E8A, PID 0x0005 and its own USB serial number (the board's unique id), whatever device
name the system gives it (a Pico plugged in again may come back as /dev/ttyACM1).

`Follow` is the console `doodlebox log` follows: known by its USB serial number when it was
found on USB (or --port names a USB device), else by the uid its first hello said (the
virtual console, a --port that is no USB device). `where()` says where it is now; `others()`
the Picos that are not it (announced, not followed, when one console is followed).

`Watch` is every Pico attached while `doodlebox log` follows them all: each new one found
once, by its USB serial number, so that one is followed per console whatever port it is on."""
from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

import serial
from serial.tools import list_ports

from doodlebox.errors import DoodleboxError

PICO_VID = 0x2E8A
PICO_PIDS = (0x0005,)      # MicroPython's rp2 port


@dataclass(frozen=True)
class UsbPort:
    device: str
    vid: int | None
    pid: int | None
    serial: str | None
    description: str = ""

    def label(self) -> str:
        return f"{self.device} (USB serial {self.serial})" if self.serial else self.device


def comports() -> list[UsbPort]:
    """Every serial port pyserial lists (serial.tools.list_ports; pseudo-terminals are never listed)."""
    return [UsbPort(p.device, p.vid, p.pid, p.serial_number, p.description or "") for p in list_ports.comports()]


def is_pico(port: UsbPort) -> bool:
    return port.vid == PICO_VID and port.pid in PICO_PIDS


def find_picos(listed: Callable[[], list[UsbPort]] = comports) -> list[UsbPort]:
    """The Picos running MicroPython attached now."""
    return [p for p in listed() if is_pico(p)]


def find_pico() -> list[str]:
    """Device paths of attached Picos."""
    return [p.device for p in find_picos()]


def _same_device(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.realpath(a) == os.path.realpath(b)


class Follow:
    """The console one `doodlebox log` follows. `path`: where it was first (found, --port, the
    virtual console's pty); `serial`: its USB serial number, when it has one (looked up among
    the ports listed when not given); `locate`: where the virtual console is now (its pty);
    `listed`: the ports listed (serial.tools.list_ports; a fake in tests)."""
    def __init__(self, path: str, serial: str | None = None, locate: Callable[[], str | None] | None = None,
                 listed: Callable[[], list[UsbPort]] = comports):
        self.path = path
        self.listed = listed
        self.locate = locate
        self.uid: str | None = None           # the hello's, once one came
        self._told: set[tuple[str, str | None]] = set()
        if serial is None and locate is None:
            try:
                serial = next((p.serial for p in self._ports() if p.serial and _same_device(p.device, path)), None)
            except Exception:
                serial = None
        self.serial = serial

    def _ports(self) -> list[UsbPort]:
        try:
            return self.listed()
        except Exception:      # a port list that cannot be read: as if nothing were attached
            return []

    @property
    def by(self) -> str:
        """What the console is known by: "serial" (its USB serial number) or "uid" (its hello's)."""
        return "serial" if self.serial else "uid"

    def where(self) -> str | None:
        """The device the console is on now (None: not attached): the port listed with its USB
        serial number; for a console without one, where the virtual console is, or its path."""
        if self.serial:
            found = [p.device for p in self._ports() if p.serial == self.serial and is_pico(p)]
            found = found or [p.device for p in self._ports() if p.serial == self.serial]
            if found:
                self.path = found[0]
                return found[0]
            return None
        if self.locate is not None:
            now = self.locate()
            if now:
                self.path = now
            return now
        return self.path if os.path.exists(self.path) else None

    def expect_uid(self) -> str | None:
        """The uid a hello must say to be this console: for a console known by its uid, once its
        first hello came (a console known by its USB serial number is it whatever its uid: a
        wiped flash gives the same board a new uid, docs/protocol.md)."""
        return self.uid if self.by == "uid" else None

    def others(self) -> list[UsbPort]:
        """Picos attached that are not this console and were not told of before (each told once
        while it stays attached; pulled and plugged in again, it is told again)."""
        here = self.path
        now = [p for p in find_picos(self._ports)
               if not (p.serial == self.serial if self.serial else _same_device(p.device, here))]
        keys = {(p.device, p.serial) for p in now}
        self._told &= keys
        new = [p for p in now if (p.device, p.serial) not in self._told]
        self._told |= {(p.device, p.serial) for p in new}
        return new


class Watch:
    """The Picos attached, looked at again and again (`doodlebox log` following every console).
    `look()`: the Picos attached now that were never handed out before; a Pico is known by its
    USB serial number (by its device when it has none), so one pulled and plugged in again,
    under any device name, is not new: the link following it finds it (Follow.where).
    `forget(p)`: its link ended; it is new again once it was seen unplugged (a board left
    attached whose port cannot be opened is not tried again every second). `ports()`: the
    ports listed at most `max_age` s ago, for the Follows of many links, which would otherwise
    each list them every second."""
    def __init__(self, listed: Callable[[], list[UsbPort]] = comports, max_age: float = 0.5):
        self.listed = listed
        self.max_age = max_age
        self.followed: set[str] = set()
        self._forgotten: set[str] = set()
        self._ports: list[UsbPort] = []
        self._at: float | None = None
        self._lock = threading.Lock()

    @staticmethod
    def key(port: UsbPort) -> str:
        return port.serial or port.device

    def ports(self) -> list[UsbPort]:
        with self._lock:
            now = time.monotonic()
            if self._at is None or now - self._at >= self.max_age:
                try:
                    self._ports = list(self.listed())
                except Exception:      # a port list that cannot be read: as if nothing were attached
                    self._ports = []
                self._at = now
            return list(self._ports)

    def look(self) -> list[UsbPort]:
        with self._lock:
            self._at = None            # a fresh list
        now = find_picos(self.ports)
        keys = {self.key(p) for p in now}
        self._forgotten &= keys        # seen unplugged: new when it comes back
        new = []
        for p in now:
            k = self.key(p)
            if k not in self.followed and k not in self._forgotten:
                self.followed.add(k)
                new.append(p)
        return new

    def take(self, port: UsbPort) -> None:
        """A Pico followed already (the one found at the start): not new at the next look."""
        self.followed.add(self.key(port))

    def forget(self, port: UsbPort) -> None:
        k = self.key(port)
        self.followed.discard(k)
        self._forgotten.add(k)


def open_port(path: str, timeout: float = 0.05):
    """Open a serial port with pyserial; one clear OSError-derived message on failure."""
    try:
        port = serial.Serial(path, baudrate=115200, timeout=timeout, exclusive=True)
    except serial.SerialException as exc:
        text = str(exc)
        if "busy" in text.lower() or "lock" in text.lower() or "Resource temporarily" in text:
            raise PortError(f"{path} is busy: another program (mpremote, a terminal, another doodlebox log) "
                            "has it open") from None
        if "No such file" in text or "could not open" in text:
            raise PortError(f"cannot open {path}: {text.split(':', 1)[-1].strip()}") from None
        raise PortError(f"cannot open {path}: {text}") from None
    return port


class PortError(DoodleboxError, OSError):
    pass
