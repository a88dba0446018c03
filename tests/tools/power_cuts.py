"""Power cuts at random instants over whole games (issue 11, `make faults`).

The console is the firmware's own core (doodle/app.py and its journal on a flashlog.RamFlash)
under CPython, in simulated time, on the master end of a pseudo-terminal; the PC is the
shipped link (link_thread.LinkThread: pyserial, SQLite, validation) on the other end. A scripted
table plays whole games (tests/guest/table_script.py); at random instants the power goes: the
time runs on a random 0-400 ms (events wait in RAM up to 200 ms before they are written); a
write made then is torn at a random byte and the power goes with it; the App is dropped. A new App, a boot
later, powers up on the same flash, resumes the game if the flash holds it unfinished, and the
table goes on with it (or begins a new game).

What the console wrote whole to flash is what it may have sent, so it is what the PC must
have, each event once: `lost` counts written events the PC never stored, `duplicated` events
stored under two numbers or stored and never written. Every game that ended must export to a
record that validates, with the console's own totals."""
from __future__ import annotations

import random
import sqlite3
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))
import house  # noqa: E402

house.on_path()
sys.path.insert(0, str(house.GUEST))      # the scripted table the VM runs, here under CPython

import journal_bytes  # noqa: E402
import table_script  # noqa: E402

from doodlebox.virtual import cpython_micropython  # noqa: E402

cpython_micropython.install()   # the firmware's `micropython` under CPython
import fw_events  # noqa: E402

from doodle import flashlog  # noqa: E402
from doodle.app import App  # noqa: E402
from doodlebox.history import console_record  # noqa: E402
from doodlebox.logger.link_thread import LinkThread  # noqa: E402
from doodlebox.rules.games import read_record  # noqa: E402
from doodlebox.store import Store  # noqa: E402
from doodlebox.virtual.pty_port import PtyPort  # noqa: E402

EDITIONS = [("city", 3), ("suzhou", 1), ("treasures", 2), ("shanghai", 3), ("monsters", 2)]


class PowerGone(Exception):
    """The power went in the middle of a write: nothing after it runs."""


class WatchedFlash(flashlog.RamFlash):
    """The RAM flash, noting every record written whole (the events the console may send)."""

    def __init__(self) -> None:
        super().__init__()
        self.written: dict[tuple[int, int], bytes] = {}
        self.torn = 0
        self.tear: random.Random | None = None   # set: the next write is torn at a random byte

    def append(self, name: str, data) -> None:
        data = bytes(data)
        torn = self.tear is not None
        if self.tear is not None:
            self.torn += 1
            data = data[:self.tear.randrange(len(data))]
            self.tear = None
        for boot, s, a, e, _ in journal_bytes.records(data):
            self.written[(boot, s)] = data[a:e]
        super().append(name, data)
        if torn:
            raise PowerGone


@dataclass
class Result:
    tried: int = 0            # power cuts
    lost: int = 0
    duplicated: int = 0
    resumed: int = 0          # games the console resumed
    torn: int = 0             # writes torn by a cut
    games: int = 0            # games played to their end
    events: int = 0           # events the console wrote whole to flash
    invalid: list[str] = field(default_factory=list)   # ended games that do not validate, and why

    def line(self) -> str:
        return (f"power cut: {self.tried} tried, lost {self.lost}, duplicated {self.duplicated} "
                f"({self.games} games played to the end, {self.resumed} resumed, {self.torn} writes torn, "
                f"{len(self.invalid)} invalid)")


class Console:
    """The firmware's App on a pty, its time simulated; reboot() is a power cut and a power-up."""

    def __init__(self, flash: WatchedFlash, pty: PtyPort) -> None:
        self.flash, self.pty = flash, pty
        self.boot = 0
        self.now = 0
        self.app: App
        self.reboot()

    def reboot(self) -> None:
        self.boot += 1
        self.app = App(table_script.rand, self.boot, "feed0001", self.flash)
        self.settle()

    def settle(self) -> None:
        while self.app.collect_wanted:       # the loop's collections: the journal read, a resume
            self.app.collected()

    def step(self, ms: int = 10, name: str | None = None) -> None:
        self.now += ms
        data = self.pty.read(4096)
        if data:
            self.app.serial_in(data, self.now)
        if name is not None:
            self.app.button(name, self.now)
            self.settle()
        self.app.tick(self.now)
        out = self.app.serial_out()
        if out:
            self.pty.write(out)

    def press(self, name: str) -> None:
        self.step(0, name)
        for _ in range(15):                  # 150 ms to the next press, the link served meanwhile
            self.step(10)
            time.sleep(0.0005)


def fault(n: int, rng: random.Random) -> dict:
    """`make faults`' line (tests/tools/faults.py): at least n power cuts, over whole games."""
    import tempfile

    with tempfile.TemporaryDirectory(prefix="doodlebox-power-") as d:
        r = run(Path(d), cuts=n, seed=rng.randrange(1 << 30))
    return {"what": "power cut", "tried": r.tried, "lost": r.lost, "duplicated": r.duplicated,
            "wrong": len(r.invalid), "events": r.events,
            "notes": [f"{r.games} games played to the end, {r.resumed} resumed, {r.torn} writes torn"]
            + r.invalid[:3]}


def run(tmp: Path, games: int = 0, seed: int = 1, cuts_per_game: float = 3.0, cuts: int = 0) -> Result:
    """Play until `games` games have ended and at least `cuts` power cuts were made."""
    rng = random.Random(seed)
    table_script._state[0] = seed
    result = Result()
    flash = WatchedFlash()
    pty = PtyPort()
    db = tmp / f"power-cuts-{seed}.sqlite3"
    host = LinkThread(pty.path, db, on_note=lambda text: None).start()
    console = Console(flash, pty)
    try:
        deadline = time.monotonic() + 60
        while not host.wait_ready(0.01):
            console.step(10)
            if time.monotonic() > deadline:
                raise RuntimeError(host.error or "the host never connected")
        while result.games < games or result.tried < cuts:
            edition, players = EDITIONS[result.games % len(EDITIONS)]
            app = console.app
            script = (table_script.turns(app, [console.now], ack=False) if app.game is not None
                      else table_script.steps(app, [console.now], edition, players, ack=False))
            presses = 0
            for name in script:
                console.press(name)
                presses += 1
                if rng.random() < cuts_per_game / 120:            # ~120 presses a game
                    break
            else:
                result.games += 1
                for _ in range(3):                                 # the final table, then the lobby
                    if console.app.game is None:
                        break
                    console.press("ROLL")
                continue
            result.tried += 1                                      # the power goes, at a random instant
            flash.tear = rng                                       # a write now would be torn
            try:
                for _ in range(rng.randrange(40)):
                    console.step(10)
            except PowerGone:                                      # ... and was: nothing more runs
                pass
            flash.tear = None
            had = console.app.game is not None
            console.reboot()
            result.resumed += had and console.app.game is not None
        deadline = time.monotonic() + 60                           # the PC gets the rest
        while console.app.journal.held() and time.monotonic() < deadline:
            console.step(10)
            time.sleep(0.001)
        for _ in range(100):
            console.step(10)
    finally:
        host.stop()
        pty.close()
    result.torn = flash.torn
    _check(db, flash, result)
    return result


def _check(db: Path, flash: WatchedFlash, result: Result) -> None:
    con = sqlite3.connect(db)
    rows = con.execute("SELECT boot, seq, body FROM events").fetchall()
    con.close()
    stored = {(b, s): body for b, s, body in rows}
    result.events = len(flash.written)
    result.lost = sum(1 for key in flash.written if key not in stored)
    wrong = sum(1 for key, body in stored.items()
                if key not in flash.written or fw_events.payload(_json(body)) != flash.written[key])
    result.duplicated = len(rows) - len(stored) + wrong
    store = Store(db, readonly=True)
    try:
        for game in store.games():
            if game.get("state") != "ended":
                continue
            log = store.game_log(game["id"])
            try:
                rec, g = read_record(console_record.to_record(log), f"game {game['id']}")
                replay = g.replay(rec)
            except Exception as exc:   # any failure is a game that is not valid: reported, counted
                result.invalid.append(f"game {game['id']}: {exc}")
                continue
            if replay.violations or not replay.finished:
                result.invalid.append(f"game {game['id']}: {replay.violations[:1] or 'not finished'}")
                continue
            end = [e for _, e in log.events if e.get("k") == "end"]
            totals = [sheet["total"] for sheet in g.as_json(replay)["sheets"]]
            if not end or end[-1].get("p") != totals:
                result.invalid.append(f"game {game['id']}: the console's totals {end[-1:]} are not the PC's {totals}")
    finally:
        store.close()


def _json(body: str) -> dict:
    import json

    return json.loads(body)


if __name__ == "__main__":
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        r = run(Path(d), cuts=int(sys.argv[1]) if len(sys.argv) > 1 else 20)
        print(r.line())
        for why in r.invalid[:5]:
            print("  ", why)
