# `random` for the virtual console (the WASI MicroPython has none): xorshift32, seeded once
# from the host's hw_seed(), so a seed gives the same game anywhere.
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


def randrange(start, stop=None, step=1):
    if stop is None:
        start, stop = 0, start
    if not step:
        raise ValueError("step")
    n = (stop - start + step - (1 if step > 0 else -1)) // step
    if n <= 0:
        raise ValueError("empty range")
    k = 0
    while (1 << k) < n:
        k += 1
    r = n
    while r >= n:
        r = getrandbits(k)
    return start + step * r


def randint(a, b):
    return randrange(a, b + 1)


def choice(seq):
    return seq[randrange(len(seq))]


def random():
    return getrandbits(24) / 16777216


def uniform(a, b):
    return a + (b - a) * random()
