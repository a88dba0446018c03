# Generated from host/doodlebox/layouts/doodle-islands-treasures.json by `make firmware-data`; do not edit.
# Doodle Islands: Sea of Treasures: the sheet as the console needs it (docs/console.md). Squares row-major.
EDITION = 'treasures'
SHORT = 'Treasures'
SIZE = 5
JOKERS = True  # 5x5 rules: a 6 frees the row or column; else 6x6: a free pass
LEGEND = ('EW', 'NS', 'NE', 'ES', 'SW', 'NW')  # the piece of each die face
TREES = 10
TREE_POINTS = 4
BARRELS = 0
PARK = 0  # a die on a park: 0 nothing, 1 its row (a tree), 2 any square (a barrel)
EXTRA_FLOORS = 0
KINDS = b'\x02\x04\x01\x00\x04\x03\x03\x04\x02\x01\x01\x02\x03\x03\x00\x04\x03\x00\x01\x03\x00\x01\x03\x04\x02'  # 0 plain, 1 house, 2 hotel, 3 shop, 4 taxi, 5 bus, 6 skyscraper, 7 park
HOUSES = b'\x00\x00\x04\x00\x00\x00\x00\x00\x00\x03\x04\x00\x00\x00\x00\x00\x00\x00\x03\x00\x00\x04\x00\x00\x00'
CROSSED = b'\x00\x00\x02\x00\x00\x00\x00\x00\x00\x01\x02\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x02\x00\x00\x00'
FLOORS = b'\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00'
START = b'\x03\x05\x01\x04\x02'  # the start square's row in each column
TRACKS = (('hotel', 2, b'\x03\x04\x05\x06\x07\x08\t\n\x0c\x0f', False), ('shop', 3, b'\x01\x02\x03\x04\x05\x06\x07\x08\t\n', False))  # (name, kind, values, shared)
BONUSES = (3, 5, 7, 10)
GROUPS = (((4,), (4,)),)  # (kinds, points of each)
END = ((2, 15), (3, 10))  # (kind, value): circling it ends the game
RANKS = ((0, 'None, try again!'), (30, 'Cabin Boy'), (50, 'Sea Wolf'), (70, 'Quartermaster'), (90, 'Captain'), (105, 'Admiral'), (120, 'King or Queen of the Pirates'))
WORDS = {'road': 'route', 'hotel': 'monster', 'shop': 'treasure island', 'skyscraper': 'skyscraper', 'floor': 'floor', 'park': 'park', 'tree': 'bottle', 'trees': 'bottles', 'barrel': 'barrel'}
NAMES = ('square', 'archipelago', 'monster', 'treasure island', 'ship', 'bus', 'skyscraper', 'park')  # the sheet's word for each kind of square
MARKS = b'  MTSBSP'  # each kind's letter on the panel's map (a house square: its houses left)
COLUMN_DIE = 'Black'
