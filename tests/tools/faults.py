"""`make faults`: the fault-injection suite of issue 11, one line per kind of fault:

    logger killed: 12 tried, lost 0, duplicated 0 (2,323 events)
    fuzzed frames: 100,000 tried, crashes 0, corrupt events accepted 0 (...)

The host is the shipped one: `doodlebox log --port PATH --db DB` as its own process. The console
is tests/support/fakeconsole.py, in CPython, keeping every event until it is acknowledged, so what was
lost or stored twice is counted against what it made. `python tests/tools/faults.py --short` is the
quick version tests/house/test_faults.py runs in `make test`.

POWER CUT: `power_cut` below is the place for the console's power cut at random instants over
whole games, rebooted on the same flash: it runs tests/tools/power_cuts.py.

THE FIRMWARE IN THE VM: "soak" and "power cut (VM)" run the firmware as the virtual console does
(the 192K MicroPython VM, its flash a folder), so a MemoryError or any firmware exception is
counted too: tests/tools/vm_faults.py.

WHAT WAS ACKNOWLEDGED: the database deleted or replaced, its -shm spoilt, SIGTERM and SIGHUP,
the console back on a new port: each line says "acknowledged but not stored" (tests/tools/faults_acks.py).

THE TABLE'S SHEETS: a sheet sent to the console with the power cut at every byte of every write,
its frames spoilt, the cable pulled mid-sheet on the virtual console, the sheet of a game being
played replaced and dropped: each line says "spoilt kept" and "lost" (tests/tools/faults_sheets.py,
faults_sheets_cable.py; the rig: sheet_rig.py).
"""
from __future__ import annotations

import argparse
import json
import random
import resource
import shutil
import sqlite3
import sys
import tempfile
import time
import zlib
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))
import house  # noqa: E402

house.on_path()

import faults_acks  # noqa: E402
import faults_sheets  # noqa: E402
import faults_sync  # noqa: E402
import faults_web  # noqa: E402
from fakeconsole import game_events  # noqa: E402
from logger_rig import Logger, Rig, Stream, console_for, result, workdir  # noqa: E402


# -- the faults -------------------------------------------------------------------------------
def logger_kills(n: int, rng: random.Random) -> dict:
    """SIGKILL the logger mid-stream, at random instants, and start it again."""
    with Rig("kill", rng) as rig:
        for _ in range(n):
            rig.stream.run(rng.uniform(0.05, 0.8))
            rig.logger.kill()
            rig.stream.run(rng.uniform(0.0, 0.3))     # the console goes on: its events are held
            rig.logger.start()
            rig.logger.wait_connected(rig.console)
        ok, code = rig.finish()
    return rig.outcome("logger killed", n, finished=ok, exit=code)


def cable_pulls(n: int, rng: random.Random) -> dict:
    """The cable pulled at random instants (the pty closed: the logger's port fails, and the
    bytes on the wire are lost) and plugged in again (a new pty behind the same path)."""
    with Rig("pull", rng, symlink=True) as rig:
        console = rig.console
        for _ in range(n):
            rig.stream.run(rng.uniform(0.05, 0.6))
            console.pull()
            rig.stream.run(rng.uniform(0.1, 1.2))      # events made while unplugged are held
            console.plug()
            console.got_hi = False
            if not console.run_until(lambda: console.got_hi, 20):
                raise TimeoutError("the logger did not come back:\n" + rig.logger.text()[-2000:])
        alive = rig.logger.running()
        ok, code = rig.finish()
    return rig.outcome("cable pulled", n, finished=ok, exit=code, logger_stayed_up=alive)


def noisy_cable(n: int, rng: random.Random) -> dict:
    """A cable that spoils frames: 5% of the console's frames have a byte changed, are lost, cut
    short (running into the next) or come twice, until `n` were spoilt. The logger refuses what
    is bad, asks again from a gap (nak), and stores each event once."""
    with Rig("noise", rng) as rig:
        rig.console.noise = (rng, 0.05)
        while rig.console.spoilt < n:
            rig.stream.run(0.2)
        rig.console.noise = None
        ok, code = rig.finish()
    return rig.outcome("noisy cable", n, finished=ok, exit=code)


def late_attach(n: int, rng: random.Random) -> dict:
    """A logger started after the console has held events of one or more boots (and, every
    other time, after another logger had stored part of them)."""
    total = {"lost": 0, "duplicated": 0, "wrong": 0, "events": 0}
    for k in range(n):
        d = workdir("late")
        console = console_for(d, uid=f"1a7e{k:02x}")
        db = d / "games.sqlite3"
        logger = Logger(console.path, db, d / "log.txt")
        stream = Stream(console, rng)
        try:
            if k % 2:
                logger.start()
                logger.wait_connected(console)
                stream.run(rng.uniform(0.1, 0.5))
                logger.kill()
            for _ in range(rng.randint(0, 3)):
                stream.run(rng.uniform(0.05, 0.2))
                console.reboot()
            stream.run(rng.uniform(0.05, 0.2))
            stream.add(rng.randint(0, 400))
            logger.start()
            logger.wait_connected(console)
            ok = console.run_until(console.all_acked, 60)
            logger.stop()
        finally:
            logger.stop()
            console.pull()
        got = result("", 0, console, db)
        for key in ("lost", "duplicated", "wrong", "events"):
            total[key] += got[key]
        total["finished"] = total.get("finished", True) and ok
        shutil.rmtree(d, ignore_errors=True)
    return {"what": "late attach", "tried": n, **total}


def _db_fault(what: str, n: int, rng: random.Random, fault, said: str, hold: tuple[float, float]) -> dict:
    """The database made unusable n times mid-stream, each time for rng.uniform(*hold) s of the
    stream: `fault(logger, db, uid)` makes it so and returns (what the store held then, a
    callable that ends the fault). The logger must wait, say so (`said` in its output) and
    acknowledge nothing it has not committed."""
    early = 0
    with Rig(what.split()[-1], rng) as rig:
        console = rig.console
        for _ in range(n):
            rig.stream.run(rng.uniform(0.05, 0.4))
            held, end = fault(rig.logger, rig.db, console.uid)
            seen = len(console.acks)
            rig.stream.run(rng.uniform(*hold))
            early += sum(1 for b, s, _ in console.acks[seen:] if s > held.get(b, 0))
            end()
        ok, code = rig.finish()
    return rig.outcome(what, n, finished=ok, exit=code, acked_before_stored=early,
                       said=rig.logger.text().count(said))


def db_locked(n: int, rng: random.Random) -> dict:
    """Another program holds the database's write lock for a while, n times mid-stream (longer
    than the logger's own wait for a lock)."""
    def lock(logger: Logger, db: Path, uid: str):
        other = sqlite3.connect(db, timeout=10, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")

        def end() -> None:
            other.execute("ROLLBACK")
            other.close()
        return _stored_max(other, uid), end

    return _db_fault("database locked", n, rng, lock, "locked by another program", (0.8, 2.5))


def db_full(n: int, rng: random.Random) -> dict:
    """The database's files cannot grow (the logger's file size limit lowered under it, as a
    full disk does) for a while, n times mid-stream."""
    def fill(logger: Logger, db: Path, uid: str):
        assert logger.proc is not None
        pid = logger.proc.pid
        resource.prlimit(pid, resource.RLIMIT_FSIZE, (4096, resource.RLIM_INFINITY))
        time.sleep(0.05)                   # a batch already past its writes may still commit
        con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10)
        held = _stored_max(con, uid)
        con.close()
        return held, lambda: resource.prlimit(pid, resource.RLIMIT_FSIZE,
                                              (resource.RLIM_INFINITY, resource.RLIM_INFINITY))

    return _db_fault("database full", n, rng, fill, "file size limit", (0.3, 1.5))


def db_readonly(n: int, rng: random.Random) -> dict:
    """The database read-only (the file, or its folder, every other time): the logger ends with
    one line naming the file and saying read-only, stores nothing; made writable, a new logger
    stores everything the console kept."""
    total = {"lost": 0, "duplicated": 0, "wrong": 0, "events": 0, "one_line": 0}
    for k in range(n):
        d = workdir("ro")
        folder = d / "db"
        folder.mkdir()
        console = console_for(d, uid=f"0ead{k:02x}")
        db = folder / "games.sqlite3"
        first = Logger(console.path, db, d / "log.txt", as_user=True).start()
        stream = Stream(console, rng)
        try:
            first.wait_connected(console)
            stream.run(0.2)
            first.stop()
            if k % 2:
                folder.chmod(0o555)
            else:
                db.chmod(0o444)
            stream.run(rng.uniform(0.05, 0.3))
            logger = Logger(console.path, db, d / "log2.txt", as_user=True).start()
            console.run_until(lambda logger=logger: not logger.running(), 30)
            lines = [line for line in logger.text().splitlines() if line.startswith("doodlebox: ")]
            if (not logger.running() and logger.proc is not None and logger.proc.returncode == 1 and len(lines) == 1
                    and "read-only" in lines[0] and str(db) in lines[0]):
                total["one_line"] += 1
            folder.chmod(0o755)
            db.chmod(0o644)
            logger = Logger(console.path, db, d / "log3.txt", as_user=True).start()
            logger.wait_connected(console)
            stream.finish()
            logger.stop()
        finally:
            for p in (folder, db):
                if p.exists():
                    p.chmod(0o755 if p.is_dir() else 0o644)
            console.pull()
        got = result("", 0, console, db)
        for key in ("lost", "duplicated", "wrong", "events"):
            total[key] += got[key]
        shutil.rmtree(d, ignore_errors=True)
    return {"what": "database read-only", "tried": n, **total}


def _stored_max(con: sqlite3.Connection, uid: str) -> dict[int, int]:
    try:
        return dict(con.execute("SELECT boot, MAX(seq) FROM events WHERE uid=? GROUP BY boot", (uid,)).fetchall())
    except sqlite3.OperationalError:
        return {}


# -- fuzzing ----------------------------------------------------------------------------------
ODD = [b"1e400", b"Infinity", b"-Infinity", b"NaN", b"2.5", b"-1", b"0", b"2147483648", b"1" * 31, b"true",
       b"false", b"null", b'"x"', b'"1"', b"[]", b"{}", b"[1,2]", b'{"k":"x"}', b"-0", b"1E5", b'"\\u0000"',
       b'"\\ud800"', b"\x07", b"\xc3\xa9", b"\\", b'"', b",", b":", b"{", b"]"]


def _mutate(body: bytes, rng: random.Random) -> bytes:
    b = bytearray(body)
    for _ in range(rng.choice((1, 1, 1, 2, 3))):
        op = rng.randrange(8)
        i = rng.randrange(len(b) + 1)
        if op == 0 and b:                                  # a byte changed
            b[min(i, len(b) - 1)] = rng.randrange(32, 127)
        elif op == 1 and b:                                # a span cut out
            del b[i:i + rng.randint(1, 6)]
        elif op == 2:                                      # a span repeated
            j = rng.randrange(len(b) + 1)
            b[i:i] = b[j:j + rng.randint(1, 12)]
        elif op == 3:                                      # an odd token put in
            b[i:i] = rng.choice(ODD)
        elif op == 4:                                      # a number replaced by an odd one
            digits = [k for k in range(len(b)) if 48 <= b[k] <= 57]
            if digits:
                k = rng.choice(digits)
                end = k
                while end < len(b) and 48 <= b[end] <= 57:
                    end += 1
                b[k:end] = rng.choice(ODD[:10] + [str(rng.randint(-5, 9)).encode(), str(2 ** 31 - 1).encode()])
        elif op == 5:                                      # a key twice
            k = b.find(b',"', rng.randrange(len(b) + 1))
            if k > 0:
                end = b.find(b",", k + 1)
                if end > 0:
                    b[end:end] = b[k:end]
        elif op == 6 and b:                                # cut short
            del b[rng.randrange(len(b)):]
        else:                                              # a word swapped
            words = [b'"t"', b'"k"', b'"ev"', b'"hello"', b'"claim"', b'"resume"', b'"held"', b'"boot"', b'"s"',
                     b'"v"', b'"e"', b'"of"', b'"at"', b'"g"', b'"r"', b'"p"']
            w = rng.choice(words)
            k = b.find(w)
            if k >= 0:
                b[k:k + len(w)] = rng.choice(words)
    return bytes(b)


def fuzz_lines(n: int, rng: random.Random) -> list[tuple[bytes, bool]]:
    """`n` lines: mutations of the golden valid frames and of real game events' frames, half of
    them with the checksum made right for the mutated body; (line, checksum right)."""
    from doodlebox.link import frames

    vectors = json.loads((ROOT / "tests" / "vectors" / "frames.json").read_text())
    bodies = [c["frame"].encode()[1:-10] for c in vectors["valid"]]
    for g in game_events(2, seed=rng.randrange(1000)):
        bodies += [frames.encode("ev", boot=3, s=s, e=e)[1:-10] for s, e in enumerate(g, start=1)]
    out = []
    for _ in range(n):
        body = _mutate(rng.choice(bodies), rng)
        crc = b"%08x" % zlib.crc32(body)
        right = rng.random() < 0.5
        if not right:
            crc = rng.choice((crc.upper() if crc != crc.upper() else b"%08x" % ((int(crc, 16) + 1) & 0xFFFFFFFF),
                              b"%08x" % rng.getrandbits(32), crc[:7] + b"g", crc[:6]))
        out.append((b"@" + body + b"*" + crc + rng.choice((b"\n", b"\r\n")), right))
    return out


class _Sink:
    """The port for the fuzzed session: what it is given to read, what it writes is counted."""

    def __init__(self) -> None:
        self.inbox = b""
        self.written = 0

    def read(self, size: int = 1) -> bytes:
        data, self.inbox = self.inbox, b""
        return data

    def write(self, data: bytes) -> int:
        self.written += len(data)
        return len(data)


def fuzz(n: int, rng: random.Random) -> dict:
    """`n` fuzzed frames fed to the frame decoder, then to the link session (in reads of 1 to 40
    lines, a hello now and then) over a real SQLite store: crashes (anything but a refused frame),
    corrupt events accepted (a frame with a wrong checksum decoded, or an event stored that the
    schema refuses or that no frame with a right checksum carried; an event stored as `refused`
    must hold a frame that came with a right checksum, and its reason)."""
    from doodlebox.link import frames, schema
    from doodlebox.link.session import HostLink
    from doodlebox.store import Store

    lines = fuzz_lines(n, rng)
    crashes = corrupt = accepted = refused = 0
    # real events of boot 3, in order, among the fuzzed frames: the session stores as it goes
    events = [e for g in game_events(3, seed=rng.randrange(1000)) for e in g]
    real = [frames.encode("ev", boot=3, s=k, e=e) for k, e in enumerate(events, start=1)]
    carried: set[str] = set()
    for line, right in lines:
        try:
            msg = frames.decode(line)
        except frames.FrameError:
            continue
        except Exception:
            crashes += 1
            continue
        accepted += 1
        if not right:
            corrupt += 1
        elif msg["t"] == "ev":
            carried.add(json.dumps(msg["e"], sort_keys=True))
    d = Path(tempfile.mkdtemp(prefix="doodlebox-fuzz-"))
    store = Store(d / "fuzz.sqlite3")
    port = _Sink()
    link = HostLink(port, store)
    hello = frames.encode("hello", fw="0.3.0", uid="f022", boot=3, first=1, next=1, held=[[3, 1, 1]])
    for f in real:
        carried.add(json.dumps(frames.decode(f)["e"], sort_keys=True))
    i = 0
    try:
        while i < len(lines):
            k = rng.randint(1, 40)
            chunk = b"".join(line for line, _ in lines[i:i + k])
            if i == 0 or rng.random() < 0.05:
                chunk = hello + chunk
            nxt = store.next_seq("f022", 3) - 1      # the real events from the first not stored, as a console resends
            chunk += b"".join(real[nxt:nxt + rng.randint(0, 2)])
            cut = rng.randrange(len(chunk) + 1)      # a read may end in the middle of a line
            for part in (chunk[:cut], chunk[cut:]):
                port.inbox = part
                try:
                    link.poll()
                except Exception:
                    crashes += 1
            i += k
        sent = {line.rstrip(b"\r\n").decode("ascii", "replace") for line, right in lines if right}
        for _, _, _, e in store.events():
            if e.get("k") == "refused":     # in the place of an event the schema refuses (docs/protocol.md)
                refused += 1
                if e.get("frame") not in sent or not e.get("why"):
                    corrupt += 1
                continue
            try:
                schema.check_event(e)
            except schema.SchemaError:
                corrupt += 1
                continue
            if json.dumps(e, sort_keys=True) not in carried:
                corrupt += 1
        stored = len(store.events())
    finally:
        store.close()
        shutil.rmtree(d, ignore_errors=True)
    return {"what": "fuzzed frames", "tried": n, "crashes": crashes, "corrupt events accepted": corrupt,
            "decoded": accepted, "stored": stored, "refused": refused, "bad": link.counts["bad"]}


# -- the console's power cut ------------------------------------------------------------------------
def power_cut(n: int, rng: random.Random) -> dict | None:
    """THE PLACE FOR POWER CUTS: the console's power cut at random instants over whole games,
    the console booted again on the same flash, the shipped link storing all along; lost and
    duplicated counted against the events the console wrote whole to its flash. It is
    tests/tools/power_cuts.py (the firmware's core with its journal, under CPython); returning None
    here prints "not run"."""
    from power_cuts import fault

    return fault(n, rng)


# -- the firmware in the VM -----------------------------------------------------------------------
def soak(n: int, rng: random.Random) -> dict:
    """One power-up of the firmware in the 192K VM, `n` whole games with the PC off, the heap
    after each; then the shipped LinkThread gets them all (tests/tools/vm_faults.py)."""
    from vm_faults import fault_soak

    return fault_soak(n, rng)


def power_cut_vm(n: int, rng: random.Random) -> dict:
    """`n` power cuts of the firmware in the 192K VM on a real flash folder, at random instants
    over whole games, the PC coming and going; MemoryError and any firmware exception counted
    (tests/tools/vm_faults.py)."""
    from vm_faults import fault_cuts

    return fault_cuts(n, rng)


# -- the suite --------------------------------------------------------------------------------
# (name, function, how many in `make faults`, how many in --short / make test)
FAULTS: list[tuple[str, Callable[[int, random.Random], dict | None], int, int]] = [
    ("logger killed", logger_kills, 12, 2),
    ("cable pulled", cable_pulls, 8, 1),
    ("late attach", late_attach, 6, 2),
    ("noisy cable", noisy_cable, 200, 20),
    ("fuzzed frames", fuzz, 100_000, 5_000),
    ("database locked", db_locked, 6, 1),
    ("database full", db_full, 6, 1),
    ("database read-only", db_readonly, 4, 2),
    ("power cut", power_cut, 20, 2),
    ("soak", soak, 30, 3),
    ("power cut (VM)", power_cut_vm, 200, 20),
    *faults_acks.FAULTS,     # the database deleted, replaced, its -shm spoilt; SIGTERM, SIGHUP; a new port
    *faults_web.FAULTS,      # the page's server: 200 concurrent requests, 60 slow clients, clients asking for analyses
    *faults_sync.FAULTS,     # venues synced into a league in every order, beside a logger, at once
    *faults_sheets.FAULTS,   # the table's sheets: power cut at every byte, spoilt frames, cable pulled, a game's own
]


def line(r: dict) -> str:
    """What `make faults` prints for one kind of fault."""
    head = f"{r['what']}: {r['tried']:,} {r.get('unit', 'tried')}"
    if "acked_not_stored" in r:
        return faults_acks.line(head, r)
    if "web" in r:
        return faults_web.line(head, r)
    if "sync" in r:
        return faults_sync.line(head, r)
    if "sheets" in r:
        return faults_sheets.line(head, r)
    if "crashes" in r:
        return (f"{head}, crashes {r['crashes']}, corrupt events accepted {r['corrupt events accepted']} "
                f"({r['decoded']:,} decoded, {r['stored']:,} events stored, {r['refused']:,} of them as refused, "
                f"{r['bad']:,} bad frames refused)")
    text = f"{head}, lost {r['lost']}, duplicated {r['duplicated']}"
    if "MemoryError" in r:      # the firmware in the VM (tests/tools/vm_faults.py)
        text += f", MemoryError {r['MemoryError']}"
    notes = [f"{r['events']:,} events"]
    if r.get("exceptions"):
        notes.append(f"OTHER FIRMWARE EXCEPTIONS {r['exceptions']}")
    if r.get("wrong"):
        notes.append(f"stored wrong {r['wrong']}")
    if "acked_before_stored" in r:
        notes.append(f"acknowledged before stored {r['acked_before_stored']}")
    if "said" in r:
        notes.append(f"the logger said so {r['said']} times" if r["said"] else "THE LOGGER NEVER SAID SO")
    if "one_line" in r:
        notes.append(f"one clear line {r['one_line']} of {r['tried']}")
    if r.get("finished") is False:
        notes.append("NOT ALL ACKNOWLEDGED")
    if r.get("logger_stayed_up") is False:
        notes.append("THE LOGGER STOPPED")
    notes += r.get("notes", [])
    return f"{text} ({', '.join(notes)})"


def failed(r: dict) -> bool:
    if "acked_not_stored" in r:
        return faults_acks.failed(r)
    if "web" in r:
        return faults_web.failed(r)
    if "sync" in r:
        return faults_sync.failed(r)
    if "sheets" in r:
        return faults_sheets.failed(r)
    if "crashes" in r:
        return bool(r["crashes"] or r["corrupt events accepted"])
    return bool(r["lost"] or r["duplicated"] or r.get("wrong") or r.get("acked_before_stored")
                or r.get("MemoryError") or r.get("exceptions") or r.get("heap_grows") or r.get("stopped")
                or r.get("step_over_margin")
                or r.get("finished") is False or r.get("logger_stayed_up") is False
                or ("one_line" in r and r["one_line"] != r["tried"]) or r.get("said") == 0)


def run(short: bool = False, seed: int = 11, only: str | None = None, out=print) -> bool:
    rng = random.Random(seed)
    ok = True
    for name, fault, full, quick in FAULTS:
        if only and only not in name:
            continue
        t0 = time.monotonic()
        r = fault(quick if short else full, random.Random(rng.randrange(1 << 30)))
        if r is None:
            out(f"{name}: not run (tests/tools/faults.py {fault.__name__})")
            continue
        ok = ok and not failed(r)
        out(f"{line(r)}  [{time.monotonic() - t0:.0f} s]")
    return ok


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--short", action="store_true", help="the quick version (make test runs it)")
    p.add_argument("--seed", type=int, default=11)
    p.add_argument("--only", help="only the faults whose name has this in it")
    args = p.parse_args()
    return 0 if run(args.short, args.seed, args.only, out=lambda s: print(s, flush=True)) else 1


if __name__ == "__main__":
    sys.exit(main())
