"""The fault suite's rig (tests/tools/faults.py and its siblings, the tests that reuse it): the
shipped `doodlebox log` as its own process as a person runs it (Logger), a fake console's stream
over a pty (Stream), a console made for a case, a work folder, and one case's result counted
against what the console made (result, Rig)."""
from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))
import house  # noqa: E402

house.on_path()

from fakeconsole import FakeConsole, game_events  # noqa: E402


# -- the logger, as a person runs it ---------------------------------------------------------------
class Logger:
    """`doodlebox log --port PORT --db DB` as its own process, its output in `log`. `pre`: Python
    run before the command line (a fault injected); `as_user`: when this process is root, the
    logger runs without root's power over files (a read-only file is read-only to it)."""

    def __init__(self, port: str, db: Path, log: Path, pre: str = "", as_user: bool = False):
        self.port, self.db, self.log, self.pre, self.as_user = port, db, log, pre, as_user
        self.proc: subprocess.Popen | None = None
        self.starts = 0

    def start(self) -> Logger:
        env = dict(os.environ, PYTHONPATH=str(ROOT / "host"), PYTHONUNBUFFERED="1", PYTHONDONTWRITEBYTECODE="1")
        code = self.pre + "\nimport sys\nfrom doodlebox.cli import main\nsys.exit(main(sys.argv[1:]))\n"
        with open(self.log, "a") as out:
            out.write(f"--- start {self.starts + 1}\n")
        # through a pipe (copied to the file by a thread): a file size limit set on the logger
        # (database full) must not stop its output
        self.proc = subprocess.Popen(
            [sys.executable, "-c", code, "log", *(["--port", self.port] if self.port else []), "--db", str(self.db),
             "--wait", "20"],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env,
            preexec_fn=without_root_powers if self.as_user and os.geteuid() == 0 else None)
        threading.Thread(target=self._copy, args=(self.proc,), daemon=True).start()
        self.starts += 1
        return self

    def _copy(self, proc: subprocess.Popen) -> None:
        assert proc.stdout is not None
        with open(self.log, "ab") as out:
            for chunk in iter(lambda: proc.stdout.read1(65536), b""):   # type: ignore[union-attr]
                out.write(chunk)
                out.flush()

    def text(self) -> str:
        return self.log.read_text() if self.log.exists() else ""

    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def wait_connected(self, console: FakeConsole, timeout: float = 30.0) -> None:
        """The console answering, until this start's logger has shaken hands with it."""
        if not console.run_until(lambda: self.text().count("connected: console") >= self.starts or not self.running(),
                                 timeout):
            raise TimeoutError(f"doodlebox log did not connect within {timeout:g} s:\n{self.text()[-2000:]}")
        if not self.running():
            code = self.proc and self.proc.returncode
            raise RuntimeError(f"doodlebox log exited with {code}:\n{self.text()[-2000:]}")

    def kill(self) -> None:
        """SIGKILL: no cleanup; whatever was committed is all that is left."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)
        time.sleep(0.02)      # its last output copied

    def stop(self) -> int:
        """Ctrl-C, as a person ends it; the exit code."""
        if self.proc is None:
            return 0
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                return self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        return self.proc.wait()


def without_root_powers() -> None:
    """In a child about to exec, as root: drop the capabilities that let root write a file or a
    folder its permissions forbid (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_FOWNER) from the
    bounding set, so the program runs as a user would."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    for cap in (1, 2, 3):
        if libc.prctl(24, cap, 0, 0, 0) != 0:      # PR_CAPBSET_DROP
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP)")


def workdir(prefix: str) -> Path:
    return Path(tempfile.mkdtemp(prefix=f"doodlebox-{prefix}-"))


def console_for(d: Path, uid: str = "fa1ce0", boot: int = 1, symlink: bool = False) -> FakeConsole:
    return FakeConsole(d / "ttyDOODLE" if symlink else None, uid=uid, boot=boot)


class Stream:
    """Games' events made on the console at `rate` events a second while it runs (the table at
    a brisk pace), game after game."""

    def __init__(self, console: FakeConsole, rng: random.Random, rate: float = 300.0):
        self.console, self.rng, self.rate = console, rng, rate
        self._events: list[dict] = []
        self._due = 0.0
        self._boot, self._g = console.boot, 0

    def _one(self) -> dict:
        if self.console.boot != self._boot:          # a new boot numbers its games from 1
            self._boot, self._g = self.console.boot, 0
            self._events = []
        if not self._events:
            self._g += 1
            (game,) = game_events(1, seed=self.rng.randrange(1 << 30))
            self._events = [dict(e, g=self._g) for e in reversed(game)]
        return self._events.pop()

    def run(self, seconds: float) -> None:
        """Make events and step the console for `seconds`."""
        end = last = time.monotonic()
        end += seconds
        while True:
            now = time.monotonic()
            if now >= end:
                return
            self._due += (now - last) * self.rate
            last = now
            while self._due >= 1:
                self.console.add(self._one())
                self._due -= 1
            self.console.step(0.003)

    def add(self, n: int) -> None:
        for _ in range(n):
            self.console.add(self._one())

    def finish(self, timeout: float = 60.0) -> bool:
        """Every event made acknowledged."""
        return self.console.run_until(self.console.all_acked, timeout)


def result(what: str, tried: int, console: FakeConsole | None, db: Path | None, **extra) -> dict:
    out: dict = {"what": what, "tried": tried}
    if console is not None and db is not None:
        got = console.check(db)
        out.update(lost=got["lost"], duplicated=got["duplicated"], wrong=got["wrong"], events=got["made"])
    out.update(extra)
    return out


class Rig:
    """One fault's bench, in its own folder: a console (tests/support/fakeconsole.py), the shipped
    logger on its port, and a stream of games (`with Rig(...) as rig:` waits until the logger
    is connected, and at the end stops it and pulls the console's cable); `outcome()` checks
    the database against what the console made, then removes the folder."""

    def __init__(self, name: str, rng: random.Random, **console: Any):
        self.dir = workdir(name)
        self.console = console_for(self.dir, **console)
        self.db = self.dir / "games.sqlite3"
        self.logger = Logger(self.console.path, self.db, self.dir / "log.txt").start()
        self.stream = Stream(self.console, rng)

    def __enter__(self) -> Rig:
        try:
            self.logger.wait_connected(self.console)
        except BaseException:
            self.__exit__()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.logger.stop()
        self.console.pull()

    def finish(self) -> tuple[bool, int | None]:
        """The stream's last game played to the end and acknowledged; the logger stopped: (all
        acknowledged, the logger's exit code)."""
        ok = self.stream.finish()
        return ok, self.logger.stop()

    def outcome(self, what: str, n: int, **extra: Any) -> dict:
        out = result(what, n, self.console, self.db, **extra)
        shutil.rmtree(self.dir, ignore_errors=True)
        return out


