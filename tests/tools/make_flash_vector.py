"""Make tests/vectors/flash-0.4.0: a console's flash as firmware 0.4.0 left it, holding events
no PC ever acknowledged (tests/deploy/test_firmware_update.py reads it with the firmware of the day).

    .venv/bin/python tests/tools/make_flash_vector.py --firmware /tmp/fw040/firmware \
        --host /tmp/fw040/host --out tests/vectors/flash-0.4.0

`--firmware` and `--host` are the firmware/ and host/ folders of a checkout of the firmware to
record (a `git worktree add /tmp/fw040 <commit>`): the console is that firmware in the
MicroPython VM (its VirtualConsole, its hardware models), the bot is that host's. Never run it
with a newer firmware over the checked-in vector: the vector is the old format on purpose.

How: the virtual console boots on an empty flash folder with no PC. Nobody ever writes to its
USB port (no `hi`, no ack); what it sends there is read and dropped, as bytes to a port no
program has open. The bot (doodlebox.table.dice.Table) presses the buttons; it learns what the console
did (the dice rolled, the claims) from the console's journal on flash, the segment files in the
folder, read as they are written (FlashEvents below), instead of from a PC's link.
  boot 1: Doodle City, 2 players, played to its end (back to the lobby), then Sea of Treasures,
          3 players, begun and played to round 3; the power goes.
  boot 2: the console resumes Sea of Treasures; played on to round 5; the power goes.
Then only the console's data files are copied to --out (boot.txt, id.txt, settings.json,
journal/*.seg, journal/acked if any), not the firmware's files nor lib/.
"""
from __future__ import annotations

import argparse
import json
import os
import queue
import re
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))
from journal_bytes import records


def read_records(data: bytes) -> list[tuple[int, int, dict, int]]:
    """The whole records of a segment's bytes (docs/journal.md, Records): (boot, s, event, end)."""
    return [(boot, s, json.loads(data[start:end]), nxt) for boot, s, start, end, nxt in records(data)]


class FlashEvents:
    """The events the console writes to its journal, in order, as they land on the flash folder:
    a queue for the bot (get(timeout=)), standing in for a PC's link. Across power cuts too: it
    remembers how far it read each segment."""

    def __init__(self, flash: Path):
        self.flash = flash
        self.read_to: dict[str, int] = {}
        self.pending: list[dict] = []

    def _scan(self) -> None:
        folder = self.flash / "journal"
        if not folder.is_dir():
            return
        for seg in sorted(folder.glob("*.seg")):
            data = seg.read_bytes()
            at = self.read_to.get(seg.name, 0)
            for _, _, event, end in read_records(data[at:]):
                self.pending.append(event)
                self.read_to[seg.name] = at + end

    def get(self, timeout: float | None = None) -> dict:
        deadline = time.monotonic() + (timeout if timeout is not None else 1e9)
        while not self.pending:
            self._scan()
            if self.pending:
                break
            if time.monotonic() > deadline:
                raise queue.Empty
            time.sleep(0.05)
        return self.pending.pop(0)


class Drain:
    """Reads what the console sends on its USB port, never writing: no PC (the console's sends
    do not pile up in the pseudo-terminal). Only the firmware versions its hellos name are kept."""

    def __init__(self, port: str):
        self.fd = os.open(port, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)
        self.data = bytearray()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self.data += os.read(self.fd, 4096)
            except (BlockingIOError, OSError):
                time.sleep(0.02)

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=2)
        os.close(self.fd)

    def versions(self) -> set[str]:
        return {m.decode() for m in re.findall(rb'"fw":"([^"]*)"', bytes(self.data))}


DATA = ("boot.txt", "id.txt", "settings.json")


def copy_data(flash: Path, out: Path) -> list[str]:
    """The console's data files (no firmware files, no lib/) into `out` (emptied first,
    README.md kept)."""
    readme = (out / "README.md").read_text() if (out / "README.md").exists() else None
    shutil.rmtree(out, ignore_errors=True)
    (out / "journal").mkdir(parents=True)
    if readme is not None:
        (out / "README.md").write_text(readme)
    names = [n for n in DATA if (flash / n).exists()]
    names += ["journal/" + p.name for p in sorted((flash / "journal").glob("*.seg"))]
    if (flash / "journal" / "acked").exists():
        names.append("journal/acked")
    for n in names:
        shutil.copyfile(flash / n, out / n)
    return names


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--firmware", type=Path, required=True, help="the firmware/ folder to record")
    ap.add_argument("--host", type=Path, required=True, help="the host/ folder whose VM, hardware and bot to use")
    ap.add_argument("--out", type=Path, required=True, help="where the flash's data files go")
    ap.add_argument("--seed", type=int, default=4)
    args = ap.parse_args()
    firmware, host = args.firmware.resolve(), args.host.resolve()
    sys.path.insert(0, str(host))
    import doodlebox
    from doodlebox import paths

    assert Path(doodlebox.__file__).resolve().is_relative_to(host), doodlebox.__file__
    paths.firmware = lambda: firmware           # the console's firmware files come from here
    from doodlebox.table.dice import PRESS_GAP_S, PRESS_MS, Table, read_lobby
    from doodlebox.virtual.console import VirtualConsole

    version = next(line.split('"')[1] for line in (firmware / "doodle" / "app.py").read_text().splitlines()
                   if line.startswith("FW_VERSION"))
    print(f"firmware {version} from {firmware}, host from {host}")

    with tempfile.TemporaryDirectory(prefix="flash-vector-") as tmp:
        flash = Path(tmp) / "flash"
        events = FlashEvents(flash)

        def power_up(first: bool) -> tuple[VirtualConsole, Drain]:
            vc = VirtualConsole(mode="vm", flash_dir=flash, firmware=first).start()
            return vc, Drain(vc.port)

        def presser(vc):
            return lambda name: (vc.press(name, PRESS_MS), time.sleep(PRESS_GAP_S))

        vc, drain = power_up(True)                                 # boot 1
        try:
            lobby = read_lobby(vc)
            table = Table(presser(vc), events, seed=args.seed, lobby=lobby,
                          read=lambda game: read_lobby(vc, game=game))
            table.play_game("city", 2)                             # a whole game, back to the lobby
            print("boot 1: Doodle City ended", table.final)
            read_lobby(vc, game="city")
            table = Table(presser(vc), events, seed=args.seed + 1, lobby=read_lobby(vc),
                          read=lambda game: read_lobby(vc, game=game))
            table.play_game("treasures", 3, stop_after_round=3)
            time.sleep(0.6)                                        # the last presses on flash
            assert vc.error is None, vc.error
        finally:
            vc.stop()                                              # the power goes
            drain.stop()
        assert drain.versions() == {version}, f"the console said it runs {drain.versions()}"
        print("boot 1: Sea of Treasures left at round", table.state.round)

        vc, drain = power_up(False)                                # boot 2: the same flash
        try:
            table.press = presser(vc)
            table.go_on(stop_after_round=5)
            time.sleep(0.6)
            assert vc.error is None, vc.error
        finally:
            vc.stop()
            drain.stop()
        assert drain.versions() == {version}, f"the console said it runs {drain.versions()}"
        print("boot 2: Sea of Treasures resumed, left at round", table.state.round)

        names = copy_data(flash, args.out)
    per_boot: dict[int, int] = {}
    for n in names:
        if n.endswith(".seg"):
            for b, _, _, _ in read_records((args.out / n).read_bytes()):
                per_boot[b] = per_boot.get(b, 0) + 1
    print("wrote", ", ".join(names), "to", args.out)
    print("events per boot:", per_boot)
    return 0


if __name__ == "__main__":
    sys.exit(main())
