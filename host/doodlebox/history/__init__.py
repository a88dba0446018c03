"""history/: what do the stored games say, read back? A console's events become a record, every game is replayed by
its rules (totals, winners, status), one game is shown as a person looks back at it, and the statistics and the
league are computed from them. It imports the store, the link's schema, the rules and drawing/ (the charts); never
the logger, the page, the scripted table or the command line.

    console_record.py  a game the console played, from its stored events, as a record (`ConsoleGame`, `to_record`)
    game_records.py    the stored games as records and what the PC's replay says: totals, winners, status (`games`)
    games_view.py      one game as `show` and the page give it; the scores table of `export --csv`; `import`
    stats.py           `doodlebox stats`: dice fairness per console, scores, win rates, solo ranks; the charts
    league.py          the league: openskill ratings per edition over the games that count (`standings`, `history`)
"""
