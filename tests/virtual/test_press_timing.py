"""Button presses in the guest's time (virtual/hardware.py, docs/virtual-console.md).

The host can stall the guest: the VM's host calls need the GIL, and other threads (the host
logger, SQLite, the bot) or a busy machine can hold it for 60-150 ms. A press released at a
host-clock deadline then reaches the firmware shorter than it was made, or not at all: the
firmware's debounce (board/buttons.py, 30 ms across two reads) misses it. The hardware model
now holds a timed press until the firmware has read it over its length, each gap between two
reads counting at most 10 ms, and queues presses so that they arrive in order.

Each test runs the firmware's own Buttons against the models twice: presses released at a
host deadline (the old model: press, then release 80 ms later by the host's clock) and
press_for (the new one), with the same stalls; the old misses presses, the new never does.
"""
from __future__ import annotations

import random
import tempfile
import threading
import time
from pathlib import Path

import pytest

from doodlebox.hardware.data import load_pins
from doodlebox.virtual.hardware import Hardware
from doodlebox.virtual.vm import GUEST_DIR, load_guest_modules, run_program

pytestmark = pytest.mark.slow      # (tests/conftest.py: the quick tier)

ROOT = Path(__file__).resolve().parents[2]
PRESS_MS = 80
NAMES = ["D0", "D1", "D2", "D3", "D4", "D5", "D6", "ROLL", "PASS"]


class Clock:
    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


def simulate(timed: bool, presses: int = 60, gap_ms: int = 250, seed: int = 3) -> tuple[list[str], list[str]]:
    """The firmware's poll loop under CPython on a simulated clock: a read of the buttons every
    3 ms, and before one loop in eight the host stalls the guest for 60-150 ms. The host makes
    a press every `gap_ms`, released by its own clock (`timed=False`) or with press_for.
    Returns (presses made, presses the firmware reported)."""
    from board import pins  # type: ignore[import-not-found]
    from board.buttons import Buttons  # type: ignore[import-not-found]

    clock = Clock()
    hw = Hardware(load_pins(), clock=clock)
    machine = load_guest_modules(hw.call)["machine"]
    P = machine.Pin
    buttons = Buttons([(n, P(p, P.IN, P.PULL_UP)) for n, p in pins.BUTTONS])
    rng = random.Random(seed)
    made = [rng.choice(NAMES) for _ in range(presses)]
    events = []  # (host time, action, name), in time order
    for i, name in enumerate(made):
        t = 0.1 + i * gap_ms / 1000
        if timed:
            events.append((t, "press_for", name))
        else:
            events += [(t, "press", name), (t + PRESS_MS / 1000, "release", name)]
    seen: list[str] = []
    end = events[-1][0] + 1.0
    while clock.t < end or hw.pending_presses():
        while events and events[0][0] <= clock.t:  # what the host did meanwhile, in order
            _, action, name = events.pop(0)
            if action == "press_for":
                hw.press_for(name, PRESS_MS)
            else:
                getattr(hw, action)(name)
        seen += buttons.poll(int(clock.t * 1000))
        clock.t += 0.003
        if rng.random() < 1 / 8:
            clock.t += rng.uniform(0.060, 0.150)
        assert clock.t < end + 120, "the presses never drained"
    return made, seen


def test_simulated_stalls_lose_deadline_presses_but_no_press_for():
    made, seen = simulate(timed=False)
    missed = len(made) - len(seen)
    assert missed >= 5, f"the old model should miss presses here (missed {missed})"
    made, seen = simulate(timed=True)
    assert seen == made  # every press, in order


def test_presses_made_faster_than_the_guest_reads_them_queue_in_order():
    made, seen = simulate(timed=True, presses=40, gap_ms=40)  # a press every 40 ms, each 80 ms long
    assert seen == made


def test_press_for_counts_the_guests_reads_not_the_hosts_clock():
    clock = Clock()
    hw = Hardware(load_pins(), clock=clock)
    pin = hw.buttons["ROLL"]
    hw.hw_pin_init(pin, "in", "up")
    hw.press_for("ROLL", 80)
    hw.press_for("PASS", 80)
    assert hw.pressed() == ["ROLL"]  # down at once, the next one waits
    clock.t += 10.0  # no read for 10 s: nothing of the press is used up
    reads = []
    for _ in range(30):
        reads.append(hw.hw_pin_get(pin))
        clock.t += 0.5  # a read every 500 ms (a stalled guest): each gap counts 10 ms
    # down from the first read to the one 80 ms of reads later (8 reads low), then up
    assert reads == [0] * 8 + [1] * 22
    assert hw.pressed() == ["PASS"] and hw.pending_presses() == 1
    hw.clear_presses()
    assert hw.pressed() == [] and hw.pending_presses() == 0
    hw.press("D1")  # a held press is not timed
    clock.t += 60
    assert hw.hw_pin_get(hw.buttons["D1"]) == 0 and hw.pressed() == ["D1"]
    hw.release("D1")
    assert hw.pressed() == []


# ---- the same in the MicroPython VM, with real threads and real stalls ----------------------
GUEST = """
import time
import machine
import hwlink
from board import pins
from board.buttons import Buttons

P = machine.Pin
b = Buttons([(n, P(p, P.IN, P.PULL_UP)) for n, p in pins.BUTTONS])
T0 = time.ticks_ms()


def run():
    # poll like board/loop.py until the heap runs low (the caller collects) or the host is done
    while gc.mem_free() > 40000:
        for name in b.poll(time.ticks_diff(time.ticks_ms(), T0)):
            print("pressed", name)
        if hwlink.call("t_loop"):
            return False
        time.sleep_ms(2)
    return True
"""
BOOT = """
import gc
import sys
sys.path[:] = ['', '/lib']
import presses
while presses.run():
    gc.collect()
"""


def play_in_vm(timed: bool, presses: int = 8, seed: int = 5) -> tuple[list[str], list[str]]:
    """Buttons polled in the VM; the host stalls the guest in its per-loop call, 60-150 ms
    each time 20 ms have passed since the last stall ended, while a thread presses a button
    every 250 ms for 80 ms (released by the host's clock, or press_for)."""
    from doodlebox.deploy.firmware_build import compile_tree

    hw = Hardware(load_pins())
    rng = random.Random(seed)
    made = [rng.choice(NAMES) for _ in range(presses)]
    done = threading.Event()
    state = {"resumed": time.monotonic()}

    def t_loop():
        if done.is_set():
            return 1
        if time.monotonic() - state["resumed"] >= 0.020:
            time.sleep(rng.uniform(0.060, 0.150))  # the host holds the guest
            state["resumed"] = time.monotonic()
        return 0

    def presser():
        try:
            time.sleep(0.3)
            for name in made:
                if timed:
                    hw.press_for(name, PRESS_MS)
                    time.sleep(0.25)
                else:
                    hw.press(name)
                    time.sleep(PRESS_MS / 1000)
                    hw.release(name)
                    time.sleep(0.25 - PRESS_MS / 1000)
            deadline = time.monotonic() + 30
            while hw.pending_presses() and time.monotonic() < deadline:
                time.sleep(0.05)
            time.sleep(0.2)
        finally:
            done.set()

    fns = dict(hw.host_functions())
    fns["t_loop"] = t_loop
    with tempfile.TemporaryDirectory(prefix="doodlebox-press-") as d:
        flash = Path(d)
        files = {Path("lib") / f.name: f for f in GUEST_DIR.glob("*.py")}
        for name in ("__init__.py", "buttons.py", "pins.py"):
            files[Path("board") / name] = ROOT / "firmware" / "board" / name
        (flash / "src").mkdir()
        (flash / "src" / "presses.py").write_text("import gc\n" + GUEST)
        files[Path("presses.py")] = flash / "src" / "presses.py"
        compile_tree(files, flash)
        th = threading.Thread(target=presser, daemon=True)
        th.start()
        r = run_program(BOOT, flash, host_functions=fns, writable=True, guest_root="/")
        th.join(5)
    seen = [line.split()[1] for line in r.stdout.splitlines() if line.startswith("pressed ")]
    return made, seen


def test_in_the_vm_stalls_lose_deadline_presses_but_no_press_for():
    made, seen = play_in_vm(timed=False)
    assert len(seen) < len(made), f"the old model should miss presses here: {seen} for {made}"
    made, seen = play_in_vm(timed=True)
    assert seen == made
