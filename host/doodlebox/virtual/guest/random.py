# `random` for the virtual console (the WASI MicroPython has none): xorshift32, seeded once
# from the host's hw_seed(), so a seed gives the same game anywhere. Only what the firmware
# calls (seed, getrandbits): the guest's RAM is the Pico's, which has the module built in.
from hwlink import call

_s = 0


def seed(n=None):
    global _s
    if n is None:
        n = call("hw_seed")
    _s = (int(n) & 0xFFFFFFFF) or 0x9E3779B9


def getrandbits(k):
    global _s
    if not 0 <= k <= 32:
        raise ValueError("bits")
    if not _s:
        seed()
    x = _s
    x ^= (x << 13) & 0xFFFFFFFF
    x ^= x >> 17
    x ^= (x << 5) & 0xFFFFFFFF
    _s = x
    return x >> (32 - k) if k else 0
