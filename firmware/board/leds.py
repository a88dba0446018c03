# doodlebox LED dice: 7 dice of 7 pips on one WS2812 chain, brightness capped for USB power.

# Pip order on each die: TL, TR, ML, C, MR, BL, BR
FACES = (0, 0b0001000, 0b1000001, 0b1001001, 0b1100011, 0b1101011, 0b1110111)
# (state -> dim factor in 1/4): off, rolling, lit, taken
_SCALE = (0, 4, 4, 1)


class LedDice:
    """show(dice) lights each die's face; dice is [(face, state, is_column_die)]."""

    def __init__(self, strip, dice=7, pips=7, max_level=24):
        self.strip = strip
        self.dice = dice
        self.pips = pips
        self.max_level = max_level

    def colour(self, state, column):
        """A lit pip's (r, g, b): the column die blue, the white dice white."""
        level = self.max_level * _SCALE[state] // 4
        return (0, 0, level) if column else (level, level, level)

    def show(self, dice):
        strip = self.strip
        for d in range(self.dice):
            face, state, column = dice[d] if d < len(dice) else (0, 0, False)
            on = self.colour(state, column) if face else (0, 0, 0)
            bits = FACES[face] if 0 <= face <= 6 else 0
            base = d * self.pips
            for p in range(self.pips):
                strip[base + p] = on if bits & (1 << (6 - p)) else (0, 0, 0)
        strip.write()
