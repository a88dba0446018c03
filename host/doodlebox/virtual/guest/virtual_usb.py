# The virtual console's USB serial: the one module the firmware looks for that a real Pico
# does not have (firmware/board/pico.py). On the Pico, USB is sys.stdin/sys.stdout.
import io
from binascii import hexlify, unhexlify

from hwlink import call


class UsbStream(io.IOBase):
    """The Pico's USB CDC serial, backed by the host's byte pipe (hw_usb_read/write).

    What board/usb.py relies on:
    - In the VM this is a MicroPython stream: `select.poll().register(s, select.POLLIN)`
      works, and `poll(0)` reports POLLIN while bytes are waiting (ioctl 3 answers from a
      local buffer, so polling never loses bytes).
    - Under CPython `select` cannot register it (io.IOBase.fileno raises); the reader then
      calls `s.any()`, the number of bytes ready (0 when none).
    - read(n) never blocks: it returns what is waiting (at most n), or None when nothing is.
    - write(buf) sends all of buf and returns len(buf).
    """

    _buf = b""
    _at = 0   # how much of _buf was read (no slicing per byte: a slice is a copy)

    def any(self):
        if self._at >= len(self._buf):
            h = call("hw_usb_read", 256)
            self._buf = unhexlify(h) if h else b""
            self._at = 0
        return len(self._buf) - self._at

    def readinto(self, b):
        n = min(len(b), self.any())
        at = self._at
        for i in range(n):
            b[i] = self._buf[at + i]
        self._at = at + n
        return n or None

    def read(self, n=-1):
        if not self.any():
            return None
        if n < 0:
            n = len(self._buf) - self._at
        out = self._buf[self._at:self._at + n]
        self._at += len(out)
        return out

    def write(self, buf):
        m = memoryview(buf)
        for i in range(0, len(m), 256):
            call("hw_usb_write", hexlify(m[i:i + 256]).decode())
        return len(m)

    def ioctl(self, req, arg):
        if req == 3:  # MP_STREAM_POLL: always writable (POLLOUT 4), readable (POLLIN 1) if bytes wait
            return arg & 4 | (arg & 1 if self.any() else 0)
        return 0 if req in (1, 4) else -22  # flush, close; else EINVAL


stream = UsbStream  # what board/pico.py calls
