"""The live side of the page in the `doodlebox log --web` process: its virtual console (the LED
dice, the buttons a click presses, the e-paper panel's picture and text) and its link (the
console connected). `doodlebox web` alone has neither: the page then shows the game playing
from the database only (views.Views.playing)."""
from __future__ import annotations

import io
import threading

from PIL import Image

from doodlebox.errors import InputError
from doodlebox.virtual import panel
from doodlebox.virtual.screen import panel_lines

BUTTONS = ("D0", "D1", "D2", "D3", "D4", "D5", "D6", "ROLL", "PASS", "MENU")
PRESS_MS = 80        # a click is a press as a person makes it (bot.PRESS_MS)
MAX_PENDING = 20     # presses waiting in the console's model: more clicks than that are refused


class NoConsole(InputError):
    """A press with no virtual console to press it on."""


class Live:
    """`vc`: the virtual console (virtual/console.py), `link`: the LinkThread (logger/link_thread.py); either
    may be None, and both may be set after the server started."""
    def __init__(self, vc=None, link=None):
        self.vc = vc
        self.link = link
        self._lock = threading.Lock()
        self._panel: tuple[int, bytes, list[str]] = (-1, b"", [])   # refreshes, PNG, text

    def link_text(self) -> str:
        link = self.link
        if link is None:
            return ""
        if link.error:
            return f"link stopped: {link.error}"
        session = link.link
        c = session.console if session is not None else None
        if c is None:
            return "waiting for the console"
        return f"connected: console {c.uid}, firmware {c.fw}, boot {c.boot}"

    def console(self) -> dict | None:
        """The virtual console as the page draws it: each die's pips as [r, g, b] (pip order TL,
        TR, ML, C, MR, BL, BR), the brightest level, the buttons, the panel's refresh count and
        text; None without one."""
        vc = self.vc
        if vc is None:
            return None
        hw = vc.hardware
        refreshes, _, text = self._panel_now()
        action, text = readable(text)
        return {"action": action, "mode": vc.mode, "running": vc.running, "error": vc.error or "",
                "dice": [[list(rgb) for rgb in die] for die in hw.leds.dice()], "max": hw.leds.max_level,
                "buttons": [b for b in BUTTONS if b in hw.buttons], "panel": refreshes, "lines": text,
                "pending": hw.pending_presses()}

    def _panel_now(self) -> tuple[int, bytes, list[str]]:
        """The panel's picture (PNG, twice its size) and text, made again only after a refresh."""
        vc = self.vc
        if vc is None:
            return self._panel
        ep = vc.hardware.epaper
        refreshes = ep.full_refreshes + ep.partial_refreshes
        with self._lock:
            if refreshes == self._panel[0]:
                return self._panel
            self._panel = (refreshes, _png(ep.image()), _text(vc))
            return self._panel

    def panel_png(self) -> bytes | None:
        if self.vc is None:
            return None
        return self._panel_now()[1]

    def press(self, name: str) -> int:
        """Press a button on the virtual console as a person would (PRESS_MS); the presses
        waiting after it."""
        vc = self.vc
        if vc is None:
            raise NoConsole("no virtual console here: the buttons are pressed on the console itself")
        if name not in BUTTONS or name not in vc.hardware.buttons:
            raise InputError(f"no button {name!r} (buttons: {', '.join(BUTTONS)})")
        if vc.hardware.pending_presses() >= MAX_PENDING:
            raise InputError(f"{MAX_PENDING} presses are waiting already: wait for the console")
        vc.press(name, PRESS_MS)
        return vc.hardware.pending_presses()


def _png(image: list[bytearray]) -> bytes:
    """The panel's landscape image (rows of 0 black / 1 white) as a PNG, each pixel 2x2."""
    height = len(image)
    width = len(image[0]) if image else 0
    picture = Image.frombytes("L", (width, height), b"".join(bytes(255 if p else 0 for p in row) for row in image))
    out = io.BytesIO()
    picture.resize((2 * width, 2 * height), Image.Resampling.NEAREST).save(out, format="PNG")
    return out.getvalue()


def _text(vc) -> list[str]:
    try:
        return [str(line) for line in panel_lines(vc)]
    except Exception:     # the picture read as text is a help, never a reason for the page to fail
        return []


def readable(lines: list[str]) -> tuple[str, list[str]]:
    """The panel's lines as read off its picture (virtual/screen.py: "!" a line on a black bar, "^"
    the action on top, "#" the map's code, "%" a row of cards) as a person reads them: (the action,
    the other lines), the map and the cards drawn in text by the terminal's own decoding
    (virtual/panel.py's map_art and card_art), never as their codes."""
    action = ""
    out: list[str] = []
    title = lines[0] if lines else ""
    for line in lines:
        if line.startswith("^"):
            action = line[1:].strip()
        elif line.startswith("!"):
            out.append(line[1:].strip())
        elif line.startswith("#"):
            out += _art(lambda line=line: _map(line, title))
        elif line.startswith("%"):
            out += _art(lambda line=line: panel.card_art(line))
        else:
            out.append(line)
    return action, out


def _map(line: str, title: str) -> list[str]:
    try:
        return list(panel.map_art(line, title))    # with its key, where the terminal's has one
    except TypeError:
        return list(panel.map_art(line))


def _art(draw) -> list[str]:
    """A map or a row of cards in text; nothing (never its code) when it cannot be read."""
    try:
        return [str(r) for r in draw()]
    except Exception:
        return []
