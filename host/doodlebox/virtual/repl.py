"""The virtual Pico's REPL on its pseudo-terminal: the friendly REPL, the raw REPL with
raw-paste mode and soft reset, as MicroPython's pyexec does them, so that mpremote (and
`make flash`) work against the virtual console. Code runs in a MicroPython VM (micropython-
wasm, the console's heap) whose filesystem is the console's flash folder.

The byte protocol (what mpremote's SerialTransport expects):
- Ctrl-A: raw REPL, "raw REPL; CTRL-B to exit\\r\\n>"; Ctrl-B: back to ">>> ".
- raw: code then Ctrl-D -> "OK", the output, "\\x04", the error text, "\\x04", ">".
- raw-paste: "\\x05A\\x01" -> "R\\x01" + window (2 bytes LE); "\\x01" for every window consumed;
  Ctrl-D ends the code -> "\\x04", then the output, "\\x04", errors, "\\x04", ">".
- Ctrl-D with no code: soft reset. In the raw REPL: "MPY: soft reboot\\r\\n" and the raw REPL
  again (main.py does not run); in the friendly REPL: reboot into main.py.
"""
from __future__ import annotations

import queue
import struct
import threading
from collections.abc import Callable
from pathlib import Path

from doodlebox.virtual.vm import ProgramFailed, run_program

RAW_BANNER = b"raw REPL; CTRL-B to exit\r\n>"
WINDOW = 128
CODE_RESULT_BYTES = 32768  # the largest code one exec may send (mpremote sends far less)

# The REPL's program in the VM: code arrives through host calls and runs in one namespace,
# so a session's names live on between execs, as on the Pico. Garbage is collected here, at
# module level, between execs (docs/virtual-console.md).
SERVER = """
import sys, gc
sys.path[:] = ['', '/lib']
import hwlink
_g = {'__name__': '__main__'}
_END = %r
def _run(code):
    try:
        exec(code, _g)
    except BaseException as e:
        sys.print_exception(e, sys.stderr)
hwlink.call('repl_ready', sys.version)
while True:
    _c = hwlink.call('repl_next')
    if _c is None:
        break
    _run(_c)
    sys.stdout.write(_END)
    sys.stderr.write(_END)
    hwlink.call('repl_done')
    gc.collect()
"""
# wasmtime hands the guest's stdout/stderr to the host asynchronously, so an exec's output
# is complete only once this marker has come through on both streams.
END = "\x00\x1bdoodlebox-exec-end\x00"
SERVER = SERVER % (END,)


class Reset(Exception):
    """The REPL asked for a reboot: `kind` is "soft" (Ctrl-D) or "hard" (machine.reset())."""

    def __init__(self, kind: str):
        super().__init__(kind)
        self.kind = kind


class ReplVM:
    """A MicroPython VM that runs code sent to it, one exec at a time."""

    def __init__(self, flash: Path, heap: str, hardware_functions: dict[str, Callable[..., object]]):
        self._todo: queue.Queue = queue.Queue()
        self._done = threading.Event()
        self._ready = threading.Event()
        self._out: list[bytes] = []
        self._err: list[bytes] = []
        self._lock = threading.Lock()
        self._flushed = threading.Event()
        self._ended: set[str] = set()  # streams whose end marker has come through
        self.version = ""
        self.failed: str | None = None
        fns = dict(hardware_functions)
        fns.update(repl_ready=self._on_ready, repl_next=self._on_next, repl_done=self._on_done)
        self._thread = threading.Thread(target=self._main, args=(flash, heap, fns), name="repl-vm", daemon=True)
        self._thread.start()

    def _main(self, flash: Path, heap: str, fns) -> None:
        try:
            run_program(SERVER, flash, heap=heap, host_functions=fns, writable=True, guest_root="/",
                        host_result_bytes=CODE_RESULT_BYTES, on_output=self._on_output)
        except ProgramFailed as exc:
            self.failed = str(exc)
        finally:
            self._ready.set()
            self._done.set()

    def _on_ready(self, version: str) -> None:
        self.version = version
        self._ready.set()

    def _on_next(self):
        return self._todo.get()

    def _on_done(self) -> None:
        self._done.set()

    def _on_output(self, stream: str, data: bytes) -> None:
        with self._lock:
            chunks = self._out if stream == "out" else self._err
            chunks.append(data)
            if END.encode() in b"".join(chunks[-2:]):  # the marker may straddle two writes
                self._ended.add(stream)
                if len(self._ended) == 2:
                    self._flushed.set()

    def wait_ready(self, timeout: float = 30) -> bool:
        return self._ready.wait(timeout) and self.failed is None

    def execute(self, code: str, timeout: float | None = None) -> tuple[bytes, bytes]:
        """Run `code`; (stdout, stderr) as the guest wrote them."""
        with self._lock:
            self._out.clear()
            self._err.clear()
            self._ended.clear()
            self._flushed.clear()
        self._done.clear()
        self._todo.put(code)
        self._done.wait(timeout)
        if self.alive:
            self._flushed.wait(5)
        with self._lock:
            out, err = b"".join(self._out), b"".join(self._err)
        marker = END.encode()
        return out.split(marker, 1)[0], err.split(marker, 1)[0]

    @property
    def alive(self) -> bool:
        return self._thread.is_alive()

    def close(self) -> None:
        self._todo.put(None)
        self._thread.join(timeout=10)


def crlf(data: bytes) -> bytes:
    return data.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")


class ReplDevice:
    """The REPL's side of the serial line: feed it the bytes the host sends.

    `write(bytes)` goes to the pty. `feed()` raises Reset when the board must reboot.
    """

    def __init__(self, write: Callable[[bytes], object], vm: ReplVM, board: str):
        self.write = write
        self.vm = vm
        self.board = board
        self.raw = False
        self.line = bytearray()
        self.code = bytearray()
        self.paste = False
        self.pasted = 0
        self.reset_kind: str | None = None  # set by machine.reset() in a snippet

    def banner(self) -> bytes:
        version = self.vm.version.split(";", 1)[-1].strip() or "MicroPython"
        return (f"{version}; {self.board}\r\nType \"help()\" for more information.\r\n").encode()

    def start(self, interrupted: bool) -> None:
        if interrupted:
            self.write(b"Traceback (most recent call last):\r\n  File \"main.py\"\r\nKeyboardInterrupt: \r\n")
        self.write(self.banner() + b">>> ")

    def feed(self, data: bytes) -> None:
        for b in data:
            if self.paste:
                self._paste_byte(b)
            elif self.raw:
                self._raw_byte(b)
            else:
                self._friendly_byte(b)

    # -- raw REPL --------------------------------------------------------------------------
    def _raw_byte(self, b: int) -> None:
        code = self.code
        if code[:1] == b"\x05" and len(code) < 3:  # inside a raw-paste request: "\x05A\x01"
            code.append(b)
            if bytes(code) == b"\x05A\x01":
                code.clear()
                self.paste, self.pasted = True, 0
                self.write(b"R\x01" + struct.pack("<H", WINDOW))
            elif len(code) == 3 or bytes(code) != b"\x05A"[:len(code)]:
                code.clear()
            return
        if b == 0x01:                       # Ctrl-A: raw REPL again
            code.clear()
            self.write(b"\r\n" + RAW_BANNER)
        elif b == 0x02:                     # Ctrl-B: friendly REPL
            self.raw = False
            code.clear()
            self.write(b"\r\n" + self.banner() + b">>> ")
        elif b == 0x03:                     # Ctrl-C: forget the code so far
            code.clear()
        elif b == 0x04:                     # Ctrl-D: run the code, or soft reset
            if not code:
                self.write(b"MPY: soft reboot\r\n")
                raise Reset("soft-raw")
            text = bytes(code).decode("utf-8", "replace")
            code.clear()
            self.write(b"OK")
            self._run(text)
        elif b == 0x05 and not code:        # the start of a raw-paste request
            code.append(b)
        else:
            code.append(b)

    def _paste_byte(self, b: int) -> None:
        if b == 0x04:                       # end of the pasted code
            self.paste = False
            text = bytes(self.code).decode("utf-8", "replace")
            self.code.clear()
            self.write(b"\x04")
            self._run(text)
            return
        self.code.append(b)
        self.pasted += 1
        if self.pasted % WINDOW == 0:
            self.write(b"\x01")             # room for another window

    def _run(self, text: str) -> None:
        out, err = self.vm.execute(text)
        self.write(crlf(out) + b"\x04" + crlf(err) + b"\x04>")
        if self.reset_kind:
            raise Reset(self.reset_kind)
        if not self.vm.alive:
            raise Reset("hard")

    # -- friendly REPL ------------------------------------------------------------------------
    def _friendly_byte(self, b: int) -> None:
        line = self.line
        if b == 0x01:
            self.raw = True
            line.clear()
            self.write(b"\r\n" + RAW_BANNER)
        elif b == 0x02:
            line.clear()
            self.write(b"\r\n" + self.banner() + b">>> ")
        elif b == 0x03:
            line.clear()
            self.write(b"\r\n>>> ")
        elif b == 0x04:
            if not line:
                self.write(b"\r\nMPY: soft reboot\r\n")
                raise Reset("soft")
        elif b in (0x08, 0x7F):
            if line:
                line.pop()
                self.write(b"\x08 \x08")
        elif b == 0x0D:
            text = bytes(line).decode("utf-8", "replace")
            line.clear()
            self.write(b"\r\n")
            if text.strip():
                out, err = self.vm.execute(text)
                self.write(crlf(out) + crlf(err))
                if self.reset_kind:
                    raise Reset(self.reset_kind)
            self.write(b">>> ")
        elif b >= 0x20 or b == 0x09:
            line.append(b)
            self.write(bytes([b]))
