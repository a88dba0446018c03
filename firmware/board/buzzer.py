# doodlebox buzzer: named tunes on a passive piezo through PWM, played without blocking.
from micropython import const

# name -> (frequency Hz, milliseconds, frequency, milliseconds, ...): the notes in pairs, one flat
# tuple per tune (RAM: a tuple per note cost ~1 KB more); frequency 0 is a rest
TUNES = {
    "start": (523, 80, 659, 80, 784, 120),
    "roll": (1200, 30, 0, 30, 1400, 30, 0, 30, 1600, 30),
    "claim": (1568, 60),
    "choose": (1175, 40, 0, 30, 1175, 40),
    "tree": (784, 80, 523, 120),
    "refuse": (196, 250),
    "end": (784, 120, 659, 120, 523, 120, 392, 300),
    # the self-test (board/selftest.py): C major up an octave, C5..C6
    "scale": (523, 120, 587, 120, 659, 120, 698, 120, 784, 120, 880, 120, 988, 120, 1047, 120),
    # Doodle Puzzle's drawing minute (doodle/puzzle.py): it starts, a beep a second in the last
    # 10 s, the alarm at 0 (high and low in turn, 1.2 s: like nothing else), paused, resumed
    "go": (784, 80, 1047, 160),
    "tick": (2093, 40),
    "alarm": (2349, 150, 1568, 150, 2349, 150, 1568, 150, 2349, 150, 1568, 150, 2349, 300),
    "pause": (1047, 80, 659, 120),
    "resume": (659, 80, 1047, 120),
}
# tunes that cut in at once, whatever is playing: a refusal is heard immediately, and the
# minute's beeps and alarm sound on the second, never after a tune queued before them
_CUT_IN = const(("refuse", "tick", "alarm"))
DUTY = 32768  # 50 % for a square wave


class Buzzer:
    def __init__(self, pwm):
        self.pwm = pwm
        self._notes = []
        self._until = 0
        self.pwm.duty_u16(0)

    def play(self, name, now):
        """Queue a tune; a refusal and the timer's tunes cut in at once (_CUT_IN)."""
        tune = TUNES.get(name, ())
        if name in _CUT_IN:
            self._notes = list(tune)
            self._until = 0
        else:
            self._notes.extend(tune)
        self.tick(now)

    def tick(self, now):
        if self._until and now < self._until:
            return
        if not self._notes:
            if self._until:
                self.pwm.duty_u16(0)
                self._until = 0
            return
        freq, ms = self._notes[0], self._notes[1]
        del self._notes[:2]
        if freq:
            self.pwm.freq(freq)
            self.pwm.duty_u16(DUTY)
        else:
            self.pwm.duty_u16(0)
        self._until = now + ms
