# SSD1680 e-paper driver (2.9" 128x296 panel used landscape 296x128), non-blocking.
#
# The frame is a framebuf.FrameBuffer(buf, 296, 128, framebuf.MONO_VLSB) image (4736 bytes)
# with 1 = white and 0 = black (the SSD1680 RAM convention, so no inversion is needed). The
# driver reads it through a function image(off, n) -> the bytes from off (n at most; fewer
# at the end of a band): board/panel.py draws it a band at a time, the self-test hands over
# a whole buffer (board/selftest.py whole()).
#
# Landscape trick: with data entry mode 0x06 (X decrement, Y increment, Y counter first),
# RAM X window 15 -> 0 and Y window 0 -> 295, counters X=15, Y=0 (_ram_start), the VLSB
# buffer is sent to RAM as is: buffer byte [page*296 + x] goes to RAM byte (X=15-page, Y=x).
# Bit b of that byte (landscape y = 8*page + b) is RAM bit b, i.e. panel column
# 8*(15-page) + 7 - b.
# So landscape (x, y) shows at panel (x_p = 127 - y, y_p = x).
#
# The panel's built-in (OTP) waveforms are used; no LUT is uploaded:
#   full refresh:    display update control 2 (0x22) <- _UPDATE_FULL 0xF7 (clock+analog on,
#                    load temperature + LUT, display mode 1, analog+clock off); both RAMs,
#                    black/white (0x24) and red (0x26), get the new image first.
#   partial refresh: 0x22 <- _UPDATE_PARTIAL 0xFF (the same with display mode 2, which
#                    compares the new image in the black/white RAM with the previous one in
#                    the red RAM): black/white RAM <- the new image, refresh, and once BUSY
#                    is low, red RAM <- the same image again (GxEPD2's way), so the red RAM
#                    always holds the picture on the panel for the next partial refresh.
# The driver keeps no copy of the image. It reads the caller's image from show() until
# busy() is False (the red RAM is written after the refresh), so the caller must not change
# it meanwhile (board/panel.py keeps new lines pending instead). If it changes anyway, the
# CRC-32 of each RAM's bytes as written shows it (the red RAM's after the refresh against the
# black/white RAM's before), and the next refresh is a full one: the red RAM no longer
# matches the panel.
# Commands are named as in the SSD1680 datasheet's command table.
#
# Nothing here sleeps: show() only queues; tick(now_ms) runs one small step of a state
# machine (reset pulse, SW reset, init, RAM writes in chunks, update, BUSY polling with a
# timeout). Idle tick() is one comparison. A step keeps its pin and SPI calls few (each is a
# host call in the virtual console, ~10 between two reads of the buttons): CS stays low from
# a RAM's first command to its last chunk, the init is sent in two steps, the RAM address in
# a step of its own.

import time
from binascii import crc32

from micropython import const

# commands (SSD1680 datasheet, command table)
_DRIVER_OUTPUT_CONTROL = const(0x01)
_DEEP_SLEEP_MODE = const(0x10)
_DATA_ENTRY_MODE = const(0x11)
_SW_RESET = const(0x12)
_TEMPERATURE_SENSOR_CONTROL = const(0x18)
_MASTER_ACTIVATION = const(0x20)
_DISPLAY_UPDATE_CONTROL_1 = const(0x21)
_DISPLAY_UPDATE_CONTROL_2 = const(0x22)
_WRITE_RAM_BW = const(0x24)
_WRITE_RAM_RED = const(0x26)
_BORDER_WAVEFORM_CONTROL = const(0x3C)
_SET_RAM_X_WINDOW = const(0x44)
_SET_RAM_Y_WINDOW = const(0x45)
_SET_RAM_X_COUNTER = const(0x4E)
_SET_RAM_Y_COUNTER = const(0x4F)

# display update control 2 values (the sequence master activation runs)
_UPDATE_FULL = const(0xF7)
_UPDATE_PARTIAL = const(0xFF)

# states of tick()'s machine
_IDLE = const(0)
_START = const(1)
_RST_LOW = const(2)
_RST_HIGH = const(3)
_WAIT = const(4)
_INIT = const(5)
_WRITE = const(6)
_UPDATE = const(7)
_DONE = const(8)
_RST_WAIT = const(9)
_END = const(10)


class SSD1680:
    def __init__(self, spi, cs, dc, rst, busy, width=296, height=128):
        self._spi = spi
        self._cs = cs
        self._dc = dc
        self._rst = rst
        self._busy = busy
        self.width = width
        self.height = height
        self.nbytes = width * ((height + 7) // 8)
        xend = (height + 7) // 8 - 1  # RAM X byte of the first page (15)
        g = width - 1  # last gate / RAM row (295)
        self._xcnt = bytes((xend,))
        # the init commands, each as: command, length of its data, the data (one bytes object)
        self._init_seq = bytes((
            _DRIVER_OUTPUT_CONTROL, 3, g & 0xFF, g >> 8, 0,  # gates, scan normal
            _DATA_ENTRY_MODE, 1, 0x06,  # X decrement, Y increment, Y first (AM=1)
            _SET_RAM_X_WINDOW, 2, xend, 0,  # byte 15 -> 0
            _SET_RAM_Y_WINDOW, 4, 0, 0, g & 0xFF, g >> 8,  # row 0 -> 295
            _BORDER_WAVEFORM_CONTROL, 1, 0x05,  # follow LUT (white)
            _DISPLAY_UPDATE_CONTROL_1, 2, 0x00, 0x80,  # normal RAM, source S8..S167
            _TEMPERATURE_SENSOR_CONTROL, 1, 0x80,  # internal sensor
        ))
        self._b1 = bytearray(1)
        # tunables
        self.full_every = 60  # partial refreshes before a forced full one (the panel makes one
        # sooner, when the screen is idle: board/panel.py)
        self.timeout_ms = 5000  # BUSY longer than this is an error
        self.chunk = 1024  # bytes of RAM written per tick (board/panel.py: its band)
        self.reset_low_ms = 2
        self.reset_wait_ms = 10
        # status
        self.partials = 0  # partial refreshes since the last full one
        self.full_refreshes = 0
        self.partial_refreshes = 0
        self.errors = 0
        self.last_error = None
        self.redrawn = 0  # buffers changed while shown (each makes the next refresh full)
        self.last_kind = None  # "full" / "partial"
        # state
        self._st = _IDLE
        self._pending = None
        self._pending_full = False
        self._need_init = True
        self._need_full = True
        self._full = False
        self._t0 = None
        self._min = 0
        self._next = _IDLE
        self._src = None  # type: object  # image(off, n) of the frame being shown (read again after a refresh)
        self._crc = 0  # the CRC-32 of the bytes written to the black/white RAM
        self._crc_now = 0  # ... of the bytes written to the RAM being written
        self._planes = ()  # type: tuple[int, ...]  # RAMs (_WRITE_RAM_BW/_RED) to fill from _buf
        self._plane = 0
        self._off = 0  # the init's next command, or the plane's next byte (-1: its RAM's start first)
        self._after = _IDLE  # the state once the planes are written
        cs.value(1)
        rst.value(1)

    # -- public -------------------------------------------------------------------
    def busy(self):
        """True while a refresh (or reset/init) is in progress or queued."""
        return self._st != _IDLE

    def show(self, image, full=False):
        """Queue a frame for display: image(off, n) gives its bytes (above). Never blocks: if
        a refresh is running the newest is kept and shown when the panel is free. The driver
        reads the image until busy() is False again: do not change it before (a change is
        caught: see above)."""
        self._pending = image
        if full:
            self._pending_full = True
        if self._st == _IDLE:
            self._st = _START

    def tick(self, now_ms):
        """Advance the state machine; cheap when idle."""
        if self._st == _IDLE:
            return
        for _ in range(8):
            if not self._step(now_ms):
                return

    def sleep(self):
        """Deep sleep (mode 1) if idle; the next show() resets and re-inits. Returns True
        if the command was sent."""
        if self._st != _IDLE or self._need_init:
            return False
        self._cmd(_DEEP_SLEEP_MODE, b"\x01")
        self._need_init = True
        return True

    # -- internals ----------------------------------------------------------------
    def _cmd(self, c, data=None):
        """One command on its own: CS low, the command (and its data), CS high."""
        self._cs.value(0)
        self._send(c, data)
        self._cs.value(1)

    def _send(self, c, data=None):
        """A command byte (DC low), then its data (DC high); CS is low already."""
        dc = self._dc
        dc.value(0)
        self._b1[0] = c
        self._spi.write(self._b1)
        if data:
            dc.value(1)
            self._spi.write(data)

    def _ram_start(self, ram):
        """CS low, the RAM address counters at the window's start (X byte 15, row 0), and
        `ram` (_WRITE_RAM_BW or _WRITE_RAM_RED) opened: the chunks that follow fill it, CS
        low until the last (_write)."""
        self._cs.value(0)
        self._send(_SET_RAM_X_COUNTER, self._xcnt)
        self._send(_SET_RAM_Y_COUNTER, b"\x00\x00")
        self._send(ram)
        self._dc.value(1)

    def _wait(self, now, min_ms, nxt):
        self._t0 = now
        self._min = min_ms
        self._next = nxt
        self._st = _WAIT

    def _fail(self, msg):
        self.errors += 1
        self.last_error = msg
        self._need_init = True
        self._need_full = True
        self._rst.value(1)
        self._cs.value(1)
        if self._pending is None:  # retry what we were showing
            self._pending = self._src
        self._st = _START

    def _step(self, now):
        # returns True to run the next step in the same tick
        st = self._st
        if st == _WAIT:
            el = time.ticks_diff(now, self._t0)
            if self._busy.value():
                if el >= self.timeout_ms:
                    self._fail("BUSY timeout")
                return False
            if el < self._min:
                return False
            self._st = self._next
            return True
        if st == _WRITE:
            return self._write()
        if st == _START:
            if self._pending is None:
                self._st = _IDLE
                return False
            full = self._pending_full or self._need_full or self.partials >= self.full_every
            self._full = full
            self._pending_full = False
            self._src = self._pending
            self._pending = None
            # a full refresh: both RAMs <- the image; a partial one: black/white RAM <- the new
            # image, the red RAM keeps the picture now on the panel (rewritten after, _DONE)
            self._planes = (_WRITE_RAM_BW, _WRITE_RAM_RED) if full else (_WRITE_RAM_BW,)
            self._plane = 0
            self._off = 0 if self._need_init else -1  # the init first (its offset), or a RAM's start
            self._after = _UPDATE
            if self._need_init:
                self._st = _RST_LOW
            else:
                self._st = _WRITE
            return True
        if st == _RST_LOW:
            self._rst.value(0)
            self._t0 = now
            self._st = _RST_HIGH
            return False
        if st == _RST_HIGH:
            if time.ticks_diff(now, self._t0) < self.reset_low_ms:
                return False
            self._rst.value(1)
            self._t0 = now
            self._st = _RST_WAIT
            return False
        if st == _RST_WAIT:
            if time.ticks_diff(now, self._t0) < self.reset_wait_ms:
                return False
            self._cmd(_SW_RESET)  # BUSY high until done
            self._wait(now, self.reset_wait_ms, _INIT)
            return False
        if st == _INIT:  # the init commands, in two steps: self._off is where the next begins
            seq = self._init_seq
            i = self._off
            self._cs.value(0)
            for _ in range(4):
                n = seq[i + 1]
                self._send(seq[i], memoryview(seq)[i + 2:i + 2 + n])
                i += 2 + n
                if i >= len(seq):
                    break
            self._cs.value(1)
            if i < len(seq):
                self._off = i
                return False
            self._off = -1
            self._need_init = False
            self._st = _WRITE
            return False
        if st == _UPDATE:
            full = self._full
            self._cs.value(0)
            self._send(_DISPLAY_UPDATE_CONTROL_2, bytes((_UPDATE_FULL if full else _UPDATE_PARTIAL,)))
            self._send(_MASTER_ACTIVATION)
            self._cs.value(1)
            if full:
                self.full_refreshes += 1
                self.partials = 0
                self._need_full = False
                self.last_kind = "full"
            else:
                self.partial_refreshes += 1
                self.partials += 1
                self.last_kind = "partial"
            self._wait(now, 0, _DONE)
            return False
        if st == _DONE:
            self._st = _END
            if not self._full:  # red RAM <- the image now on the panel, for the next partial
                self._planes = (_WRITE_RAM_RED,)
                self._plane = 0
                self._off = -1
                self._after = _END
                self._st = _WRITE
            return True
        if st == _END:
            self._st = _START if self._pending is not None else _IDLE
            return self._st != _IDLE
        self._st = _IDLE
        return False

    def _write(self):
        """One step of writing the planes: a RAM's start (a step of its own), or one chunk of
        it (CS high again after the last)."""
        off = self._off
        if off < 0:
            self._ram_start(self._planes[self._plane])
            self._off = 0
            self._crc_now = 0
            return False
        n = self.nbytes - off
        if n > self.chunk:
            n = self.chunk
        data = self._src(off, n)  # type: ignore[operator]
        self._spi.write(data)
        self._crc_now = crc32(data, self._crc_now)
        off += len(data)
        if off >= self.nbytes:
            self._cs.value(1)
            self._off = -1
            if self._planes[self._plane] == _WRITE_RAM_BW:
                self._crc = self._crc_now
            elif self._crc_now != self._crc:
                # changed while shown: the red RAM is not the picture on the panel
                self._need_full = True
                self.redrawn += 1
            self._plane += 1
            if self._plane >= len(self._planes):
                self._st = self._after
                return True
        else:
            self._off = off
        return False
