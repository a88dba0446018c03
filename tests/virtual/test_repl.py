"""The virtual console's REPL, byte by byte as MicroPython's pyexec does it: Ctrl-C stops
main.py, the friendly REPL runs a line, Ctrl-A enters the raw REPL, raw-paste flow control,
a soft reset in the raw REPL stays there, Ctrl-D in the friendly REPL boots main.py again."""
import struct
import time

import pytest
import serial

from doodlebox.virtual.console import VirtualConsole

pytestmark = pytest.mark.slow      # (tests/conftest.py: the quick tier)


def read_until(port, marker, seconds=20):
    got, end = b"", time.monotonic() + seconds
    while time.monotonic() < end and not got.endswith(marker):
        got += port.read(1)
    assert got.endswith(marker), got[-300:]
    return got


@pytest.fixture
def console(tmp_path):
    vc = VirtualConsole(mode="vm", flash_dir=tmp_path / "flash").start()
    port = serial.Serial(vc.port, timeout=0.1)
    read_until(port, b"\n")  # main.py is running: its hello frame
    yield vc, port
    port.close()
    vc.stop()


def test_friendly_raw_paste_and_soft_reset(console):
    vc, port = console
    port.write(b"\r\x03")
    out = read_until(port, b">>> ")
    assert b"KeyboardInterrupt" in out and b"MicroPython" in out and vc.state == "repl"
    port.write(b"x = 6 * 7\r")
    read_until(port, b">>> ")
    port.write(b"print(x)\r")
    assert b"42\r\n" in read_until(port, b">>> ")       # names live on between lines

    port.write(b"\x01")
    read_until(port, b"raw REPL; CTRL-B to exit\r\n>")
    port.write(b"print(x + 1)\x04")
    assert read_until(port, b"\x04>") == b"OK43\r\n\x04\x04>"
    port.write(b"1/0\x04")
    assert b"ZeroDivisionError" in read_until(port, b"\x04>")

    code = b"print(len('" + b"y" * 300 + b"'))"
    port.write(b"\x05A\x01")
    head = port.read(4)
    assert head[:2] == b"R\x01"
    window = struct.unpack("<H", head[2:])[0]
    sent = 0
    while sent < len(code):                            # the device's flow control
        chunk = code[sent:sent + window]
        port.write(chunk)
        sent += len(chunk)
        if sent < len(code):
            assert port.read(1) == b"\x01"
    port.write(b"\x04")
    assert read_until(port, b"\x04>").endswith(b"\x04300\r\n\x04\x04>")

    port.write(b"\x04")                                  # soft reset: names are gone
    read_until(port, b"soft reboot\r\n")
    read_until(port, b"raw REPL; CTRL-B to exit\r\n>")
    port.write(b"print('x' in dir())\x04")
    assert read_until(port, b"\x04>") == b"OKFalse\r\n\x04\x04>"

    boots = vc.boots
    port.write(b"\x02")
    read_until(port, b">>> ")
    port.write(b"\x04")                                  # friendly soft reset: main.py again
    read_until(port, b"soft reboot\r\n")
    read_until(port, b'"t":"hello"', 30)
    assert vc.state == "firmware" and vc.boots == boots + 1
