# doodlebox buttons: polled, debounced push buttons (active low, internal pull-ups).
from micropython import const

_DEBOUNCE_MS = const(30)


class Buttons:
    """poll(now_ms) returns the names of buttons that went down since the last poll.

    A level must hold for 30 ms (_DEBOUNCE_MS) before it counts; no interrupts are used.
    PASS going down while MENU is held is the chord "MENU+PASS", never a PASS (docs/console.md:
    the hint; MENU first, so its own press only asks "End game?").
    """

    def __init__(self, pins):
        self._pins = pins                   # [(name, machine.Pin)]
        self._stable = [1] * len(pins)      # released
        self._seen = [1] * len(pins)
        self._since = [0] * len(pins)

    def poll(self, now):
        pressed = None  # type: list[str] | None  # a list only when something was pressed
        for i, (name, pin) in enumerate(self._pins):
            level = pin.value()
            if level != self._seen[i]:
                self._seen[i] = level
                self._since[i] = now
            elif level != self._stable[i] and now - self._since[i] >= _DEBOUNCE_MS:
                self._stable[i] = level
                if level == 0:
                    if pressed is None:
                        pressed = []
                    pressed.append("MENU+PASS" if name == "PASS" and self.held("MENU") else name)
        return pressed or ()  # no garbage per loop when nothing was pressed

    def held(self, name):
        for i, (n, _pin) in enumerate(self._pins):
            if n == name:
                return self._stable[i] == 0
        return False
