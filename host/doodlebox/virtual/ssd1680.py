"""A host-side model of an SSD1680 e-paper controller (2.9" panel, 128 x 296 native).

It decodes the command stream a driver sends and keeps the two RAM planes and the
visible image. Only what matters for checking a driver is modelled:

* ``reset()`` is the RST pulse: registers back to power-on values, the controller needs
  a SW reset (0x12) before anything else ("init"). RAM contents are kept.
* ``spi_write(data, dc)``: dc 0 = every byte is a command, dc 1 = data bytes for the last
  command.
* RAM addressing: windows 0x44 (X, in bytes) / 0x45 (Y, rows), counters 0x4E / 0x4F and
  data entry mode 0x11 (bit0 = X increment, bit1 = Y increment, bit2 = AM: 0 = X moves
  first, 1 = Y moves first). After the window's last address in the moving direction the
  counter wraps to the window's other end and the other counter steps (both wrap at the
  end of the window).
* 0x24 writes the black/white RAM, 0x26 the "red" RAM (the previous image in display
  mode 2).
* 0x22 (display update control 2) + 0x20 (master activation). The 0x22 value is read as
  the datasheet's bit fields: 0x80 clock on, 0x40 analog on, 0x20 load temperature,
  0x10 load LUT, 0x08 display mode 2, 0x04 DISPLAY, 0x02 analog off, 0x01 clock off.
  With 0x04 set it is a refresh: **partial** if 0x08 (mode 2) is also set (0xFF, 0xFC,
  0xCF, 0x0F), **full** otherwise (0xF7, 0xF4, 0xC7). Without 0x04 (0xC0, 0xF8, 0x83,
  0x91...) only the power/LUT sequence runs: no refresh, no BUSY time.
  A refresh copies the black/white RAM to the visible image at activation and holds
  BUSY high for ``full_time`` / ``partial_time`` seconds.
* ``busy(now)``: BUSY level. The busy period is timed from the first ``busy()`` poll after
  the activation (so the model works with any clock the caller uses).
* Mistakes are recorded as strings in ``errors`` (never raised): unknown commands, data
  with no command, commands before the SW reset, commands while BUSY (sent before BUSY
  was polled low), bad 0x11 values, writes in deep sleep, 0x20 without 0x22.
  ``warnings`` gets softer findings: a partial refresh whose 0x26 plane differs from the
  image on screen (the driver did not give the controller the right previous image).

``image()`` is the visible picture in LANDSCAPE orientation (296 wide, 128 high): the
panel pixel (x_p, y_p) shows at landscape (x = y_p, y = 127 - x_p). Values 0 = black,
1 = white (the RAM convention: bit 1 = white).
"""

from __future__ import annotations

from doodlebox.drawing.png import write_png

# commands, named as in the SSD1680 datasheet's command table (the same names as the driver's
# constants in firmware/board/ssd1680.py; host code does not import the firmware)
_DRIVER_OUTPUT_CONTROL = 0x01
_GATE_DRIVING_VOLTAGE_CONTROL = 0x03
_SOURCE_DRIVING_VOLTAGE_CONTROL = 0x04
_BOOSTER_SOFT_START_CONTROL = 0x0C
_DEEP_SLEEP_MODE = 0x10
_DATA_ENTRY_MODE = 0x11
_SW_RESET = 0x12
_TEMPERATURE_SENSOR_CONTROL = 0x18
_WRITE_TEMPERATURE_REGISTER = 0x1A
_MASTER_ACTIVATION = 0x20
_DISPLAY_UPDATE_CONTROL_1 = 0x21
_DISPLAY_UPDATE_CONTROL_2 = 0x22
_WRITE_RAM_BW = 0x24
_WRITE_RAM_RED = 0x26
_WRITE_VCOM_REGISTER = 0x2C
_WRITE_LUT_REGISTER = 0x32
_WRITE_DISPLAY_OPTION = 0x37
_BORDER_WAVEFORM_CONTROL = 0x3C
_END_OPTION = 0x3F
_SET_RAM_X_WINDOW = 0x44
_SET_RAM_Y_WINDOW = 0x45
_SET_RAM_X_COUNTER = 0x4E
_SET_RAM_Y_COUNTER = 0x4F
_NOP = 0x7F

# bits of the display update control 2 value that decide what master activation does
_UPDATE_DISPLAY = 0x04  # run the DISPLAY step: a refresh
_UPDATE_MODE_2 = 0x08   # display mode 2: a partial refresh

KNOWN = {
    _DRIVER_OUTPUT_CONTROL: "driver output control",
    _GATE_DRIVING_VOLTAGE_CONTROL: "gate voltage",
    _SOURCE_DRIVING_VOLTAGE_CONTROL: "source voltage",
    _BOOSTER_SOFT_START_CONTROL: "booster soft start",
    _DEEP_SLEEP_MODE: "deep sleep",
    _DATA_ENTRY_MODE: "data entry mode",
    _SW_RESET: "SW reset",
    _TEMPERATURE_SENSOR_CONTROL: "temperature sensor",
    _WRITE_TEMPERATURE_REGISTER: "write temperature",
    _MASTER_ACTIVATION: "master activation",
    _DISPLAY_UPDATE_CONTROL_1: "display update control 1",
    _DISPLAY_UPDATE_CONTROL_2: "display update control 2",
    _WRITE_RAM_BW: "write BW RAM",
    _WRITE_RAM_RED: "write red RAM",
    _WRITE_VCOM_REGISTER: "VCOM",
    _WRITE_LUT_REGISTER: "write LUT",
    _WRITE_DISPLAY_OPTION: "OTP option",
    _BORDER_WAVEFORM_CONTROL: "border waveform",
    _END_OPTION: "end option",
    _SET_RAM_X_WINDOW: "RAM X window",
    _SET_RAM_Y_WINDOW: "RAM Y window",
    _SET_RAM_X_COUNTER: "RAM X counter",
    _SET_RAM_Y_COUNTER: "RAM Y counter",
    _NOP: "NOP",
}
# data bytes a command needs before the next command (fewer is an error)
_NEEDS = {_DATA_ENTRY_MODE: 1, _SET_RAM_X_WINDOW: 2, _SET_RAM_Y_WINDOW: 4, _SET_RAM_X_COUNTER: 1,
          _SET_RAM_Y_COUNTER: 2, _DISPLAY_UPDATE_CONTROL_2: 1, _DEEP_SLEEP_MODE: 1}
# commands whose data the model applies as it arrives
_APPLIED = (_DRIVER_OUTPUT_CONTROL, _DATA_ENTRY_MODE, _SET_RAM_X_WINDOW, _SET_RAM_Y_WINDOW,
            _SET_RAM_X_COUNTER, _SET_RAM_Y_COUNTER, _DISPLAY_UPDATE_CONTROL_2, _DEEP_SLEEP_MODE)

MAX_ERRORS = 1000


class Ssd1680Model:
    def __init__(self, width: int = 128, height: int = 296) -> None:
        self.width = width  # native: source lines (x), a multiple of 8
        self.height = height  # native: gate lines (y)
        self.xbytes = (width + 7) // 8
        self.full_time = 2.0
        self.partial_time = 0.3
        self.swreset_time = 0.002
        self.bw = [bytearray(b"\xff" * self.xbytes) for _ in range(height)]
        self.red = [bytearray(b"\xff" * self.xbytes) for _ in range(height)]
        self.visible = [bytearray(b"\xff" * self.xbytes) for _ in range(height)]
        self.full_refreshes = 0
        self.partial_refreshes = 0
        self.last_refresh_kind: str | None = None
        self.last_update_value: int | None = None
        self.errors: list[str] = []
        self.warnings: list[str] = []
        self.commands: list[int] = []  # every command byte seen (for tests)
        self.resets = 0
        self._por()

    # ---- state -------------------------------------------------------------------
    def _por(self) -> None:
        self.initialised = False  # set by SW reset 0x12
        self.sleeping = False
        self.cmd: int | None = None
        self.args = bytearray()
        self.mode = 0x03
        self.xs, self.xe = 0, self.xbytes - 1
        self.ys, self.ye = 0, self.height - 1
        self.xc = 0
        self.yc = 0
        self.update_value: int | None = None
        self._busy_len = 0.0
        self._busy_start: float | None = None  # None + _busy_len > 0: not polled yet
        self._last_now: float | None = None

    def _err(self, msg: str) -> None:
        if len(self.errors) < MAX_ERRORS:
            self.errors.append(msg)

    def reset(self) -> None:
        """RST pulse: back to power-on register values (RAM kept), leaves deep sleep."""
        self.resets += 1
        self._por()

    def _is_busy(self, now: float | None) -> bool:
        if self._busy_len <= 0:
            return False
        if self._busy_start is None:
            return True  # activated, never polled: still busy
        if now is None:
            now = self._last_now
        if now is None:
            return True
        if now - self._busy_start >= self._busy_len:
            self._busy_len = 0.0
            self._busy_start = None
            return False
        return True

    def busy(self, now: float) -> int:
        """BUSY pin level at time `now` (seconds)."""
        self._last_now = now
        if self._busy_len > 0 and self._busy_start is None:
            self._busy_start = now
        return 1 if self._is_busy(now) else 0

    def _start_busy(self, seconds: float) -> None:
        if seconds > 0:
            self._busy_len = seconds
            self._busy_start = None

    # ---- SPI ---------------------------------------------------------------------
    def spi_write(self, data: bytes, dc: int, now: float | None = None) -> None:
        """Bytes clocked in with CS low; dc 0 = command(s), 1 = data for the last command."""
        if now is not None:
            self._last_now = now
        data = bytes(data)
        if not data:
            return
        if self.sleeping:
            self._err("write while in deep sleep (needs a reset)")
            return
        if dc:
            self._data(data)
        else:
            for c in data:
                self._command(c)

    def _command(self, c: int) -> None:
        self._finish()
        self.commands.append(c)
        if self._is_busy(None):
            self._err("command 0x%02X while BUSY" % c)
        if c not in KNOWN:
            self._err("unknown command 0x%02X" % c)
            self.cmd = -1  # swallow its data
            self.args = bytearray()
            return
        if not self.initialised and c != _SW_RESET:
            self._err("command 0x%02X before SW reset (0x12)" % c)
        self.cmd = c
        self.args = bytearray()
        if c == _SW_RESET:
            self._por()
            self.initialised = True
            self._start_busy(self.swreset_time)
        elif c == _MASTER_ACTIVATION:
            self._activate()

    def _data(self, data: bytes) -> None:
        c = self.cmd
        if c is None:
            self._err("data without a command (%d bytes)" % len(data))
            return
        if c == -1:
            return
        if self._is_busy(None):
            self._err("data for 0x%02X while BUSY" % c)
        if c == _WRITE_RAM_BW or c == _WRITE_RAM_RED:
            plane = self.bw if c == _WRITE_RAM_BW else self.red
            for b in data:
                self._ram_put(plane, b)
            return
        if len(self.args) < 64:
            self.args += data
        if c in _APPLIED:
            self._apply()

    def _finish(self) -> None:
        # checks when a command's data ends (a new command starts)
        c = self.cmd
        if c is None:
            return
        need = _NEEDS.get(c)
        if need and len(self.args) < need:
            self._err("command 0x%02X got %d data bytes, needs %d" % (c, len(self.args), need))

    def _apply(self) -> None:
        c, a = self.cmd, self.args
        n = len(a)
        if c == _DATA_ENTRY_MODE and n == 1:
            if a[0] > 7:
                self._err("data entry mode 0x%02X out of range" % a[0])
            self.mode = a[0] & 7
        elif c == _SET_RAM_X_WINDOW and n == 2:
            self.xs, self.xe = a[0] & 0x3F, a[1] & 0x3F
            for v in (self.xs, self.xe):
                if v >= self.xbytes:
                    self._err("RAM X window byte %d beyond %d" % (v, self.xbytes - 1))
        elif c == _SET_RAM_Y_WINDOW and n == 4:
            self.ys = (a[0] | a[1] << 8) & 0x1FF
            self.ye = (a[2] | a[3] << 8) & 0x1FF
            for v in (self.ys, self.ye):
                if v >= self.height:
                    self._err("RAM Y window row %d beyond %d" % (v, self.height - 1))
        elif c == _SET_RAM_X_COUNTER and n == 1:
            self.xc = a[0] & 0x3F
        elif c == _SET_RAM_Y_COUNTER and n == 2:
            self.yc = (a[0] | a[1] << 8) & 0x1FF
        elif c == _DISPLAY_UPDATE_CONTROL_2 and n == 1:
            self.update_value = a[0]
        elif c == _DEEP_SLEEP_MODE and n == 1:
            if a[0] & 0x03:
                self.sleeping = True
        elif c == _DRIVER_OUTPUT_CONTROL and n == 3:
            mux = (a[0] | a[1] << 8) + 1
            if mux != self.height:
                self._err("driver output control: %d gates, panel has %d" % (mux, self.height))

    # ---- RAM addressing ------------------------------------------------------------
    @staticmethod
    def _step(c: int, start: int, end: int, inc: bool, size: int):
        """Next counter value and whether it wrapped (window start..end, either order)."""
        lo, hi = (start, end) if start <= end else (end, start)
        if inc:
            if c == hi:
                return lo, True
            return (c + 1) % size, False
        if c == lo:
            return hi, True
        return (c - 1) % size, False

    def _ram_put(self, plane, b: int) -> None:
        if 0 <= self.yc < self.height and 0 <= self.xc < self.xbytes:
            plane[self.yc][self.xc] = b
        else:
            self._err("RAM write outside the panel at X=%d Y=%d" % (self.xc, self.yc))
        xinc = bool(self.mode & 1)
        yinc = bool(self.mode & 2)
        if self.mode & 4:  # AM=1: Y first
            self.yc, wrapped = self._step(self.yc, self.ys, self.ye, yinc, 512)
            if wrapped:
                self.xc, _ = self._step(self.xc, self.xs, self.xe, xinc, 64)
        else:
            self.xc, wrapped = self._step(self.xc, self.xs, self.xe, xinc, 64)
            if wrapped:
                self.yc, _ = self._step(self.yc, self.ys, self.ye, yinc, 512)

    # ---- refresh -------------------------------------------------------------------
    def _activate(self) -> None:
        v = self.update_value
        if v is None:
            self._err("master activation 0x20 without display update control 0x22")
            return
        self.last_update_value = v
        if not v & _UPDATE_DISPLAY:
            return  # power / LUT load only
        if v & _UPDATE_MODE_2:
            kind = "partial"
            if self.red != self.visible:
                self.warnings.append(
                    "partial refresh: 0x26 RAM differs from the image on screen"
                )
            self.partial_refreshes += 1
            self._start_busy(self.partial_time)
        else:
            kind = "full"
            self.full_refreshes += 1
            self._start_busy(self.full_time)
        self.last_refresh_kind = kind
        self.visible = [bytearray(r) for r in self.bw]

    # ---- pictures ------------------------------------------------------------------
    def native_pixel(self, x: int, y: int) -> int:
        """Visible pixel at native (x 0..127, y 0..295): 1 white, 0 black."""
        return (self.visible[y][x >> 3] >> (7 - (x & 7))) & 1

    def image(self) -> list[bytearray]:
        """Visible image, landscape: 128 rows (y) of 296 pixels (x), 0 black / 1 white."""
        lw, lh = self.height, self.width
        out = []
        for y in range(lh):
            xp = lh - 1 - y
            xb, sh = xp >> 3, 7 - (xp & 7)
            out.append(bytearray((self.visible[x][xb] >> sh) & 1 for x in range(lw)))
        return out

    def save_png(self, path, scale: int = 1) -> None:
        """Write the landscape image as an 8-bit grey PNG (black 0, white 255)."""
        rows = [bytes(255 if p else 0 for p in row) for row in self.image()]
        write_png(path, self.height, self.width, rows, scale=scale)
