# The whole frame of a screen as board/panel.py draws it, a band after another, in a new buffer
# (4736 bytes): for the tests, under CPython and in the VM. The console never needs it whole
# (the e-paper driver takes it a band at a time), so the firmware does not carry this.


def frame(panel, lines):
    out = bytearray(panel.nbytes)
    bb = len(panel.buf)
    for k in range((panel.nbytes + bb - 1) // bb):
        panel.draw(lines, k)
        n = min(bb, panel.nbytes - k * bb)
        out[k * bb:k * bb + n] = memoryview(panel.buf)[:n]
    panel._band = -1     # buf no longer holds the band the driver last asked for
    return out
