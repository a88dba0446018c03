"""`make faults`, the table's sheets (issue 35; docs/protocol.md, "The table's sheets"; docs/sheets.md):
a sheet sent to the console the way a table's PC sends it, and spoilt on the way the way a real
table spoils it:

    power cut            the power cut at every byte of every flash write the console makes while
                         it takes a sheet (the first sheet of a game, chosen with it; a sheet that
                         replaces one of its name); the console powered up again on that flash and
                         the PC's link begun again (its hi), which sends the rest
    spoilt frames        bytes of the `sheet` frames changed, dropped or duplicated on the wire
                         (the frame's own checksum then refuses it), inside the base64 of its chunk,
                         or in its fields (the frame made whole again: only the sheet's CRC, its
                         content and its names can tell); then a clean link (the next hello)
    cable pulled (VM)    the firmware in the 192K VM over a pty (the virtual console), the shipped
                         LinkThread following it as `doodlebox log` does: the cable pulled while a
                         sheet that replaces the one the table plays is on its way (a Pico is
                         powered by its USB: a power cut), a game begun after the replug and played
                         by the PC's table (doodlebox.table.dice) on the sheet its `game` event names
    a game being played  a game begun on the table's sheet, the sheet replaced (a new one of its
                         name) and dropped by the PC during the game, and the power cut at every
                         byte of every write meanwhile and at random instants of the rest of the game

The console is the firmware's own App (doodle/app.py, doodle/app_sheets.py, doodle/ownsheet.py)
under CPython on a CutFlash: board/flash.py's files (a small file written whole as NAME.tmp then
renamed; the journal's segments and a sheet's part appended to), where the power may go at any
byte of any write (save, append, remove: the write made that far, nothing after it runs). The PC is
the shipped link session (doodlebox.link.session.HostLink on a SQLite store) with the shipped
courier (doodlebox.logger.sheets.Courier) wired as link_thread.LinkThread wires them; its port is
the console's USB, served at each 20 ms step of the console's loop, the courier on the console's
clock. A power cut is the USB gone too: the PC's session ends, and a new one says hi.

After each case, on the console's flash:
- `spoilt kept`: a file named as a sheet (sh/<ed>.<name>.<hash>.<crc>) that doodle/ownsheet.read
  does not read, or whose content is not the content the PC made for that hash (any sheet it
  sent); the choices file (sh/use) that does not read as JSON; a game that plays a sheet other
  than the one its `game` event names, or other constants than that sheet's;
- `lost`: a sheet the console held before that it no longer holds (a sheet replaced by one of its
  name counts only if the new one is not held whole in its place); the sheet sent not held once
  the sending completes (at the end of the case); the table's choice not followed (the console's
  choice of the game is not the sheet the table chose, or a replaced sheet's choice not moved to
  its replacement);
- `a replaced sheet left beside its new one` (said only when it happened, and a failure): once all
  is done, a sheet the console no longer plays still held beside the new one of its name that
  replaced it (docs/protocol.md: a sheet of a name it holds replaces that one).

`python tests/tools/faults_sheets.py [cut|spoilt|cable|game] [N]` runs one line;
tests/firmware/test_sheet_faults.py runs representative cases of each."""
from __future__ import annotations

import contextlib
import json
import os
import random
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


# -- a sheet sent while the power is cut -----------------------------------------------------------
@dataclass
class Scene:
    """A console's flash as the table left it (`flash`, its clock `now` and boot), the sheet the PC
    sends next (`sheet`, of game `ed`), what the console held before (`before`), the sheet `sheet`
    replaces ({old: new}), and every content the PC made ({hash: content})."""
    name: str
    flash: CutFlash
    now: int
    boot: int
    sheet: library.Sheet
    ed: str
    before: list[str]
    replaced: dict[str, str]
    known: dict[str, str]
    db: bytes = b""          # the PC's database as it was then (Stores.snapshot)


def _sent(store: Store, flash: CutFlash, sheets: list[library.Sheet], now: int = 0, boot: int = 1) -> Rig:
    """The table's sheets sent to the console as the PC sends them (a session from its hi)."""
    rig = Rig(flash, store, boot=boot, now=now)
    for s in sheets:
        if not rig.until(rig.settled(s)):
            raise RuntimeError(f"setting up: sheet {s.name} never arrived: {rig.pc.notes[-3:]}")
    return rig


def scenes(stores: Stores) -> Iterator[Scene]:
    """The sheets a table sends (the library in the current data home, as it is while each is
    used): `first`, a City sheet the table chose, to a console holding a Deadly Doodles map side;
    `replace`, a new City sheet of the name of the one the console holds and plays (the table's
    choice follows it)."""
    store = stores.setup
    side = map_side()
    library.use(side.name, 1_700_000_000)
    rig = _sent(store, CutFlash(), [side])
    ours = city_sheet("ours", trees=11)
    library.use("ours", 1_700_000_100)
    known = {side.hash: content_of(side), ours.hash: content_of(ours)}
    yield Scene("first", rig.flash.copy(), rig.now, rig.boot + 1, ours, "city", [side.hash], {}, dict(known),
                stores.snapshot())
    rig = _sent(store, rig.flash, [ours], rig.now, rig.boot + 1)
    new = city_sheet("ours", trees=12, legend=LEGEND_TURNED)      # replaced in the library: the choice stays
    known[new.hash] = content_of(new)
    yield Scene("replace", rig.flash.copy(), rig.now, rig.boot + 1, new, "city", [side.hash, ours.hash],
                {ours.hash: new.hash}, known, stores.snapshot())


def send_cut(stores: Stores, scene: Scene, cut: tuple[int, int] | None) -> tuple[Audit, CutFlash, bool]:
    """The scene's sheet sent from the console's power-up; the power cut at `cut` (None: none);
    the console powered up again and the PC's session begun again until it is sent. (audit, the
    flash, whether the cut came)."""
    with stores.case(scene.db) as store:
        return _send_cut(store, scene, cut)


def _send_cut(store: Store, scene: Scene, cut: tuple[int, int] | None) -> tuple[Audit, CutFlash, bool]:
    flash = scene.flash.copy()
    flash.cut_at = cut
    came = False
    rig = Rig(flash, store, boot=scene.boot, now=scene.now)
    flash.writes, flash.log = 0, []      # (the power-up's own writes come first, counted too)
    out = Audit()
    try:
        done = rig.until(rig.settled(scene.sheet))
    except PowerGone:
        came = True
        flash.cut_at = None
        out.add(audit(flash, scene.known, scene.before, f"{scene.name} cut at {cut}", scene.replaced))
        rig.reboot()
        out.add(audit(flash, scene.known, scene.before, f"{scene.name} cut at {cut}, powered up", scene.replaced))
        done = rig.until(rig.settled(scene.sheet))
    where = f"{scene.name} cut at {cut}" if came else scene.name
    if not done:
        out.lost.append(f"{where}: the sheet never arrived ({(rig.pc.notes or ['no note'])[-1]})")
    out.add(audit(flash, scene.known, scene.before, where + ", sent", scene.replaced))
    out.lost += held_once(flash, scene.sheet, where) + chosen(flash, scene.ed, scene.sheet, where)
    out.stale += replaced_left(flash, list(scene.replaced), where)
    return out, flash, came


def power_cuts(n: int, rng: random.Random) -> dict:
    """"table's sheet, power cut": every (write, byte) of each scene (n: at most this many per scene, a
    random choice of them; 0: all)."""
    t0 = time.monotonic()
    with sweep() as d:
        stores = Stores(d)
        try:
            out, tried, writes = Audit(), 0, 0
            for scene in scenes(stores):
                _, flash, _ = send_cut(stores, scene, None)
                log = list(flash.log)
                cases = cases_of(log)
                writes += len(log)
                if n and len(cases) > n:
                    cases = sorted(rng.sample(cases, n))
                for cut in cases:
                    a, _, came = send_cut(stores, scene, cut)
                    tried += came
                    out.case(a)
        finally:
            stores.close()
    return result("table's sheet, power cut", tried, out,
                  [f"{writes} writes of 2 sendings (a first sheet and its choice; a sheet replacing the one played)",
                   _secs(t0)])


# -- spoilt frames ---------------------------------------------------------------------------------
SPOILS = ("byte changed", "byte dropped", "byte duplicated", "line cut", "base64 changed", "base64 dropped",
          "base64 duplicated", "field changed")


def spoil_frame(line: bytes, how: str, rng: random.Random) -> bytes:
    """A `sheet` frame spoilt `how`: its bytes on the wire (the frame's checksum no longer fits),
    its chunk's base64, or one of its fields (the frame made whole again around it)."""
    body = line[:-1]
    if how in ("byte changed", "byte dropped", "byte duplicated", "line cut"):
        k = rng.randrange(len(body))
        if how == "byte changed":
            return body[:k] + bytes([(body[k] + rng.randrange(1, 256)) % 256]) + body[k + 1:] + b"\n"
        if how == "byte dropped":
            return body[:k] + body[k + 1:] + b"\n"
        if how == "byte duplicated":
            return body[:k + 1] + body[k:] + b"\n"
        return body[:k]                       # the rest of the line lost: the next frame goes on with it
    msg = frames.decode(line)
    fields = {k: v for k, v in msg.items() if k not in ("t", "v")}
    d = fields["d"]
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    if how == "field changed":
        key = rng.choice(["x", "n", "ed", "i", "of", "crc"])
        v = fields[key]
        if isinstance(v, int):
            fields[key] = rng.choice([x for x in range(10) if x != v])
        elif key == "ed":
            fields[key] = rng.choice([e for e in ("city", "suzhou", "treasures", "shanghai", "monsters", "deadly")
                                      if e != v])
        else:
            k = rng.randrange(len(v))
            pool = "0123456789abcdef" if key in ("x", "crc") else "abcdefghijklmnopqrstuvwxyz0123456789-_"
            fields[key] = v[:k] + rng.choice([c for c in pool if c != v[k]]) + v[k + 1:]
    else:
        k = rng.randrange(len(d))
        if how == "base64 changed":
            d = d[:k] + rng.choice([c for c in alphabet if c != d[k]]) + d[k + 1:]
        elif how == "base64 dropped":
            d = d[:k] + d[k + 1:]
        else:
            d = d[:k + 1] + d[k:]
        fields["d"] = d
    return frames.encode("sheet", v=msg["v"], **fields)


def send_spoilt(stores: Stores, scene: Scene, how: str, rng: random.Random,
                rate: float = 0.34) -> tuple[Audit, dict]:
    """The scene's sheet sent with each `sheet` frame spoilt `how` at `rate` (at least one); then a
    new session on a clean link until it is sent."""
    with stores.case(scene.db) as store:
        return _send_spoilt(store, scene, how, rng, rate)


def _send_spoilt(store: Store, scene: Scene, how: str, rng: random.Random, rate: float) -> tuple[Audit, dict]:
    flash = scene.flash.copy()
    rig = Rig(flash, store, boot=scene.boot, now=scene.now)
    spoilt = [0]

    def spoil(line: bytes) -> bytes:
        if not line.startswith(b"@") or b'"t":"sheet"' not in line or (spoilt[0] and rng.random() >= rate):
            return line
        spoilt[0] += 1
        return spoil_frame(line, how, rng)

    rig.pc.spoil = spoil
    out = Audit()
    where = f"{scene.name}, {how}"
    fails = len(rig.pc.courier.failed)
    # the spoilt sending: until it arrived or the PC gave it up (5 tries of a chunk, or the console's err)
    rig.until(lambda: rig.pc.idle and (len(rig.pc.courier.failed) > fails or rig.settled(scene.sheet)()))
    gave_up = len(rig.pc.courier.failed) > fails
    out.add(audit(flash, scene.known, scene.before, where, scene.replaced))
    rig.pc.spoil = None
    rig.pc.detach()                     # the link goes on clean: the next hello sends it again
    rig.pc.attach()
    if not rig.until(rig.settled(scene.sheet)):
        out.lost.append(f"{where}: the clean sending never arrived ({(rig.pc.notes or ['no note'])[-1]})")
    out.add(audit(flash, scene.known, scene.before, where + ", sent clean", scene.replaced))
    out.lost += held_once(flash, scene.sheet, where) + chosen(flash, scene.ed, scene.sheet, where)
    out.stale += replaced_left(flash, list(scene.replaced), where)
    refused = sum(1 for m in rig.said if m.get("t") == "err" and "not kept" in m.get("why", ""))
    return out, {"spoilt": spoilt[0], "gave_up": gave_up, "refused": refused}


def spoilt_frames(n: int, rng: random.Random) -> dict:
    """"table's sheet, spoilt frames": n sendings, each spoilt one of SPOILS' ways, in turn."""
    t0 = time.monotonic()
    with sweep() as d:
        stores = Stores(d)
        try:
            out, frames_spoilt, gave_up, refused, k = Audit(), 0, 0, 0, 0
            for i, scene in enumerate(scenes(stores)):
                while k < n * (i + 1) // 2:     # half of them each
                    a, r = send_spoilt(stores, scene, SPOILS[k % len(SPOILS)], rng)
                    out.case(a)
                    frames_spoilt += r["spoilt"]
                    gave_up += r["gave_up"]
                    refused += r["refused"]
                    k += 1
        finally:
            stores.close()
    return result("table's sheet, spoilt frames", n, out, [f"{frames_spoilt} frames spoilt ({', '.join(SPOILS)})",
                                                    f"{refused} whole sheets the console refused (its CRC, its "
                                                    f"content, its names), {gave_up} sendings the PC gave up and sent "
                                                    "again at the next hello",
                                                    _secs(t0)])


# -- the game's own sheet ----------------------------------------------------------------------------
def game_scene(store: Store) -> tuple[Rig, library.Sheet, library.Sheet, dict[str, str]]:
    """A console holding the table's City sheet `old`, a game of 2 begun on it (the PC storing and
    acknowledging its events); `new`, a sheet of its name, in the library in its place (the PC sends
    it at the next hello)."""
    old = city_sheet("ours", trees=11)
    library.use("ours", 1_700_000_000)
    rig = _sent(store, CutFlash(), [old])
    g = rig.start_game()
    assert g.ed.SX == old.hash, "the game is not on the table's sheet"
    new = city_sheet("ours", trees=12, legend=LEGEND_TURNED)
    return rig, old, new, {old.hash: content_of(old), new.hash: content_of(new)}


def _plays(rig: Rig, sheet: library.Sheet, where: str) -> list[str]:
    """The console's game plays `sheet`: its own (app.own), the `game` event it began with, the
    constants it plays by."""
    g = rig.app.game
    if g is None:
        return [f"{where}: no game (it was not resumed)"]
    want = console_form.constants(sheet)
    bad = [k for k in sorted(want) if getattr(g.ed, k, None) != _tuples(want[k])]
    if bad or rig.app.own != sheet.hash or (g.ed.SX, g.ed.SH) != (sheet.hash, sheet.name):
        return [f"{where}: the game plays {getattr(g.ed, 'SX', '?')} (own {rig.app.own!r}), not {sheet.hash}: "
                f"constants {bad[:4]} differ"]
    return []


def _tuples(v: Any) -> Any:
    if isinstance(v, dict):
        return {k: _tuples(x) for k, x in v.items()}
    return tuple(_tuples(x) for x in v) if isinstance(v, (list, tuple)) else v


@dataclass
class GameBase:
    """A console with a game begun on `old` (game_scene), as a case powers it up: its flash, clock,
    next boot, the PC's database then; `new` in the library in the place of `old`."""
    flash: CutFlash
    now: int
    boot: int
    old: library.Sheet
    new: library.Sheet
    known: dict[str, str]
    db: bytes


def game_base(stores: Stores) -> GameBase:
    rig, old, new, known = game_scene(stores.setup)
    rig.pc.detach()
    return GameBase(rig.flash.copy(), rig.now, rig.boot + 1, old, new, known, stores.snapshot())


def game_case(stores: Stores, base: GameBase, cut: tuple[int, int] | None, rng: random.Random | None = None,
              drop: bool = True) -> tuple[Audit, CutFlash, bool]:
    """The console of `base` (game_base: a game on `old`) powered up, the game resumed; the PC's
    session sends `new` (its name: kept beside `old` while the game is on it) and, `drop`, drops
    `old` (refused while the game is on it); the power cut at `cut` of the writes from the
    power-up, wherever it comes. Then: `rng` given, the game played on at random and the power cut
    at a random write of it, played to its end; else the game ended at once (MENU, ROLL). The game
    plays `old` at every power-up; once it is over `new` is held, alone of its name, and chosen,
    and the next game plays it. (audit, the flash, whether the cut came)"""
    with stores.case(base.db) as store:
        return _game_case(store, base, cut, rng, drop)


def _game_case(store: Store, base: GameBase, cut: tuple[int, int] | None, rng: random.Random | None,
               drop: bool) -> tuple[Audit, CutFlash, bool]:
    now, boot, old, new, known = base.now, base.boot, base.old, base.new, base.known
    flash = base.flash.copy()
    out = Audit()
    where = f"game on its sheet, cut at {cut}" if cut else "game on its sheet"
    flash.cut_at = cut
    flash.writes, flash.log = 0, []
    came = sent = ending = False
    rig = Rig(flash, store, boot=boot, now=now, up=False)
    while True:
        try:
            if not came:
                rig.power_up()
            if not ending:
                out.lost += _plays(rig, old, where + (", powered up again" if came else ", powered up"))
            if not sent:
                rig.until(rig.settled(new))
                if drop and rig.pc.link is not None:
                    rig.pc.link.send({"t": "drop", "x": old.hash})
                    rig.step(200)
                sent = True
                out.add(audit(flash, known, [old.hash, new.hash], where + ", sent"))
                out.lost += _plays(rig, old, where + ", sent")
            if rng is not None and not ending:
                cuts = _play_on(rig, rng, old, where, out)
                where += f", {cuts} more cut{'s' * (cuts != 1)} in the game"
            elif not ending:
                ending = True
                rig.press("MENU")
                rig.press("ROLL", 300)                 # "End game?" yes
            ending = True
            for _ in range(3):                         # the final table, then the lobby
                if rig.app.game is None:
                    break
                rig.press("ROLL", 300)
            rig.step(500)
            flash.closed = flash.writes                # the writes of this game, its close included
            break
        except PowerGone:
            if came:
                raise
            came = True
            flash.cut_at = None
            out.add(audit(flash, known, [old.hash], where, {old.hash: new.hash}))
            rig.reboot()
            if ending and rig.app.game is not None:    # the end not written: the game resumed, ended again
                out.lost += _plays(rig, old, where + ", powered up again while it ended")
                ending = False
    if rig.app.game is not None:
        out.lost.append(f"{where}: the game never ended")
        return out, flash, came
    out.add(audit(flash, known, [new.hash], where + ", over"))
    out.stale += replaced_left(flash, [old.hash], where + ", over")
    out.lost += held_once(flash, new, where + ", over") + chosen(flash, "city", new, where + ", over")
    rig.start_game()
    out.lost += _plays(rig, new, where + ", the next game")
    return out, flash, came


def _play_on(rig: Rig, rng: random.Random, sheet: library.Sheet, where: str, out: Audit) -> int:
    """The game played to its end by the scripted table, the power cut at a random write of it
    (torn at a random byte) once or twice; after each power-up the game plays `sheet`."""
    cuts = 0
    planned = rng.randint(1, 2)
    while rig.app.game is not None and not rig.app.game.over():
        flash = rig.flash
        if cuts < planned:
            flash.cut_at = (flash.writes + rng.randrange(40), rng.randrange(300))
        try:
            for name in table_script.turns(rig.app, [rig.now], ack=False):
                rig.press(name, 150)
        except PowerGone:
            cuts += 1
            flash.cut_at = None
            rig.reboot()
            out.cuts += 1
            if rig.app.game is not None:
                out.resumed += 1
                out.lost += _plays(rig, sheet, f"{where}, a cut in the game")
            continue
        flash.cut_at = None
        break
    return cuts


def game_sheets(n: int, rng: random.Random) -> dict:
    """"table's sheet of a game being played": every (write, byte) from the power-up (the game
    resumed) through the new sheet's sending, the drop, the game ended at once (MENU, ROLL) and
    closed (n: at most this many, a random choice; 0: all); then n // 10 + 2 games (0: 24) played to
    their end with power cuts at random writes."""
    t0 = time.monotonic()
    with sweep() as d:
        stores = Stores(d)
        try:
            base = game_base(stores)
            out, tried = Audit(), 0
            first, flash, _ = game_case(stores, base, None)
            out.case(first)
            cases = cases_of(flash.log[:flash.closed])
            if n and len(cases) > n:
                cases = sorted(rng.sample(cases, n))
            for cut in cases:
                a, _, came = game_case(stores, base, cut)
                tried += came
                out.case(a)
            played = n // 10 + 2 if n else 24
            for _ in range(played):
                a, _, _ = game_case(stores, base, None, rng)
                out.case(a)
        finally:
            stores.close()
    return result("table's sheet of a game being played", tried + played, out,
                  [f"{tried} cuts at each byte of the writes while a sheet of its name came, the PC dropped its "
                   f"sheet, and the game ended; {played} games played to the end with {out.cuts} power cuts at "
                   f"random writes ({out.resumed} resumed)", _secs(t0)])


# -- the cable pulled, on the virtual console ---------------------------------------------------------
class WatchedCourier(Courier):
    """The link's courier (logger/sheets.py) as the LinkThread runs it, watched from outside: when each
    hello came (`hellos`), each `sheets` the console sent ((time, hashes held, use)), the chunk being
    sent. Nothing it does is changed."""

    def __init__(self, on_note: Callable[[str], None]):
        super().__init__(on_note)
        self.hellos: list[float] = []
        self.said: list[tuple[float, list[str], list]] = []

    def hello(self, console) -> None:  # type: ignore[no-untyped-def]
        self.hellos.append(time.monotonic())
        super().hello(console)

    def on_sheets(self, console, msg: dict) -> None:  # type: ignore[no-untyped-def]
        if msg["t"] == "sheets":
            self.said.append((time.monotonic(), [x for _, _, x in msg["held"]], msg["use"]))
        super().on_sheets(console, msg)

    def at(self) -> tuple[str, int] | None:
        s = self.sending
        return None if s is None else (s.sheet.hash, s.next)

    def plays(self, x: str, ed: str = "city") -> bool:
        """The console's latest `sheets` says game `ed` plays sheet x (the table's `use` taken)."""
        if not self.said:
            return False
        _, held, use = self.said[-1]
        return x in held and [ed, held.index(x)] in use

    def holds(self, x: str, since: float = 0.0) -> float | None:
        """When the console first said it holds sheet x (after `since`), or None."""
        return next((t for t, held, _ in list(self.said) if t >= since and x in held), None)


def _wait(done: Callable[[], Any], timeout: float, step: float = 0.002) -> Any:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        v = done()
        if v:
            return v
        time.sleep(step)
    return None


class VmConsole:
    """The virtual console (the firmware in the 192K VM, its flash a folder, behind a pty) followed
    by the shipped LinkThread as `doodlebox log` follows it (ports.Follow with its current pty),
    the courier watched (WatchedCourier); `pull()` is the cable pulled and plugged in again
    (VirtualConsole.replug: a Pico is powered by its USB, so a power cut, and a new pty)."""

    def __init__(self, d: Path, seed: int):
        from doodlebox.link.ports import Follow
        from doodlebox.logger.link_thread import LinkThread
        from doodlebox.virtual.console import VirtualConsole

        self.flash = d / "flash"
        self.db = d / "games.sqlite3"
        self.notes: list[str] = []
        self.vc = VirtualConsole(mode="vm", flash_dir=self.flash, seed=seed).start()
        vc = self.vc
        self.follow = Follow(vc.port, locate=lambda: vc.port if vc.running else None)
        self.link = LinkThread(vc.port, self.db, on_note=self.notes.append, handshake_timeout=30, follow=self.follow)
        self.courier = self.link.courier = WatchedCourier(self.notes.append)
        self.link.start()
        if not self.link.wait_ready(60) or self.link.error:
            self.stop()
            raise RuntimeError(f"the virtual console did not connect: {self.link.error}")

    def pull(self) -> None:
        self.vc.replug()

    def press(self, name: str) -> None:
        from doodlebox.table.dice import PRESS_GAP_S, PRESS_MS

        self.vc.press(name, PRESS_MS)
        time.sleep(PRESS_GAP_S)

    def stop(self) -> None:
        self.link.stop()
        self.vc.stop()

    def errors(self) -> list[str]:
        return [e for e in (self.vc.error, self.link.error) if e]


def flash_sheets(folder: Path) -> flashlog.RamFlash:
    """A console's flash folder's sh/ files as a RamFlash (read as they are now)."""
    out = flashlog.RamFlash()
    for p in (folder / "sh").glob("*") if (folder / "sh").is_dir() else ():
        out.data["sh/" + p.name] = bytearray(p.read_bytes())
    return out


def cable_case(con: VmConsole, old: library.Sheet, new: library.Sheet, known: dict[str, str], rng: random.Random,
               sheets: dict[str, library.Sheet]) -> tuple[Audit, dict]:
    """The console holds and plays `old`; `new` (its name) is in the library in its place. The cable
    plugged in again (a hello: the PC sends `new`), then pulled after a random chunk of it and
    plugged in again; at a random moment after that a game of 2 begun and played to round 2 by the
    PC's table (doodlebox.table.dice.Table) on the sheet its `game` event names, and ended (MENU,
    ROLL). The game is on `old` or `new`, and played by its rules (the table checks every event and
    the end's totals); `new` arrives; once the game is over the console holds `new` alone and plays
    it; every sheet file on the flash reads and is the content sent."""
    from doodlebox.table.dice import Table, TableError, read_lobby

    out = Audit()
    info: dict = {}
    c = con.courier
    chunks = len(console_form.frames(new))
    k = rng.randint(1, chunks - 1)
    where = f"cable pulled after chunk {k} of {chunks}"
    t0 = time.monotonic()
    con.pull()                                        # plugged in again: the next hello sends `new`
    if not _wait(lambda: (a := c.at()) is not None and a[0] == new.hash and a[1] >= k, 60, 0.0005):
        out.lost.append(f"{where}: the PC never sent the sheet ({con.notes[-1:]})")
        return out, info
    con.pull()                                        # the cable pulled mid-sheet, and plugged in again
    pulled = time.monotonic()
    while not con.link.events.empty():
        con.link.events.get_nowait()
    table = Table(con.press, con.link.events, seed=rng.randrange(1 << 30),
                  sheets=lambda sx: sheets[sx].data if sx in sheets else None)
    game: dict = {}
    blind = rng.random() < 0.5
    info["blind"] = blind
    try:
        if blind:      # the table presses as the console wakes (the lobby's game is City): a game of 2 at once
            time.sleep(rng.uniform(0.0, 1.5))
            con.press("D2")
            con.press("ROLL")
            game = table._await("game")
            table.state = table._new_state("city", 2, "", game)
            table._play(table.state, 2, False)
        else:          # the table reads the lobby first, a moment later
            time.sleep(rng.uniform(0.0, 3.0))
            table.lobby, table.read = read_lobby(con.vc, 30), lambda g: read_lobby(con.vc, game=g)
            table.play_game("city", 2, refuse_once=False, stop_after_round=2, back_to_lobby=False)
            game = next(e for e in table.seen if e.get("k") == "game")
        con.press("MENU")
        con.press("ROLL")                             # "End game?" yes
        end = table._await("end")
        if end.get("p") != table.state.scores():     # type: ignore[union-attr]
            out.spoilt.append(f"{where}: the console's totals {end.get('p')} are not the rules' "
                              f"{table.state.scores()} on {game.get('sx')}")   # type: ignore[union-attr]
        info["ended"] = time.monotonic()
        con.press("ROLL")                             # the final table: back to the lobby
    except TableError as exc:
        game = game or next((e for e in table.seen if e.get("k") == "game"), {})
        out.spoilt.append(f"{where}: the game on {game.get('sx', '?')} is not played by its sheet's rules: {exc}")
    info["on"] = "old" if game.get("sx") == old.hash else "new" if game.get("sx") == new.hash else "other"
    if info["on"] == "other":
        out.lost.append(f"{where}: the game began on {game.get('sx') or 'the default'}, neither the old sheet nor "
                        f"the new one ({'as the console woke' if blind else 'from the lobby'}: {game})")
    arrived = _wait(lambda: c.holds(new.hash, pulled), 60, 0.01)
    if arrived is None:
        out.lost.append(f"{where}: the sheet never arrived after the replug ({con.notes[-1:]})")
    else:
        info["arrived_s"] = arrived - pulled
        info["during"] = info["on"] == "old" and arrived < info.get("ended", 0)
    def alone() -> bool:
        f = flash_sheets(con.flash)
        return [x for _, _, x, _ in ownsheet.held(f)] == [new.hash] and ownsheet.choices(f).get("city") == new.hash

    settled = _wait(alone, 30, 0.05)                  # (the console says so at its next hello: read its flash)
    flash = flash_sheets(con.flash)
    out.add(audit(flash, known, [new.hash] if arrived else [old.hash], where))
    if not settled:
        where += ", the game over"
        out.stale += replaced_left(flash, [old.hash], where)
        out.lost += held_once(flash, new, where) + chosen(flash, "city", new, where)
    info["case_s"] = time.monotonic() - t0
    return out, info


def cable_pulls(n: int, rng: random.Random) -> dict:
    """"table's sheet, cable pulled (VM)": n sheets, each replacing the last, each with the cable pulled in the
    middle of it and a game begun after the replug (cable_case)."""
    t0 = time.monotonic()
    with data_home() as d:
        old = city_sheet("ours", trees=11)
        library.use("ours", 1_700_000_000)
        sheets, known = {old.hash: old}, {old.hash: content_of(old)}
        out, on, took, during = Audit(), {"old": 0, "new": 0, "other": 0}, [], 0
        con = VmConsole(d, seed=rng.randrange(1000))
        try:
            if not _wait(lambda: con.courier.plays(old.hash), 60, 0.05):
                raise RuntimeError(f"setting up: the first sheet never arrived or is not played ({con.notes[-3:]})")
            for k in range(n):
                new = city_sheet("ours", trees=12 + k % 5, legend=LEGEND_TURNED if k % 2 == 0 else
                                 json.loads(layout.default_path("city").read_text())["legend"])
                sheets[new.hash], known[new.hash] = new, content_of(new)
                a, info = cable_case(con, old, new, known, rng, sheets)
                out.case(a)
                on[info.get("on", "other")] += 1
                if "arrived_s" in info:
                    took.append(info["arrived_s"])
                during += bool(info.get("during"))
                old = new
        finally:
            con.stop()
        errors = con.errors()
    notes = [f"games begun after the replug: {on['old']} on the old sheet ({during} of them while the new one "
             f"arrived), {on['new']} on the new one",
             f"the sheet held {_spread(took)} s after the replug" if took else "no sheet arrived", _secs(t0)]
    r = result("table's sheet, cable pulled (VM)", n, out, notes)
    if errors:
        r["failures"] = errors
        r["problems"] = errors + r["problems"]
    return r


def _spread(xs: list[float]) -> str:
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


def _secs(t0: float) -> str:
    return f"{time.monotonic() - t0:.0f} s"


# -- faults.py's lines ------------------------------------------------------------------------------
# (name, function, how many in `make faults` (0: every byte of every write), how many in --short / make test)
FAULTS: list[tuple[str, Callable[[int, random.Random], dict], int, int]] = [
    ("table's sheet, power cut", power_cuts, 0, 40),
    ("table's sheet, spoilt frames", spoilt_frames, 800, 16),
    ("table's sheet, cable pulled (VM)", cable_pulls, 8, 1),
    ("table's sheet of a game being played", game_sheets, 0, 20),
]


def line(head: str, r: dict) -> str:
    """`make faults`' line for one of these: what was tried, how many, spoilt kept 0 / lost 0."""
    notes = list(r["notes"])
    if r.get("left"):
        notes.append(f"left over until the next sheet comes: {', '.join(r['left'])}")
    text = f"{head}, spoilt kept {r['spoilt']}, lost {r['lost']}"
    if r.get("stale"):
        text += f", replaced sheet left beside its new one {r['stale']}"
    return f"{text} ({'; '.join(notes + r['problems'])})"


def failed(r: dict) -> bool:
    return bool(r["spoilt"] or r["lost"] or r.get("stale") or r.get("failures"))


def main() -> int:
    import argparse

    p = argparse.ArgumentParser(description="one of make faults' lines of the table's sheets")
    p.add_argument("which", choices=("cut", "spoilt", "cable", "game"))
    p.add_argument("n", type=int, nargs="?", default=0)
    p.add_argument("--seed", type=int, default=11)
    args = p.parse_args()
    fn = {"cut": power_cuts, "spoilt": spoilt_frames, "game": game_sheets, "cable": cable_pulls}[args.which]
    r = fn(args.n, random.Random(args.seed))
    print(line(f"{r['what']}: {r['tried']:,} tried", r))
    return 1 if failed(r) else 0


if __name__ == "__main__":
    sys.exit(main())
