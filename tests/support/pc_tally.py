"""What the PC stored against what the console wrote on its flash, as the VM faults count it
(tests/tools/vm_faults.py's soak and power cuts; docs in that module): the rows stored, whether every
event written is there, lost and duplicated events, and the ended games that do not validate
with the console's own totals."""
from __future__ import annotations

import sqlite3
from pathlib import Path

from flash_watch import Watch, canonical

from doodlebox.store import Store


def stored_rows(db: Path) -> list[tuple[str, int, int, str]]:
    if not db.exists():
        return []
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10)
    try:
        return con.execute("SELECT uid, boot, seq, body FROM events").fetchall()
    except sqlite3.OperationalError:
        return []
    finally:
        con.close()


def all_stored(watch: Watch, db: Path) -> bool:
    keys = {(b, s) for _, b, s, _ in stored_rows(db)}
    return all(key in keys for key in watch.written)


def tally(watch: Watch, db: Path) -> dict:
    """lost, duplicated (see the module's doc) and the uids the events came under."""
    stored: dict[tuple[int, int], list[str]] = {}
    uids = set()
    rows = stored_rows(db)
    for uid, boot, seq, body in rows:
        uids.add(uid)
        stored.setdefault((boot, seq), []).append(canonical(body))
    lost = sum(1 for key, payloads in watch.written.items() for p in payloads if p not in stored.get(key, ()))
    duplicated = 0
    for key, bodies in stored.items():
        written = watch.written.get(key, set())
        seen: set[str] = set()
        for body in bodies:
            if body not in written or body in seen:
                duplicated += 1
            seen.add(body)
    reused = sum(1 for p in watch.written.values() if len(p) > 1)
    return {"lost": lost, "duplicated": duplicated, "events": watch.events(), "stored": len(rows),
            "uids": len(uids), "reused": reused}


def invalid_games(db: Path) -> tuple[int, list[str]]:
    """Games the PC holds as ended that do not export to a record that validates with the
    console's own totals (as tests/tools/power_cuts.py checks): (ended games, what is wrong)."""
    from doodlebox.history import console_record
    from doodlebox.rules.games import read_record

    if not db.exists():
        return 0, []
    store = Store(db, readonly=True)
    bad: list[str] = []
    ended = 0
    try:
        for game in store.games():
            if game.get("state") != "ended":
                continue
            ended += 1
            log = store.game_log(game["id"])
            try:
                rec, g = read_record(console_record.to_record(log), f"game {game['id']}")
                replay = g.replay(rec)
            except Exception as exc:   # any failure is a game that is not valid: reported, counted
                bad.append(f"game {game['id']}: {exc}")
                continue
            if replay.violations or not replay.finished:
                bad.append(f"game {game['id']}: {replay.violations[:1] or 'not finished'}")
                continue
            end = [e for _, e in log.events if e.get("k") == "end"]
            report = g.as_json(replay)
            totals = [sheet["total"] for sheet in report.get("sheets") or report.get("cards") or ()]
            if not end or end[-1].get("p") != totals:
                bad.append(f"game {game['id']}: the console's totals {end[-1:]} are not the PC's {totals}")
    finally:
        store.close()
    return ended, [why[:200] + ("..." if len(why) > 200 else "") for why in bad]
