"""The virtual console's terminal panel: keys press buttons; the dice, the tones, the e-paper's
text (read off its picture) and its PNG."""
from __future__ import annotations

import os
import select
import sys
import termios
import tty
from pathlib import Path

from doodlebox.virtual.screen import panel_lines

KEYS = {"0": "D0", "1": "D1", "2": "D2", "3": "D3", "4": "D4", "5": "D5", "6": "D6",
        "r": "ROLL", " ": "ROLL", "\r": "ROLL", "p": "PASS", "m": "MENU"}
HELP = ("keys: 1-6 the white dice's buttons (D1-D6), 0 the column die's (D0), r/space ROLL, p PASS, m MENU, q quit;"
        " the dice: column [n] first, then the white ones, (n) taken")
PIPS = "TL TR ML C MR BL BR".split()
FACES = {0b0001000: 1, 0b1000001: 2, 0b1001001: 3, 0b1100011: 4, 0b1101011: 5, 0b1110111: 6}


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


# a piece's sides (N 1, E 2, S 4, W 8) as a box-drawing character
PIECES = {5: "\u2502", 10: "\u2500", 3: "\u2514", 6: "\u250c", 12: "\u2510", 9: "\u2518"}


def map_art(line: str) -> list[str]:
    """A "#" line (the map of the current player's sheet) as rows of text: the columns' numbers,
    then each row with its number; a piece as a line-drawing character, a marked square in [ ]."""
    n = int(line[1])
    cells = line[2:2 + n * n]
    marks = {ord(ch) - 48 for ch in line[3 + n * n:]}
    rows = ["   " + "".join(f" {c + 1} " for c in range(n))]
    for r in range(n):
        row = f"{r + 1:>2} "
        for c in range(n):
            i = r * n + c
            ch = cells[i]
            if "a" <= ch <= "p":
                ch = PIECES.get(ord(ch) - 97, "+")
            row += f"[{ch}]" if i in marks else f" {ch} "
        rows.append(row)
    return rows


def card_art(line: str) -> list[str]:
    """A "%" line (a row of card pictures, Deadly Doodles) as four rows of text: each card 3
    characters wide (its open sides as lines, a dead end's stop "o", a Trap "X", a Draw 2
    "+2"), its number under it."""
    rows = ["", "", "", ""]
    num = 0
    for ch in line[1:]:
        if ch == "X":
            art = ("\\ /", " X ", "/ \\")
        elif ch == "+":
            art = ("   ", "+2 ", "   ")
        else:
            m = int(ch, 16) if ch in "0123456789abcdef" else 0
            hub = "o" if m in (1, 2, 4, 8) else "+" if m else "?"
            art = (" | " if m & 1 else "   ", ("-" if m & 8 else " ") + hub + ("-" if m & 2 else " "),
                   " | " if m & 4 else "   ")
        if ch != "+":
            num += 1
        for k in range(3):
            rows[k] += art[k] + " "
        rows[3] += (f" {num} " if ch != "+" else "   ") + " "
    return [r.rstrip() for r in rows]


class TerminalPanel:
    def __init__(self, vc, png_dir: Path, out=sys.stdout):
        self.vc = vc
        self.png = png_dir / "panel.png"
        self.out = out
        self._last = ""
        self._refreshes = -1
        self._tones = 0
        self._text: list[str] = []

    def status(self) -> str:
        hw = self.vc.hardware
        ep = hw.epaper
        tones = hw.buzzer.tones()
        new = tones[self._tones:]
        self._tones = len(tones)
        sound = " ".join(f"{int(f)}Hz/{int(d * 1000)}ms" for _, f, d in new[-4:])
        refreshes = ep.full_refreshes + ep.partial_refreshes
        if refreshes != self._refreshes:
            self._refreshes = refreshes
            self.vc.save_panel(self.png)
        return f"dice {dice_text(self.vc)}  | panel {self.png}" + (f"  | tones {sound}" if sound else "")

    def show(self) -> None:
        text = panel_lines(self.vc)
        if text and text != self._text:
            self._text = text
            print("+" + "-" * 38 + "+", file=self.out)
            for t in text:
                art = card_art(t) if t.startswith("%") else map_art(t) if t.startswith("#") else None
                for row in art or [t[1:] + " <" if t.startswith("!") else t]:
                    print("| " + row.ljust(37)[:37] + "|", file=self.out)
            print("+" + "-" * 38 + "+", file=self.out, flush=True)
        line = self.status()
        if line != self._last:
            self._last = line
            print(line, file=self.out, flush=True)

    def run(self, keep_going=lambda: True) -> None:
        """Read keys until q; needs a terminal."""
        print(HELP, file=self.out, flush=True)
        fd = sys.stdin.fileno()
        old = termios.tcgetattr(fd)
        tty.setcbreak(fd)
        try:
            while keep_going():
                ready, _, _ = select.select([fd], [], [], 0.2)
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
