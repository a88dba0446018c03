"""The wiring diagram (hardware/wiring.svg and wiring.png), built from the pin data.

Every pin, button, signal name, part reference and value in the picture comes from
hardware/pins.json, bom.csv and parts.json; the positions come from the Pico's header (each
part is drawn on the row of the pin it uses). One page, landscape: the buttons and the panel
on the Pico's left side, power, the buzzer driver, the pip order and the LED chain on its right.
"""
from __future__ import annotations

import math

from doodlebox.drawing.diagram import Drawing
from doodlebox.hardware import rp2040
from doodlebox.hardware.bom import Bom
from doodlebox.hardware.data import EPAPER_LABELS, EPAPER_SIGNALS, PIP_XY, button_label, buttons, uses
from doodlebox.hardware.power import Budget

W, H = 1900, 1235
PICO_X0, PICO_X1, ROW0, PITCH = 590, 900, 200, 40
PICO_Y0, PICO_Y1 = ROW0 - 30, ROW0 + 19 * PITCH + 30


def pin_y(pin: int) -> int:
    return ROW0 + rp2040.row(pin) * PITCH


def gpio_y(gpio: int) -> int:
    pin = rp2040.physical_pin(gpio)
    if pin is None:
        raise ValueError(f"GP{gpio} is not on the Pico's header (doodlebox hardware check)")
    return pin_y(pin)


# -- symbols ----------------------------------------------------------------------------------------
def ground(d: Drawing, x: float, y: float) -> None:
    """A ground symbol hanging from (x, y)."""
    d.lines((x, y), (x, y + 8), ink="ground")
    for k, half in enumerate((12, 7, 2)):
        d.lines((x - half, y + 8 + 5 * k), (x + half, y + 8 + 5 * k), ink="ground")


def supply(d: Drawing, x: float, y: float, label: str = "+5V") -> None:
    """A supply flag standing on (x, y)."""
    d.lines((x, y), (x, y - 22), ink="power")
    d.lines((x - 10, y - 22), (x + 10, y - 22), width=3, ink="power")
    d.text(x, y - 42, label, ink="power", anchor="middle")


def dot(d: Drawing, x: float, y: float, ink: str = "ink") -> None:
    d.circle(x, y, 4, width=0, ink=ink, fill=ink)


def resistor_h(d: Drawing, x0: float, y: float, length: float = 70, ink: str = "ink") -> None:
    d.rect(x0, y - 9, length, 18, ink=ink, fill="white")


def resistor_v(d: Drawing, x: float, y0: float, length: float = 70, ink: str = "ink") -> None:
    d.rect(x - 9, y0, 18, length, ink=ink, fill="white")


def arrow_right(d: Drawing, x: float, y: float, ink: str = "data") -> None:
    d.polygon((x - 9, y - 6), (x, y), (x - 9, y + 6), ink=ink)


def push_button(d: Drawing, x_left: float, x_right: float, y: float) -> None:
    """Two contacts with the pusher bar above them."""
    for x in (x_left, x_right):
        d.circle(x, y, 4, width=2)
    d.lines((x_left - 4, y - 9), (x_right + 4, y - 9), width=3)
    mid = (x_left + x_right) / 2
    d.lines((mid, y - 9), (mid, y - 16))
    d.lines((mid - 7, y - 16), (mid + 7, y - 16))


# -- the picture ----------------------------------------------------------------------------------
def diagram(pins: dict, bom: Bom, budget: Budget) -> Drawing:
    d = Drawing(W, H)
    _title(d, pins)
    _pico(d, pins)
    _buttons(d, pins)
    _panel(d, pins)
    _power_pins(d)
    _buzzer(d, pins, bom)
    _pip_order(d, pins)
    _led_chain(d, pins, bom)
    _notes(d, pins, bom, budget)
    return d


def _title(d: Drawing, pins: dict) -> None:
    d.text(20, 18, "DOODLEBOX WIRING", scale=3)
    leds = pins["leds"]
    d.text(20, 56, f"{pins['board']}: {len(buttons(pins))} buttons, {leds['dice']} LED dice of "
                   f"{leds['pips_per_die']} {leds['chip']}, {pins['buzzer']['kind']}, "
                   f"{pins['epaper']['model']} ({pins['epaper']['controller']})", ink="muted")
    d.text(20, 80, "generated from hardware/pins.json, bom.csv and parts.json by `doodlebox hardware wiring`: "
                   "do not edit", ink="muted")


def _pico(d: Drawing, pins: dict) -> None:
    d.rect(PICO_X0, PICO_Y0, PICO_X1 - PICO_X0, PICO_Y1 - PICO_Y0, width=3, fill="box")
    mid = (PICO_X0 + PICO_X1) / 2
    d.rect(mid - 35, PICO_Y0 - 30, 70, 30, width=2, fill="white")
    d.text(mid, PICO_Y0 - 58, "micro-USB: 5 V from the PC", anchor="middle")
    used = {rp2040.physical_pin(g) for g in _all_gpios(pins)} | {36, 38, 40}
    for pin, name in rp2040.HEADER.items():
        y = pin_y(pin)
        ink = "ink" if pin in used else "muted"
        if rp2040.side(pin) == "left":
            d.text(PICO_X0 + 10, y - 7, f"{pin} {name}", ink=ink)
            edge = PICO_X0
        else:
            d.text(PICO_X1 - 10, y - 7, f"{name} {pin}", ink=ink, anchor="end")
            edge = PICO_X1
        if pin in used:
            d.rect(edge - 4, y - 4, 8, 8, width=0, fill="ink")
    d.text(mid, PICO_Y1 + 12, "Raspberry Pi Pico (RP2040), top view", anchor="middle")


def _all_gpios(pins: dict) -> list[int]:
    return [u.gpio for u in uses(pins)]


def _buttons(d: Drawing, pins: dict) -> None:
    for k, (name, gpio) in enumerate(buttons(pins)):
        y = gpio_y(gpio)
        pin = rp2040.physical_pin(gpio)
        assert pin is not None, f"GP{gpio} is not on the header (doodlebox hardware check)"
        left = rp2040.side(pin) == "left"
        sgn, edge = (-1, PICO_X0) if left else (1, PICO_X1)
        b_near, b_far, g_x = edge + sgn * 300, edge + sgn * 350, edge + sgn * 390
        d.lines((edge, y), (b_near - sgn * 4, y), ink="data")
        push_button(d, min(b_near, b_far), max(b_near, b_far), y)
        d.lines((b_far + sgn * 4, y), (g_x, y), ink="ground")
        ground(d, g_x, y)
        d.text(g_x + sgn * 18, y - 7, f"SW{k + 1}", anchor="end" if left else "start", ink="muted")
        text = button_label(pins, name)
        label = text if text.startswith(name) else f"{name} {text}"
        if left:
            d.text(b_near + 24, y - 19, label)
        else:
            d.text(b_near - 24, y - 19, label, anchor="end")


def _panel(d: Drawing, pins: dict) -> None:
    epd = pins["epaper"]
    rows = {k: gpio_y(epd[k]) for k in EPAPER_SIGNALS}
    top, bottom = min(rows.values()) - 26, max(rows.values()) + 26
    x0, x1 = 290, 560
    d.rect(x0, top, x1 - x0, bottom - top, width=3, fill="box")
    for key, y in rows.items():
        d.lines((x1, y), (PICO_X0, y), ink="spi")
        d.text(x1 - 8, y - 7, EPAPER_LABELS[key], anchor="end")
    # the socket also joins the header's GND pins between the signals
    for pin, name in rp2040.HEADER.items():
        y = pin_y(pin)
        if name == "GND" and rp2040.side(pin) == "left" and top < y < bottom:
            d.lines((x1, y), (PICO_X0, y), ink="ground")
            d.text(x1 - 8, y - 7, "GND", anchor="end")
    model = epd["model"].split()
    lines = ["E-PAPER", f"{model[0]}", f"{model[-1]}", f"{epd['controller']}", f"{epd['width']}x{epd['height']}",
             f"SPI{epd['spi']}, on the", "Pico socket"]
    for k, s in enumerate(lines):
        d.text(x0 + 10, top + 12 + 24 * k, s, ink="ink" if k == 0 else "muted")


def _power_pins(d: Drawing) -> None:
    y = pin_y(40)  # VBUS
    d.lines((PICO_X1, y), (940, y), (940, y - 8), ink="power")
    supply(d, 940, y - 8)
    y = pin_y(38)  # GND
    d.lines((PICO_X1, y), (940, y), ink="ground")
    ground(d, 940, y)
    d.text(912, pin_y(39) - 7, "VSYS (via diode)", ink="muted")
    d.text(912, pin_y(36) - 7, "3V3 out (panel)", ink="muted")


def _buzzer(d: Drawing, pins: dict, bom: Bom) -> None:
    gpio = pins["buzzer"]["pin"]
    sl, ch = rp2040.pwm_channel(gpio)
    d.text(1000, 150, f"BUZZER: GP{gpio}, PWM slice {sl} {ch}")
    y_pin, by, bx = gpio_y(gpio), 470, 1240
    riser = 920
    d.lines((PICO_X1, y_pin), (riser, y_pin), (riser, by), (bx - 150, by), ink="data")
    r2, q1, bz, r3 = (bom.find(r) for r in ("R2", "Q1", "BZ1", "R3"))
    resistor_h(d, bx - 150, by)
    d.lines((bx - 80, by), (bx, by), ink="data")
    d.text(bx - 115, by - 31, f"R2 {_short(r2.value)}", anchor="middle")
    # Q1: base bar, collector up, emitter (with its arrow) down
    qx = bx + 35
    d.circle(bx + 14, by, 36, width=1, ink="muted")
    d.lines((bx, by - 24), (bx, by + 24), width=4)
    d.lines((bx, by - 10), (qx, by - 38), (qx, by - 80))
    d.lines((bx, by + 10), (qx, by + 38), (qx, by + 56), ink="ground")
    ux, uy = (qx - bx) / math.hypot(qx - bx, 28), 28 / math.hypot(qx - bx, 28)
    tip = (bx + (qx - bx) * 0.8, by + 10 + 28 * 0.8)
    d.polygon(tip, (tip[0] - 12 * ux - 6 * uy, tip[1] - 12 * uy + 6 * ux),
              (tip[0] - 12 * ux + 6 * uy, tip[1] - 12 * uy - 6 * ux))
    ground(d, qx, by + 56)
    d.text(qx + 44, by - 8, f"Q1 {q1.value}")
    d.text(qx + 44, by + 14, "(NPN)", ink="muted")
    # the piezo between +5V and the collector, R3 across it
    n_y, t_y, rx = by - 80, 230, qx + 90
    d.lines((qx, n_y), (qx, 350))
    d.rect(qx - 22, 290, 44, 60, width=2, fill="white")
    d.lines((qx - 14, 312), (qx + 14, 312), width=3)
    d.lines((qx - 14, 328), (qx + 14, 328), width=3)
    d.lines((qx, 290), (qx, t_y), ink="power")
    supply(d, qx, t_y)
    d.lines((qx, n_y), (rx, n_y), (rx, 350))
    resistor_v(d, rx, 280)
    d.lines((rx, 280), (rx, t_y), (qx, t_y), ink="power")
    dot(d, qx, n_y)
    dot(d, qx, t_y, ink="power")
    d.text(qx - 32, 300, f"BZ1 {bz.part_number}", anchor="end")
    d.text(qx - 32, 322, pins["buzzer"]["kind"], anchor="end", ink="muted")
    d.text(rx + 20, 294, f"R3 {_short(r3.value)}")
    d.text(rx + 20, 316, "discharge", ink="muted")


def _short(value: str) -> str:
    """'1 k 1/4 W' -> '1k', '330 R 1/4 W' -> '330R'."""
    return "".join(value.split()[:2])


def _pip_order(d: Drawing, pins: dict) -> None:
    order = pins["leds"]["pip_order"]
    x0, y0, side = 1540, 190, 210
    d.text(1530, 150, "PIP ORDER IN EACH DIE")
    d.rect(x0, y0, side, side + 16, width=3, fill="box")
    for p, name in enumerate(order):
        c, r = PIP_XY[name]
        cx, cy = x0 + 35 + 70 * c, y0 + 30 + 70 * r
        d.circle(cx, cy, 20, width=2, fill="pip")
        d.text(cx + 1, cy - 7, str(p), anchor="middle")
        d.text(cx + 1, cy + 24, name, anchor="middle", ink="muted")
    for k, s in enumerate(("chain:", "DIN", "> 0 .. 6", "> DOUT", "", "BOM LED", "7 x die", "+ pip + 1")):
        d.text(1765, y0 + 8 + 22 * k, s, ink="muted" if k in (0, 5) else "ink")
    d.text(1530, 436, "order: " + " ".join(order))
    d.text(1530, 460, "(FACES bits 6..0 in leds.py)", ink="muted")


def _led_chain(d: Drawing, pins: dict, bom: Bom) -> None:
    leds = pins["leds"]
    n, k = leds["dice"], leds["pips_per_die"]
    y_pin, data_y, riser = gpio_y(leds["pin"]), 680, 950
    r1, c51 = bom.find("R1"), bom.find("C51")
    # GP16 -> U2 -> R1 -> DIN of die 0
    d.lines((PICO_X1, y_pin), (riser, y_pin), (riser, data_y), (975, data_y), ink="data")
    d.polygon((970, data_y - 32), (1036, data_y), (970, data_y + 32), ink="ink")
    d.polygon((974, data_y - 26), (1027, data_y), (974, data_y + 26), ink="white")
    d.text(978, data_y - 7, "U2", scale=2)
    d.lines((1000, data_y - 18), (1000, data_y - 34))
    supply(d, 1000, data_y - 34)
    d.lines((1000, data_y + 18), (1000, data_y + 34), ink="ground")
    ground(d, 1000, data_y + 34)
    d.lines((1036, data_y), (1045, data_y), ink="data")
    resistor_h(d, 1045, data_y, 60)
    d.text(1075, data_y - 31, f"R1 {_short(r1.value)}", anchor="middle")
    x0, step, box, rail5, rail0 = 1130, 104, 90, 600, 790
    d.lines((1120, rail5), (1880, rail5), width=3, ink="power")
    supply(d, 1120, rail5)
    d.lines((1120, rail0), (1880, rail0), width=3, ink="ground")
    ground(d, 1120, rail0)
    order = leds["pip_order"]
    prev = 1105
    for die in range(n):
        x = x0 + step * die
        y = 635
        d.lines((prev, data_y), (x, data_y), ink="data")
        arrow_right(d, x, data_y)
        d.rect(x, y, box, box, width=2, fill="white")
        for name in order:
            c, r = PIP_XY[name]
            d.circle(x + 18 + 27 * c, y + 18 + 27 * r, 8, width=2, fill="pip")
        d.lines((x + box - 14, rail5), (x + box - 14, y), ink="power")
        d.lines((x + box - 14, y + box), (x + box - 14, rail0), ink="ground")
        dot(d, x + box - 14, rail5, ink="power")
        dot(d, x + box - 14, rail0)
        d.text(x + box / 2 - 7, y + box + 10, f"D{die}", anchor="middle")
        prev = x + box
    # the bulk capacitor across the chain's supply, at its far end
    cx = 1872
    d.lines((cx, rail5), (cx, 684), ink="power")
    d.lines((cx - 14, 684), (cx + 14, 684), width=4)
    d.lines((cx - 14, 697), (cx + 14, 697), width=4, ink="muted")
    d.lines((cx, 697), (cx, rail0), ink="ground")
    d.text(cx - 22, 664, "+", anchor="middle")
    d.text(1890, rail0 + 14, f"C51 {_short(c51.value)} across +5V/GND", anchor="end")
    notes = (f"each die: {k} {leds['chip']} in the pip order above,",
             "DOUT of one LED to DIN of the next; every LED:",
             f"5V to VDD, GND to VSS, 100nF beside it (C1-C{n * k}).",
             f"BOM LED1 = D0 pip 0 ... LED{n * k} = D{n - 1} pip {k - 1};",
             "the last DOUT stays open.")
    for j, s in enumerate(notes):
        d.text(1120, rail0 + 40 + 22 * j, s, ink="muted")


def _notes(d: Drawing, pins: dict, bom: Bom, budget: Budget) -> None:
    u2 = bom.find("U2")
    lines = [
        ("POWER", "USB 5 V enters the Pico's micro-USB: VBUS (pin 40) is the +5V of the LED dice, U2 and the buzzer; "
                  "VBUS feeds VSYS through the"),
        ("", f"Pico's own diode and its 3V3 regulator powers the RP2040 and, through the socket, the panel. Worst "
             f"case {budget.worst_ma:.0f} mA of a {budget.budget_ma:.0f} mA budget"),
        ("", f"(USB {budget.limit_ma:.0f} mA less {budget.margin_percent:g} %), LED level capped at {budget.cap}: "
             f"doodlebox hardware power."),
        ("BUTTONS", "one leg to the GPIO, the other to GND; the internal pull-up holds the pin high, a press reads 0. "
                    "GND: any of pins 3 8 13 18 23 28 38."),
        ("LEDS", f"U2 {u2.part_number} (one gate, 1OE to GND, unused inputs to GND) lifts GP{pins['leds']['pin']} "
                 f"to 5 V logic; keep R1 and C51 close to the first LED."),
    ]
    for k, (head, s) in enumerate(lines):
        y = 1080 + 26 * k
        if head:
            d.text(20, y, head)
        d.text(130, y, s)
