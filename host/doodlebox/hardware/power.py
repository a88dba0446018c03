"""The power budget, and the firmware's LED cap derived from it.

The LED figures are not guessed from a formula of ours: every frame is rendered by the
firmware's own ``firmware/board/leds.py`` (``LedDice.show``) into a strip that records the
pixels, and the current is estimated from those pixels with the figures in
``hardware/parts.json``. The cap is the highest ``max_level`` whose brightest frame keeps the
worst case inside the supply's limit less the margin; ``firmware_data`` generates it into
``firmware/board/pins.py`` as ``LED_MAX_LEVEL``.
"""
from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from types import ModuleType

from doodlebox import paths
from doodlebox.errors import DoodleboxError


class BudgetError(DoodleboxError, ValueError):
    """The loads other than the LED light already exceed the budget."""


class RecordingStrip:
    """What LedDice writes to: a list of (r, g, b) per LED, and how many times it was written."""

    def __init__(self, n: int) -> None:
        self.pixels = [(0, 0, 0)] * n
        self.writes = 0

    def __setitem__(self, i: int, rgb) -> None:
        self.pixels[i] = tuple(rgb)

    def __getitem__(self, i: int):
        return self.pixels[i]

    def __len__(self) -> int:
        return len(self.pixels)

    def write(self) -> None:
        self.writes += 1


_LEDS: ModuleType | None = None


def firmware_leds() -> ModuleType:
    """firmware/board/leds.py, loaded on its own (it imports nothing)."""
    global _LEDS
    if _LEDS is None:
        path = paths.firmware() / "board" / "leds.py"
        spec = importlib.util.spec_from_file_location("doodlebox_firmware_leds", path)
        assert spec and spec.loader, path
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        _LEDS = module
    return _LEDS


def render(dice, max_level: int, n_dice: int, pips: int) -> list[tuple[int, int, int]]:
    """The pixels LedDice(max_level).show(dice) puts on the chain."""
    strip = RecordingStrip(n_dice * pips)
    firmware_leds().LedDice(strip, n_dice, pips, max_level).show(list(dice))
    return strip.pixels


def _states() -> list[int]:
    """Every die state LedDice knows (it indexes a table by state)."""
    mod, out = firmware_leds(), []
    probe = mod.LedDice(RecordingStrip(7), 1, 7, 255)
    for state in range(16):
        try:
            probe.colour(state, False)
        except IndexError:
            break
        out.append(state)
    return out


def brightest_die(max_level: int, pips: int) -> tuple[int, int, bool]:
    """The (face, state, is_column_die) that makes one die draw the most, as LedDice renders it."""
    faces = range(len(firmware_leds().FACES))
    best, best_sum = (0, 0, False), -1
    for face in faces:
        for state in _states():
            for column in (False, True):
                total = sum(map(sum, render([(face, state, column)], max_level, 1, pips)))
                if total > best_sum:
                    best, best_sum = (face, state, column), total
    return best


def worst_frame(pins: dict, max_level: int) -> list[tuple[int, int, bool]]:
    """Every die at its brightest face and state: the frame LedDice.show() draws most with."""
    leds = pins["leds"]
    return [brightest_die(max_level, leds["pips_per_die"])] * leds["dice"]


def light_ma(pixels, parts: dict) -> float:
    """Current of the LEDs' light (above their idle current) for these pixels."""
    per = parts["leds"]["ma_per_channel_at_255"]
    return sum(sum(px) for px in pixels) * per / 255.0


def idle_ma(pins: dict, parts: dict) -> float:
    return pins["leds"]["dice"] * pins["leds"]["pips_per_die"] * parts["leds"]["idle_ma_per_led"]


def budget_ma(parts: dict) -> float:
    s = parts["supply"]
    return s["limit_ma"] * (100 - s["margin_percent"]) / 100.0


def others_ma(parts: dict, which: str) -> float:
    """The loads other than the LEDs, 'typical_ma' or 'worst_ma'."""
    return sum(load[which] for load in parts["loads"])


def worst_total(pins: dict, parts: dict, max_level: int) -> float:
    leds = pins["leds"]
    pixels = render(worst_frame(pins, max_level), max_level, leds["dice"], leds["pips_per_die"])
    return others_ma(parts, "worst_ma") + idle_ma(pins, parts) + light_ma(pixels, parts)


def led_cap(pins: dict, parts: dict) -> int:
    """The highest max_level (0-255) whose worst-case frame stays inside the budget."""
    limit = budget_ma(parts)
    if worst_total(pins, parts, 0) > limit:
        raise BudgetError(f"with every LED dark the worst case is {worst_total(pins, parts, 0):.1f} mA, over the "
                          f"{limit:.0f} mA budget: no LED level fits")
    lo, hi = 0, 255  # worst_total is non-decreasing in the level: the largest level that fits
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if worst_total(pins, parts, mid) <= limit:
            lo = mid
        else:
            hi = mid - 1
    return lo


@dataclass
class Budget:
    supply: str
    limit_ma: float
    margin_percent: float
    budget_ma: float
    rows: list[tuple[str, float, float, str]]   # (load, typical mA, worst mA, basis)
    typical_ma: float
    worst_ma: float
    level: int                                  # the LED level these figures are for
    cap: int                                    # the highest level that fits
    worst_frame: list[tuple[int, int, bool]]
    next_level_ma: float | None                 # the worst case at level + 1 (None at 255)
    all_white_ma: float                         # every LED white at the level (no LedDice frame does this)

    @property
    def spare_ma(self) -> float:
        return self.budget_ma - self.worst_ma


def budget(pins: dict, parts: dict, max_level: int | None = None) -> Budget:
    """The whole budget at `max_level` (default: the cap)."""
    cap = led_cap(pins, parts)
    level = cap if max_level is None else max_level
    leds = pins["leds"]
    n, k = leds["dice"], leds["pips_per_die"]
    rows = [(load["name"], float(load["typical_ma"]), float(load["worst_ma"]), load.get("bom_ref", ""))
            for load in parts["loads"]]
    idle = idle_ma(pins, parts)
    leds = parts["leds"]
    rows.append((f"LEDs idle ({n * k} x {leds['idle_ma_per_led']:g} mA)", idle, idle, leds["bom_ref"]))
    frame = worst_frame(pins, level)
    typical_pixels = render([tuple(d) for d in parts["leds"]["typical_frame"]["dice"]], level, n, k)
    worst_light = light_ma(render(frame, level, n, k), parts)
    rows.append((f"LEDs lit at level {level}", light_ma(typical_pixels, parts), worst_light, parts["leds"]["bom_ref"]))
    worst = sum(r[2] for r in rows)
    all_white = worst - worst_light + n * k * 3 * parts["leds"]["ma_per_channel_at_255"] * level / 255.0
    s = parts["supply"]
    return Budget(
        supply=s["name"], limit_ma=float(s["limit_ma"]), margin_percent=float(s["margin_percent"]),
        budget_ma=budget_ma(parts), rows=rows, typical_ma=sum(r[1] for r in rows), worst_ma=worst,
        level=level, cap=cap, worst_frame=frame,
        next_level_ma=worst_total(pins, parts, level + 1) if level < 255 else None,
        all_white_ma=all_white,
    )


_STATE_NAMES = {0: "off", 1: "rolling", 2: "lit", 3: "taken"}


def describe_frame(frame) -> str:
    face, state, column = frame[0]
    same = all(d == frame[0] for d in frame)
    what = f"face {face}, {_STATE_NAMES.get(state, f'state {state}')}, {'column colour' if column else 'white'}"
    return f"every die {what}" if same else ", ".join(map(str, frame))


def table(b: Budget) -> str:
    """The budget as `doodlebox hardware power` prints it."""
    lines = [f"Power budget from {b.supply}: limit {b.limit_ma:.0f} mA, margin {b.margin_percent:g} % "
             f"-> budget {b.budget_ma:.0f} mA (figures and sources: hardware/parts.json)", ""]
    lines.append(f"{'load':<32} {'typical mA':>10} {'worst mA':>10}  part")
    for name, typ, worst, ref in b.rows:
        lines.append(f"{name:<32} {typ:>10.1f} {worst:>10.1f}  {ref}")
    verdict = (f"{b.spare_ma:.1f} mA under" if b.spare_ma >= 0 else f"{-b.spare_ma:.1f} mA OVER")
    lines.append(f"{'total':<32} {b.typical_ma:>10.1f} {b.worst_ma:>10.1f}  {verdict} the {b.budget_ma:.0f} mA budget")
    lines.append("")
    lines.append(f"worst LED frame: {describe_frame(b.worst_frame)} (rendered by firmware/board/leds.py)")
    if b.level == b.cap:
        nxt = "" if b.next_level_ma is None else f"; level {b.level + 1} would draw {b.next_level_ma:.1f} mA"
        lines.append(f"LED cap (LED_MAX_LEVEL in firmware/board/pins.py): {b.cap}, the highest level that fits{nxt}")
    else:
        lines.append(f"these figures are for LED level {b.level}; the cap (LED_MAX_LEVEL in firmware/board/pins.py) "
                     f"is {b.cap}")
    lines.append(f"every LED full white at level {b.level} (no frame the firmware shows): {b.all_white_ma:.1f} mA "
                 f"of the {b.limit_ma:.0f} mA port limit")
    return "\n".join(lines) + "\n"
