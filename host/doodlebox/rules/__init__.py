"""The rules engine of the dice editions: layouts as data, one engine, records, scoring.

    from doodlebox.rules import layout, engine
    game = engine.Game(layout.load("city"), players=3)
    state = game.new_state()
"""
