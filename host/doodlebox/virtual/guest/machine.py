# The rp2 port's `machine` for the virtual console, as far as doodlebox uses it: Pin (value,
# calling it; no init), PWM (freq, duty_u16), SPI.write, unique_id, reset, soft_reset. Every pin
# level, SPI write and PWM setting goes to the host through hwlink. Same names, constants and
# behaviour as stock rp2 MicroPython; what doodlebox never calls (Pin.init/on/off/toggle,
# PWM.deinit/duty_ns, SPI reads, freq, irq) is left out to keep the guest's RAM small: a Pico
# has all of it built in, at no RAM cost.
from binascii import hexlify, unhexlify

from hwlink import call


def _pin_id(p):
    if isinstance(p, Pin):
        return p._id
    if isinstance(p, str):  # "GP14", "LED"
        return 25 if p == "LED" else int(p[2:])
    return int(p)


class Pin:
    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    PULL_UP = 1
    PULL_DOWN = 2

    # value= (drive=, alt=) is taken as **kw: each keyword-only default costs the guest ~70
    # bytes. Pin.init() is left out: doodlebox sets a pin up once, in the constructor.
    def __init__(self, id, mode=-1, pull=-1, **kw):
        self._id = i = _pin_id(id)
        value = kw.get("value")
        if value is not None:
            call("hw_pin_set", i, 1 if value else 0)
        if mode != -1 or pull != -1:
            # rp2: a pull that is not given means no pull
            call("hw_pin_init", i, "out" if mode in (1, 2) else "in",
                 "up" if pull == 1 else ("down" if pull == 2 else None))

    def value(self, x=None):
        if x is None:
            return call("hw_pin_get", self._id)
        call("hw_pin_set", self._id, 1 if x else 0)

    __call__ = value


class SPI:
    def __init__(self, id, baudrate=1000000, **kw):  # polarity, phase, bits, firstbit, sck, mosi, miso
        self._id = id

    def write(self, buf):
        m = memoryview(buf)
        for i in range(0, len(m), 256):
            call("hw_spi_write", self._id, hexlify(m[i:i + 256]).decode())


class PWM:
    def __init__(self, dest, **kw):  # freq, duty_u16 (duty_ns, invert: not modelled)
        self._pin = _pin_id(dest)
        self._f = int(kw.get("freq", 1907))  # the rp2 slice's default: 125 MHz / 65536
        self.duty_u16(kw.get("duty_u16", 0))

    def freq(self, f=None):
        if f is None:
            return self._f
        self._f = int(f)
        call("hw_pwm", self._pin, self._f, self._d)

    def duty_u16(self, d=None):
        if d is None:
            return self._d
        self._d = min(65535, max(0, int(d)))
        call("hw_pwm", self._pin, self._f, self._d)


def unique_id():
    return unhexlify(call("hw_unique_id"))


def reset():
    # The virtual console restarts the board from its flash; the host call does not return.
    call("hw_reset", "hard")
    raise SystemExit("machine.reset")


def soft_reset():
    call("hw_reset", "soft")
    raise SystemExit("machine.soft_reset")
