# Generated from host/doodlebox/layouts/*.json by `make firmware-data`; do not edit.
# edition: (size, trees, start squares, house squares with available houses)
LAYOUTS = {
    'suzhou': (5, 10, ((2, 1), (4, 2), (1, 3), (5, 4), (3, 5)), ((1, 3, 2), (2, 1, 2), (3, 5, 2), (4, 2, 2), (5, 4, 2))),
    'city': (5, 10, ((3, 1), (5, 2), (1, 3), (4, 4), (2, 5)), ((1, 3, 2), (2, 5, 2), (3, 1, 2), (4, 4, 2), (5, 2, 2))),
    'treasures': (5, 10, ((3, 1), (5, 2), (1, 3), (4, 4), (2, 5)), ((1, 3, 2), (2, 5, 2), (3, 1, 2), (4, 4, 2), (5, 2, 2))),
}
