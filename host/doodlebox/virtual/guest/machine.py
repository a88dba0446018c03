# A model of the rp2 port's `machine` (the parts doodlebox uses) for the virtual
# console: every pin level, SPI write and PWM setting goes to the host through
# hwlink. Same names, constants and signatures as stock rp2 MicroPython.
from binascii import hexlify, unhexlify

from hwlink import call

_freq = 125000000


def _pin_id(p):
    if isinstance(p, Pin):
        return p._id
    if isinstance(p, str):
        if p == "LED":
            return 25
        if p[:2] == "GP":
            return int(p[2:])
    return int(p)


class Pin:
    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    ALT = 3
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_FALLING = 4
    IRQ_RISING = 8

    def __init__(self, id, mode=-1, pull=-1, *, value=None, drive=0, alt=-1):
        self._id = _pin_id(id)
        self._mode = None
        if mode != -1 or pull != -1 or value is not None:
            self.init(mode, pull, value=value)

    def init(self, mode=-1, pull=-1, *, value=None, drive=0, alt=-1):
        if value is not None:
            call("hw_pin_set", self._id, 1 if value else 0)
        if mode != -1:
            self._mode = mode
        if mode != -1 or pull != -1:
            # rp2: a pull that is not given means no pull
            m = "out" if self._mode in (1, 2) else "in"
            pl = "up" if pull == 1 else ("down" if pull == 2 else None)
            call("hw_pin_init", self._id, m, pl)

    def value(self, x=None):
        if x is None:
            return call("hw_pin_get", self._id)
        call("hw_pin_set", self._id, 1 if x else 0)

    def __call__(self, x=None):
        return self.value(x)

    def on(self):
        call("hw_pin_set", self._id, 1)

    def off(self):
        call("hw_pin_set", self._id, 0)

    high = on
    low = off

    def toggle(self):
        call("hw_pin_set", self._id, 1 - call("hw_pin_get", self._id))

    def __repr__(self):
        return "Pin(GPIO%d)" % self._id


class SPI:
    MSB = 1
    LSB = 0

    def __init__(self, id, baudrate=1000000, *, polarity=0, phase=0, bits=8,
                 firstbit=1, sck=None, mosi=None, miso=None):
        self._id = id
        self.init(baudrate, polarity=polarity, phase=phase, bits=bits,
                  firstbit=firstbit, sck=sck, mosi=mosi, miso=miso)

    def init(self, baudrate=1000000, *, polarity=0, phase=0, bits=8,
             firstbit=1, sck=None, mosi=None, miso=None):
        self._baud = baudrate
        self._mode = (polarity, phase, bits, firstbit)

    def deinit(self):
        pass

    def write(self, buf):
        m = memoryview(buf)
        for i in range(0, len(m), 256):
            call("hw_spi_write", self._id, hexlify(m[i:i + 256]).decode())

    def read(self, nbytes, write=0):
        self.write(bytes([write]) * nbytes)
        return bytes(nbytes)

    def readinto(self, buf, write=0):
        self.write(bytes([write]) * len(buf))
        for i in range(len(buf)):
            buf[i] = 0

    def write_readinto(self, write_buf, read_buf):
        self.write(write_buf)
        for i in range(len(read_buf)):
            read_buf[i] = 0

    def __repr__(self):
        return "SPI(%d, baudrate=%d)" % (self._id, self._baud)


class PWM:
    def __init__(self, dest, *, freq=None, duty_u16=None, duty_ns=None, invert=False):
        self._pin = _pin_id(dest)
        self._f = 1907  # the rp2 slice default (125 MHz / 65536)
        self._d = 0
        self.init(freq=freq, duty_u16=duty_u16, duty_ns=duty_ns)

    def init(self, *, freq=None, duty_u16=None, duty_ns=None, invert=False):
        if freq is not None:
            self._f = int(freq)
        if duty_u16 is not None:
            self._d = int(duty_u16)
        elif duty_ns is not None:
            self._d = self._ns2u16(duty_ns)
        self._send()

    def _send(self):
        call("hw_pwm", self._pin, self._f, self._d)

    def _ns2u16(self, ns):
        return min(65535, max(0, int(ns) * self._f * 65536 // 1000000000))

    def freq(self, f=None):
        if f is None:
            return self._f
        self._f = int(f)
        self._send()

    def duty_u16(self, d=None):
        if d is None:
            return self._d
        self._d = min(65535, max(0, int(d)))
        self._send()

    def duty_ns(self, ns=None):
        if ns is None:
            return self._d * 1000000000 // (self._f * 65536) if self._f else 0
        self._d = self._ns2u16(ns)
        self._send()

    def deinit(self):
        self._d = 0
        self._send()

    def __repr__(self):
        return "<PWM pin=%d freq=%d duty_u16=%d>" % (self._pin, self._f, self._d)


def unique_id():
    return unhexlify(call("hw_unique_id"))


def freq(hz=None):
    global _freq
    if hz is None:
        return _freq
    _freq = int(hz)


def reset():
    # The virtual console restarts the board from its flash; the host call does not return.
    call("hw_reset", "hard")
    raise SystemExit("machine.reset")


def soft_reset():
    call("hw_reset", "soft")
    raise SystemExit("machine.soft_reset")


def idle():
    pass


def disable_irq():
    return 0


def enable_irq(state=0):
    pass
