"""The table's sheets under faults: the rig (tests/tools/faults_sheets.py and
faults_sheets_cable.py run `make faults`' lines with it; tests/firmware/test_sheet_faults.py its
representative cases). The console is the firmware's own App (doodle/app.py, doodle/app_sheets.py,
doodle/ownsheet.py) under CPython on a CutFlash: board/flash.py's files (a small file written whole
as NAME.tmp then renamed; the journal's segments and a sheet's part appended to), where the power
may go at any byte of any write (save, append, remove: the write made that far, nothing after it
runs). The PC is the shipped link session (doodlebox.link.session.HostLink on a SQLite store) with
the shipped courier (doodlebox.logger.sheets.Courier) wired as link_thread.LinkThread wires them; its
port is the console's USB, served at each 20 ms step of the console's loop, the courier on the
console's clock. A power cut is the USB gone too: the PC's session ends, and a new one says hi.
What the flash must hold after each case (Audit: spoilt kept, lost, a replaced sheet left beside
its new one) is faults_sheets.py's docstring."""
from __future__ import annotations

import contextlib
import json
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))
import house  # noqa: E402

house.on_path()
sys.path.insert(0, str(house.GUEST))      # the scripted table (tests/guest/table_script.py), under CPython

from doodlebox.virtual import cpython_micropython  # noqa: E402

cpython_micropython.install()   # the firmware's `micropython` under CPython
import table_script  # noqa: E402

from doodle import flashlog, ownsheet  # noqa: E402
from doodle.app import App  # noqa: E402
from doodlebox.link import frames  # noqa: E402
from doodlebox.link.session import HostLink  # noqa: E402
from doodlebox.logger.sheets import Courier  # noqa: E402
from doodlebox.rules.dice import layout  # noqa: E402
from doodlebox.sheets import console as console_form  # noqa: E402
from doodlebox.sheets import library  # noqa: E402
from doodlebox.store import Store  # noqa: E402

UID = "5ee7c0de"
STEP_MS = 20              # the console's loop step, as tests/firmware/test_console_hint.py's Table steps it
HI_EVERY_MS = 1000        # the PC's hi until a hello comes (link/session.py handshake)
DONE_WITHIN_MS = 60_000   # the console's time a sending may take to complete after a fault


# -- the table's library ---------------------------------------------------------------------------
@contextlib.contextmanager
def data_home() -> Iterator[Path]:
    """The user's data folder (the library: docs/sheets.md) in a folder of its own for the while."""
    d = Path(tempfile.mkdtemp(prefix="doodlebox-sheets-", dir="/dev/shm" if os.path.isdir("/dev/shm") else None))
    before = os.environ.get("XDG_DATA_HOME")
    os.environ["XDG_DATA_HOME"] = str(d / "data")
    try:
        yield d
    finally:
        if before is None:
            os.environ.pop("XDG_DATA_HOME", None)
        else:
            os.environ["XDG_DATA_HOME"] = before
        shutil.rmtree(d, ignore_errors=True)


@contextlib.contextmanager
def library_read_once() -> Iterator[None]:
    """library.sheets() read again only when the library's files change (the courier reads the
    whole library at each `sheets` the console sends: thousands of sessions here, one library)."""
    read = library.sheets
    memo: dict = {}

    def sheets() -> list[library.Sheet]:
        folder = library.folder()
        key = tuple(sorted((p.name, p.stat().st_mtime_ns, p.stat().st_size) for p in folder.iterdir())) \
            if folder.is_dir() else ()
        if key not in memo:
            memo.clear()
            memo[key] = read()
        return list(memo[key])

    library.sheets = sheets     # type: ignore[assignment]
    try:
        yield
    finally:
        library.sheets = read   # type: ignore[assignment]


@contextlib.contextmanager
def code_kept() -> Iterator[None]:
    """The firmware's modules compiled once each: the App loads and lets go of its modules at every
    step as on the Pico (doodle.load, drop), and with no .pyc written here (PYTHONDONTWRITEBYTECODE)
    CPython would compile each from its source at each load, thousands of power-ups over."""
    import importlib.machinery

    loader = importlib.machinery.SourceFileLoader
    get_code = loader.get_code
    firmware = str(ROOT / "firmware")
    codes: dict[tuple[str, int], Any] = {}

    def kept(self, fullname):  # type: ignore[no-untyped-def]
        path = self.get_filename(fullname)
        if not path.startswith(firmware):
            return get_code(self, fullname)
        key = (path, os.stat(path).st_mtime_ns)
        if key not in codes:
            codes[key] = get_code(self, fullname)
        return codes[key]

    loader.get_code = kept      # type: ignore[method-assign]
    try:
        yield
    finally:
        loader.get_code = get_code   # type: ignore[method-assign]


class SimTime:
    """`time` for the PC's link session (doodlebox.link.session) in a sweep: the console's simulated
    clock, so the link's keepalive (an `ack` every 2 s) comes every 2 s of the console's time, as at
    a table, not of this machine's: the writes of a case (journal/acked among them) are the same
    each time it runs, and a cut planned at a write comes at that write. Its sleep() sleeps, and
    moves the clock on by as much."""

    def __init__(self) -> None:
        self.now_ms = 0
        self.slept = 0.0

    def monotonic(self) -> float:
        return self.now_ms / 1000 + self.slept

    def sleep(self, s: float) -> None:
        time.sleep(s)
        self.slept += s

    def __getattr__(self, name: str) -> Any:
        return getattr(time, name)


SIM_TIME = SimTime()


@contextlib.contextmanager
def sweep() -> Iterator[Path]:
    """A data home of its own, the library read once, the firmware compiled once, the link on the
    console's clock (SimTime); its folder."""
    from doodlebox.link import session

    real = session.time
    session.time = SIM_TIME        # type: ignore[assignment]
    try:
        with data_home() as d, library_read_once(), code_kept():
            yield d
    finally:
        session.time = real


LEGEND_TURNED = {"1": "NS", "2": "EW", "3": "NW", "4": "NE", "5": "ES", "6": "SW"}   # each face another piece


def city_sheet(name: str = "ours", **change: Any) -> library.Sheet:
    """A City sheet of the table's own in the library (the default's squares, `change` made)."""
    data = json.loads(layout.default_path("city").read_text())
    data.update(change, name=name)
    return library.add_data(data, name, "faults_sheets", replace=True)


def map_side(name: str = "our-map") -> library.Sheet:
    data = json.loads(library.find("deadly-a").path.read_text())
    return library.add_data(dict(data, name=name), name, "faults_sheets", replace=True)


def content_of(sheet: library.Sheet) -> str:
    return console_form.content(sheet).decode()


# -- the console's flash ---------------------------------------------------------------------------
class PowerGone(Exception):
    """The power went during a write: nothing after it runs."""


class CutFlash(flashlog.RamFlash):
    """board/flash.py's files in RAM: save() writes NAME.tmp whole, then renames it over NAME (a
    small file is the old one or the new one); append() adds at the end; remove(). Each of them is
    a write, numbered from 0 (`writes`); `cut_at = (k, b)`: write k is made to its byte b (a save:
    its NAME.tmp that far, not renamed; a remove: not made) and the power goes (PowerGone). `log`:
    (kind, name, bytes) of every write."""

    def __init__(self) -> None:
        super().__init__()
        self.writes = 0
        self.cut_at: tuple[int, int] | None = None
        self.log: list[tuple[str, str, int]] = []
        self.closed = 0        # (game_case: the writes up to the game's close)

    def copy(self) -> CutFlash:
        f = CutFlash()
        f.data = {k: bytearray(v) for k, v in self.data.items()}
        return f

    def _torn(self, kind: str, name: str, size: int) -> int | None:
        """How many bytes of this write are made before the power goes (None: all of it, and on)."""
        k = self.writes
        self.writes += 1
        self.log.append((kind, name, size))
        if self.cut_at is not None and self.cut_at[0] == k:
            return min(self.cut_at[1], size)
        return None

    def save(self, name: str, text: str) -> bool:
        raw = text.encode()
        n = self._torn("save", name, len(raw))
        if n is not None:
            self.data[name + ".tmp"] = bytearray(raw[:n])
            raise PowerGone
        self.data.pop(name + ".tmp", None)
        self.data[name] = bytearray(raw)
        return True

    def append(self, name: str, data) -> None:
        data = bytes(data)
        n = self._torn("append", name, len(data))
        if n is not None:
            self.data.setdefault(name, bytearray()).extend(data[:n])
            raise PowerGone
        self.data.setdefault(name, bytearray()).extend(data)

    def remove(self, name: str) -> None:
        if name in self.data:
            if self._torn("remove", name, 0) is not None:
                raise PowerGone
        self.data.pop(name, None)


def cases_of(log: list[tuple[str, str, int]]) -> list[tuple[int, int]]:
    """Every (write, byte) a power cut may come at: each byte of each write, and before a remove."""
    return [(k, b) for k, (_, _, size) in enumerate(log) for b in range(size + 1)]


# -- the PC ----------------------------------------------------------------------------------------
class Pc:
    """The PC's end of the console's USB: the shipped HostLink on a SQLite store, the shipped
    Courier wired as link_thread.LinkThread wires them (begin before the handshake, hello after it,
    on_sheets, tick as the link polls), served at each step of the console. `attach` is a session
    begun (hi until a hello), `detach` the USB gone. `spoil(frame bytes) -> bytes` stands between
    the PC and the console for every frame the PC writes."""

    def __init__(self, store: Store, clock: Callable[[], float]):
        self.store = store
        self.notes: list[str] = []
        self.courier = Courier(self.notes.append, clock=clock)
        self.clock = clock
        self.link: HostLink | None = None
        self.inbox = bytearray()
        self.outbox = bytearray()
        self.spoil: Callable[[bytes], bytes] | None = None
        self.hi_at = -HI_EVERY_MS
        self.greeted = False
        self.sessions = 0

    def read(self, size: int = 1) -> bytes:
        data = bytes(self.inbox[:size])
        del self.inbox[:size]
        return data

    def write(self, data: bytes) -> int:
        if self.spoil is not None:
            data = b"".join(self.spoil(line + b"\n") for line in bytes(data).split(b"\n")[:-1])
        self.outbox += data
        return len(data)

    def attach(self) -> None:
        self.inbox.clear()
        self.outbox.clear()
        self.link = HostLink(self, self.store, on_note=self.notes.append, on_sheets=self.courier.on_sheets)
        self.courier.begin(self.link)
        self.hi_at, self.greeted = -HI_EVERY_MS, False
        self.sessions += 1

    def detach(self) -> None:
        self.link = None
        self.inbox.clear()
        self.outbox.clear()

    def from_console(self, data: bytes) -> None:
        if self.link is not None:
            self.inbox += data

    def to_console(self) -> bytes:
        data = bytes(self.outbox)
        self.outbox.clear()
        return data

    def serve(self, now: int) -> None:
        link = self.link
        if link is None:
            return
        if link.console is None and now - self.hi_at >= HI_EVERY_MS:
            self.hi_at = now
            self.write(frames.encode("hi"))
        if self.inbox:
            link.poll()
        if link.console is not None and not self.greeted:
            self.greeted = True
            self.courier.hello(link.console)
        if link.console is not None:
            self.courier.tick()

    @property
    def idle(self) -> bool:
        c = self.courier
        return self.greeted and c.sending is None and not c.queue and not c.uses


class Stores:
    """The PC's database in a sweep: `setup`, the one the scenes are made with, and for each case a
    fresh copy of it as it was when the case's scene was made (case(snapshot)): a case's events are
    its own (another case's, of the same console and boots, would be conflicts to the PC, never
    acknowledged, and the console's writes would not be the same from one run to the next)."""

    def __init__(self, d: Path):
        self.d = d
        self.setup = Store(d / "setup.sqlite3")

    def snapshot(self) -> bytes:
        return (self.d / "setup.sqlite3").read_bytes()     # (rollback journal: the file is whole between writes)

    @contextlib.contextmanager
    def case(self, snapshot: bytes) -> Iterator[Store]:
        path = self.d / "case.sqlite3"
        for suffix in ("", "-journal", "-wal", "-shm"):
            Path(str(path) + suffix).unlink(missing_ok=True)
        path.write_bytes(snapshot)
        store = Store(path)
        try:
            yield store
        finally:
            store.close()

    def close(self) -> None:
        self.setup.close()


# -- the console and its PC ------------------------------------------------------------------------
class Rig:
    """The console's App on a CutFlash, stepped as board/loop.py steps it, its USB to `pc`.
    reboot() is a power cut and a power-up (the PC's session gone, a new one begun)."""

    def __init__(self, flash: CutFlash, store: Store, boot: int = 1, now: int = 0, up: bool = True):
        self.flash = flash
        self.now = now
        self.boot = boot - 1
        self.pc = Pc(store, lambda: self.now / 1000)
        self.said: list[dict] = []
        self.app: App
        if up:
            self.power_up()

    def power_up(self) -> None:
        self.boot += 1
        table_script._state[0] = 1000 + self.boot
        self.app = App(table_script.rand, self.boot, UID, self.flash)
        self.step(100)
        self.pc.attach()

    def reboot(self) -> None:
        self.pc.detach()
        self.power_up()

    def step(self, ms: int = STEP_MS) -> None:
        """The console's loop for `ms` (PowerGone: the power went in a write)."""
        end = self.now + ms
        while self.now < end:
            self.now += STEP_MS
            SIM_TIME.now_ms = self.now
            app = self.app
            if app.collect_wanted:
                app.collected()
            data = self.pc.to_console()
            if data:
                app.serial_in(data, self.now)
            app.tick(self.now)
            app.screen()                             # the loop draws the screen each step
            out = app.serial_out()
            if out:
                for line in out.split(b"\n")[:-1]:
                    with contextlib.suppress(Exception):
                        self.said.append(frames.decode(line + b"\n"))
                self.pc.from_console(out)
            self.pc.serve(self.now)

    def press(self, name: str, settle: int = 200) -> None:
        self.app.button(name, self.now)
        self.step(settle)

    def until(self, done: Callable[[], bool], within: int = DONE_WITHIN_MS, then: int = 200) -> bool:
        """Step until `done`, then `then` ms more (what the PC sent last taken); False when it is
        not done `within`."""
        end = self.now + within
        while not done():
            if self.now >= end:
                return False
            self.step()
        self.step(then)
        return True

    def settled(self, sheet: library.Sheet) -> Callable[[], bool]:
        """The sending of `sheet` done: the console holds it and the PC has nothing more to send."""
        return lambda: self.pc.idle and any(x == sheet.hash for _, _, x, _ in ownsheet.held(self.flash))

    def start_game(self, players: int = 2) -> Any:
        """The lobby's game (City) begun with `players`: its start roads and round 1 rolled. (A
        table's sheet that no longer reads is refused at the first ROLL: the next plays the default.)"""
        self.press("D%d" % players)
        for _ in range(2):
            self.press("ROLL", 300)
            if self.app.game is not None:
                break
        g = self.app.game
        assert g is not None, "no game begun"
        while g.phase <= 1:
            self.press("ROLL", 100)
        return g


# -- what the flash holds ----------------------------------------------------------------------------
@dataclass
class Audit:
    """What a case found on the flash (see the module's text)."""
    spoilt: list[str] = field(default_factory=list)
    lost: list[str] = field(default_factory=list)
    left: list[str] = field(default_factory=list)     # files of a sending left over (sh/.x, *.tmp): a note
    cuts: int = 0                                      # power cuts at random instants of a game
    resumed: int = 0                                   # ... after which the game was resumed
    stale: list[str] = field(default_factory=list)    # a replaced sheet still held beside its replacement
    cases_spoilt: int = 0                              # cases with something spoilt kept (case())
    cases_lost: int = 0                                # ... something lost
    cases_stale: int = 0                               # ... a replaced sheet left

    def add(self, other: Audit) -> None:
        """What one check found, within a case."""
        self.spoilt += other.spoilt
        self.lost += other.lost
        self.stale += other.stale
        self.left += other.left
        self.cuts += other.cuts
        self.resumed += other.resumed

    def case(self, other: Audit) -> None:
        """A whole case's findings, counted as one case."""
        self.add(other)
        self.cases_spoilt += bool(other.spoilt)
        self.cases_lost += bool(other.lost)
        self.cases_stale += bool(other.stale)


def audit(flash: flashlog.RamFlash, known: dict[str, str], before: list[str], where: str,
          replaced: dict[str, str] | None = None) -> Audit:
    """The flash's sheets against `known` ({hash: the content the PC made}): each held whole and of
    its hash, the choices readable, each of `before` (hashes held before) still held, or its
    replacement (`replaced`: {old hash: new hash}) held whole."""
    out = Audit()
    held = ownsheet.held(flash)
    whole = set()
    for ed, _, x, f in held:
        text = flash.load(f) if _utf8(flash, f) else None
        sheet = ownsheet.read(flash, x, ed)
        if sheet is None or text != known.get(x):
            out.spoilt.append(f"{where}: {f} held and {'not read' if sheet is None else 'not the content sent'}")
        else:
            whole.add(x)
    if "sh/use" in flash.data:
        try:
            if not _utf8(flash, "sh/use") or not isinstance(json.loads(flash.load("sh/use") or ""), dict):
                raise ValueError
        except ValueError:
            out.spoilt.append(f"{where}: sh/use does not read: {bytes(flash.data['sh/use'])[:60]!r}")
    for x in before:
        if x not in whole and (replaced or {}).get(x) not in whole:
            out.lost.append(f"{where}: sheet {x}, held before, is gone")
    out.left = [f for f in flash.data if f.startswith("sh/") and (f.startswith("sh/.") or f.endswith(".tmp"))]
    return out


def _utf8(flash: flashlog.RamFlash, name: str) -> bool:
    try:
        bytes(flash.data[name]).decode()
        return True
    except UnicodeDecodeError:
        return False


def held_once(flash: flashlog.RamFlash, sheet: library.Sheet, where: str) -> list[str]:
    n = sum(1 for _, _, x, _ in ownsheet.held(flash) if x == sheet.hash)
    return [] if n == 1 else [f"{where}: sheet {sheet.name} ({sheet.hash}) held {n} times once the sending completed"]


def chosen(flash: flashlog.RamFlash, ed: str, sheet: library.Sheet, where: str) -> list[str]:
    """The console's choice of game `ed` is `sheet` (the table's)."""
    x = ownsheet.choices(flash).get(ed, "")
    if x == sheet.hash:
        return []
    held = [h for _, _, h, _ in ownsheet.held(flash)]
    plays = f"chooses {x}, a sheet it no longer holds (it plays the default)" if x and x not in held else \
        f"plays {x or 'its default'}"
    return [f"{where}: the console's {ed} {plays}, the table chose {sheet.name} ({sheet.hash})"]


def replaced_left(flash: flashlog.RamFlash, old: list[str], where: str) -> list[str]:
    """The sheets of `old` (each replaced by a new one of its name) still held once all is done."""
    held = {h: f for _, _, h, f in ownsheet.held(flash)}
    return [f"{where}: {held[x]} still held beside the sheet that replaced it" for x in old if x in held]



def spread(xs: list[float]) -> str:
    xs = sorted(xs)
    return f"{xs[0]:.1f}..{xs[-1]:.1f} (median {xs[len(xs) // 2]:.1f})"


def result(what: str, tried: int, a: Audit, notes: list[str]) -> dict:
    """faults.py's result: the cases with something spoilt kept, with something lost; the files left
    over (their names' hashes as HASH, CRC); the problems by kind, most frequent first (their place,
    hashes and write left out), each with how many times it was seen and its first place."""
    left = sorted({_kind(f) for f in a.left})
    kinds: dict[str, list] = {}
    for p in a.spoilt + a.lost + a.stale:
        kinds.setdefault(_kind(p.partition(": ")[2]), [0, p])[0] += 1
    problems = [f"{n}x {first}" for n, first in sorted(kinds.values(), key=lambda v: -v[0])]
    return {"what": what, "tried": tried, "sheets": True, "spoilt": a.cases_spoilt, "lost": a.cases_lost,
            "stale": a.cases_stale, "left": left, "problems": problems[:4], "notes": notes}


def _kind(text: str) -> str:
    import re

    text = re.sub(r"\.[0-9a-f]{8}\b", ".CRC", text)
    text = re.sub(r"\(\d+, \d+\)", "(W, B)", text)
    return re.sub(r"[0-9a-f]{12}", "HASH", text)


def secs(t0: float) -> str:
    return f"{time.monotonic() - t0:.0f} s"


