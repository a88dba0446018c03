# doodlebox sheet: one player's paper as the rules need it (pieces, houses, floors, trees,
# barrels, values circled), the roads its pieces make and what a drawing is worth.
# `ed` is an edition module (doodle/ed_<edition>.py, generated from the PC's layouts).

# kind codes of ed.KINDS (host/doodlebox/firmware_data.py KIND_CODES)
HOUSE = 1
HOTEL = 2
SHOP = 3
SKYSCRAPER = 6
PARK = 7

# the sides a piece joins: N 1, E 2, S 4, W 8 (as the PC's rules/dice/roads.py)
SIDES = {"NS": 5, "EW": 10, "NE": 3, "ES": 6, "SW": 12, "NW": 9}


class Sheet:
    def __init__(self, ed):
        self.ed = ed
        self.pieces = bytearray(ed.SIZE * ed.SIZE)   # the sides of the piece in each square, 0 none
        self.crossed = bytearray(ed.CROSSED)          # houses crossed per square, printed ones too
        self.floors = bytearray(ed.FLOORS)            # floors per square, printed ones too
        self.trees = 0                                # trees (bottles) crossed out
        self.barrels = 0
        self.circled = [[] for _ in ed.TRACKS]  # type: list[list[int]]  # values circled, per track
        self.bonuses = []  # type: list[int]  # first-player bonuses circled

    def usable(self, i):
        """Whether square i can take a drawing: a house left to cross, or no piece yet."""
        ed = self.ed
        if ed.KINDS[i] == HOUSE:
            return self.crossed[i] < ed.HOUSES[i]
        return not self.pieces[i]

    def floor_ok(self, i):
        """Whether the sky scraper (kraken) in square i can take one more floor (tentacle)."""
        ed = self.ed
        return (ed.KINDS[i] == SKYSCRAPER and not self.pieces[i]
                and self.floors[i] - ed.FLOORS[i] < ed.EXTRA_FLOORS)

    def road(self, i):
        """The squares of the road through square i (itself included; [] without a piece)."""
        p = self.pieces
        if not p[i]:
            return []
        n = self.ed.SIZE
        last = n * n - n
        seen = bytearray(n * n)
        seen[i] = 1
        out = [i]
        k = 0
        while k < len(out):
            j = out[k]
            k += 1
            b = p[j]
            c = j % n
            if b & 1 and j >= n and p[j - n] & 4 and not seen[j - n]:
                seen[j - n] = 1
                out.append(j - n)
            if b & 2 and c < n - 1 and p[j + 1] & 8 and not seen[j + 1]:
                seen[j + 1] = 1
                out.append(j + 1)
            if b & 4 and j < last and p[j + n] & 1 and not seen[j + n]:
                seen[j + n] = 1
                out.append(j + n)
            if b & 8 and c and p[j - 1] & 2 and not seen[j - 1]:
                seen[j - 1] = 1
                out.append(j - 1)
        return out

    def worth(self, kind, i):
        """What a drawing in square i scores: a hotel its road's length, a shop the houses
        crossed on its road, a sky scraper its floors times the parks on its road (R12, R20)."""
        road = self.road(i)
        if kind == HOTEL:
            return len(road)
        kinds = self.ed.KINDS
        n = 0
        for j in road:
            if kind == SHOP and kinds[j] == HOUSE:
                n += self.crossed[j]
            elif kind == SKYSCRAPER and kinds[j] == PARK:
                n += 1
        return n if kind == SHOP else self.floors[i] * n

    def free(self, t, worth, shared):
        """The values of track t this sheet may circle for a drawing worth `worth`, highest
        first: not above it, not circled here, not taken by another player (`shared`: the
        values circled on a shared track, or None)."""
        out = []
        mine = self.circled[t]
        values = self.ed.TRACKS[t][2]
        k = len(values) - 1
        while k >= 0:
            v = values[k]
            if v <= worth and v not in mine and (shared is None or v not in shared):
                out.append(v)
            k -= 1
        return out
