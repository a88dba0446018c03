"""hardware/: the pin data against the Pico's constraints, and everything that must agree with it.

The data (hardware/pins.json, parts.json, bom.csv), the firmware (the generated board/pins.py,
the pip order in board/leds.py), the documents (hardware/README.md's tables, wiring.svg/png,
diagram.json), the bill of materials and the power budget, whose LED cap the firmware uses.
"""
import copy
import io
import json
import re
import xml.etree.ElementTree as ET
from decimal import Decimal
from pathlib import Path

import pytest
from PIL import Image

from doodlebox import cli
from doodlebox.deploy import firmware_data
from doodlebox.drawing.canvas import cap_height, font, plain
from doodlebox.drawing.diagram import Text
from doodlebox.drawing.png import png_pixels
from doodlebox.hardware import bom as bom_mod
from doodlebox.hardware import check, data, docs, files, power, rp2040, wiring, wokwi

ROOT = Path(__file__).resolve().parents[2]
HW = ROOT / "hardware"
PINS = data.load_pins(HW / "pins.json")
PARTS = data.load_parts(HW / "parts.json")
BOM = bom_mod.read(HW / "bom.csv")


@pytest.fixture(scope="module")
def cap():
    return power.led_cap(PINS, PARTS)


@pytest.fixture(scope="module")
def generated():
    return files.generated(PINS, PARTS, BOM)


def codes(found):
    return {p.code for p in found}


# -- the Pico's facts ---------------------------------------------------------------------------------
def test_the_pico_brings_out_gp0_to_gp22_and_gp26_to_gp28():
    assert rp2040.GPIOS == tuple(range(23)) + (26, 27, 28)
    assert [rp2040.physical_pin(g) for g in (0, 2, 15, 16, 22, 26, 28)] == [1, 4, 20, 21, 29, 31, 34]
    assert all(rp2040.physical_pin(g) is None for g in (23, 24, 25, 29, 30))
    assert sorted(n for n in rp2040.HEADER.values() if n == "GND") == ["GND"] * 7  # and AGND (33)


@pytest.mark.parametrize("gpio, function", [
    (0, (0, "RX")), (1, (0, "CSn")), (2, (0, "SCK")), (3, (0, "TX")), (4, (0, "RX")), (7, (0, "TX")),
    (8, (1, "RX")), (9, (1, "CSn")), (10, (1, "SCK")), (11, (1, "TX")), (14, (1, "SCK")), (15, (1, "TX")),
    (16, (0, "RX")), (17, (0, "CSn")), (18, (0, "SCK")), (19, (0, "TX")), (22, (0, "SCK")),
    (26, (1, "SCK")), (27, (1, "TX")), (28, (1, "RX")),
])
def test_spi_functions_follow_the_rp2040_function_table(gpio, function):
    assert rp2040.spi_function(gpio) == function


@pytest.mark.parametrize("gpio, channel", [(0, (0, "A")), (1, (0, "B")), (16, (0, "A")), (17, (0, "B")),
                                           (2, (1, "A")), (18, (1, "A")), (15, (7, "B")), (28, (6, "A"))])
def test_pwm_slice_and_channel(gpio, channel):
    assert rp2040.pwm_channel(gpio) == channel


# -- the data passes, and every broken constraint is reported ------------------------------------------
def test_the_pin_data_passes_every_check(cap):
    assert check.problems(PINS, cap) == []
    assert bom_mod.problems(BOM, PINS, PARTS) == []


def mutated(change) -> dict:
    pins = copy.deepcopy(PINS)
    change(pins)
    return pins


def _set(section, key, value):
    def change(pins):
        pins[section][key] = value
    return change


def _pwm_on_the_buzzers_slice(pins):
    pins["leds"]["pin"] = 18
    pins["extra"]["FAN"] = {"pin": 16, "function": "fan", "pwm_hz": 25000}


BROKEN = {
    "a GPIO the Pico lacks": (_set("buttons", "D3", 25), {"no-such-gpio"}, "GP25"),
    "a GPIO the RP2040 lacks": (_set("buttons", "MENU", 30), {"no-such-gpio"}, "GP30"),
    "a pin used twice": (_set("buttons", "PASS", 16), {"pin-reused"}, "GP16"),
    "SCK on a pin that is not SCK": (_set("epaper", "sck", 12), {"spi-function", "socket", "pin-reused"}, "GP12"),
    "MOSI on an SCK pin": (_set("epaper", "mosi", 14), {"spi-function", "socket", "pin-reused"}, "GP14"),
    "the wrong SPI instance": (_set("epaper", "spi", 0), {"spi-function", "socket"}, "SPI0"),
    "PWM users sharing a slice": (_pwm_on_the_buzzers_slice, {"pwm-slice"}, "slice 0"),
    "a socket pin reused": (_set("buttons", "ROLL", 12), {"socket", "pin-reused"}, "GP12"),
    "the panel moved off its socket": (_set("epaper", "dc", 20), {"socket"}, "GP8"),
    "pull-downs": (lambda p: p["button_wiring"].update(pull="down", other_leg="3V3"), {"pull"}, "PULL_UP"),
    "a pip missing": (lambda p: p["leds"].__setitem__("pip_order", ["TL", "TR", "ML", "MR", "BL", "BR", "TL"]),
                      {"pips"}, "C"),
}


@pytest.mark.parametrize("why", BROKEN)
def test_a_broken_constraint_is_reported(why, cap):
    change, expected, mentions = BROKEN[why]
    found = check.problems(mutated(change), cap)
    assert expected <= codes(found), found
    assert check.errors(found)
    assert any(mentions in p.message for p in found), found


def test_cs_off_the_hardware_csn_is_a_warning_not_an_error():
    found = [p for p in check.problems(mutated(_set("epaper", "cs", 14))) if p.code == "spi-cs"]
    assert found and found[0].severity == "warning" and "GP9" in found[0].message


def test_pwm_users_may_share_a_slice_at_one_fixed_frequency():
    def two(hz_a, hz_b):
        def change(pins):
            pins["extra"]["A"] = {"pin": 26, "pwm_hz": hz_a}
            pins["extra"]["B"] = {"pin": 27, "pwm_hz": hz_b}
        return codes(check.problems(mutated(change)))

    assert "pwm-slice" not in two(1000, 1000)
    assert "pwm-slice" in two(1000, 2000)


def test_a_stale_led_cap_in_pins_json_is_reported(cap):
    found = check.problems(mutated(_set("leds", "max_level", 24)), cap)
    assert codes(found) == {"led-cap"} and str(cap) in found[0].message


# -- the firmware agrees with the data -------------------------------------------------------------------
def generated_pins_module() -> dict:
    ns: dict = {}
    exec((ROOT / "firmware" / "board" / "pins.py").read_text(), ns)
    return ns


def test_generated_pins_py_carries_the_data_and_the_budgets_cap(cap):
    fw = generated_pins_module()
    assert list(fw["BUTTONS"]) == data.buttons(PINS)
    leds, epd = PINS["leds"], PINS["epaper"]
    assert (fw["LED_PIN"], fw["LED_DICE"], fw["LED_PIPS_PER_DIE"]) == (leds["pin"], leds["dice"], leds["pips_per_die"])
    assert fw["LED_MAX_LEVEL"] == cap == leds["max_level"]
    assert list(fw["LED_PIP_ORDER"]) == leds["pip_order"]
    assert fw["BUZZER_PIN"] == PINS["buzzer"]["pin"]
    for key in ("spi", "sck", "mosi", "cs", "dc", "rst", "busy", "width", "height"):
        assert fw["EPD_" + key.upper()] == epd[key]
    assert (ROOT / "firmware" / "board" / "pins.py").read_text() == firmware_data.pins_module(PINS, PARTS)


def test_the_cap_in_pins_py_follows_the_budget_not_a_typed_number():
    tighter = copy.deepcopy(PARTS)
    tighter["supply"]["margin_percent"] = 40
    text = firmware_data.pins_module(PINS, tighter)
    level = int(re.search(r"^LED_MAX_LEVEL = (\d+)$", text, re.M).group(1))
    assert level == power.led_cap(PINS, tighter) < power.led_cap(PINS, PARTS)


# standard die faces by position: what each face lights
DIE_FACES = {1: {"C"}, 2: {"TL", "BR"}, 3: {"TL", "C", "BR"}, 4: {"TL", "TR", "BL", "BR"},
             5: {"TL", "TR", "C", "BL", "BR"}, 6: {"TL", "TR", "ML", "MR", "BL", "BR"}}


def test_leds_py_faces_and_comment_use_the_data_pip_order():
    from board import leds

    order = PINS["leds"]["pip_order"]
    comment = re.search(r"^# Pip order on each die: (.+)$", (ROOT / "firmware/board/leds.py").read_text(), re.M)
    assert comment and [s.strip() for s in comment.group(1).split(",")] == order
    for face, names in DIE_FACES.items():
        bits = leds.FACES[face]
        lit = {order[p] for p in range(len(order)) if bits & (1 << (len(order) - 1 - p))}
        assert lit == names, f"FACES[{face}] lights {sorted(lit)} with the pip order {order}"


def test_the_virtual_console_and_the_board_layer_agree_with_the_data():
    from doodlebox.virtual import panel

    assert panel.PIPS == PINS["leds"]["pip_order"]
    assert PINS["button_wiring"]["pull"] == "up" and PINS["button_wiring"]["other_leg"] == "GND"
    assert "Pin.PULL_UP" in (ROOT / "firmware/board/pico_build.py").read_text()


# -- the power budget, driven through the firmware ---------------------------------------------------------
class Recorder:
    """A NeoPixel-like strip that keeps what LedDice writes."""

    def __init__(self, n):
        self.px = [(0, 0, 0)] * n
        self.writes = 0

    def __setitem__(self, i, rgb):
        self.px[i] = tuple(rgb)

    def write(self):
        self.writes += 1


def worst_case_ma(level):
    """The firmware's brightest frame at `level`, rendered by board/leds.py, as a current."""
    from board.leds import LedDice

    leds = PINS["leds"]
    strip = Recorder(leds["dice"] * leds["pips_per_die"])
    LedDice(strip, leds["dice"], leds["pips_per_die"], level).show([(6, 2, False)] * leds["dice"])
    assert strip.writes == 1
    light = sum(map(sum, strip.px)) * PARTS["leds"]["ma_per_channel_at_255"] / 255
    idle = len(strip.px) * PARTS["leds"]["idle_ma_per_led"]
    return light + idle + sum(load["worst_ma"] for load in PARTS["loads"])


def test_the_worst_frame_through_the_firmware_fits_at_the_cap_and_not_one_above(cap):
    budget = PARTS["supply"]["limit_ma"] * (100 - PARTS["supply"]["margin_percent"]) / 100
    assert worst_case_ma(cap) <= budget < worst_case_ma(cap + 1)
    assert worst_case_ma(cap) == pytest.approx(power.budget(PINS, PARTS).worst_ma)


def test_face_six_lit_white_is_the_brightest_thing_a_die_shows(cap):
    from board import leds

    def die_sum(face, state, column):
        strip = Recorder(7)
        leds.LedDice(strip, 1, 7, cap).show([(face, state, column)])
        return sum(map(sum, strip.px))

    best = die_sum(6, 2, False)
    assert all(die_sum(f, s, c) <= best for f in range(7) for s in range(4) for c in (False, True))
    face, state, column = power.brightest_die(cap, 7)
    assert die_sum(face, state, column) == best


def test_the_budget_has_sources_and_a_table():
    b = power.budget(PINS, PARTS)
    assert b.typical_ma < b.worst_ma <= b.budget_ma < b.limit_ma
    assert b.next_level_ma > b.budget_ma and b.all_white_ma < b.limit_ma
    for load in PARTS["loads"]:
        assert load["source"] and load["typical_ma"] <= load["worst_ma"]
    assert PARTS["supply"]["source"] and PARTS["leds"]["source"]
    text = power.table(b)
    assert f"LED cap (LED_MAX_LEVEL in firmware/board/pins.py): {b.cap}" in text
    assert f"level {b.cap + 1} would draw" in text and "typical mA" in text


def test_no_level_fits_when_the_other_loads_eat_the_budget():
    greedy = copy.deepcopy(PARTS)
    greedy["loads"][0]["worst_ma"] = 400
    with pytest.raises(power.BudgetError):
        power.led_cap(PINS, greedy)


# -- the bill of materials -------------------------------------------------------------------------------
def test_the_bom_total_is_computed_from_its_lines():
    text = (HW / "bom.csv").read_text()
    assert text.splitlines()[0].split(",")[:4] == ["reference", "part", "value", "quantity"]
    assert "unit_price_eur" in text.splitlines()[0] and BOM.currency == "EUR"
    assert BOM.total == sum(ln.unit_price * ln.quantity for ln in BOM.lines) > Decimal("10")
    assert "total" not in text.lower()  # never typed
    for ln in BOM.lines:
        assert ln.part_number and "example" in ln.notes and ln.quantity == len(ln.refs)


def test_the_bom_matches_the_pins():
    assert BOM.count("SW") == len(data.buttons(PINS)) == 10
    assert BOM.count("LED") == PINS["leds"]["dice"] * PINS["leds"]["pips_per_die"] == 49
    assert "WS2812B" in BOM.find("LED49").text()
    assert "Pico-ePaper-2.9" in BOM.find("DS1").text() and "SSD1680" in BOM.find("DS1").text()
    assert "passive piezo" in BOM.find("BZ1").text()


def test_a_bom_that_drifts_from_the_pins_is_reported():
    fewer = mutated(lambda p: p["buttons"].pop("MENU"))
    assert any("push buttons" in p.message for p in bom_mod.problems(BOM, fewer, PARTS))
    more = mutated(_set("leds", "dice", 8))
    assert any("LEDs" in p.message for p in bom_mod.problems(BOM, more, PARTS))
    other = mutated(_set("epaper", "controller", "UC8151"))
    assert any("UC8151" in p.message for p in bom_mod.problems(BOM, other, PARTS))


def test_bom_ranges_expand():
    assert bom_mod.expand("SW1-SW10") == [f"SW{i}" for i in range(1, 11)]
    assert bom_mod.expand("R2-R3") == ["R2", "R3"] and bom_mod.expand("R2, R3") == ["R2", "R3"]


# -- the documents are generated from the data and up to date -----------------------------------------------
def test_generated_hardware_files_are_up_to_date(generated):
    stale = [str(p) for p, content in generated.items() if not files.same(p, content)]
    assert not stale, f"out of date: {stale}; run `doodlebox hardware wiring` and `doodlebox hardware wokwi`"


def test_readme_pin_table_lists_every_pin_as_the_data_says():
    readme = (HW / "README.md").read_text()
    assert docs.stale(readme, {"pins": docs.pin_table(PINS, BOM)}) == []
    rows = {int(m.group(1)): (m.group(2), m.group(3))
            for m in re.finditer(r"^\| (\d+) \| (\S+) \| ([^|]+) \|", readme, re.M)}
    for u in data.uses(PINS):
        pin = rp2040.physical_pin(u.gpio)
        assert rows[pin][0] == f"GP{u.gpio}", u
    for name, gpio in data.buttons(PINS):
        assert name in rows[rp2040.physical_pin(gpio)][1]


def test_the_documents_follow_a_change_of_the_data():
    moved = mutated(_set("buttons", "MENU", 22))
    assert check.errors(check.problems(moved)) == []
    table = docs.pin_table(moved, BOM)
    assert "| 29 | GP22 | button MENU (self-test) |" in table and "| 20 |" not in table
    assert docs.stale((HW / "README.md").read_text(), {"pins": table}) == ["pins"]
    texts = wiring.diagram(moved, BOM, power.budget(moved, PARTS)).texts()
    assert "GP22 29" in texts and "MENU (self-test)" in texts
    conns = wokwi.diagram(moved)["connections"]
    assert ["btn_menu:1.r", "pico:GP22", "green", []] in conns
    drawn = files.generated(moved, PARTS, BOM, "wiring")
    svg, png = HW / "wiring.svg", HW / "wiring.png"
    assert not files.same(svg, drawn[svg]) and not files.same(png, drawn[png])   # both show the move


def test_a_png_is_compared_by_what_it_shows(generated, tmp_path):
    """The same picture written again (other bytes) is the same; a PNG from other data, a picture
    with a mark on it, or a file that is no PNG are not."""
    png = generated[HW / "wiring.png"]
    with Image.open(io.BytesIO(png)) as im:
        again, marked = io.BytesIO(), im.copy()
        im.save(again, "PNG", compress_level=1)
    marked.paste(0, (100, 900, 700, 920))
    cases = {"again": again.getvalue(), "marked": _png(marked), "text": b"not a picture"}
    for name, content in cases.items():
        (tmp_path / name).write_bytes(content)
    assert again.getvalue() != png and files.same(tmp_path / "again", png)
    assert not files.same(tmp_path / "marked", png) and not files.same(tmp_path / "text", png)
    assert not files.same(tmp_path / "missing.png", png)


def _png(im) -> bytes:
    out = io.BytesIO()
    im.save(out, "PNG")
    return out.getvalue()


def test_the_wiring_diagram_names_every_pin_part_and_value(generated):
    svg = generated[HW / "wiring.svg"]
    root = ET.fromstring(svg)
    texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    for u in data.uses(PINS):
        pin = rp2040.physical_pin(u.gpio)
        assert any(t in (f"{pin} GP{u.gpio}", f"GP{u.gpio} {pin}") for t in texts), u
    joined = "\n".join(texts)
    for name, _ in data.buttons(PINS):
        assert re.search(rf"^{name}\b", joined, re.M), name
    for label in ("DC", "CS", "CLK", "DIN", "RST", "BUSY", "U2", "R1 330R", "R2 1k", "R3 1k", "Q1 2N3904",
                  "BZ1 PS1240P02BT", "+5V", "VBUS 40", "GND 38", "SW10"):
        assert label in texts, label
    assert "C51 1000uF across +5V/GND" in texts
    assert [f"D{d}" for d in range(7)] == [t for t in texts if re.fullmatch(r"D\d", t)]
    with Image.open(io.BytesIO(generated[HW / "wiring.png"])) as im:
        assert (im.format, im.size) == ("PNG", (wiring.W, wiring.H))
    _, _, px = png_pixels(generated[HW / "wiring.png"])
    assert px.count(0) > 20000


def test_the_wiring_diagram_is_legible():
    """No text leaves the page or overlaps another, so the PNG and the SVG read cleanly: each
    text's box is where the font inks it (Pillow's measure), from its ascenders to its descenders."""
    d = wiring.diagram(PINS, BOM, power.budget(PINS, PARTS))
    boxes = []
    for t in d.items:
        if isinstance(t, Text):
            left, top, right, bottom = font(t.scale).getbbox(plain(t.s), anchor="ls")
            base = t.y + cap_height(t.scale)
            boxes.append((t.x + left, base + top, t.x + right, base + bottom, t.s))
    assert len(boxes) > 100
    for x0, y0, x1, y1, s in boxes:
        assert 0 <= x0 and 0 <= y0 and x1 <= d.width and y1 <= d.height, s
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert not (a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]), (a[4], b[4])


# Wokwi's documented pin names (docs.wokwi.com, parts reference)
WOKWI_PINS = {
    "wokwi-pi-pico": {f"GP{g}" for g in rp2040.GPIOS} | {f"GND.{i}" for i in range(1, 9)} | {"VBUS", "VSYS", "3V3"},
    "wokwi-pushbutton": {"1.l", "1.r", "2.l", "2.r"},
    "wokwi-neopixel": {"VDD", "DOUT", "VSS", "DIN"},
    "wokwi-buzzer": {"1", "2"},
}


def test_the_wokwi_diagram_uses_real_parts_and_wires_the_data():
    diagram = json.loads((HW / "diagram.json").read_text())
    assert diagram["version"] == 1 and diagram["editor"] == "wokwi"
    types = {p["id"]: p["type"] for p in diagram["parts"]}
    assert len(types) == len(diagram["parts"]) and set(types.values()) <= set(WOKWI_PINS)
    nets: dict[str, set] = {}
    for conn in diagram["connections"]:
        assert len(conn) == 4 and isinstance(conn[2], str) and isinstance(conn[3], list)
        for end in conn[:2]:
            part, pin = end.split(":")
            assert pin in WOKWI_PINS[types[part]], end
        nets.setdefault(conn[0], set()).add(conn[1])
        nets.setdefault(conn[1], set()).add(conn[0])
    for name, gpio in data.buttons(PINS):
        assert f"pico:GP{gpio}" in nets[f"btn_{name.lower()}:1.r"]
    chain, at = [], f"pico:GP{PINS['leds']['pin']}"
    while True:
        nxt = [e for e in nets.get(at, ()) if e.endswith(":DIN")]
        if not nxt:
            break
        chain.append(nxt[0].split(":")[0])
        at = nxt[0].replace(":DIN", ":DOUT")
    assert chain == [f"led{i}" for i in range(49)]
    assert f"pico:GP{PINS['buzzer']['pin']}" in nets["bz1:2"]
    assert sum(t == "wokwi-neopixel" for t in types.values()) == 49


# -- the command ------------------------------------------------------------------------------------------
def test_hardware_commands(capsys):
    assert cli.main(["hardware", "bom"]) == 0
    out = capsys.readouterr().out
    assert "SC0915" in out and f"total: {BOM.total:.2f} EUR" in out
    assert cli.main(["hardware", "power"]) == 0
    assert f"LED cap (LED_MAX_LEVEL in firmware/board/pins.py): {PINS['leds']['max_level']}" in capsys.readouterr().out
    assert cli.main(["hardware", "power", "--level", "255"]) == 1
    assert "OVER the 400 mA budget" in capsys.readouterr().out
    assert cli.main(["hardware", "check"]) == 0
    assert "hardware ok" in capsys.readouterr().out
