"""store/: where is every console event kept, and what games do the events make? Every event is committed before it
is acknowledged; the games are derived from the events. It imports nothing of the package but itself and errors.py
(tests/house/test_architecture.py): making a game's record and replaying it are above it, in history/game_records.py.

An SQLite file (the default), or a PostgreSQL database named by a postgresql:// URL (store/postgres.py): one Store,
the same schema versions, upgrades and transactions (docs/stored-games.md, "Two backends").

Schema version 6 (PRAGMA user_version; a version 1, 2, 3, 4 or 5 database is upgraded when opened for writing). `(uid,
boot, seq)` is an event's place and its identity: a console's link stores each (uid, boot) stream's events up to its
frontier (a number above it is a gap, asked for again), a sync at any free place (store/placing.py). Each game has a
state: `playing`, `ended` (with the end's reason), `resumed` (another game, of a later boot, goes on with it:
`continued_by`, and that game's `continues`), `abandoned` (the console began a game in a later boot while it was
playing) or `imported` (a record typed from a game played on paper: `doodlebox import`).

Version 3 (docs/stored-games.md): `players` holds the names given to a game's seats (set_names, names), `imported`
the records of imported games (their game row has no console: uid "", boot 0). games() carries each game's row and
names.

Version 4: `people` (a seat's name linked to a person across games: players.person; set_names and add_imported link
them, merge_people makes two one, leaving an alias), and `league` (the database's random league id, and in a venue's
file the league it was synced to: sync.py).

Version 5: each event keeps a hash of its body; an event at a place already held is a duplicate (the same hash) or a
conflict, kept apart in `conflicts`, never stored and never acknowledged.

Version 6: `sheets`, the sheets of a table's own that games were played on (a `game` event's `sx`), by their hash
(add_sheet, sheet, sheets_held; a game's GameLog carries those its `game` event names: GameLog.sheets); sync.py
carries them with the events.

Every failure is a StoreError naming the database and the cause (`cause`: locked, full, readonly, notadb, damaged,
newer, old, cantopen, io, deleted, replaced, other; on PostgreSQL also url, auth, nodb, down, lost, slow, gone);
`transient` says whether waiting may cure it (locked, full, lost, slow).

    database.py     the `Store`: events appended, games derived, the games, a game's log, imported records, a snapshot
    rows.py         the Store's ground floor: its connection, a write transaction, rows read (a fault said as `Damaged`)
    seats.py        the Store's people at a game's seats: names given (`BadNames`), people, merges (`BadMerge`)
    dbfile.py       the SQLite file opened for writing or reading only, and whether the path still names it
    schema.py       the tables, schema version 6, and the steps that upgrade an older database in one transaction
    transaction.py  a write: the process's turn to write, BEGIN ... COMMIT and the file checked, or ROLLBACK
    placing.py      an event put at its place: stored, a duplicate or a conflict; gaps; a games row derived
    streams.py      a stream's arithmetic: the numbers stored, the gaps, the frontier
    sheets.py       a sheet games were played on, kept by its hash: the hash, a row checked (`BadSheet`), stored once;
                    the Store's part that holds them (`HeldSheets`)
    people.py       a name's person across games: its folded key, the `P1`..`Pn` placeholders, merged names' aliases
    postgres.py     the store on a PostgreSQL server (psycopg 3): the URL read, connected, checked, upgraded; its faults
    errors.py       `StoreError` and SQLite's faults told apart by result code; `Damaged`, a row that cannot be read
    gamelog.py      what the store hands out: `GameLog` (one game's events), `Stored`, `Hello`, `Gap`
    sync.py         `doodlebox sync`: a venue's database read as one snapshot and pushed into the league's
"""
from doodlebox.store.database import NoGame, Store
from doodlebox.store.errors import StoreError, problem
from doodlebox.store.gamelog import GameLog, Gap, Hello, Stored
from doodlebox.store.schema import IMPORTED, SCHEMA_VERSION, STATES
from doodlebox.store.seats import NAME_LENGTH, BadMerge, BadNames
from doodlebox.store.sheets import BadSheet, SheetRow, sheet_hash

__all__ = ["IMPORTED", "NAME_LENGTH", "SCHEMA_VERSION", "STATES", "BadMerge", "BadNames", "BadSheet", "GameLog", "Gap",
           "Hello", "NoGame", "SheetRow", "Store", "StoreError", "Stored", "problem", "sheet_hash"]
