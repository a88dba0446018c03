"""The self-test (firmware/board/selftest.py): MENU held at power-on walks every pip, plays a
scale, draws a test pattern with a full refresh, then lights the die under each pressed
button; every step goes out as a `test` frame (docs/protocol.md).

Under CPython the firmware files run against the virtual console's hardware models with a
fake clock; one test boots the virtual console (the real MicroPython VM, 192K) with MENU held.
"""
from __future__ import annotations

import itertools
import os
import re
import select
import sys
import time
from pathlib import Path

import pytest

from doodle import link
from doodle.app import FW_VERSION
from doodlebox.hardware.data import load_pins
from doodlebox.virtual import cpython_framebuf
from doodlebox.virtual.cpython import micropython_time
from doodlebox.virtual.hardware import Hardware
from doodlebox.virtual.vm import install_guest_modules, uninstall_guest_modules

ROOT = Path(__file__).resolve().parents[2]
SCALE_HZ = [523, 587, 659, 698, 784, 880, 988, 1047]
FACE6 = [True, True, True, False, True, True, True]  # pip order TL, TR, ML, C, MR, BL, BR
from waiting import until  # noqa: E402

from board import pins  # noqa: E402

LEVEL = pins.LED_MAX_LEVEL  # the LED brightness cap, from the power budget (hardware/)
TICK_MS = 5


class Clock:
    """The Hardware models' clock (seconds), kept in step with the firmware's now_ms."""

    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


def frames_in(data: bytes) -> list[dict]:
    out = []
    for line in bytes(data).splitlines():
        msg, why = link.decode(line)
        assert why is None, (why, line)
        out.append(msg)
    return out


def _drop_board_modules() -> None:
    for name in [n for n in sys.modules if n == "board" or n.startswith("board.")]:
        del sys.modules[name]


class Rig:
    """A Pico board built by firmware/board/pico.py over the hardware models, a fake clock,
    the USB output collected, and every LED frame recorded as (ms, pixels)."""

    def __init__(self, tmp: Path, menu_at_boot: bool = True) -> None:
        self.clock = Clock()
        self.hw = Hardware(load_pins(), clock=self.clock)
        self.out = bytearray()
        self.hw.attach_usb(lambda n: b"", self.out.extend)
        self.leds: list[tuple[int, list[tuple[int, int, int]]]] = []
        write = self.hw.leds.write

        def record(data):
            write(data)
            self.leds.append((self.now, self.hw.leds.pixels()))

        self.hw.leds.write = record  # type: ignore[method-assign]
        self.now = 0
        micropython_time()
        self._saved = install_guest_modules(self.hw.call)
        self._saved_fb = sys.modules.get("framebuf")
        sys.modules["framebuf"] = cpython_framebuf  # type: ignore[assignment]
        _drop_board_modules()
        from board import pico, selftest

        if menu_at_boot:
            self.hw.press("MENU")
        self.tmp = tmp
        self.board = pico.Board(flash=str(tmp) + "/")  # USB: the guest's virtual_usb
        self.selftest_module = selftest
        self.held = selftest.held_at_boot()

    def start(self, **kw):
        self.st = self.selftest_module.SelfTest(self.board, **kw)
        return self.st

    def advance(self, ms: int, until=None) -> None:
        end = self.now + ms
        while self.now < end:
            self.now += TICK_MS
            self.clock.t = self.now / 1000
            self.st.tick(self.now)
            if until is not None and until():
                return

    def frames(self) -> list[dict]:
        return frames_in(self.out)

    def steps(self) -> list[str]:
        return [f["step"] for f in self.frames()]

    def close(self) -> None:
        _drop_board_modules()
        uninstall_guest_modules(self._saved)
        if self._saved_fb is None:
            sys.modules.pop("framebuf", None)
        else:
            sys.modules["framebuf"] = self._saved_fb


@pytest.fixture
def rig(tmp_path):
    r = Rig(tmp_path)
    yield r
    r.close()


def test_held_at_boot_reads_the_menu_pin(tmp_path):
    r = Rig(tmp_path, menu_at_boot=False)
    try:
        assert r.held is False
        r.hw.press("MENU")
        assert r.selftest_module.held_at_boot() is True
        r.hw.press("ROLL")
        r.hw.release("MENU")
        assert r.selftest_module.held_at_boot() is False
    finally:
        r.close()


def test_self_test_steps_buttons_and_exit(rig):
    assert rig.held is True
    st = rig.start()
    rig.advance(300)
    rig.hw.release("MENU")  # the power-on press: never reported as a button
    rig.advance(700)
    rig.hw.press_for("ROLL", 80)  # during the pip walk: reported, and counted in the summary
    rig.advance(20000, until=lambda: "summary" in rig.steps())
    t_summary = rig.now

    # 1. every pip alone, once, in order, white at the brightness cap, ~100 ms each
    walk = rig.leds[:50]
    for i, (_ms, px) in enumerate(walk[:49]):
        on = [k for k, p in enumerate(px) if any(p)]
        assert on == [i], f"frame {i} lit {on}"
        assert px[i] == (LEVEL, LEVEL, LEVEL)
    assert not any(any(p) for p in walk[49][1])  # dark again after the walk
    gaps = [b[0] - a[0] for a, b in itertools.pairwise(walk)]
    assert all(100 <= g <= 100 + TICK_MS for g in gaps), gaps
    assert rig.hw.leds.max_seen == LEVEL

    # 2. the scale, each note ~120 ms
    tones = rig.hw.buzzer.tones()
    assert [f for _t, f, _d in tones] == SCALE_HZ
    assert all(0.115 <= d <= 0.130 for _t, _f, d in tones), tones
    assert tones[0][0] >= walk[49][0] / 1000  # after the walk

    # 3. the pattern, shown with one full refresh
    ep = rig.hw.epaper
    assert ep.full_refreshes == 1 and ep.partial_refreshes == 0 and ep.last_refresh_kind == "full"
    assert ep.errors == [], ep.errors
    img = ep.image()  # landscape rows, 0 = black
    for x in range(296):
        assert img[0][x] == 0 and img[127][x] == 0 and img[1][x] == (0 if x in (0, 295) else 1)
    for y in range(128):
        assert img[y][0] == 0 and img[y][295] == 0
        assert img[y][2] == (0 if 2 <= y <= 125 else 1 if 0 < y < 127 else 0)
    for j in range(8):
        for i in range(8):
            x0, y0 = 216 + 8 * i, 8 + 8 * j
            want = 0 if (i + j) % 2 == 0 else 1
            assert {img[y][x] for y in range(y0, y0 + 8) for x in range(x0, x0 + 8)} == {want}, (i, j)
    title = [img[y][x] for y in range(8, 16) for x in range(8, 8 + 19 * 8)]
    assert title.count(0) > 100  # "doodlebox self-test" (blocks under CPython, glyphs in the VM)

    # frames: start, the walk die by die, the press, the scale, the panel, the summary
    frames = rig.frames()
    assert all(f["t"] == "test" and f["v"] == link.VERSION for f in frames)
    # (die 1's pips are lit from 700 to 1400 ms: the press came then)
    assert [f["step"] for f in frames] == (["start"] + ["pips"] * 2 + ["button"] + ["pips"] * 5
                                           + ["scale", "panel", "summary"])
    press = frames.pop(3)
    assert press == {"t": "test", "v": link.VERSION, "step": "button", "name": "ROLL", "n": 1}
    start = frames[0]
    # a new flash: the board's unique id, then the 8 random hex digits the console made (id.txt)
    assert start["fw"] == FW_VERSION and re.fullmatch("d00d1eb000000001[0-9a-f]{8}", start["uid"])
    assert start["uid"][16:] == (rig.tmp / "id.txt").read_text() and start["boot"] == 1
    assert start["pips"] == 49 and start["level"] == LEVEL
    assert [f["die"] for f in frames[1:8]] == list(range(7))
    assert frames[8]["hz"] == SCALE_HZ and frames[8]["ms"] == 8 * 120 + 20
    panel, summary = frames[9], frames[10]
    assert panel["ok"] is True and panel["kind"] == "full" and panel["errors"] == 0 and panel["why"] == ""
    assert 2000 <= panel["ms"] < 3000  # the model's full refresh holds BUSY for 2 s
    assert summary == {"t": "test", "v": link.VERSION, "step": "summary", "ran": ["pips", "scale", "panel"],
                       "panel": True, "errors": 0, "why": "", "refreshes": 1, "buttons": ["ROLL"]}
    assert t_summary < 10000

    # 4. buttons: D3 lights die 3 (a six), nothing else, and names it on the panel
    n_leds = len(rig.leds)
    rig.hw.press_for("D3", 80)
    rig.advance(600)
    lit = rig.hw.leds.lit()
    assert lit[3] == FACE6
    assert all(not any(lit[d]) for d in range(7) if d != 3)
    assert rig.leds[n_leds][1][3 * 7] == (LEVEL, LEVEL, LEVEL)
    assert rig.frames()[-1] == {"t": "test", "v": link.VERSION, "step": "button", "name": "D3", "die": 3, "n": 2}
    assert ep.partial_refreshes == 1
    assert [f for _t, f, _d in rig.hw.buzzer.tones()][-1] == 1568  # the click
    img = ep.image()
    assert any(img[y][x] == 0 for y in range(58, 66) for x in range(8, 8 + 10 * 8))  # "button: D3"
    rig.hw.press_for("D6", 80)
    rig.advance(600)
    assert [any(d) for d in rig.hw.leds.lit()] == [False] * 6 + [True]
    rig.hw.press_for("PASS", 80)
    rig.advance(600)
    assert rig.hw.leds.lit() == [[False] * 7] * 7
    assert rig.frames()[-1]["name"] == "PASS" and "die" not in rig.frames()[-1]
    assert ep.partial_refreshes == 3 and ep.warnings == [] and ep.errors == []  # 0x26 held the picture

    # a short MENU press names it; holding MENU for 2 s leaves for the game
    rig.hw.press_for("MENU", 300)
    rig.advance(600)
    assert rig.frames()[-1]["name"] == "MENU" and not st.done
    rig.hw.press("MENU")
    rig.advance(1900)
    assert not st.done
    rig.advance(200)
    assert st.done
    rig.hw.release("MENU")
    assert rig.frames()[-1] == {"t": "test", "v": link.VERSION, "step": "exit",
                                "buttons": ["ROLL", "D3", "D6", "PASS", "MENU"]}
    assert rig.hw.leds.lit() == [[False] * 7] * 7
    before = len(rig.out)
    st.run(steps=3)  # the game loop takes over: it greets the host
    assert st.game is not None
    assert [f["t"] for f in frames_in(rig.out[before:])] == ["hello", "sheets"]   # (the table's sheets it holds: none)


def test_menu_held_from_power_on_does_not_leave(rig):
    st = rig.start(pip_ms=10)
    rig.advance(5000)  # held from power-on through the automatic steps
    assert not st.done
    assert "button" not in rig.steps()
    rig.hw.release("MENU")
    rig.advance(100)
    rig.hw.press("MENU")
    rig.advance(2100)
    assert st.done
    assert rig.steps()[-2:] == ["button", "exit"]


def test_a_stuck_busy_line_is_reported(rig):
    rig.hw.release("MENU")
    rig.hw.epaper.busy = lambda now: 1  # type: ignore[method-assign]  # BUSY never goes low
    rig.start(pip_ms=10)
    rig.advance(20000, until=lambda: "summary" in rig.steps())
    frames = rig.frames()
    panel, summary = frames[-2], frames[-1]
    assert panel["ok"] is False and panel["why"] == "BUSY timeout" and panel["errors"] == 1
    assert summary["panel"] is False and summary["errors"] == 1 and summary["why"] == "BUSY timeout"
    # the buttons still answer
    rig.hw.press_for("D0", 80)
    rig.advance(300)
    assert rig.hw.leds.lit()[0] == FACE6
    assert rig.frames()[-1]["name"] == "D0"


def test_the_scale_tune():
    from board.buzzer import TUNES

    assert list(TUNES["scale"][::2]) == SCALE_HZ   # (Hz, ms) pairs, one flat tuple


# ---- the virtual console: the same files in the MicroPython VM --------------------------
@pytest.mark.slow
def test_self_test_on_the_virtual_console():
    """The self-test's frames as a host reads them from the console's port. The port is read as
    it is, opened without pyserial (whose open() flushes what the console wrote before it: on a
    busy machine the `start` frame). Only `test` frames are the self-test's story; the one other
    frame it sends is a hello, its answer to a host's hi, and that would be another program
    greeting this console: before the console's port had a name of its own (virtual/pty_port.py),
    a logger still waiting at the /dev/pts/N of a console gone greeted the next pty given that
    number, here the self-test's (a hello between `start` and `pips`, the failure of issue 19)."""
    from doodlebox.virtual import console

    vc = console.VirtualConsole(mode="vm")
    pips: list[list[int]] = []
    write = vc.hardware.leds.write

    def record(data):
        write(data)
        pips.append([i for i, p in enumerate(vc.hardware.leds.pixels()) if any(p)])

    vc.hardware.leds.write = record  # type: ignore[method-assign]
    vc.hardware.press("MENU")  # held at power-on
    vc.start()
    got, frames, others = b"", [], []
    try:
        fd = os.open(vc.port, os.O_RDONLY | os.O_NOCTTY | os.O_NONBLOCK)   # raw already (PtyPort)
        try:
            deadline = time.monotonic() + 120
            released = pressed = False
            while time.monotonic() < deadline and vc.error is None:
                if select.select([fd], [], [], 0.05)[0]:
                    got += os.read(fd, 4096)
                *lines, got = got.split(b"\n")
                for line in lines:
                    if line.startswith(b"@"):
                        msg, why = link.decode(line)
                        assert why is None, (why, line)
                        (frames if msg.get("t") == "test" else others).append(msg)
                steps = [f.get("step") for f in frames]
                if not released and "start" in steps:
                    vc.hardware.release("MENU")
                    released = True
                if not pressed and "summary" in steps:
                    vc.press("D3", 100)
                    pressed = True
                if pressed and steps[-1] == "button":
                    break
        finally:
            os.close(fd)
        assert until(lambda: sum(map(any, vc.hardware.leds.lit())) == 1, 10)   # the die lights after the frame
        lit = vc.hardware.leds.lit()
    finally:
        vc.stop()
    assert vc.error is None, vc.error
    assert all(m.get("t") == "hello" for m in others), others
    steps = [f.get("step") for f in frames]
    assert steps == ["start"] + ["pips"] * 7 + ["scale", "panel", "summary", "button"], frames
    assert frames[-3]["ok"] is True and frames[-2]["panel"] is True and frames[-2]["buttons"] == []
    assert frames[-1]["name"] == "D3" and frames[-1]["die"] == 3
    # the LED model saw the 49 pips one at a time, in order, then dark, then die 3's six
    assert pips[:50] == [[i] for i in range(49)] + [[]], pips[:52]
    assert lit[3] == FACE6 and sum(map(any, lit)) == 1
    assert vc.hardware.epaper.full_refreshes == 1 and vc.hardware.epaper.errors == []
    assert [f for _t, f, _d in vc.hardware.buzzer.tones()][:8] == SCALE_HZ


@pytest.mark.slow
def test_doodlebox_log_connects_during_the_self_test_and_shows_it(tmp_path):
    """The self-test answers the host's hi, so `doodlebox log` shows its frames as notes."""
    from doodlebox.logger.link_thread import LinkThread
    from doodlebox.virtual.console import VirtualConsole

    vc = VirtualConsole(mode="cpython", flash_dir=tmp_path / "flash")
    vc.hardware.press_for("MENU", 3000)
    vc.start()
    notes = []
    link = LinkThread(vc.port, tmp_path / "db.sqlite3", on_note=notes.append).start()
    try:
        assert link.wait_ready(15) and link.error is None
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and not any(n.startswith("self-test pips") for n in notes):
            time.sleep(0.1)
    finally:
        link.stop()
        vc.stop()
    assert any(n.startswith("self-test pips") for n in notes), notes
