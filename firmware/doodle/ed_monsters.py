# Generated from host/doodlebox/layouts/doodle-islands-monsters.json by `make firmware-data`; do not edit.
# Doodle Islands: Sea of Monsters: the sheet as the console needs it (docs/console.md). Squares row-major.
EDITION = 'monsters'
SHORT = 'Monsters'
SIZE = 6
JOKERS = False  # 5x5 rules: a 6 frees the row or column; else 6x6: a free pass
LEGEND = ('EW', 'NS', 'NE', 'ES', 'SW', 'NW')  # the piece of each die face
TREES = 12
TREE_POINTS = 7
BARRELS = 6
PARK = 2  # a die on a park: 0 nothing, 1 its row (a tree), 2 any square (a barrel)
EXTRA_FLOORS = 2
KINDS = b'\x02\x04\x05\x07\x00\x06\x05\x07\x06\x00\x02\x04\x04\x00\x02\x00\x05\x07\x07\x00\x04\x06\x00\x05\x00\x02\x00\x04\x07\x00\x06\x05\x07\x00\x04\x02'  # 0 plain, 1 house, 2 hotel, 3 shop, 4 taxi, 5 bus, 6 skyscraper, 7 park
HOUSES = b'\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00'
CROSSED = b'\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00'
FLOORS = b'\x00\x00\x00\x00\x00\x02\x00\x00\x02\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\x00\x00\x00\x00'
START = b'\x04\x02\x06\x01\x05\x03'  # the start square's row in each column
TRACKS = (('hotel', 2, b'\x01\x02\x03\x04\x05\x06\x07\x08\t\n\x0b\x0c\r\x0e\x0f\x10\x11\x12', True), ('skyscraper', 6, b'\x01\x02\x03\x04\x05\x06\x07\x08\t\n\x0b\x0c\r\x0e\x0f\x10\x11\x12', True))  # (name, kind, values, shared)
BONUSES = ()
GROUPS = (((4, 5), (3, 5)),)  # (kinds, points of each)
END = ((2, 18), (6, 18))  # (kind, value): circling it ends the game
RANKS = ()
WORDS = {'road': 'route', 'hotel': 'monster', 'shop': 'shop', 'skyscraper': 'kraken', 'floor': 'tentacle', 'park': 'breaker', 'tree': 'bottle', 'trees': 'bottles', 'barrel': 'barrel'}
NAMES = ('square', 'house', 'monster', 'shop', 'schooner', 'galleon', 'kraken', 'breaker')  # the sheet's word for each kind of square
MARKS = b'  MSSGKB'  # each kind's letter on the panel's map (a house square: its houses left)
COLUMN_DIE = 'Black'
