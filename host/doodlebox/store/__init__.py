"""The store: every console event, committed before it is acknowledged; games derived. An SQLite
file (the default), or a PostgreSQL database named by a postgresql:// URL (store/postgres.py):
one Store, the same schema versions, upgrades and transactions (docs/stored-games.md, "Two
backends").

Schema version 4 (PRAGMA user_version; a version 1, 2 or 3 file is upgraded when opened). `(uid,
boot, seq)` identifies an event; the store only appends the next expected event of each (uid,
boot) stream (docs/protocol.md). Each game has a state: `playing`, `ended` (with the end's
reason), `resumed` (another game, of a later boot, goes on with it: `continued_by`, and that
game's `continues`), `abandoned` (the console began a game in a later boot while it was
playing) or `imported` (a record typed from a game played on paper: `doodlebox import`).

Version 3 (docs/stored-games.md): `players` holds the names given to a game's seats
(set_names, names), `imported` the records of imported games (their game row has no console:
uid "", boot 0). games() carries each game's row and names. A game as a record with its names,
and its totals and winners from the PC's replay of that record, are history/game_records.py's: the store
imports nothing above it (tests/test_architecture.py).

Version 4: `people` (a seat's name linked to a person across games: players.person; set_names
and add_imported link them, merge_people makes two one, leaving an alias), and `league` (the
database's random league id, and in a venue's file the league it was synced to: sync.py).

Every SQLite failure is a StoreError naming the file and the cause (`cause`: locked, full,
readonly, notadb, newer, cantopen, io; on PostgreSQL also url, auth, nodb, down, lost); `transient`
says whether waiting may cure it (locked, full, lost).

The package: `database.py` the Store, `dbfile.py` the file opened and checked, `schema.py`
the tables and their upgrade, `postgres.py` the database on a PostgreSQL server,
`errors.py` StoreError and SQLite's faults told apart, `transaction.py` a write (the
process's turn, BEGIN ... COMMIT), `people.py` a name's person,
`gamelog.py` what the store hands out (GameLog, Stored, Hello, Gap).
"""
from doodlebox.store.database import NAME_LENGTH, BadMerge, BadNames, NoGame, Store
from doodlebox.store.errors import StoreError, problem
from doodlebox.store.gamelog import GameLog, Gap, Hello, Stored
from doodlebox.store.schema import IMPORTED, SCHEMA_VERSION, STATES

__all__ = ["IMPORTED", "NAME_LENGTH", "SCHEMA_VERSION", "STATES", "BadMerge", "BadNames", "GameLog", "Gap", "Hello",
           "NoGame", "Store", "StoreError", "Stored", "problem"]
