"""The virtual console's buzzer as a WAV file, so a person can listen to it (`doodlebox sim --wav`).

The buzzer model (virtual/hardware.py, `Buzzer`) logs every change of its PWM pin as
``(t, freq, duty_u16)``, ``t`` in seconds of the console's clock since the hardware was made.
`WavWriter` turns that log into mono 16-bit PCM at `RATE` samples a second: while the pin's
duty is neither 0 nor full, a pulse wave at the PWM frequency with the pin's duty (the firmware's
50 % is a square wave), centred on zero; silence otherwise (a pin held low or high moves no
piezo). Sample ``i`` of the file is time ``i / rate`` of the log, so the file lasts as long as
the session and every tone sits where the firmware's clock put it, whatever the tune.

The file is written as the session goes: `update()` (the virtual console calls it after each PWM
change, on the firmware's thread) writes every span of the log that has ended, and the WAV
header is brought up to date and the file flushed after each write, so a process that is killed
leaves a file that plays up to the last change. `close()` writes the span still going, up to
the clock's time then.
"""
from __future__ import annotations

import contextlib
import sys
import threading
import wave
from array import array
from pathlib import Path
from typing import BinaryIO, Protocol

from doodlebox.errors import InputError

__all__ = ["AMPLITUDE", "RATE", "WavWriter", "pulse"]

RATE = 22050  # samples a second: plenty for the buzzer's tunes (all under 2 kHz)
AMPLITUDE = 8000  # a 50 % square wave swings +-AMPLITUDE (of 32767): full scale is harsh
FULL = 65536  # duty_u16 65535 is the pin held high: no sound
CHUNK = RATE  # samples made at a time (a long silence is not one huge buffer)


class ToneLog(Protocol):
    """What the writer reads of the buzzer model (virtual/hardware.py `Buzzer`)."""

    log: list[tuple[float, int, int]]

    def now(self) -> float: ...


def pulse(freq: int, duty: int, n: int, phase: int = 0, rate: int = RATE, amplitude: int = AMPLITUDE) -> bytes:
    """``n`` samples (16-bit, little-endian) of a pulse wave: ``freq`` Hz, high for ``duty``/65536
    of each period, centred on zero; silence for freq <= 0 or a duty of 0 or full.

    ``phase`` is the number of samples of the note already made: the wave goes on where the
    previous call left it. Integer arithmetic: the frequency does not drift over a long note.
    """
    if freq <= 0 or duty <= 0 or duty >= FULL - 1 or n <= 0:
        return bytes(2 * max(0, n))
    hi = round(2 * amplitude * (FULL - duty) / FULL)  # hi * duty + lo * (1 - duty) == 0
    lo = hi - 2 * amplitude
    threshold = duty * rate
    f = freq % rate
    start = phase * f
    out = array("h", [hi if (start + i * f) % rate * FULL < threshold else lo for i in range(n)])
    if sys.byteorder == "big":
        out.byteswap()
    return out.tobytes()


class WavWriter:
    """Writes a buzzer's tone log to ``path`` as it grows (see the module's docstring).

    Thread-safe: `update()` runs on the firmware's thread, `close()` on the caller's. A write
    that fails (a full disk) stops the writing, never the console: the reason is in ``error``.
    """

    def __init__(self, path: str | Path, buzzer: ToneLog, rate: int = RATE) -> None:
        self.path = Path(path)
        self.buzzer = buzzer
        self.rate = int(rate)
        self.error: str | None = None
        self.notes = 0            # notes begun so far (a new frequency, or sound after silence)
        self._lock = threading.Lock()
        self._seen = 0            # entries of the log written
        self._at = 0              # samples written
        self._freq = 0
        self._duty = 0
        self._origin = 0          # the sample where the note sounding now began
        if self.path.is_dir():
            raise InputError(f"{self.path}: is a folder, not a file to write the sound to")
        if not self.path.parent.is_dir():
            raise InputError(f"{self.path}: cannot be written: there is no folder {self.path.parent}")
        try:
            self._file: BinaryIO | None = open(self.path, "wb")  # closed by close()
        except OSError as exc:
            raise InputError(f"{self.path}: cannot be written ({exc.strerror or exc})") from None
        self._wav: wave.Wave_write | None = wave.open(self._file, "wb")
        self._wav.setnchannels(1)
        self._wav.setsampwidth(2)
        self._wav.setframerate(self.rate)
        self._write(b"")  # the header now: an empty file is already a WAV

    @property
    def seconds(self) -> float:
        """The sound written so far, in seconds."""
        return self._at / self.rate

    @property
    def closed(self) -> bool:
        return self._wav is None

    def update(self) -> None:
        """Write the spans of the log that have ended (each change ends the span before it)."""
        with self._lock:
            log = self.buzzer.log
            while self._wav is not None and self._seen < len(log):
                t, freq, duty = log[self._seen]
                self._seen += 1
                self._fill(t)
                self._set(int(freq), int(duty))

    def close(self, end: float | None = None) -> None:
        """Write the log to its end and the span still going up to ``end`` (default: the
        buzzer's clock now), finish the header and close the file. Closing twice is harmless."""
        self.update()
        with self._lock:
            if self._wav is None:
                return
            self._fill(self.buzzer.now() if end is None else end)
            wav, f = self._wav, self._file
            self._wav = self._file = None
            try:
                wav.close()
            except OSError as exc:
                self._failed(exc)
            finally:
                if f is not None:
                    f.close()

    def __enter__(self) -> WavWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- inside the lock ------------------------------------------------------------------
    def _set(self, freq: int, duty: int) -> None:
        was = self._freq > 0 and 0 < self._duty < FULL - 1
        now = freq > 0 and 0 < duty < FULL - 1
        if now and (not was or freq != self._freq):
            self._origin = self._at  # a new note starts its wave at the beginning of a period
            self.notes += 1
        self._freq, self._duty = freq, duty

    def _fill(self, t: float) -> None:
        """Samples up to time ``t`` (seconds of the log) with the pin as it is now."""
        end = round(t * self.rate)
        while self._wav is not None and self._at < end:
            n = min(CHUNK, end - self._at)
            self._write(pulse(self._freq, self._duty, n, self._at - self._origin, self.rate))

    def _write(self, data: bytes) -> None:
        assert self._wav is not None and self._file is not None
        try:
            self._wav.writeframes(data)  # also rewrites the header's lengths
            self._file.flush()
        except OSError as exc:
            self._failed(exc)
            return
        self._at += len(data) // 2

    def _failed(self, exc: OSError) -> None:
        self.error = f"{self.path}: writing stopped after {self._at / self.rate:.1f} s ({exc.strerror or exc})"
        wav, f = self._wav, self._file
        self._wav = self._file = None
        if wav is not None:
            with contextlib.suppress(OSError):
                wav.close()
        if f is not None:
            with contextlib.suppress(OSError):
                f.close()
