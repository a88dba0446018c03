"""`make faults`, the table's sheets (issue 35; docs/protocol.md, "The table's sheets"; docs/sheets.md):
a sheet sent to the console the way a table's PC sends it, and spoilt on the way the way a real
table spoils it:

    power cut            the power cut at every byte of every flash write the console makes while
                         it takes a sheet (the first sheet of a game, chosen with it; a sheet that
                         replaces one of its name); the console powered up again on that flash and
                         the PC's link begun again (its hi), which sends the rest
    spoilt frames        bytes of the `sheet` frames changed, dropped or duplicated on the wire
                         (the frame's own checksum then refuses it), inside the base64 of its chunk,
                         or in its fields (the frame made whole again: only the sheet's CRC, its
                         content and its names can tell); then a clean link (the next hello)
    cable pulled (VM)    the firmware in the 192K VM over a pty (the virtual console), the shipped
                         LinkThread following it as `doodlebox log` does: the cable pulled while a
                         sheet that replaces the one the table plays is on its way (a Pico is
                         powered by its USB: a power cut), a game begun after the replug and played
                         by the PC's table (doodlebox.table.dice) on the sheet its `game` event names
    a game being played  a game begun on the table's sheet, the sheet replaced (a new one of its
                         name) and dropped by the PC during the game, and the power cut at every
                         byte of every write meanwhile and at random instants of the rest of the game

The console (the firmware's own App under CPython on a flash the power may leave at any byte of any
write) and its PC (the shipped link session and courier) are tests/tools/sheet_rig.py's; the cable
pulled on the virtual console is tests/tools/faults_sheets_cable.py.

After each case, on the console's flash:
- `spoilt kept`: a file named as a sheet (sh/<ed>.<name>.<hash>.<crc>) that doodle/ownsheet.read
  does not read, or whose content is not the content the PC made for that hash (any sheet it
  sent); the choices file (sh/use) that does not read as JSON; a game that plays a sheet other
  than the one its `game` event names, or other constants than that sheet's;
- `lost`: a sheet the console held before that it no longer holds (a sheet replaced by one of its
  name counts only if the new one is not held whole in its place); the sheet sent not held once
  the sending completes (at the end of the case); the table's choice not followed (the console's
  choice of the game is not the sheet the table chose, or a replaced sheet's choice not moved to
  its replacement);
- `a replaced sheet left beside its new one` (said only when it happened, and a failure): once all
  is done, a sheet the console no longer plays still held beside the new one of its name that
  replaced it (docs/protocol.md: a sheet of a name it holds replaces that one).

`python tests/tools/faults_sheets.py [cut|spoilt|cable|game] [N]` runs one line;
tests/firmware/test_sheet_faults.py runs representative cases of each."""
from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from sheet_rig import (  # the rig first: tests/support and the guest on the path, `micropython` installed
    LEGEND_TURNED,
    Audit,
    CutFlash,
    PowerGone,
    Rig,
    Stores,
    audit,
    cases_of,
    chosen,
    city_sheet,
    content_of,
    held_once,
    map_side,
    replaced_left,
    result,
    secs,
    sweep,
)

# isort: split
import table_script  # tests/guest: on the path by sheet_rig
from faults_sheets_cable import cable_pulls

from doodlebox.link import frames
from doodlebox.sheets import console as console_form
from doodlebox.sheets import library
from doodlebox.store import Store


# -- a sheet sent while the power is cut -----------------------------------------------------------
@dataclass
class Scene:
    """A console's flash as the table left it (`flash`, its clock `now` and boot), the sheet the PC
    sends next (`sheet`, of game `ed`), what the console held before (`before`), the sheet `sheet`
    replaces ({old: new}), and every content the PC made ({hash: content})."""
    name: str
    flash: CutFlash
    now: int
    boot: int
    sheet: library.Sheet
    ed: str
    before: list[str]
    replaced: dict[str, str]
    known: dict[str, str]
    db: bytes = b""          # the PC's database as it was then (Stores.snapshot)


def _sent(store: Store, flash: CutFlash, sheets: list[library.Sheet], now: int = 0, boot: int = 1) -> Rig:
    """The table's sheets sent to the console as the PC sends them (a session from its hi)."""
    rig = Rig(flash, store, boot=boot, now=now)
    for s in sheets:
        if not rig.until(rig.settled(s)):
            raise RuntimeError(f"setting up: sheet {s.name} never arrived: {rig.pc.notes[-3:]}")
    return rig


def scenes(stores: Stores) -> Iterator[Scene]:
    """The sheets a table sends (the library in the current data home, as it is while each is
    used): `first`, a City sheet the table chose, to a console holding a Deadly Doodles map side;
    `replace`, a new City sheet of the name of the one the console holds and plays (the table's
    choice follows it)."""
    store = stores.setup
    side = map_side()
    library.use(side.name, 1_700_000_000)
    rig = _sent(store, CutFlash(), [side])
    ours = city_sheet("ours", trees=11)
    library.use("ours", 1_700_000_100)
    known = {side.hash: content_of(side), ours.hash: content_of(ours)}
    yield Scene("first", rig.flash.copy(), rig.now, rig.boot + 1, ours, "city", [side.hash], {}, dict(known),
                stores.snapshot())
    rig = _sent(store, rig.flash, [ours], rig.now, rig.boot + 1)
    new = city_sheet("ours", trees=12, legend=LEGEND_TURNED)      # replaced in the library: the choice stays
    known[new.hash] = content_of(new)
    yield Scene("replace", rig.flash.copy(), rig.now, rig.boot + 1, new, "city", [side.hash, ours.hash],
                {ours.hash: new.hash}, known, stores.snapshot())


def send_cut(stores: Stores, scene: Scene, cut: tuple[int, int] | None) -> tuple[Audit, CutFlash, bool]:
    """The scene's sheet sent from the console's power-up; the power cut at `cut` (None: none);
    the console powered up again and the PC's session begun again until it is sent. (audit, the
    flash, whether the cut came)."""
    with stores.case(scene.db) as store:
        return _send_cut(store, scene, cut)


def _send_cut(store: Store, scene: Scene, cut: tuple[int, int] | None) -> tuple[Audit, CutFlash, bool]:
    flash = scene.flash.copy()
    flash.cut_at = cut
    came = False
    rig = Rig(flash, store, boot=scene.boot, now=scene.now)
    flash.writes, flash.log = 0, []      # (the power-up's own writes come first, counted too)
    out = Audit()
    try:
        done = rig.until(rig.settled(scene.sheet))
    except PowerGone:
        came = True
        flash.cut_at = None
        out.add(audit(flash, scene.known, scene.before, f"{scene.name} cut at {cut}", scene.replaced))
        rig.reboot()
        out.add(audit(flash, scene.known, scene.before, f"{scene.name} cut at {cut}, powered up", scene.replaced))
        done = rig.until(rig.settled(scene.sheet))
    where = f"{scene.name} cut at {cut}" if came else scene.name
    if not done:
        out.lost.append(f"{where}: the sheet never arrived ({(rig.pc.notes or ['no note'])[-1]})")
    out.add(audit(flash, scene.known, scene.before, where + ", sent", scene.replaced))
    out.lost += held_once(flash, scene.sheet, where) + chosen(flash, scene.ed, scene.sheet, where)
    out.stale += replaced_left(flash, list(scene.replaced), where)
    return out, flash, came


def power_cuts(n: int, rng: random.Random) -> dict:
    """"table's sheet, power cut": every (write, byte) of each scene (n: at most this many per scene, a
    random choice of them; 0: all)."""
    t0 = time.monotonic()
    with sweep() as d:
        stores = Stores(d)
        try:
            out, tried, writes = Audit(), 0, 0
            for scene in scenes(stores):
                _, flash, _ = send_cut(stores, scene, None)
                log = list(flash.log)
                cases = cases_of(log)
                writes += len(log)
                if n and len(cases) > n:
                    cases = sorted(rng.sample(cases, n))
                for cut in cases:
                    a, _, came = send_cut(stores, scene, cut)
                    tried += came
                    out.case(a)
        finally:
            stores.close()
    return result("table's sheet, power cut", tried, out,
                  [f"{writes} writes of 2 sendings (a first sheet and its choice; a sheet replacing the one played)",
                   secs(t0)])


# -- spoilt frames ---------------------------------------------------------------------------------
SPOILS = ("byte changed", "byte dropped", "byte duplicated", "line cut", "base64 changed", "base64 dropped",
          "base64 duplicated", "field changed")


def spoil_frame(line: bytes, how: str, rng: random.Random) -> bytes:
    """A `sheet` frame spoilt `how`: its bytes on the wire (the frame's checksum no longer fits),
    its chunk's base64, or one of its fields (the frame made whole again around it)."""
    body = line[:-1]
    if how in ("byte changed", "byte dropped", "byte duplicated", "line cut"):
        k = rng.randrange(len(body))
        if how == "byte changed":
            return body[:k] + bytes([(body[k] + rng.randrange(1, 256)) % 256]) + body[k + 1:] + b"\n"
        if how == "byte dropped":
            return body[:k] + body[k + 1:] + b"\n"
        if how == "byte duplicated":
            return body[:k + 1] + body[k:] + b"\n"
        return body[:k]                       # the rest of the line lost: the next frame goes on with it
    msg = frames.decode(line)
    fields = {k: v for k, v in msg.items() if k not in ("t", "v")}
    d = fields["d"]
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    if how == "field changed":
        key = rng.choice(["x", "n", "ed", "i", "of", "crc"])
        v = fields[key]
        if isinstance(v, int):
            fields[key] = rng.choice([x for x in range(10) if x != v])
        elif key == "ed":
            fields[key] = rng.choice([e for e in ("city", "suzhou", "treasures", "shanghai", "monsters", "deadly")
                                      if e != v])
        else:
            k = rng.randrange(len(v))
            pool = "0123456789abcdef" if key in ("x", "crc") else "abcdefghijklmnopqrstuvwxyz0123456789-_"
            fields[key] = v[:k] + rng.choice([c for c in pool if c != v[k]]) + v[k + 1:]
    else:
        k = rng.randrange(len(d))
        if how == "base64 changed":
            d = d[:k] + rng.choice([c for c in alphabet if c != d[k]]) + d[k + 1:]
        elif how == "base64 dropped":
            d = d[:k] + d[k + 1:]
        else:
            d = d[:k + 1] + d[k:]
        fields["d"] = d
    return frames.encode("sheet", v=msg["v"], **fields)


def send_spoilt(stores: Stores, scene: Scene, how: str, rng: random.Random,
                rate: float = 0.34) -> tuple[Audit, dict]:
    """The scene's sheet sent with each `sheet` frame spoilt `how` at `rate` (at least one); then a
    new session on a clean link until it is sent."""
    with stores.case(scene.db) as store:
        return _send_spoilt(store, scene, how, rng, rate)


def _send_spoilt(store: Store, scene: Scene, how: str, rng: random.Random, rate: float) -> tuple[Audit, dict]:
    flash = scene.flash.copy()
    rig = Rig(flash, store, boot=scene.boot, now=scene.now)
    spoilt = [0]

    def spoil(line: bytes) -> bytes:
        if not line.startswith(b"@") or b'"t":"sheet"' not in line or (spoilt[0] and rng.random() >= rate):
            return line
        spoilt[0] += 1
        return spoil_frame(line, how, rng)

    rig.pc.spoil = spoil
    out = Audit()
    where = f"{scene.name}, {how}"
    fails = len(rig.pc.courier.failed)
    # the spoilt sending: until it arrived or the PC gave it up (5 tries of a chunk, or the console's err)
    rig.until(lambda: rig.pc.idle and (len(rig.pc.courier.failed) > fails or rig.settled(scene.sheet)()))
    gave_up = len(rig.pc.courier.failed) > fails
    out.add(audit(flash, scene.known, scene.before, where, scene.replaced))
    rig.pc.spoil = None
    rig.pc.detach()                     # the link goes on clean: the next hello sends it again
    rig.pc.attach()
    if not rig.until(rig.settled(scene.sheet)):
        out.lost.append(f"{where}: the clean sending never arrived ({(rig.pc.notes or ['no note'])[-1]})")
    out.add(audit(flash, scene.known, scene.before, where + ", sent clean", scene.replaced))
    out.lost += held_once(flash, scene.sheet, where) + chosen(flash, scene.ed, scene.sheet, where)
    out.stale += replaced_left(flash, list(scene.replaced), where)
    refused = sum(1 for m in rig.said if m.get("t") == "err" and "not kept" in m.get("why", ""))
    return out, {"spoilt": spoilt[0], "gave_up": gave_up, "refused": refused}


def spoilt_frames(n: int, rng: random.Random) -> dict:
    """"table's sheet, spoilt frames": n sendings, each spoilt one of SPOILS' ways, in turn."""
    t0 = time.monotonic()
    with sweep() as d:
        stores = Stores(d)
        try:
            out, frames_spoilt, gave_up, refused, k = Audit(), 0, 0, 0, 0
            for i, scene in enumerate(scenes(stores)):
                while k < n * (i + 1) // 2:     # half of them each
                    a, r = send_spoilt(stores, scene, SPOILS[k % len(SPOILS)], rng)
                    out.case(a)
                    frames_spoilt += r["spoilt"]
                    gave_up += r["gave_up"]
                    refused += r["refused"]
                    k += 1
        finally:
            stores.close()
    return result("table's sheet, spoilt frames", n, out, [f"{frames_spoilt} frames spoilt ({', '.join(SPOILS)})",
                                                    f"{refused} whole sheets the console refused (its CRC, its "
                                                    f"content, its names), {gave_up} sendings the PC gave up and sent "
                                                    "again at the next hello",
                                                    secs(t0)])


# -- the game's own sheet ----------------------------------------------------------------------------
def game_scene(store: Store) -> tuple[Rig, library.Sheet, library.Sheet, dict[str, str]]:
    """A console holding the table's City sheet `old`, a game of 2 begun on it (the PC storing and
    acknowledging its events); `new`, a sheet of its name, in the library in its place (the PC sends
    it at the next hello)."""
    old = city_sheet("ours", trees=11)
    library.use("ours", 1_700_000_000)
    rig = _sent(store, CutFlash(), [old])
    g = rig.start_game()
    assert g.ed.SX == old.hash, "the game is not on the table's sheet"
    new = city_sheet("ours", trees=12, legend=LEGEND_TURNED)
    return rig, old, new, {old.hash: content_of(old), new.hash: content_of(new)}


def _plays(rig: Rig, sheet: library.Sheet, where: str) -> list[str]:
    """The console's game plays `sheet`: its own (app.own), the `game` event it began with, the
    constants it plays by."""
    g = rig.app.game
    if g is None:
        return [f"{where}: no game (it was not resumed)"]
    want = console_form.constants(sheet)
    bad = [k for k in sorted(want) if getattr(g.ed, k, None) != _tuples(want[k])]
    if bad or rig.app.own != sheet.hash or (g.ed.SX, g.ed.SH) != (sheet.hash, sheet.name):
        return [f"{where}: the game plays {getattr(g.ed, 'SX', '?')} (own {rig.app.own!r}), not {sheet.hash}: "
                f"constants {bad[:4]} differ"]
    return []


def _tuples(v: Any) -> Any:
    if isinstance(v, dict):
        return {k: _tuples(x) for k, x in v.items()}
    return tuple(_tuples(x) for x in v) if isinstance(v, (list, tuple)) else v


@dataclass
class GameBase:
    """A console with a game begun on `old` (game_scene), as a case powers it up: its flash, clock,
    next boot, the PC's database then; `new` in the library in the place of `old`."""
    flash: CutFlash
    now: int
    boot: int
    old: library.Sheet
    new: library.Sheet
    known: dict[str, str]
    db: bytes


def game_base(stores: Stores) -> GameBase:
    rig, old, new, known = game_scene(stores.setup)
    rig.pc.detach()
    return GameBase(rig.flash.copy(), rig.now, rig.boot + 1, old, new, known, stores.snapshot())


def game_case(stores: Stores, base: GameBase, cut: tuple[int, int] | None, rng: random.Random | None = None,
              drop: bool = True) -> tuple[Audit, CutFlash, bool]:
    """The console of `base` (game_base: a game on `old`) powered up, the game resumed; the PC's
    session sends `new` (its name: kept beside `old` while the game is on it) and, `drop`, drops
    `old` (refused while the game is on it); the power cut at `cut` of the writes from the
    power-up, wherever it comes. Then: `rng` given, the game played on at random and the power cut
    at a random write of it, played to its end; else the game ended at once (MENU, ROLL). The game
    plays `old` at every power-up; once it is over `new` is held, alone of its name, and chosen,
    and the next game plays it. (audit, the flash, whether the cut came)"""
    with stores.case(base.db) as store:
        return _game_case(store, base, cut, rng, drop)


def _game_case(store: Store, base: GameBase, cut: tuple[int, int] | None, rng: random.Random | None,
               drop: bool) -> tuple[Audit, CutFlash, bool]:
    now, boot, old, new, known = base.now, base.boot, base.old, base.new, base.known
    flash = base.flash.copy()
    out = Audit()
    where = f"game on its sheet, cut at {cut}" if cut else "game on its sheet"
    flash.cut_at = cut
    flash.writes, flash.log = 0, []
    came = sent = ending = False
    rig = Rig(flash, store, boot=boot, now=now, up=False)
    while True:
        try:
            if not came:
                rig.power_up()
            if not ending:
                out.lost += _plays(rig, old, where + (", powered up again" if came else ", powered up"))
            if not sent:
                rig.until(rig.settled(new))
                if drop and rig.pc.link is not None:
                    rig.pc.link.send({"t": "drop", "x": old.hash})
                    rig.step(200)
                sent = True
                out.add(audit(flash, known, [old.hash, new.hash], where + ", sent"))
                out.lost += _plays(rig, old, where + ", sent")
            if rng is not None and not ending:
                cuts = _play_on(rig, rng, old, where, out)
                where += f", {cuts} more cut{'s' * (cuts != 1)} in the game"
            elif not ending:
                ending = True
                rig.press("MENU")
                rig.press("ROLL", 300)                 # "End game?" yes
            ending = True
            for _ in range(3):                         # the final table, then the lobby
                if rig.app.game is None:
                    break
                rig.press("ROLL", 300)
            rig.step(500)
            flash.closed = flash.writes                # the writes of this game, its close included
            break
        except PowerGone:
            if came:
                raise
            came = True
            flash.cut_at = None
            out.add(audit(flash, known, [old.hash], where, {old.hash: new.hash}))
            rig.reboot()
            if ending and rig.app.game is not None:    # the end not written: the game resumed, ended again
                out.lost += _plays(rig, old, where + ", powered up again while it ended")
                ending = False
    if rig.app.game is not None:
        out.lost.append(f"{where}: the game never ended")
        return out, flash, came
    out.add(audit(flash, known, [new.hash], where + ", over"))
    out.stale += replaced_left(flash, [old.hash], where + ", over")
    out.lost += held_once(flash, new, where + ", over") + chosen(flash, "city", new, where + ", over")
    rig.start_game()
    out.lost += _plays(rig, new, where + ", the next game")
    return out, flash, came


def _play_on(rig: Rig, rng: random.Random, sheet: library.Sheet, where: str, out: Audit) -> int:
    """The game played to its end by the scripted table, the power cut at a random write of it
    (torn at a random byte) once or twice; after each power-up the game plays `sheet`."""
    cuts = 0
    planned = rng.randint(1, 2)
    while rig.app.game is not None and not rig.app.game.over():
        flash = rig.flash
        if cuts < planned:
            flash.cut_at = (flash.writes + rng.randrange(40), rng.randrange(300))
        try:
            for name in table_script.turns(rig.app, [rig.now], ack=False):
                rig.press(name, 150)
        except PowerGone:
            cuts += 1
            flash.cut_at = None
            rig.reboot()
            out.cuts += 1
            if rig.app.game is not None:
                out.resumed += 1
                out.lost += _plays(rig, sheet, f"{where}, a cut in the game")
            continue
        flash.cut_at = None
        break
    return cuts


def game_sheets(n: int, rng: random.Random) -> dict:
    """"table's sheet of a game being played": every (write, byte) from the power-up (the game
    resumed) through the new sheet's sending, the drop, the game ended at once (MENU, ROLL) and
    closed (n: at most this many, a random choice; 0: all); then n // 10 + 2 games (0: 24) played to
    their end with power cuts at random writes."""
    t0 = time.monotonic()
    with sweep() as d:
        stores = Stores(d)
        try:
            base = game_base(stores)
            out, tried = Audit(), 0
            first, flash, _ = game_case(stores, base, None)
            out.case(first)
            cases = cases_of(flash.log[:flash.closed])
            if n and len(cases) > n:
                cases = sorted(rng.sample(cases, n))
            for cut in cases:
                a, _, came = game_case(stores, base, cut)
                tried += came
                out.case(a)
            played = n // 10 + 2 if n else 24
            for _ in range(played):
                a, _, _ = game_case(stores, base, None, rng)
                out.case(a)
        finally:
            stores.close()
    return result("table's sheet of a game being played", tried + played, out,
                  [f"{tried} cuts at each byte of the writes while a sheet of its name came, the PC dropped its "
                   f"sheet, and the game ended; {played} games played to the end with {out.cuts} power cuts at "
                   f"random writes ({out.resumed} resumed)", secs(t0)])


# -- faults.py's lines ------------------------------------------------------------------------------
# (name, function, how many in `make faults` (0: every byte of every write), how many in --short / make test)
FAULTS: list[tuple[str, Callable[[int, random.Random], dict], int, int]] = [
    ("table's sheet, power cut", power_cuts, 0, 40),
    ("table's sheet, spoilt frames", spoilt_frames, 800, 16),
    ("table's sheet, cable pulled (VM)", cable_pulls, 8, 1),
    ("table's sheet of a game being played", game_sheets, 0, 20),
]


def line(head: str, r: dict) -> str:
    """`make faults`' line for one of these: what was tried, how many, spoilt kept 0 / lost 0."""
    notes = list(r["notes"])
    if r.get("left"):
        notes.append(f"left over until the next sheet comes: {', '.join(r['left'])}")
    text = f"{head}, spoilt kept {r['spoilt']}, lost {r['lost']}"
    if r.get("stale"):
        text += f", replaced sheet left beside its new one {r['stale']}"
    return f"{text} ({'; '.join(notes + r['problems'])})"


def failed(r: dict) -> bool:
    return bool(r["spoilt"] or r["lost"] or r.get("stale") or r.get("failures"))


def main() -> int:
    import argparse

    p = argparse.ArgumentParser(description="one of make faults' lines of the table's sheets")
    p.add_argument("which", choices=("cut", "spoilt", "cable", "game"))
    p.add_argument("n", type=int, nargs="?", default=0)
    p.add_argument("--seed", type=int, default=11)
    args = p.parse_args()
    fn = {"cut": power_cuts, "spoilt": spoilt_frames, "game": game_sheets, "cable": cable_pulls}[args.which]
    r = fn(args.n, random.Random(args.seed))
    print(line(f"{r['what']}: {r['tried']:,} tried", r))
    return 1 if failed(r) else 0


if __name__ == "__main__":
    sys.exit(main())

