"""Host-side models of the Pico's hardware, behind the guest's ``hw_*`` host functions.

The guest modules in ``virtual/guest/`` (``machine``, ``neopixel``, ``random``) call
the functions returned by :meth:`Hardware.host_functions` (in the VM through
``host.call``, under CPython through ``hwlink._backend = hardware.call``). The
names and arguments are the table in docs/architecture.md.

Pin model: a pin configured ``"out"`` reads back its driven level; an input reads
its pull (``"up"`` -> 1, ``"down"``/none -> 0) unless a button holds it at 0. So a
button pin set up as ``Pin(n, Pin.IN, Pin.PULL_UP)`` reads 1 released and 0 pressed.
Timed presses (``press_for``) last in the guest's time, not the host's: see
:class:`Hardware`. The e-paper BUSY pin reads ``epaper.busy(clock())``; a falling-then-rising edge on
RST calls ``epaper.reset()``; SPI writes on the e-paper bus while CS is low go to
``epaper.spi_write(data, dc)`` with the DC pin's level.
"""

from __future__ import annotations

import binascii
import collections
import json
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path

from doodlebox.hardware.data import load_pins
from doodlebox.virtual.ssd1680 import Ssd1680Model

__all__ = ["USB_READ_CAP", "Buzzer", "ConsoleClock", "Hardware", "Ws2812Strip"]

# hw_usb_read answers at most this many bytes, so the hex reply (896 characters and its JSON)
# fits the VM's 1024-byte host result buffer (vm.DEFAULT_HOST_RESULT_BYTES, in the guest heap).
USB_READ_CAP = 448


class Ws2812Strip:
    """The LED dice chain: keeps the latest frame (GRB bytes) and counts writes."""

    def __init__(self, pin: int, dice: int = 7, pips_per_die: int = 7, max_level: int = 255) -> None:
        self.pin = pin
        self.n_dice = dice
        self.pips_per_die = pips_per_die
        self.max_level = max_level
        self.count = dice * pips_per_die
        self.frame = bytes(3 * self.count)  # GRB, as on the wire
        self.writes = 0
        self.max_seen = 0  # highest channel value ever written (power budget check)

    def write(self, data: bytes) -> None:
        data = bytes(data)
        if len(data) < len(self.frame):  # a short write leaves the tail as it was
            data = data + self.frame[len(data):]
        self.frame = data
        self.writes += 1
        if data:
            self.max_seen = max(self.max_seen, max(data))

    def pixels(self) -> list[tuple[int, int, int]]:
        """Every LED of the chain as (r, g, b)."""
        f = self.frame
        return [(f[3 * i + 1], f[3 * i], f[3 * i + 2]) for i in range(self.count)]

    def dice(self) -> list[list[tuple[int, int, int]]]:
        """Per die, its pips as (r, g, b) in pip order TL, TR, ML, C, MR, BL, BR."""
        px = self.pixels()
        k = self.pips_per_die
        return [px[d * k:(d + 1) * k] for d in range(self.n_dice)]

    def lit(self) -> list[list[bool]]:
        """Per die, which pips are on (any channel non-zero)."""
        return [[any(p) for p in die] for die in self.dice()]


class Buzzer:
    """A passive piezo on a PWM pin: logs every change of (freq, duty)."""

    def __init__(self, pin: int, clock: Callable[[], float]) -> None:
        self.pin = pin
        self._clock = clock
        self._t0 = clock()
        self.log: list[tuple[float, int, int]] = []  # (t_seconds since start, freq, duty_u16)
        self.freq = 0
        self.duty = 0

    def now(self) -> float:
        return self._clock() - self._t0

    @property
    def sounding(self) -> bool:
        return self.freq > 0 and self.duty > 0

    def set(self, freq: int, duty: int) -> None:
        freq, duty = int(freq), int(duty)
        if (freq, duty) == (self.freq, self.duty):
            return
        self.freq, self.duty = freq, duty
        self.log.append((self.now(), freq, duty))

    def tones(self, now: float | None = None) -> list[tuple[float, int, float]]:
        """Notes that sounded: (start_t, freq, duration), times in seconds since start.

        Duty 0 or freq 0 is silence; a duty change at the same frequency continues
        the note. A note still sounding lasts until ``now`` (default: the clock).
        """
        out: list[tuple[float, int, float]] = []
        start: float | None = None
        cur = 0
        for t, f, d in self.log:
            on = f > 0 and d > 0
            if start is not None and (not on or f != cur):
                out.append((start, cur, t - start))
                start = None
            if on and start is None:
                start, cur = t, f
        if start is not None:
            end = self.now() if now is None else now
            out.append((start, cur, max(0.0, end - start)))
        return out


class ConsoleClock:
    """The virtual console's clock: seconds as the console lives them (call it), for the
    hardware models and, with the fast clock, for the firmware's ``time`` too.

    By default it is real time (``time.monotonic``, from when it was made) and the firmware in
    the VM reads the VM's own ``time``, which is real time as well.

    ``fast=True`` (``VirtualConsole(fast_clock=True)``, ``doodlebox demo --fast-clock``): the
    firmware's ``time.ticks_ms`` and ``time.sleep_ms`` are this clock (virtual/console.py,
    ``FAST_BOOT``), and while the console is idle its time runs ahead of real time: each of
    the loop's steps (the time from the end of one ``sleep_ms`` to the end of the next) counts
    at least ``idle_step_ms`` of the console's time, however little real time it took. Idle
    is what ``sleep(..., idle=True)`` is told (no button down or waiting to go down: see
    VirtualConsole) and no USB byte either way for ``quiet_s`` of real time (``busy()``). So
    a console waiting on its own timer (Doodle Puzzle's drawing minute: its countdown, beeps
    and alarm) lives that minute in a few seconds, while presses, the link, its
    acknowledgements and everything a person or a PC takes part in run in real time. A step
    is never shorter than in real time, so a timer is seen at most one step after its time:
    ``idle_step_ms``, or the step's real length when that is longer (as on the real clock).
    Only the console's clock changes: the firmware is the same.
    """

    idle_step_ms = 40.0   # the least an idle step counts (the drawing minute: ~1,500 steps)
    quiet_s = 0.5         # real seconds after a USB byte (either way) before time may run ahead

    def __init__(self, fast: bool = False) -> None:
        self.fast = fast
        self._t0 = time.monotonic()
        self.ahead = 0.0          # seconds the console's time ran ahead of real time (idle steps)
        self._step_end: float | None = None   # the console's time when the last step ended
        self._busy_until = 0.0

    def __call__(self) -> float:
        return time.monotonic() - self._t0 + self.ahead

    def ticks_ms(self) -> int:
        """The firmware's ``time.ticks_ms()`` (MicroPython's 2**30 period)."""
        return int(self() * 1000) & 0x3FFFFFFF

    def busy(self) -> None:
        """Something went over USB: real time for the next ``quiet_s`` real seconds."""
        self._busy_until = time.monotonic() + self.quiet_s

    def sleep(self, seconds: float, idle: bool = False) -> None:
        """The firmware's sleep: real time passes; on the fast clock, an idle step that took
        less than ``idle_step_ms`` ends that much later in the console's time."""
        time.sleep(max(0.0, seconds))
        if self.fast and idle and self._step_end is not None and time.monotonic() >= self._busy_until:
            short = self._step_end + self.idle_step_ms / 1000 - self()
            if short > 0:
                self.ahead += short
        self._step_end = self()


class Hardware:
    """Pin levels, buttons, LED strip, buzzer, e-paper and USB of one virtual Pico.

    ``pins`` is hardware/pins.json as a dict. ``epaper`` defaults to a new
    ``ssd1680.Ssd1680Model()``; ``clock`` (seconds, default ``time.monotonic``) times
    the buzzer log and the firmware's reads of the buttons, and is what ``epaper.busy()``
    is given. Host functions run on the VM's thread; the other methods may be called from
    any thread (one lock guards the state).

    Buttons: ``press(name)`` holds a button down until ``release(name)``. ``press_for(name,
    ms)`` is a press as a person makes it, measured in the guest's time: the button stays
    down until the firmware has read its pin low over ``ms`` milliseconds, then up until it
    has read it high over ``release_ms``; each gap between two reads counts at most
    ``poll_gap_max`` seconds (10 ms, more than the Pico's loop ever takes). So a guest that
    the host stalls (the GIL, a busy machine) sees the whole press, however late. Timed
    presses queue: the next goes down once the one before is over, so they reach the
    firmware in the order they were made and never merge (docs/virtual-console.md).
    """

    poll_gap_max = 0.010  # seconds: the most one gap between two reads of a pin counts
    release_ms = 50.0  # the least a timed press is seen released before the next goes down

    def __init__(
        self,
        pins: dict,
        seed: int = 1,
        unique_id: bytes = b"\xd0\x0d\x1e\xb0\x00\x00\x00\x01",
        *,
        epaper: Ssd1680Model | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.pins = pins
        self.seed = int(seed) & 0xFFFFFFFF
        self.unique_id = bytes(unique_id)
        self._clock = clock
        self._lock = threading.RLock()
        self.buttons: dict[str, int] = {
            k: int(v) for k, v in pins.get("buttons", {}).items() if not k.startswith("_")
        }
        self._button_pins = set(self.buttons.values())
        self._mode: dict[int, str] = {}
        self._pull: dict[int, str | None] = {}
        self._out: dict[int, int] = {}
        self._held: set[int] = set()  # pins held down by press()
        # timed presses, oldest first: [pin, ms]; the first one is the one going on
        self._presses: collections.deque[tuple[int, float]] = collections.deque()
        self._up = False  # the first press is over: its pin is up for release_ms
        self._seen = 0.0  # seconds of the phase (down / up) the guest has seen so far
        self._read_at: float | None = None  # when the guest last read the first press's pin
        led = pins.get("leds", {})
        self.leds = Ws2812Strip(
            int(led.get("pin", 16)),
            int(led.get("dice", 7)),
            int(led.get("pips_per_die", 7)),
            int(led.get("max_level", 255)),
        )
        self.buzzer = Buzzer(int(pins.get("buzzer", {}).get("pin", 17)), clock)
        ep = pins.get("epaper", {})
        self._ep_spi = int(ep.get("spi", 1))
        self._ep_cs = int(ep.get("cs", 9))
        self._ep_dc = int(ep.get("dc", 8))
        self._ep_rst = int(ep.get("rst", 12))
        self._ep_busy = int(ep.get("busy", 13))
        self._rst_fell = False
        if epaper is None:
            epaper = Ssd1680Model()
        self.epaper = epaper
        self.spi_bytes = 0  # bytes delivered to the e-paper model
        self.spi_ignored = 0  # bytes written with CS high or on another bus
        self.pwm: dict[int, tuple[int, int]] = {}  # pin -> (freq, duty) of every PWM pin
        self._usb_read: Callable[[int], bytes] | None = None
        self._usb_write: Callable[[bytes], object] | None = None
        self.usb_dropped = 0  # bytes the guest wrote while no USB pipe was attached
        self.calls = 0  # host calls served
        # (free before, free after, allocated after) at each of the firmware's collections,
        # reported by the virtual console's boot code (virtual/console.py)
        self.collections: list[tuple[int, int, int]] = []
        self.on_reset: Callable[[str], None] | None = None  # set by the virtual console
        # seconds between the firmware's reads of the ROLL button (the latest 10 000)
        self.button_poll_gaps: collections.deque[float] = collections.deque(maxlen=10000)
        self._roll_pin = self.buttons.get("ROLL", -1)
        self._roll_read: float | None = None

    @classmethod
    def from_json(cls, path: str | Path | None = None, **kwargs) -> Hardware:
        return cls(load_pins(path), **kwargs)

    # ---- host side: buttons, USB --------------------------------------------------
    def _button_pin(self, name: str) -> int:
        try:
            return self.buttons[name]
        except KeyError:
            raise KeyError(f"no button {name!r}; buttons are {sorted(self.buttons)}") from None

    def press(self, name: str) -> None:
        """Hold the button down (until release); timed presses of it that wait are dropped."""
        pin = self._button_pin(name)
        with self._lock:
            self._drop_presses(pin)
            self._held.add(pin)

    def release(self, name: str) -> None:
        """Let the button go, held or timed (timed presses of it that wait are dropped too)."""
        pin = self._button_pin(name)
        with self._lock:
            self._drop_presses(pin)
            self._held.discard(pin)

    def press_for(self, name: str, ms: float) -> None:
        """Press the button for ``ms`` milliseconds as the firmware sees them, after the
        timed presses made before this one (see the class docstring)."""
        pin = self._button_pin(name)
        with self._lock:
            self._presses.append((pin, float(ms)))

    def pending_presses(self) -> int:
        """Timed presses not over yet (the one going on included)."""
        with self._lock:
            return len(self._presses)

    def clear_presses(self) -> None:
        """Forget the timed presses (the console does when the firmware stops: a press the
        firmware never read would otherwise reach the next boot)."""
        with self._lock:
            self._presses.clear()
            self._next_press()

    def pressed(self) -> list[str]:
        """The buttons down now."""
        with self._lock:
            return sorted(n for n, p in self.buttons.items() if self._down(p))

    def _down(self, pin: int) -> bool:
        if pin in self._held:
            return True
        return bool(self._presses) and not self._up and self._presses[0][0] == pin

    def _next_press(self) -> None:
        self._up = False
        self._seen = 0.0
        self._read_at = None  # the next press's time starts at the first read of its pin

    def _drop_presses(self, pin: int) -> None:
        if self._presses and self._presses[0][0] == pin:
            self._next_press()
        self._presses = collections.deque(p for p in self._presses if p[0] != pin)

    def _guest_read(self, pin: int) -> None:
        """The firmware read ``pin``: the first timed press counts the time since the last read."""
        if not self._presses or self._presses[0][0] != pin:
            return
        t = self._clock()
        if self._read_at is not None:
            self._seen += min(t - self._read_at, self.poll_gap_max)
        self._read_at = t
        ms = self._seen * 1000 + 1e-6  # (the clock's float steps)
        if not self._up:
            if ms >= self._presses[0][1]:
                self._up = True  # this read sees it released
                self._seen = 0.0
        elif ms >= self.release_ms:
            self._presses.popleft()
            self._next_press()

    def attach_usb(self, read_fn: Callable[[int], bytes], write_fn: Callable[[bytes], object]) -> None:
        """Bridge the guest's USB stream to a byte pipe (e.g. ``PtyPort.read``/``.write``)."""
        with self._lock:
            self._usb_read, self._usb_write = read_fn, write_fn

    def detach_usb(self) -> None:
        with self._lock:
            self._usb_read = self._usb_write = None

    # ---- inspection -----------------------------------------------------------------
    def level(self, pin: int) -> int:
        """What the guest would read on ``pin`` now."""
        with self._lock:
            if self._down(pin):
                return 0
            if pin == self._ep_busy and self._mode.get(pin) != "out":
                return 1 if self.epaper.busy(self._clock()) else 0
            if self._mode.get(pin) == "out":
                return self._out.get(pin, 0)
            return 1 if self._pull.get(pin) == "up" else 0

    def mode(self, pin: int) -> str | None:
        return self._mode.get(pin)

    def pull(self, pin: int) -> str | None:
        return self._pull.get(pin)

    def now(self) -> float:
        """Seconds since this Hardware was made (the buzzer log's time base)."""
        return self.buzzer.now()

    # ---- host functions ---------------------------------------------------------
    def hw_pin_init(self, pin, mode, pull=None):
        pin = int(pin)
        if mode not in ("in", "out"):
            raise ValueError(f"pin mode must be 'in' or 'out', not {mode!r}")
        if pull not in (None, "up", "down"):
            raise ValueError(f"pull must be 'up', 'down' or null, not {pull!r}")
        with self._lock:
            self._mode[pin] = mode
            self._pull[pin] = pull
        return None

    def hw_pin_get(self, pin):
        pin = int(pin)
        if pin == self._roll_pin:  # how often the firmware looks at its buttons
            t = self._clock()
            if self._roll_read is not None:
                self.button_poll_gaps.append(t - self._roll_read)
            self._roll_read = t
        if pin in self._button_pins:
            with self._lock:
                self._guest_read(pin)
        return self.level(pin)

    def hw_pin_set(self, pin, level):
        pin, level = int(pin), 1 if level else 0
        with self._lock:
            old = self._out.get(pin, 0)
            self._out[pin] = level
            if pin == self._ep_rst:
                if old == 1 and level == 0:
                    self._rst_fell = True
                elif old == 0 and level == 1 and self._rst_fell:
                    self._rst_fell = False
                    self.epaper.reset()
        return None

    def hw_spi_write(self, bus, hexdata):
        data = binascii.unhexlify(hexdata)
        with self._lock:
            cs = self._ep_cs
            if int(bus) == self._ep_spi and self._mode.get(cs) == "out" and self._out.get(cs, 0) == 0:
                self.spi_bytes += len(data)
                self.epaper.spi_write(data, self._out.get(self._ep_dc, 0))
            else:
                self.spi_ignored += len(data)
        return None

    def hw_pwm(self, pin, freq_hz, duty_u16):
        pin, freq, duty = int(pin), int(freq_hz), int(duty_u16)
        with self._lock:
            self.pwm[pin] = (freq, duty)
            if pin == self.buzzer.pin:
                self.buzzer.set(freq, duty)
        return None

    def hw_np_write(self, pin, hexdata):
        data = binascii.unhexlify(hexdata)
        with self._lock:
            if int(pin) == self.leds.pin:
                self.leds.write(data)
        return None

    def hw_usb_read(self, max_bytes):
        n = max(0, min(int(max_bytes), USB_READ_CAP))
        with self._lock:
            fn = self._usb_read
        if fn is None or n == 0:
            return ""
        return binascii.hexlify(bytes(fn(n) or b"")[:n]).decode("ascii")

    def hw_usb_write(self, hexdata):
        data = binascii.unhexlify(hexdata)
        with self._lock:
            fn = self._usb_write
            if fn is None:
                self.usb_dropped += len(data)
                return None
        fn(data)
        return None

    def hw_unique_id(self):
        return binascii.hexlify(self.unique_id).decode("ascii")

    def power_up(self, fresh: bool) -> None:
        """A power-up; `fresh`: on a flash that holds no boot counter and no id yet, where the
        firmware makes the console's id from its generator as it starts (firmware/doodle/bootnum.py).
        The generator's first seed is then the operating system's randomness, as a Pico's is its
        ring oscillator's, so every new virtual console has an id of its own; the firmware seeds it
        again once the id is made, and the dice come from `seed` as ever."""
        self._entropy = fresh

    def hw_seed(self):
        if getattr(self, "_entropy", False):
            self._entropy = False
            return int.from_bytes(os.urandom(4), "little") or 1
        return self.seed

    def hw_reset(self, kind):
        """machine.reset() / machine.soft_reset() in the guest: the console restarts the board."""
        if self.on_reset is not None:
            self.on_reset(str(kind))

    def hw_heap(self, free_before, free_after, alloc_after):
        with self._lock:
            self.collections.append((int(free_before), int(free_after), int(alloc_after)))

    _NAMES = (
        "hw_pin_init", "hw_pin_get", "hw_pin_set", "hw_spi_write", "hw_pwm",
        "hw_np_write", "hw_usb_read", "hw_usb_write", "hw_unique_id", "hw_seed", "hw_heap", "hw_reset",
    )

    def host_functions(self) -> dict[str, Callable[..., object]]:
        """The ``hw_*`` functions by name, for ``start_session(host_functions=...)``."""
        return {name: self._counted(getattr(self, name)) for name in self._NAMES}

    def _counted(self, fn):
        def wrapper(*args):
            self.calls += 1
            return fn(*args)

        wrapper.__name__ = fn.__name__
        return wrapper

    def call(self, name: str, *args):
        """Dispatch one host call; the CPython backend (``hwlink._backend``, see vm.load_guest_modules).

        Arguments and the result go through JSON as they do from the VM.
        """
        if name not in self._NAMES:
            raise KeyError(f"unknown host function {name!r}")
        args = json.loads(json.dumps(args))
        self.calls += 1
        return json.loads(json.dumps(getattr(self, name)(*args)))
