"""Stored games read back: a console's log as a record (history/console_record.py), every game as a record with
its totals and winners (history/game_records.py), one game as a person looks back at it (history/games_view.py), the
statistics (stats.py) and the league's standings (league.py)."""
