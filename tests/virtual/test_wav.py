"""The buzzer heard: virtual/audio.py writes the buzzer model's tone log as a WAV file
(`doodlebox sim --wav`, `doodlebox log --wav`, `make run WAV=...`).

A tone's frequency is read back from the file by counting zero crossings (two a period) over
its span; silence is samples of 0. The file is written as the session goes, so a process killed
mid-session (SIGKILL: no finally, no close) leaves a file that plays up to the last change.
"""
from __future__ import annotations

import itertools
import os
import signal
import subprocess
import sys
import time
import wave
from array import array
from pathlib import Path

import pytest
from cli_run import ENV, ROOT, doodlebox

from board.buzzer import DUTY, TUNES
from doodlebox.errors import InputError
from doodlebox.virtual.audio import AMPLITUDE, RATE, WavWriter, pulse
from doodlebox.virtual.hardware import Buzzer

pytestmark = pytest.mark.slow      # (tests/conftest.py: the quick tier)

# (start s, end s, freq Hz, duty_u16): a known sequence; freq 0 is a span of silence
SEQUENCE = [
    (0.0, 0.25, 0, 0),           # the board sets the pin up silent (freq 1000, duty 0)
    (0.25, 0.45, 523, 32768),
    (0.45, 0.65, 659, 32768),    # straight on to the next note, no gap
    (0.65, 1.0, 0, 0),           # duty 0: silence
    (1.0, 1.25, 1568, 32768),
    (1.25, 1.5, 1568, 16384),    # a duty change: the same note goes on, narrower pulses
    (1.5, 2.0, 0, 65535),        # the pin held high: a piezo makes no sound
]


class Clock:
    """The buzzer model's clock, set by the test (seconds)."""

    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


def samples(path: Path) -> tuple[wave._wave_params, array]:
    with wave.open(str(path)) as r:
        params = r.getparams()
        data = r.readframes(r.getnframes())
    s = array("h")
    s.frombytes(data)
    if sys.byteorder == "big":
        s.byteswap()
    return params, s


def crossings(s) -> int:
    """Sign changes between neighbouring samples (a square wave has two a period)."""
    return sum(1 for a, b in itertools.pairwise(s) if (a < 0) != (b < 0))


def span(s, start: float, end: float):
    return s[round(start * RATE):round(end * RATE)]


def assert_tone(s, freq: int, seconds: float, where: str) -> None:
    assert len(s) > 0, where
    assert 0 not in s, f"{where}: a silent sample in a tone"
    got = crossings(s)
    want = 2 * freq * seconds
    assert abs(got - want) <= 2, f"{where}: {got} zero crossings, {freq} Hz makes {want:.0f}"


def play(buzzer: Buzzer, clock: Clock, writer: WavWriter | None, steps) -> None:
    for start, _end, freq, duty in steps:
        clock.t = start
        buzzer.set(freq or 1000, duty)   # a silent span keeps the pin's last frequency
        if writer is not None:
            writer.update()


def test_pulse_is_a_square_wave_at_its_frequency():
    n = RATE  # one second
    s = array("h")
    s.frombytes(pulse(440, DUTY, n))
    assert crossings(s) in (879, 880, 881)
    assert set(s) == {AMPLITUDE, -AMPLITUDE} and abs(sum(s) / n) < AMPLITUDE / 100
    assert pulse(440, 0, 100) == bytes(200) and pulse(440, 65535, 100) == bytes(200) and pulse(0, DUTY, 10) == bytes(20)
    # a note made in pieces is the same note
    assert pulse(523, DUTY, 1000) + pulse(523, DUTY, 777, phase=1000) == pulse(523, DUTY, 1777)
    # 25 % duty: high a quarter of the time, still centred on zero
    q = array("h")
    q.frombytes(pulse(1000, 16384, n))
    assert sum(1 for v in q if v > 0) == pytest.approx(n / 4, abs=n / 200)
    assert abs(sum(q) / n) < AMPLITUDE / 100
    assert crossings(q) in (1999, 2000, 2001)


def test_a_known_tone_sequence(tmp_path):
    clock = Clock()
    buzzer = Buzzer(17, clock)
    path = tmp_path / "tones.wav"
    w = WavWriter(path, buzzer)
    play(buzzer, clock, w, SEQUENCE)
    clock.t = 2.0
    w.close()
    params, s = samples(path)
    assert (params.nchannels, params.sampwidth, params.framerate) == (1, 2, RATE)
    assert params.nframes == len(s) == 2 * RATE and w.seconds == 2.0
    assert w.notes == 3 and w.error is None and w.closed
    for start, end, freq, duty in SEQUENCE:
        part = span(s, start, end)
        where = f"{start}-{end} s"
        if freq == 0:
            assert not any(part), f"{where}: sound in a silence"
        else:
            assert_tone(part, freq, end - start, where)
            high = sum(1 for v in part if v > 0) / len(part)
            assert high == pytest.approx(duty / 65536, abs=0.01), where


def test_close_writes_the_note_still_sounding_and_twice_is_harmless(tmp_path):
    clock = Clock()
    buzzer = Buzzer(17, clock)
    path = tmp_path / "held.wav"
    with WavWriter(path, buzzer) as w:
        clock.t = 0.5
        buzzer.set(784, DUTY)     # never stopped: it sounds until the writer is closed
        clock.t = 1.5
    w.close()
    _, s = samples(path)
    assert len(s) == round(1.5 * RATE)
    assert not any(span(s, 0, 0.5))
    assert_tone(span(s, 0.5, 1.5), 784, 1.0, "the held note")


KILLED = """
import os, signal, sys
sys.path.insert(0, {host!r})
from doodlebox.virtual.audio import WavWriter
from doodlebox.virtual.hardware import Buzzer
clock = [0.0]
buzzer = Buzzer(17, lambda: clock[0])
w = WavWriter({path!r}, buzzer)
for t, f, d in {steps!r}:
    clock[0] = t
    buzzer.set(f, d)
    w.update()
os.kill(os.getpid(), signal.SIGKILL)
"""


def test_a_killed_process_leaves_a_file_that_plays_up_to_the_last_change(tmp_path):
    path = tmp_path / "killed.wav"
    # the sequence up to 1.25 s: the note begun at 1.0 s is still sounding when the process dies
    steps = [(start, freq or 1000, duty) for start, _e, freq, duty in SEQUENCE if start <= 1.0]
    proc = subprocess.run([sys.executable, "-c", KILLED.format(host=str(ROOT / "host"), path=str(path), steps=steps)],
                          timeout=60)
    assert proc.returncode == -signal.SIGKILL
    params, s = samples(path)
    assert params.framerate == RATE and params.nframes == len(s) == RATE   # up to the change at 1.0 s
    assert path.stat().st_size == 44 + 2 * len(s)                           # the header says what the file holds
    for start, end, freq, _duty in SEQUENCE[:4]:
        part = span(s, start, end)
        if freq == 0:
            assert not any(part)
        else:
            assert_tone(part, freq, end - start, f"{start}-{end} s")


FULL_DISK = """
import resource, signal, sys, wave
sys.path.insert(0, {host!r})
from doodlebox.virtual.audio import WavWriter
from doodlebox.virtual.hardware import Buzzer
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)     # a file size limit: writes fail with EFBIG
resource.setrlimit(resource.RLIMIT_FSIZE, (100000, 100000))
clock = [0.0]
buzzer = Buzzer(17, lambda: clock[0])
w = WavWriter({path!r}, buzzer)
buzzer.set(440, 32768)
w.update()
clock[0] = 3.0                                     # 3 s of sound: 132 KB, more than the disk takes
buzzer.set(440, 0)
w.update()                                         # must not raise: the console runs on
print(w.error)
print(w.closed)
w.close()
"""


@pytest.mark.skipif(not hasattr(signal, "SIGXFSZ"), reason="needs a file size limit (POSIX)")
def test_a_write_that_fails_stops_the_writing_not_the_console(tmp_path):
    path = tmp_path / "full.wav"
    proc = subprocess.run([sys.executable, "-c", FULL_DISK.format(host=str(ROOT / "host"), path=str(path))],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    error, closed = proc.stdout.splitlines()
    assert error.startswith(f"{path}: writing stopped after 2.0 s") and closed == "True", proc.stdout
    params, s = samples(path)           # what was written before the failure still plays
    assert params.nframes == len(s) == 2 * RATE
    assert_tone(s, 440, 2.0, "before the disk was full")


def test_a_file_that_cannot_be_written_is_one_line(tmp_path):
    buzzer = Buzzer(17, Clock())
    with pytest.raises(InputError, match="there is no folder"):
        WavWriter(tmp_path / "nowhere" / "x.wav", buzzer)
    with pytest.raises(InputError, match="is a folder"):
        WavWriter(tmp_path, buzzer)
    r = doodlebox("sim", "--cpython", "--wav", str(tmp_path / "nowhere" / "timer.wav"))
    assert r.returncode == 2, r
    assert r.stderr.strip().count("\n") == 0 and "there is no folder" in r.stderr, r.stderr


def test_log_with_a_board_says_wav_is_ignored(tmp_path):
    path = tmp_path / "timer.wav"
    r = doodlebox("log", "--port", str(tmp_path / "no-such-port"), "--db", str(tmp_path / "db.sqlite3"),
                  "--wait", "1", "--wav", str(path))
    assert r.returncode != 0           # there is no board there either
    assert f"--wav {path} is ignored" in r.stdout, r.stdout
    assert not path.exists()


# ---- the virtual console: the firmware's own tunes -------------------------------------------
def test_every_tune_of_the_firmware_is_in_the_wav_where_it_was_played(tmp_path):
    """Every tune in board/buzzer.py TUNES (the drawing timer's too), played by the firmware's
    Buzzer through the guest's machine.PWM and the hardware model, on a clock ticked every
    millisecond: each note is in the file at its frequency, exactly over the milliseconds the
    tune gives it; rests and the gaps between tunes are silent."""
    from board.buzzer import Buzzer as FirmwareBuzzer
    from doodlebox.hardware.data import load_pins
    from doodlebox.virtual.hardware import Hardware
    from doodlebox.virtual.vm import load_guest_modules

    clock = Clock()
    hw = Hardware(load_pins(), clock=clock)
    machine = load_guest_modules(hw.call)["machine"]
    path = tmp_path / "tunes.wav"
    w = WavWriter(path, hw.buzzer)
    hw.hw_pwm = _then(hw.hw_pwm, w.update)  # type: ignore[method-assign]  # as the virtual console wires it
    buzzer = FirmwareBuzzer(machine.PWM(machine.Pin(hw.buzzer.pin), freq=1000, duty_u16=0))
    now = 0
    spans: list[tuple[int, int, int, str]] = []   # (from ms, to ms, freq or 0, tune)

    def run(ms: int) -> None:
        nonlocal now
        for _ in range(ms):
            now += 1
            clock.t = now / 1000
            buzzer.tick(now)

    for name, tune in TUNES.items():
        run(100)                   # a gap of silence between tunes
        buzzer.play(name, now)
        t = now
        for freq, ms in zip(tune[::2], tune[1::2]):   # (Hz, ms) pairs, one flat tuple
            spans.append((t, t + ms, freq, name))
            t += ms
        run(t - now)
    run(100)
    w.close()
    _, s = samples(path)
    assert len(s) == round(now / 1000 * RATE)
    sounding = [False] * len(s)
    for a, b, freq, name in spans:
        i, j = round(a / 1000 * RATE), round(b / 1000 * RATE)
        if freq:
            assert_tone(s[i:j], freq, (j - i) / RATE, f"{name}: {freq} Hz at {a} ms")
            sounding[i:j] = [True] * (j - i)
    assert not any(v for v, on in zip(s, sounding) if not on), "sound in a rest or between tunes"
    assert w.notes == sum(1 for k, (_a, _b, f, _n) in enumerate(spans)
                          if f and (k == 0 or spans[k - 1][2] != f or spans[k - 1][1] != spans[k][0]))


def _then(fn, after):
    def both(*args):
        out = fn(*args)
        after()
        return out
    return both


def tones_in_order(s, notes: list[int], window: float = 0.04) -> list[int]:
    """The notes heard in the file, in order: each window of fully sounding samples given the
    nearest of ``notes`` by its zero crossings, repeats merged."""
    n = round(window * RATE)
    out: list[int] = []
    for i in range(0, len(s) - n + 1, n):
        w = s[i:i + n]
        if 0 in w:
            continue
        f = crossings(w) / 2 / window
        near = min(notes, key=lambda x: abs(x - f))
        if not out or out[-1] != near:
            out.append(near)
    return out


def test_the_virtual_console_plays_its_start_tune_into_the_wav(tmp_path):
    """The VM console, lobby -> ROLL: a game starts with the "start" tune. The WAV holds each
    note of the buzzer's log at its frequency, sample for sample where the log put it, and
    silence everywhere else."""
    from doodlebox.virtual.console import VirtualConsole

    path = tmp_path / "start.wav"
    want = list(TUNES["start"][::2])   # (Hz, ms) pairs, one flat tuple
    vc = VirtualConsole(mode="vm", flash_dir=tmp_path / "flash", seed=3, wav=path).start()
    try:
        vc.press("ROLL")
        bz = vc.hardware.buzzer
        deadline = time.monotonic() + 60   # a guard against a console that never plays it, not a timing
        while time.monotonic() < deadline and vc.error is None:
            heard = [f for _t, f, _d in bz.tones()]
            if heard[-len(want):] == want and not bz.sounding:
                break
            time.sleep(0.05)
    finally:
        vc.stop()
    assert vc.error is None, vc.error
    tones = bz.tones()
    assert [f for _t, f, _d in tones][-len(want):] == want, tones
    params, s = samples(path)
    assert params.framerate == RATE and params.nchannels == 1
    assert len(s) >= round((tones[-1][0] + tones[-1][2]) * RATE)
    sounding = [False] * len(s)
    for start, freq, seconds in tones:
        a, b = round(start * RATE), round((start + seconds) * RATE)
        assert_tone(s[a:b], freq, (b - a) / RATE, f"{freq} Hz at {start:.3f} s")
        sounding[a:b] = [True] * (b - a)
    assert not any(v for v, on in zip(s, sounding) if not on), "sound outside the buzzer's notes"


def test_sim_killed_after_the_self_test_scale_leaves_it_in_the_file(tmp_path):
    """`doodlebox sim --cpython --selftest --wav FILE` as its own process, killed with SIGKILL
    once the file holds the self-test's scale: the file still plays the whole scale."""
    path = tmp_path / "scale.wav"
    scale = list(TUNES["scale"][::2])   # (Hz, ms) pairs
    cmd = [sys.executable, "-m", "doodlebox.cli", "sim", "--cpython", "--selftest", "--wav", str(path)]
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV)
    heard: list[int] = []
    try:
        deadline = time.monotonic() + 60   # a guard, not a timing
        while time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.2)
            try:
                _, s = samples(path)
            except (OSError, EOFError, wave.Error):
                continue      # not there yet
            heard = tones_in_order(s, scale)
            if len(heard) == len(scale):
                break
        assert proc.poll() is None, proc.communicate()
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)
        for f in (proc.stdin, proc.stdout, proc.stderr):
            if f is not None:
                f.close()
    assert heard == scale
    params, s = samples(path)
    assert path.stat().st_size == 44 + 2 * params.nframes
    assert tones_in_order(s, scale) == scale
