"""What makes the virtual console quick to start and Doodle Puzzle's minute quick to play, without
changing what the firmware does: the console's clock (hardware.ConsoleClock: real time, or the
fast clock that runs ahead while the console is idle), the .mpy files kept once made
(console.MpyCache: mpy-cross's own output, byte for byte) and the VM's machine code compiled
once per process (vm._compile_once)."""
from __future__ import annotations

import importlib.metadata
import itertools
import time
from pathlib import Path

import pytest

from doodlebox.deploy.firmware_build import compile_tree, device_name, mpy_cross
from doodlebox.virtual.hardware import ConsoleClock


def test_the_real_clock_never_runs_ahead():
    clock = ConsoleClock()
    t0 = clock()
    for _ in range(20):
        clock.sleep(0.001, idle=True)
    assert clock.ahead == 0.0
    assert 0.02 <= clock() - t0 < 5


def test_on_the_fast_clock_an_idle_step_counts_at_least_idle_step_ms():
    clock = ConsoleClock(fast=True)
    clock.sleep(0.001, idle=True)             # the first step ends: steps are counted from here
    t0, seen = clock(), [clock()]
    for _ in range(50):
        clock.sleep(0.001, idle=True)
        seen.append(clock())
    assert all(b - a >= clock.idle_step_ms / 1000 - 0.001 for a, b in itertools.pairwise(seen))   # (read just after)
    assert clock() - t0 >= 50 * clock.idle_step_ms / 1000 - 1e-6
    assert 0 <= clock.ticks_ms() < 1 << 30 and abs(clock.ticks_ms() - clock() * 1000) < 1000


def test_on_the_fast_clock_a_press_or_the_link_keeps_real_time():
    clock = ConsoleClock(fast=True)
    for _ in range(20):
        clock.sleep(0.001, idle=False)        # a button down or waiting to go down
    assert clock.ahead == 0.0
    clock.busy()                              # a byte over USB: real time for quiet_s
    for _ in range(20):
        clock.sleep(0.001, idle=True)
    assert clock.ahead == 0.0
    time.sleep(clock.quiet_s)
    clock.sleep(0.001, idle=True)
    clock.sleep(0.001, idle=True)
    assert clock.ahead > 0


@pytest.mark.slow
def test_the_cpython_console_runs_ahead_while_idle_and_gives_the_clock_back(tmp_path):
    """The fast clock under CPython: the firmware's time.ticks_ms and sleep_ms are the console's
    clock while it runs, and this process's real ones again once it stopped."""
    from doodlebox.virtual.console import VirtualConsole

    vc = VirtualConsole(mode="cpython", flash_dir=tmp_path / "flash", fast_clock=True).start()
    try:
        deadline = time.monotonic() + 60
        while vc.clock.ahead < 5 and time.monotonic() < deadline and vc.error is None:
            time.sleep(0.05)
        assert vc.error is None and vc.clock.ahead >= 5, (vc.error, vc.clock.ahead)
    finally:
        vc.stop()
    a = time.ticks_ms()                       # type: ignore[attr-defined]
    time.sleep(0.05)
    assert 40 <= time.ticks_diff(time.ticks_ms(), a) < 5000   # type: ignore[attr-defined]


def test_the_kept_mpy_files_are_mpy_crosss_own_and_follow_their_source(tmp_path):
    from doodlebox.virtual.console import MpyCache

    cache = MpyCache(tmp_path / "cache", importlib.metadata.version("mpy-cross"))
    cache.folder.mkdir()
    src, rel = tmp_path / "mod.py", Path("doodle/mod.py")
    for text in ("X = 1\n", "def f():\n    return 2\n"):
        src.write_text(text)
        made, kept = tmp_path / "made.mpy", tmp_path / "flash" / "doodle" / "mod.mpy"
        mpy_cross(src, made, source=device_name(rel))
        cache.lay_out(rel, src, kept)
        assert kept.read_bytes() == made.read_bytes()
        kept.unlink()
        cache.lay_out(rel, src, kept)             # the second time from the cache
        assert kept.read_bytes() == made.read_bytes()
    assert len(list(cache.folder.glob("*.mpy"))) == 2 and not list(cache.folder.glob("*.tmp"))


@pytest.mark.slow
def test_the_console_lays_out_what_compile_tree_makes(tmp_path):
    from doodlebox import paths
    from doodlebox.deploy.flash import firmware_files
    from doodlebox.virtual.console import lay_out_flash

    files = {Path("lib") / f.name: f for f in paths.guest().glob("*.py")}
    files.update(firmware_files())
    compile_tree(files, tmp_path / "made")
    lay_out_flash(tmp_path / "laid")
    made = {p.relative_to(tmp_path / "made"): p.read_bytes() for p in (tmp_path / "made").rglob("*") if p.is_file()}
    laid = {p.relative_to(tmp_path / "laid"): p.read_bytes() for p in (tmp_path / "laid").rglob("*") if p.is_file()}
    assert laid == made


@pytest.mark.slow
def test_the_vm_is_compiled_once_per_engine():
    from doodlebox.virtual import vm

    assert vm.run_program("print(6 * 7)", None).stdout.strip() == "42"
    compiled = sum(len(blobs) for blobs in vm._compiled.values())
    for _ in range(3):
        assert vm.run_program("print(6 * 7)", None).stdout.strip() == "42"
    assert sum(len(blobs) for blobs in vm._compiled.values()) == compiled >= 1   # nothing compiled again
