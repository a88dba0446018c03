"""Finding a doodlebox: a Raspberry Pi Pico running MicroPython shows USB VID 0x2E8A."""
from __future__ import annotations

from doodlebox.errors import DoodleboxError

PICO_VID = 0x2E8A


def find_pico() -> list[str]:
    """Device paths of attached Picos (pseudo-terminals are never listed)."""
    from serial.tools import list_ports

    return [p.device for p in list_ports.comports() if p.vid == PICO_VID]


def open_port(path: str, timeout: float = 0.05):
    """Open a serial port with pyserial; one clear OSError-derived message on failure."""
    import serial

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
