"""The bill of materials (hardware/bom.csv): its lines, its total, and its agreement with pins.json.

The CSV's columns: reference, part, value, quantity, manufacturer, example_part_number,
unit_price_<currency> (e.g. unit_price_eur), notes. A reference cell names one part ("U1"),
a range ("SW1-SW10") or a list ("R2, R3"); the quantity must match it. The total is always
computed here, never typed.
"""
from __future__ import annotations

import csv
import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from pathlib import Path

from doodlebox.errors import InputError
from doodlebox.hardware.check import Problem
from doodlebox.hardware.data import buttons, hardware_file

REQUIRED = ("reference", "part", "value", "quantity", "example_part_number", "notes")


class BomError(InputError, ValueError):
    pass


@dataclass(frozen=True)
class Line:
    reference: str
    part: str
    value: str
    quantity: int
    manufacturer: str
    part_number: str
    unit_price: Decimal
    notes: str

    @property
    def refs(self) -> list[str]:
        return expand(self.reference)

    @property
    def cost(self) -> Decimal:
        return self.unit_price * self.quantity

    def text(self) -> str:
        """Everything a person reads about the part, for matching words."""
        return " ".join((self.part, self.value, self.manufacturer, self.part_number, self.notes))


@dataclass(frozen=True)
class Bom:
    currency: str
    lines: list[Line]

    @property
    def total(self) -> Decimal:
        return sum((ln.cost for ln in self.lines), Decimal("0"))

    def find(self, ref: str) -> Line:
        for ln in self.lines:
            if ref in ln.refs:
                return ln
        raise KeyError(f"no {ref} in the bill of materials")

    def count(self, prefix: str) -> int:
        """How many parts have references `prefix` followed by a number (SW -> SW1, SW2, ...)."""
        pat = re.compile(re.escape(prefix) + r"\d+$")
        return sum(1 for ln in self.lines for r in ln.refs if pat.match(r))


_RANGE = re.compile(r"^([A-Z]+)(\d+)-(?:\1)?(\d+)$")


def expand(reference: str) -> list[str]:
    """'SW1-SW10' -> SW1..SW10; 'R2, R3' -> R2, R3; 'U1' -> U1."""
    out = []
    for item in (s.strip() for s in reference.split(",")):
        m = _RANGE.match(item)
        if m:
            prefix, a, b = m.group(1), int(m.group(2)), int(m.group(3))
            out += [f"{prefix}{i}" for i in range(a, b + 1)]
        elif item:
            out.append(item)
    return out


def read(path: Path | None = None) -> Bom:
    path = path or hardware_file("bom.csv")
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
        fields = rows[0].keys() if rows else []
    missing = [c for c in REQUIRED if c not in fields]
    prices = [c for c in fields if c.startswith("unit_price_")]
    if missing or len(prices) != 1:
        raise BomError(f"{path}: needs columns {', '.join(REQUIRED)} and one unit_price_<currency>; "
                       f"missing {missing or 'the price column'}")
    lines = []
    for n, row in enumerate(rows, start=2):
        try:
            lines.append(Line(row["reference"].strip(), row["part"].strip(), row["value"].strip(),
                              int(row["quantity"]), row.get("manufacturer", "").strip(),
                              row["example_part_number"].strip(), Decimal(row[prices[0]]), row["notes"].strip()))
        except (ValueError, InvalidOperation) as exc:
            raise BomError(f"{path} line {n}: {exc}") from None
    return Bom(prices[0][len("unit_price_"):].upper(), lines)


def table(bom: Bom) -> str:
    """The lines and the total, as `doodlebox hardware bom` prints them."""
    cur = bom.currency
    numbers = [f"{ln.manufacturer} {ln.part_number}".strip() for ln in bom.lines]
    w = max([len("example part number")] + [len(n) for n in numbers])
    head = f"{'reference':<11} {'qty':>3}  {'part':<34} {'value':<26} {'example part number':<{w}} " \
           f"{cur + ' each':>9} {cur + ' line':>9}"
    out = [head, "-" * len(head)]
    for ln, number in zip(bom.lines, numbers):
        out.append(f"{ln.reference:<11} {ln.quantity:>3}  {ln.part[:34]:<34} {ln.value[:26]:<26} {number:<{w}} "
                   f"{ln.unit_price:>9.2f} {ln.cost:>9.2f}")
    parts = sum(ln.quantity for ln in bom.lines)
    out.append("-" * len(head))
    out.append(f"total: {bom.total:.2f} {cur} for {parts} parts on {len(bom.lines)} lines "
               f"(example part numbers and indicative single-unit prices; notes in hardware/bom.csv)")
    return "\n".join(out) + "\n"


def problems(bom: Bom, pins: dict, parts: dict | None = None) -> list[Problem]:
    """Where the BOM and pins.json (and parts.json's references) disagree."""
    out: list[Problem] = []

    def err(msg: str) -> None:
        out.append(Problem("error", "bom", msg))

    seen: dict[str, str] = {}
    for ln in bom.lines:
        if len(ln.refs) != ln.quantity:
            err(f"{ln.reference}: quantity {ln.quantity} but the reference names {len(ln.refs)} parts")
        for r in ln.refs:
            if r in seen:
                err(f"{r} is listed twice ({seen[r]} and {ln.reference})")
            seen[r] = ln.reference
    n_buttons = len(buttons(pins))
    if bom.count("SW") != n_buttons:
        err(f"the BOM has {bom.count('SW')} push buttons (SW) but pins.json has {n_buttons} buttons")
    leds = pins.get("leds", {})
    n_leds = leds.get("dice", 0) * leds.get("pips_per_die", 0)
    if bom.count("LED") != n_leds:
        err(f"the BOM has {bom.count('LED')} LEDs but pins.json has {leds.get('dice')} dice x "
            f"{leds.get('pips_per_die')} pips = {n_leds}")
    for ln in bom.lines:
        if any(r.startswith("LED") for r in ln.refs) and leds.get("chip", "") not in ln.text():
            err(f"{ln.reference} is not the {leds.get('chip')} that pins.json names")
    epd = pins.get("epaper", {})
    try:
        panel = bom.find("DS1")
        model = (epd.get("model") or "?").split()[-1]
        for word in (model, epd.get("controller", "?"), f"{epd.get('width')}x{epd.get('height')}"):
            if word not in panel.text():
                err(f"DS1 ({panel.part_number}) does not say {word!r}, which pins.json's panel is")
    except KeyError:
        err("no DS1 (the e-paper panel) in the BOM")
    if "buzzer" in pins:
        try:
            buzzer = bom.find("BZ1")
            if pins["buzzer"].get("kind", "") not in buzzer.text():
                err(f"BZ1 ({buzzer.part_number}) is not a {pins['buzzer'].get('kind')} as pins.json says")
        except KeyError:
            err("no BZ1 (the buzzer) in the BOM")
    if parts:
        refs = [parts["leds"]["bom_ref"]] + [load["bom_ref"] for load in parts["loads"]]
        for ref in refs:
            for r in expand(ref):
                if r not in seen:
                    err(f"parts.json counts {r}, which the BOM does not list")
    return out
