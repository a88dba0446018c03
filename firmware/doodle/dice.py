# doodlebox dice: the column die and the white dice of one round, with the tumble animation.
from micropython import const

_ROLL_MS = const(600)
_TUMBLE_STEP_MS = const(80)

# a die's state, as App.dice() reports it (board/leds.py dims by it)
_OFF = const(0)
_ROLLING = const(1)
_LIT = const(2)
_TAKEN = const(3)


class Dice:
    """Die 0 is the column die; dice 1..whites are white. rand(n) gives 0..n-1."""

    def __init__(self, rand, count=7):
        self.rand = rand
        self.count = count
        self.values = [0] * count
        self.states = [_OFF] * count
        self.whites = 0
        self._until = 0
        self._step = 0
        self.rev = 0

    def roll(self, whites, now, column_only=False):
        """Roll the column die (and `whites` white dice); returns the settled values."""
        self.whites = 0 if column_only else whites
        for i in range(self.count):
            used = i == 0 or i <= self.whites
            self.values[i] = self.rand(6) + 1 if used else 0
            self.states[i] = _ROLLING if used else _OFF
        self._until = now + _ROLL_MS
        self._step = now
        self.rev += 1
        return self.values[0], self.values[1:self.whites + 1]

    def show(self, column, whites, taken):
        """The round's dice as they were rolled (a game resumed after a power-off): lit, the
        taken ones (taken[i] >= 0) dark."""
        self.whites = len(whites)
        self._until = 0
        for i in range(self.count):
            used = i <= self.whites
            self.values[i] = (column if i == 0 else whites[i - 1]) if used else 0
            self.states[i] = (_TAKEN if i and taken[i] >= 0 else _LIT) if used else _OFF
        self.rev += 1

    def rolling(self, now):
        return self._until and now < self._until

    def take(self, i):
        self.states[i] = _TAKEN
        self.rev += 1

    def clear(self):
        for i in range(self.count):
            self.states[i] = _OFF
            self.values[i] = 0
        self.rev += 1

    def settle(self):
        if self._until:
            self._until = 1
            self.tick(1)

    def tick(self, now):
        if not self._until:
            return
        if now >= self._until:
            self._until = 0
            for i in range(self.count):
                if self.states[i] == _ROLLING:
                    self.states[i] = _LIT
            self.rev += 1
        elif now - self._step >= _TUMBLE_STEP_MS:
            self._step = now
            self.rev += 1

    def shown(self, now, out):
        """Fill out[i] = [face, state, ...] per die; a rolling die shows a tumbling face."""
        for i in range(self.count):
            st = self.states[i]
            if st == _ROLLING and self._until and now < self._until:
                face = ((now // _TUMBLE_STEP_MS) * 5 + i * 3) % 6 + 1  # animation only, not chance
            else:
                face = self.values[i]
            out[i][0] = face
            out[i][1] = st
        return out
