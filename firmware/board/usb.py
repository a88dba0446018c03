# doodlebox USB serial: non-blocking reads of the CDC port through select.poll.
import select
import sys


class Usb:
    """read() returns the bytes waiting (never blocks); write(data) sends.

    On the Pico the port is sys.stdin.buffer / sys.stdout.buffer. The virtual console passes
    a stream object instead (io.IOBase with readinto/write/ioctl); a stream that select
    cannot register (under CPython) must offer any() -> number of bytes waiting.
    """

    def __init__(self, stream=None):
        self.rx = stream if stream is not None else sys.stdin.buffer
        self.tx = stream if stream is not None else sys.stdout.buffer
        self._poll = select.poll()  # type: select.poll | None
        try:
            self._poll.register(self.rx, select.POLLIN)
        except (TypeError, ValueError, OSError, AttributeError):
            self._poll = None

    def _ready(self):
        if self._poll is None:
            return self.rx.any() > 0  # type: ignore[union-attr]  # the virtual console's stream
        return bool(self._poll.poll(0))

    def read(self, limit=256):
        out = b""
        while len(out) < limit and self._ready():
            b = self.rx.read(1)  # stdin blocks for all it is asked: take one byte at a time
            if not b:
                break
            out += b
        return out

    def write(self, data):
        self.tx.write(data)
