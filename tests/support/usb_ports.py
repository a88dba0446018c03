"""Fake USB serial ports for the tests of finding and following Picos (host/doodlebox/link/ports.py)."""
from __future__ import annotations

from doodlebox.link.ports import PICO_VID, UsbPort

SERIAL = "E6614C311B2C4A2F"


def pico(device: str, serial: str | None = SERIAL, pid: int = 0x0005) -> UsbPort:
    """A Pico running MicroPython on `device`, with USB serial number `serial`."""
    return UsbPort(device, PICO_VID, pid, serial, "Board in FS mode")


class Listed:
    """A fake serial.tools.list_ports: the ports it lists are set by the test."""

    def __init__(self, *ports: UsbPort):
        self.ports = list(ports)
        self.calls = 0

    def __call__(self) -> list[UsbPort]:
        self.calls += 1
        return list(self.ports)
