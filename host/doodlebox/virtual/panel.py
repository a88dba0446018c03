"""The virtual console's terminal panel (`doodlebox log` and `doodlebox sim` on a terminal): keys
press buttons; the console is drawn as a person reads it. Once the console has settled after a
change (the dice done tumbling, the e-paper redrawn), its e-paper's text (read off its picture,
virtual/screen.py) is printed once in a box: the tune the buzzer played since the last box named
on its top edge, the LED dice on its bottom edge. Nothing else is printed per press: with the
logger, its line for the press's event is the one line that says what happened. The map and the
legend's pieces are drawn in the same line-drawing characters (SIDES), a house square (on the
e-paper: its houses left, a digit) as HOUSE, with a key beside the map; the path of the panel's
PNG is said once, and again only if it changes."""
from __future__ import annotations

import ast
import functools
import os
import select
import sys
import termios
import time
import tty
from collections.abc import Set as AbstractSet
from pathlib import Path

from doodlebox import paths
from doodlebox.virtual.screen import panel_lines

KEYS = {"0": "D0", "1": "D1", "2": "D2", "3": "D3", "4": "D4", "5": "D5", "6": "D6",
        "r": "ROLL", " ": "ROLL", "\r": "ROLL", "p": "PASS", "m": "MENU"}
HELP = ("keys: 1-6 the white dice's buttons (D1-D6), 0 the column die's (D0), r/space ROLL, p PASS, m MENU, q quit;"
        " the panel in a box, the tune heard on its top edge, the dice on its bottom edge: column [n] first,"
        " then the white ones, (n) taken")
PIPS = "TL TR ML C MR BL BR".split()
FACES = {0b0001000: 1, 0b1000001: 2, 0b1001001: 3, 0b1100011: 4, 0b1101011: 5, 0b1110111: 6}
SETTLE_S = 0.45      # the console unchanged this long (a roll tumbles 0.6 s, a new face every 80 ms): drawn
WIDTH = 37           # the panel's line (firmware/board/panel.py _LINE_CHARS): the box's least inner width


def dice_text(vc) -> str:
    """The LED dice as the terminal shows them: the column die first ("column [3]"), then the
    white ones ("white [4] (2)"); [4] lit, (4) dim (taken)."""
    out = []
    for d, pips in enumerate(vc.hardware.leds.dice()):
        bits = 0
        level = 0
        for p, rgb in enumerate(pips):
            if any(rgb):
                bits |= 1 << (6 - p)
                level = max(level, max(rgb))
        face = FACES.get(bits)
        if not bits:
            out.append(" . ")
            continue
        label = str(face) if face else "?"
        dim = level < vc.hardware.leds.max_level // 2 if hasattr(vc.hardware.leds, "max_level") else False
        out.append(("column " if d == 0 else "white " if d == 1 else "") + (f"({label})" if dim else f"[{label}]"))
    return " ".join(out)


def lit_dice(vc) -> str:
    """dice_text without the dice that are off ("" when none is lit: the lobby, the card games)."""
    return " ".join(w for w in dice_text(vc).split(" ") if w and w != ".")


# a piece's or a card's open sides (N 1, E 2, S 4, W 8) as the one line-drawing character the
# terminal draws it with: the map's squares, the legend's pieces and Deadly Doodles' cards alike
SIDES = {1: "\u2575", 2: "\u2576", 3: "\u2514", 4: "\u2577", 5: "\u2502", 6: "\u250c", 7: "\u251c", 8: "\u2574",
         9: "\u2518", 10: "\u2500", 11: "\u2534", 12: "\u2510", 13: "\u2524", 14: "\u252c", 15: "\u253c"}
HOUSE = "\u2302"     # a house square (the e-paper writes its houses left: a digit, read as a die's face)


@functools.cache
def _firmware_data(name: str) -> dict:
    """The literal assignments of a firmware module (doodle/ed_city.py, board/buzzer.py): data
    the firmware was given, read as text, never run on the PC. {} when it cannot be read."""
    try:
        tree = ast.parse((paths.firmware() / name).read_text())
    except (OSError, SyntaxError, ValueError, paths.MissingFiles):
        return {}
    out = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            try:
                out[node.targets[0].id] = ast.literal_eval(node.value)
            except ValueError:
                pass
    return out


@functools.cache
def _editions() -> dict[str, dict]:
    """A dice edition's data by its short name, the title's first word ("City" -> ed_city.py's)."""
    out = {}
    try:
        found = sorted((paths.firmware() / "doodle").glob("ed_*.py"))
    except (OSError, paths.MissingFiles):
        return {}
    for f in found:
        data = _firmware_data(f"doodle/{f.name}")
        if isinstance(data.get("SHORT"), str):
            out[data["SHORT"]] = data
    return out


def _kind_names(mark: str, ed: dict) -> str:
    """What a letter on the map stands for in edition `ed` (its NAMES by MARKS; the kinds on the
    default sheet first when two kinds share a letter)."""
    marks, names, kinds = ed.get("MARKS", b""), ed.get("NAMES", ()), set(ed.get("KINDS", b""))
    having = [k for k, m in enumerate(marks) if chr(m) == mark and k < len(names)]
    on_sheet = [k for k in having if k in kinds] or having
    return "/".join(names[k] for k in on_sheet)


def map_key(title: str, shown: set[str], houses: AbstractSet[tuple[int, int]] = frozenset()) -> list[str]:
    """The map's key for the characters `shown` on it, in the words of the edition the title names
    (City: "H hotel"): HOUSE a start square when the squares it marks (`houses`: row, column) are
    start squares of the edition's sheet (the 5x5 sheets' start squares are house squares), else
    a house square; a letter of an edition not known is left out."""
    ed = _editions().get(title.split(" ")[0], {}) if title else {}
    names = ed.get("NAMES", ())
    starts = {(row, col) for col, row in enumerate(ed.get("START", b""), start=1)}
    out = []
    if HOUSE in shown:
        start = bool(houses) and houses <= starts
        out.append(f"{HOUSE} " + ("start square" if start else names[1] if len(names) > 1 else "house square"))
    for ch in sorted(c for c in shown if c.isalpha()):
        words = _kind_names(ch, ed) if ed else ""
        if words:
            out.append(f"{ch} {words}")
    return out


def map_art(line: str, title: str = "") -> list[str]:
    """A "#" line (the map of the current player's sheet) as rows of text: the columns' numbers,
    then each row with its number; a piece as its line-drawing character (SIDES), a house square
    as HOUSE, a marked square in [ ]; the key (map_key) to the right of the rows."""
    n = int(line[1])
    cells = line[2:2 + n * n]
    marks = {ord(ch) - 48 for ch in line[3 + n * n:]}
    rows = ["   " + "".join(f" {c + 1} " for c in range(n))]
    shown = set()
    houses = set()
    for r in range(n):
        row = f"{r + 1:>2} "
        for c in range(n):
            i = r * n + c
            ch = cells[i]
            if "a" <= ch <= "p":
                ch = SIDES.get(ord(ch) - 97, "?")
            elif ch.isdigit():
                ch = HOUSE
                houses.add((r + 1, c + 1))
            shown.add(ch)
            row += f"[{ch}]" if i in marks else f" {ch} "
        rows.append(row)
    key = map_key(title, shown, houses)
    wide = len(rows[0])
    for k, entry in enumerate(key):
        if k + 1 < len(rows):
            rows[k + 1] = rows[k + 1].ljust(wide) + "   " + entry
        else:
            rows.append(" " * wide + "   " + entry)
    return rows


def card_art(line: str) -> list[str]:
    """A "%" line (a row of card pictures: a dice edition's legend, Deadly Doodles' cards) as two
    rows of text: each card 4 characters wide, its open sides as the map's line-drawing
    character (SIDES: a dead end's one side a half line), a Trap "X", a Draw 2 "+2"; its number
    under it (none under a Draw 2)."""
    rows = ["", ""]
    num = 0
    for ch in line[1:]:
        if ch == "X":
            art = " X "
        elif ch == "+":
            art = " +2"
        else:
            m = int(ch, 16) if ch in "0123456789abcdef" else 0
            art = f" {SIDES.get(m, '?')} "
        if ch != "+":
            num += 1
        rows[0] += art + " "
        rows[1] += (f"{num:>2} " if ch != "+" else "   ") + " "
    return [r.rstrip() for r in rows]


def tune_names(freqs: list[int]) -> list[str]:
    """The buzzer's notes (their frequencies, rests left out) as the names of the firmware's tunes
    (board/buzzer.py TUNES): a tune cut short by the next one is still named; a note of no tune
    as its frequency ("440Hz")."""
    tunes = _firmware_data("board/buzzer.py").get("TUNES", {})
    notes = {name: [f for f in t[0::2] if f] for name, t in tunes.items() if isinstance(t, tuple)}
    out = []
    i = 0
    while i < len(freqs):
        best, size = "", 0
        for name, seq in notes.items():
            k = 0
            while k < len(seq) and i + k < len(freqs) and freqs[i + k] == seq[k]:
                k += 1
            if k > size or (k == size and k == len(seq) and k):
                best, size = name, k
        if not size:
            best, size = f"{freqs[i]}Hz", 1
        out.append(best)
        i += size
    return out


class TerminalPanel:
    """`vc`'s panel on the terminal `out`; its PNG written to `png_dir`/panel.png at each refresh."""

    def __init__(self, vc, png_dir: Path, out=sys.stdout, settle_s: float = SETTLE_S):
        self.vc = vc
        self.png = png_dir / "panel.png"
        self.out = out
        self.settle_s = settle_s
        self._refreshes = -1
        self._tones = 0
        self._heard: list[int] = []                  # the notes since the last box
        self._drawn: tuple | None = None             # (the panel's lines, the dice) last printed
        self._seen: tuple | None = None              # ... last seen, and since when
        self._since = 0.0
        self._said_png: Path | None = None

    def _write(self, text: str) -> None:
        """One write: a box is never cut by a line the logger prints from its thread."""
        self.out.write(text)
        self.out.flush()

    def _picture(self) -> None:
        """The PNG written after each refresh; its path said when it is not the one said before."""
        ep = self.vc.hardware.epaper
        refreshes = ep.full_refreshes + ep.partial_refreshes
        if refreshes != self._refreshes:
            self._refreshes = refreshes
            self.vc.save_panel(self.png)
            if self.png != self._said_png:
                self._said_png = self.png
                self._write(f"the panel's picture: {self.png} (written at each refresh)\n")

    def box(self, text: list[str], dice: str, tunes: list[str]) -> list[str]:
        """The panel's lines in a box: "!" lines (black bars) with a "<", a "^" line (the action)
        with a "»"; the tunes on the top edge, the dice on the bottom edge."""
        rows: list[str] = []
        title = text[0] if text else ""
        for t in text:
            art = card_art(t) if t.startswith("%") else map_art(t, title) if t.startswith("#") else None
            rows += art or [t[1:] + " <" if t.startswith("!") else "\u00bb " + t[1:] if t.startswith("^") else t]
        top = f"- tone: {', '.join(tunes)} " if tunes else ""
        bottom = f"- dice: {dice} " if dice else ""
        wide = max([WIDTH] + [len(r) for r in rows] + [len(top) - 1, len(bottom) - 1])
        out = ["+" + top + "-" * (wide + 1 - len(top)) + "+"]
        out += ["| " + r.ljust(wide) + "|" for r in rows]
        out.append("+" + bottom + "-" * (wide + 1 - len(bottom)) + "+")
        return out

    def show(self, now: float | None = None) -> bool:
        """Look at the console once: when what it shows (the panel's text, the dice) or a tune is
        new and has stayed so for settle_s, print it in one box. True when a box was printed."""
        now = time.monotonic() if now is None else now
        self._picture()
        tones = self.vc.hardware.buzzer.tones()
        if len(tones) > self._tones:
            self._heard += [int(f) for _, f, _ in tones[self._tones:]]
            self._tones = len(tones)
            self._seen = None                         # a tune still playing: not settled yet
        text = panel_lines(self.vc)
        state = (tuple(text), lit_dice(self.vc))
        if state != self._seen:
            self._seen, self._since = state, now
            return False
        if now - self._since < self.settle_s or not text or (state == self._drawn and not self._heard):
            return False
        self._drawn = state
        tunes = tune_names(self._heard)
        self._heard = []
        self._write("\n".join(self.box(list(text), state[1], tunes)) + "\n")
        return True

    def run(self, keep_going=lambda: True) -> None:
        """Read keys until q; needs a terminal."""
        self._write(HELP + "\n")
        fd = sys.stdin.fileno()
        old = termios.tcgetattr(fd)
        tty.setcbreak(fd)
        try:
            while keep_going():
                ready, _, _ = select.select([fd], [], [], 0.15)
                self.show()
                if not ready:
                    continue
                ch = os.read(fd, 1).decode(errors="ignore").lower()
                if ch in ("q", "\x04"):
                    return
                if ch in KEYS:  # presses queue in the model: keys typed fast all count, in order
                    self.vc.press(KEYS[ch])
        finally:
            termios.tcsetattr(fd, termios.TCSADRAIN, old)
