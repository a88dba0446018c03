# The guest's line to the host's hardware models (host/doodlebox/virtual/hardware.py).
# Runs in the MicroPython VM (through the VM's `host.call`) and under CPython
# (through the function given to set_backend). Never loaded on a real Pico.
import io
import json
import sys
from binascii import hexlify, unhexlify

_host = None
if sys.implementation.name == "micropython":
    try:
        import host as _host
    except ImportError:
        pass

_backend = None


def set_backend(fn):
    """Under CPython: fn(name, *args) -> value answers every call()."""
    global _backend
    _backend = fn


def call(name, *args):
    """Call host function `name`; returns its JSON value, RuntimeError if it failed."""
    if _host is not None:
        r = json.loads(_host.call(name, json.dumps({"args": args})))
        if not r.get("ok"):
            raise RuntimeError(r.get("error", "host call failed"))
        return r.get("value")
    if _backend is None:
        raise RuntimeError("hwlink: no host (call set_backend first)")
    return _backend(name, *args)


_CHUNK = 256


class UsbStream(io.IOBase):
    """The Pico's USB CDC serial, backed by the host's byte pipe (hw_usb_read/write).

    Stream contract (what board/usb.py may rely on):
    - In the VM this is a MicroPython stream: `select.poll().register(s, select.POLLIN)`
      works, and `poll(0)` reports POLLIN while bytes are waiting (ioctl 3 answers
      from a local buffer, so polling never loses bytes).
    - Under CPython `select` cannot register it (no fileno(): register raises
      OSError/ValueError/TypeError); the reader then calls `s.any()` instead,
      which returns the number of bytes ready (0 when none).
    - read(n) / readinto(buf) never block: they return what is waiting (at most n /
      len(buf)), or None when nothing is.
    - write(buf) sends all of buf and returns len(buf).
    """

    def __init__(self):
        self._buf = b""

    def _fill(self):
        if not self._buf:
            h = call("hw_usb_read", _CHUNK)
            if h:
                self._buf = unhexlify(h)
        return len(self._buf)

    def any(self):
        return self._fill()

    def readinto(self, buf, nbytes=-1):
        n = len(buf) if nbytes < 0 else min(nbytes, len(buf))
        if not n:
            return 0
        if not self._fill():
            return None
        b = self._buf
        k = min(n, len(b))
        buf[:k] = b[:k]
        self._buf = b[k:]
        return k

    def read(self, n=-1):
        if not self._fill():
            return None
        b = self._buf
        if n < 0 or n >= len(b):
            self._buf = b""
            return b
        self._buf = b[n:]
        return b[:n]

    def write(self, buf):
        m = memoryview(buf)
        for i in range(0, len(m), _CHUNK):
            call("hw_usb_write", hexlify(m[i:i + _CHUNK]).decode())
        return len(m)

    def ioctl(self, req, arg):
        if req == 3:  # MP_STREAM_POLL
            r = arg & 4  # POLLOUT: always writable
            if arg & 1 and self._fill():
                r |= 1
            return r
        if req in (1, 4):  # flush, close
            return 0
        return -22  # EINVAL

    def flush(self):
        pass

    def fileno(self):
        raise OSError(22, "UsbStream has no fd; use poll() in the VM, any() under CPython")
