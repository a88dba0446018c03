"""The five dice editions (Doodle City; Doodle China: Suzhou, Shanghai; Doodle Islands: Sea of
Treasures, Sea of Monsters): one engine, the editions differ only in their layout (sheets as
data, docs/layouts.md). Records: docs/records.md; readings: docs/rulings.md (R...).

    from doodlebox.rules.dice import engine, layout
    game = engine.Game(layout.load("city"), players=3)
    state = game.new_state()
"""
