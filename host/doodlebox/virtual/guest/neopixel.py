# micropython-lib's neopixel for the virtual console, as far as doodlebox uses it (set a
# pixel, len, write): write() sends the GRB buffer to the host's WS2812 model.
from binascii import hexlify

from hwlink import call


class NeoPixel:
    def __init__(self, pin, n, bpp=3, timing=1):
        self.pin = pin
        self.n = n
        self.bpp = bpp
        self.buf = bytearray(n * bpp)
        call("hw_pin_init", pin._id, "out", None)  # stock: pin.init(pin.OUT)

    def __len__(self):
        return self.n

    def __setitem__(self, i, v):
        # the wire order is G R B (W)
        b = self.buf
        i *= self.bpp
        b[i] = v[1]
        b[i + 1] = v[0]
        b[i + 2] = v[2]
        if self.bpp == 4:
            b[i + 3] = v[3]

    def write(self):
        call("hw_np_write", self.pin._id, hexlify(self.buf).decode())
