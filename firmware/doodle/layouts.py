# Generated from host/doodlebox/layouts/*.json by `make firmware-data`; do not edit.
# edition: (size, trees, start squares, house squares with available houses)
LAYOUTS = {
    'city': (5, 5, ((3, 1), (5, 2), (1, 3), (4, 4), (2, 5)), ((1, 1, 2), (2, 3, 2), (4, 2, 2), (3, 4, 2), (5, 5, 2), (5, 3, 2))),
}
