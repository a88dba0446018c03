# doodlebox USB serial: non-blocking reads of the CDC port through select.poll.
import select
import sys


class Usb:
    """read() returns the bytes waiting (never blocks); write(data) sends.

    On the Pico the port is sys.stdin.buffer / sys.stdout.buffer. The virtual console passes
    a stream object instead (io.IOBase with readinto/write/ioctl); a stream that select
    cannot register (under CPython) must offer any() -> number of bytes waiting.

    Bytes are read one at a time (the Pico's stdin blocks for all it is asked) into a kept
    1-byte buffer and gathered in a kept bytearray, at most 128 a loop step (a longer frame
    takes a few steps; doodle/link.py's Lines joins it): a burst costs one allocation (the
    bytes returned), not one per byte. Whether a byte waits is asked with ipoll(0), which
    allocates nothing: poll(0) makes a new list at each call (48 bytes in the 192K VM, 12 KB
    for a burst of 256 bytes: a step that read one could fill the heap).
    """

    def __init__(self, stream=None):
        self.rx = stream if stream is not None else sys.stdin.buffer
        self.tx = stream if stream is not None else sys.stdout.buffer
        self._poll = select.poll()  # type: select.poll | None
        try:
            self._poll.register(self.rx, select.POLLIN)
        except (TypeError, ValueError, OSError, AttributeError):
            self._poll = None
        self._one = bytearray(1)
        self._got = bytearray(128)

    def _ready(self):
        if self._poll is None:
            return self.rx.any() > 0  # type: ignore[union-attr]  # the virtual console's stream
        for _ in self._poll.ipoll(0):
            return True
        return False

    def read(self, limit=128):
        got, one = self._got, self._one
        limit = min(limit, len(got))
        n = 0
        while n < limit and self._ready():
            if not self.rx.readinto(one):  # type: ignore[union-attr]  # stdin.buffer has it; one byte at a time
                break
            got[n] = one[0]
            n += 1
        return bytes(memoryview(got)[:n]) if n else b""

    def write(self, data):
        self.tx.write(data)
