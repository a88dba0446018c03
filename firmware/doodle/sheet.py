# doodlebox sheet: what one player has drawn, as far as the console must know to refuse a die.


class Sheet:
    """Squares with a road, houses left in each house square, trees left.

    Rows and columns are 1-based as printed. `layout` is an entry of doodle.layouts.LAYOUTS:
    (size, trees, start squares, house squares as (row, col, available houses)).
    """

    def __init__(self, layout):
        size, trees, _start, houses = layout
        self.size = size
        self.trees = trees
        self.road = bytearray(size * size)      # 1 where a road is drawn
        self.houses = bytearray(size * size)    # houses still to cross; house squares only
        self.is_house = bytearray(size * size)
        for r, c, n in houses:
            self.is_house[(r - 1) * size + c - 1] = 1
            self.houses[(r - 1) * size + c - 1] = n

    def can_draw(self, row, col):
        i = (row - 1) * self.size + col - 1
        if self.is_house[i]:
            return self.houses[i] > 0
        return not self.road[i]

    def start(self, row, col):
        """The start road: drawn in the start square (a house square keeps its houses)."""
        self.road[(row - 1) * self.size + col - 1] = 1

    def draw(self, row, col):
        """Draw a road, or cross a house in a house square."""
        i = (row - 1) * self.size + col - 1
        if self.is_house[i]:
            self.houses[i] -= 1
        else:
            self.road[i] = 1

    def free_in_row(self, row):
        return [c for c in range(1, self.size + 1) if self.can_draw(row, c)]

    def free_in_col(self, col):
        return [r for r in range(1, self.size + 1) if self.can_draw(r, col)]

    def any_free(self):
        for r in range(1, self.size + 1):
            if self.free_in_row(r):
                return True
        return False

    def cross_tree(self):
        """Cross out a tree; returns False when none was left to cross."""
        if self.trees:
            self.trees -= 1
            return True
        return False
