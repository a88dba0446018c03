"""A pseudo-terminal that stands in for the virtual console's USB CDC port.

The host side (``doodlebox log --port <path>``, pyserial, mpremote, ...) opens
``PtyPort.path``; the virtual console reads and writes the master end through
``read`` / ``write``. The slave end is kept open by this object so that the
master never reports EIO when a host program closes the port and opens it again.

``path`` is a name of this port's own, never used again: a link
(``/tmp/doodlebox-port-XXXXXXXX/ttyDOODLE``) to the pty's ``/dev/pts/N``, removed
when the port is closed, as ``/dev/serial/by-id/`` names a real board. The kernel
hands a closed ``/dev/pts/N`` to the next pty any program opens; a host program still
waiting for a console at that number (a ``doodlebox log`` following a console that
went away, in this process or another) would open another program's console there,
greet it and hold it ("is busy"). A link that is gone is never another console.
"""

from __future__ import annotations

import errno
import os
import select
import shutil
import tempfile
import tty

__all__ = ["LINK_NAME", "PtyPort"]

LINK_NAME = "ttyDOODLE"


class PtyPort:
    """``os.openpty()`` pair with a raw slave and a non-blocking master."""

    def __init__(self) -> None:
        master, slave = os.openpty()
        self._master: int | None = master
        self._slave: int | None = slave
        self.device: str = os.ttyname(slave)       # /dev/pts/N: reused by the kernel once closed
        self._dir: str | None = tempfile.mkdtemp(prefix="doodlebox-port-")
        self.path: str = os.path.join(self._dir, LINK_NAME)
        os.symlink(self.device, self.path)
        tty.setraw(slave)  # no echo, no line discipline, no CR/LF translation
        os.set_blocking(master, False)

    @property
    def closed(self) -> bool:
        return self._master is None

    def fileno(self) -> int:
        """The master fd (for ``select``/``selectors`` in a host loop)."""
        if self._master is None:
            raise ValueError("PtyPort is closed")
        return self._master

    def read(self, max_bytes: int = 4096) -> bytes:
        """Up to ``max_bytes`` waiting on the master; ``b""`` when none (never blocks)."""
        if self._master is None or max_bytes <= 0:
            return b""
        try:
            return os.read(self._master, max_bytes)
        except BlockingIOError:
            return b""
        except OSError as exc:
            if exc.errno in (errno.EAGAIN, errno.EIO):
                return b""
            raise

    def write(self, data: bytes) -> int:
        """Write all of ``data`` to the master (the host program reads it at ``path``).

        Bytes are dropped quietly when the pty cannot take them (EIO, or the
        buffer stays full for ~1 s because nobody reads); returns the number of
        bytes written.
        """
        if self._master is None:
            return 0
        view = memoryview(bytes(data))
        done = 0
        stalls = 0
        while done < len(view):
            try:
                n = os.write(self._master, view[done:])
            except BlockingIOError:
                n = 0
            except OSError as exc:
                if exc.errno == errno.EIO:
                    return done
                if exc.errno != errno.EAGAIN:
                    raise
                n = 0
            if n:
                done += n
                stalls = 0
                continue
            stalls += 1
            if stalls > 1000:  # nobody is reading: give up instead of hanging
                return done
            select.select([], [self._master], [], 0.001)
        return done

    def close(self) -> None:
        if self._dir is not None:          # the name goes first: nobody opens it again
            shutil.rmtree(self._dir, ignore_errors=True)
            self._dir = None
        for name in ("_master", "_slave"):
            fd = getattr(self, name)
            if fd is not None:
                setattr(self, name, None)
                try:
                    os.close(fd)
                except OSError:
                    pass

    def __enter__(self) -> PtyPort:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:  # pragma: no cover - best effort
        try:
            self.close()
        except Exception:
            pass
