"""Deadly Doodles: the dungeon maps and the deck as data, the rules engine, records, reports and
map pictures. `doodlebox validate/score/render` find this package through rules/games.py when a
record's "edition" is "deadly". Formats: docs/deadly-doodles.md; readings: docs/rulings.md (D...).

    from doodlebox.rules.deadly import engine, maps
    game = engine.Game(maps.load("a"), players=2)
    state = game.new_state()
"""
