# Generated from host/doodlebox/layouts/deadly-map-b.json and deadly-deck.json by `make firmware-data`; do not edit.
# Deadly Doodles, map side B, and the default deck (36 cards), as the console needs them
# (docs/console-deadly-puzzle.md). Rooms row-major, a row of the map a line (A1 B1 .. F1, A2 ..);
# sides N 1, E 2, S 4, W 8.
SIDE = 'b'
NAME = 'Deadly Doodles, map side B'
# the sides with a passageway (to a room, or an entryway)
PASSAGES = (b'\x04\x06\x0b\x0e\x0e\x0c'
            b'\x07\x0b\x0e\x0d\x07\x0f'
            b'\x0f\x0e\x0d\x03\x0f\x09'
            b'\x07\x0f\x0f\x0e\x0b\x0c'
            b'\x05\x07\x0b\x0d\x06\x0f'
            b'\x03\x0f\x0a\x0b\x0d\x01')
# the sides with an entryway arrow
ENTRIES = (b'\x00\x00\x01\x00\x00\x00'
           b'\x00\x00\x00\x00\x00\x02'
           b'\x08\x00\x00\x00\x00\x00'
           b'\x00\x00\x00\x00\x00\x00'
           b'\x00\x00\x00\x00\x00\x02'
           b'\x00\x04\x00\x00\x04\x00')
# 0 empty, 1 Loot, 2 the Dragon, 3 a Weapon, 4 a Monster
CONTENTS = (b'\x00\x01\x00\x04\x00\x03'
            b'\x03\x00\x04\x00\x01\x00'
            b'\x00\x04\x00\x02\x03\x00'
            b'\x04\x00\x03\x00\x00\x04'
            b'\x00\x01\x03\x00\x04\x00'
            b'\x03\x00\x00\x01\x00\x00')
# a Weapon's or Monster's letter, 0 A .. 5 F
PAIRS = (b'\x00\x00\x00\x00\x00\x01'
         b'\x02\x00\x03\x00\x00\x00'
         b'\x00\x05\x00\x00\x04\x00'
         b'\x01\x00\x00\x00\x00\x02'
         b'\x00\x00\x03\x00\x04\x00'
         b'\x05\x00\x00\x00\x00\x00')
LOOT = 4
DRAGON = 15
# card id (0 is none) -> a path segment's sides as printed, 16 a Trap, 32 a Draw 2
CARDS = (b'\x00\x05\x05\x05\x05\x05\x05\x05\x05\x03'
         b'\x03\x03\x03\x03\x03\x03\x03\x03\x03\x07'
         b'\x07\x07\x07\x07\x07\x0f\x0f\x0f\x0f\x01'
         b'\x01\x01\x01\x10\x10\x20\x20')
