"""`make faults`, the table's sheets: the cable pulled on the virtual console (tests/tools/faults_sheets.py
says what is checked): the firmware in the 192K VM over a pty, the shipped LinkThread following it as
`doodlebox log` does, the cable pulled while a sheet that replaces the one the table plays is on its
way (a Pico is powered by its USB: a power cut), a game begun after the replug and played by the PC's
table (doodlebox.table.dice) on the sheet its `game` event names."""
from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from pathlib import Path

from sheet_rig import (  # the rig first: tests/support and the guest on the path, `micropython` installed
    LEGEND_TURNED,
    Audit,
    audit,
    chosen,
    city_sheet,
    content_of,
    data_home,
    held_once,
    replaced_left,
    result,
    secs,
    spread,
)
from waiting import first

from doodle import flashlog, ownsheet
from doodlebox.logger.sheets import Courier
from doodlebox.rules.dice import layout
from doodlebox.sheets import console as console_form
from doodlebox.sheets import library


# -- the cable pulled, on the virtual console ---------------------------------------------------------
class WatchedCourier(Courier):
    """The link's courier (logger/sheets.py) as the LinkThread runs it, watched from outside: when each
    hello came (`hellos`), each `sheets` the console sent ((time, hashes held, use)), the chunk being
    sent. Nothing it does is changed."""

    def __init__(self, on_note: Callable[[str], None]):
        super().__init__(on_note)
        self.hellos: list[float] = []
        self.said: list[tuple[float, list[str], list]] = []

    def hello(self, console) -> None:  # type: ignore[no-untyped-def]
        self.hellos.append(time.monotonic())
        super().hello(console)

    def on_sheets(self, console, msg: dict) -> None:  # type: ignore[no-untyped-def]
        if msg["t"] == "sheets":
            self.said.append((time.monotonic(), [x for _, _, x in msg["held"]], msg["use"]))
        super().on_sheets(console, msg)

    def at(self) -> tuple[str, int] | None:
        s = self.sending
        return None if s is None else (s.sheet.hash, s.next)

    def plays(self, x: str, ed: str = "city") -> bool:
        """The console's latest `sheets` says game `ed` plays sheet x (the table's `use` taken)."""
        if not self.said:
            return False
        _, held, use = self.said[-1]
        return x in held and [ed, held.index(x)] in use

    def holds(self, x: str, since: float = 0.0) -> float | None:
        """When the console first said it holds sheet x (after `since`), or None."""
        return next((t for t, held, _ in list(self.said) if t >= since and x in held), None)


class VmConsole:
    """The virtual console (the firmware in the 192K VM, its flash a folder, behind a pty) followed
    by the shipped LinkThread as `doodlebox log` follows it (ports.Follow with its current pty),
    the courier watched (WatchedCourier); `pull()` is the cable pulled and plugged in again
    (VirtualConsole.replug: a Pico is powered by its USB, so a power cut, and a new pty)."""

    def __init__(self, d: Path, seed: int):
        from doodlebox.link.ports import Follow
        from doodlebox.logger.link_thread import LinkThread
        from doodlebox.virtual.console import VirtualConsole

        self.flash = d / "flash"
        self.db = d / "games.sqlite3"
        self.notes: list[str] = []
        self.vc = VirtualConsole(mode="vm", flash_dir=self.flash, seed=seed).start()
        vc = self.vc
        self.follow = Follow(vc.port, locate=lambda: vc.port if vc.running else None)
        self.link = LinkThread(vc.port, self.db, on_note=self.notes.append, handshake_timeout=30, follow=self.follow)
        self.courier = self.link.courier = WatchedCourier(self.notes.append)
        self.link.start()
        if not self.link.wait_ready(60) or self.link.error:
            self.stop()
            raise RuntimeError(f"the virtual console did not connect: {self.link.error}")

    def pull(self) -> None:
        self.vc.replug()

    def press(self, name: str) -> None:
        from doodlebox.table.dice import PRESS_GAP_S, PRESS_MS

        self.vc.press(name, PRESS_MS)
        time.sleep(PRESS_GAP_S)

    def stop(self) -> None:
        self.link.stop()
        self.vc.stop()

    def errors(self) -> list[str]:
        return [e for e in (self.vc.error, self.link.error) if e]


def flash_sheets(folder: Path) -> flashlog.RamFlash:
    """A console's flash folder's sh/ files as a RamFlash (read as they are now)."""
    out = flashlog.RamFlash()
    for p in (folder / "sh").glob("*") if (folder / "sh").is_dir() else ():
        out.data["sh/" + p.name] = bytearray(p.read_bytes())
    return out


def cable_case(con: VmConsole, old: library.Sheet, new: library.Sheet, known: dict[str, str], rng: random.Random,
               sheets: dict[str, library.Sheet]) -> tuple[Audit, dict]:
    """The console holds and plays `old`; `new` (its name) is in the library in its place. The cable
    plugged in again (a hello: the PC sends `new`), then pulled after a random chunk of it and
    plugged in again; at a random moment after that a game of 2 begun and played to round 2 by the
    PC's table (doodlebox.table.dice.Table) on the sheet its `game` event names, and ended (MENU,
    ROLL). The game is on `old` or `new`, and played by its rules (the table checks every event and
    the end's totals); `new` arrives; once the game is over the console holds `new` alone and plays
    it; every sheet file on the flash reads and is the content sent."""
    from doodlebox.table.dice import Table, TableError, read_lobby

    out = Audit()
    info: dict = {}
    c = con.courier
    chunks = len(console_form.frames(new))
    k = rng.randint(1, chunks - 1)
    where = f"cable pulled after chunk {k} of {chunks}"
    t0 = time.monotonic()
    con.pull()                                        # plugged in again: the next hello sends `new`
    if not first(lambda: (a := c.at()) is not None and a[0] == new.hash and a[1] >= k, 60, 0.0005):
        out.lost.append(f"{where}: the PC never sent the sheet ({con.notes[-1:]})")
        return out, info
    con.pull()                                        # the cable pulled mid-sheet, and plugged in again
    pulled = time.monotonic()
    while not con.link.events.empty():
        con.link.events.get_nowait()
    table = Table(con.press, con.link.events, seed=rng.randrange(1 << 30),
                  sheets=lambda sx: sheets[sx].data if sx in sheets else None)
    game: dict = {}
    blind = rng.random() < 0.5
    info["blind"] = blind
    try:
        if blind:      # the table presses as the console wakes (the lobby's game is City): a game of 2 at once
            time.sleep(rng.uniform(0.0, 1.5))
            con.press("D2")
            con.press("ROLL")
            game = table._await("game")
            table.state = table._new_state("city", 2, "", game)
            table._play(table.state, 2, False)
        else:          # the table reads the lobby first, a moment later
            time.sleep(rng.uniform(0.0, 3.0))
            table.lobby, table.read = read_lobby(con.vc, 30), lambda g: read_lobby(con.vc, game=g)
            table.play_game("city", 2, refuse_once=False, stop_after_round=2, back_to_lobby=False)
            game = next(e for e in table.seen if e.get("k") == "game")
        con.press("MENU")
        con.press("ROLL")                             # "End game?" yes
        end = table._await("end")
        if end.get("p") != table.state.scores():     # type: ignore[union-attr]
            out.spoilt.append(f"{where}: the console's totals {end.get('p')} are not the rules' "
                              f"{table.state.scores()} on {game.get('sx')}")   # type: ignore[union-attr]
        info["ended"] = time.monotonic()
        con.press("ROLL")                             # the final table: back to the lobby
    except TableError as exc:
        game = game or next((e for e in table.seen if e.get("k") == "game"), {})
        out.spoilt.append(f"{where}: the game on {game.get('sx', '?')} is not played by its sheet's rules: {exc}")
    info["on"] = "old" if game.get("sx") == old.hash else "new" if game.get("sx") == new.hash else "other"
    if info["on"] == "other":
        out.lost.append(f"{where}: the game began on {game.get('sx') or 'the default'}, neither the old sheet nor "
                        f"the new one ({'as the console woke' if blind else 'from the lobby'}: {game})")
    arrived = first(lambda: c.holds(new.hash, pulled), 60, 0.01)
    if arrived is None:
        out.lost.append(f"{where}: the sheet never arrived after the replug ({con.notes[-1:]})")
    else:
        info["arrived_s"] = arrived - pulled
        info["during"] = info["on"] == "old" and arrived < info.get("ended", 0)
    def alone() -> bool:
        f = flash_sheets(con.flash)
        return [x for _, _, x, _ in ownsheet.held(f)] == [new.hash] and ownsheet.choices(f).get("city") == new.hash

    settled = first(alone, 30, 0.05)                  # (the console says so at its next hello: read its flash)
    flash = flash_sheets(con.flash)
    out.add(audit(flash, known, [new.hash] if arrived else [old.hash], where))
    if not settled:
        where += ", the game over"
        out.stale += replaced_left(flash, [old.hash], where)
        out.lost += held_once(flash, new, where) + chosen(flash, "city", new, where)
    info["case_s"] = time.monotonic() - t0
    return out, info


def cable_pulls(n: int, rng: random.Random) -> dict:
    """"table's sheet, cable pulled (VM)": n sheets, each replacing the last, each with the cable pulled in the
    middle of it and a game begun after the replug (cable_case)."""
    t0 = time.monotonic()
    with data_home() as d:
        old = city_sheet("ours", trees=11)
        library.use("ours", 1_700_000_000)
        sheets, known = {old.hash: old}, {old.hash: content_of(old)}
        out, on, took, during = Audit(), {"old": 0, "new": 0, "other": 0}, [], 0
        con = VmConsole(d, seed=rng.randrange(1000))
        try:
            if not first(lambda: con.courier.plays(old.hash), 60, 0.05):
                raise RuntimeError(f"setting up: the first sheet never arrived or is not played ({con.notes[-3:]})")
            for k in range(n):
                new = city_sheet("ours", trees=12 + k % 5, legend=LEGEND_TURNED if k % 2 == 0 else
                                 json.loads(layout.default_path("city").read_text())["legend"])
                sheets[new.hash], known[new.hash] = new, content_of(new)
                a, info = cable_case(con, old, new, known, rng, sheets)
                out.case(a)
                on[info.get("on", "other")] += 1
                if "arrived_s" in info:
                    took.append(info["arrived_s"])
                during += bool(info.get("during"))
                old = new
        finally:
            con.stop()
        errors = con.errors()
    notes = [f"games begun after the replug: {on['old']} on the old sheet ({during} of them while the new one "
             f"arrived), {on['new']} on the new one",
             f"the sheet held {spread(took)} s after the replug" if took else "no sheet arrived", secs(t0)]
    r = result("table's sheet, cable pulled (VM)", n, out, notes)
    if errors:
        r["failures"] = errors
        r["problems"] = errors + r["problems"]
    return r


