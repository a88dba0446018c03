"""The virtual console driven by lines of text (`doodlebox sim` when stdin is not a terminal,
for scripts and tests): `press NAME [MS]`, `png PATH`, `status`, `quit`. Each answer is a line."""
from __future__ import annotations

from collections.abc import Callable, Iterable

from doodlebox.virtual.console import VirtualConsole
from doodlebox.virtual.panel import dice_text


def serve(vc: VirtualConsole, lines: Iterable[str], say: Callable[[str], None]) -> None:
    """Carry out each line until `quit` or the end of the input."""
    for line in lines:
        words = line.split()
        if not words:
            continue
        if words[0] == "press" and len(words) in (2, 3):
            try:
                ms = float(words[2]) if len(words) == 3 else 80.0
            except ValueError:
                say(f"error: {words[2]!r} is not a number of milliseconds")
                continue
            vc.press(words[1], ms)
        elif words[0] == "png" and len(words) == 2:
            say(f"png: {vc.save_panel(words[1])}")
        elif words[0] == "status":
            say(f"status: {'running' if vc.running else 'stopped: ' + str(vc.error)} dice {dice_text(vc)}")
        elif words[0] == "quit":
            return
        else:
            say(f"error: unknown command {line.strip()!r} (press NAME [MS], png PATH, status, quit)")
