"""`doodlebox log` as a separate process, and a feed of what it stored, for end-to-end tests
and benchmarks. The only channel back from the host process is its SQLite database, read
the way any other program would read it."""
from __future__ import annotations

import os
import queue
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


class HostProcess:
    """`doodlebox log --port PORT --db DB`, started and stopped (or killed) on demand."""

    def __init__(self, port: str, db: Path, log: Path):
        self.port, self.db, self.log = port, db, log
        self.proc: subprocess.Popen | None = None
        self.starts = 0

    def start(self) -> HostProcess:
        env = dict(os.environ, PYTHONPATH=str(ROOT / "host"), PYTHONUNBUFFERED="1")
        out = open(self.log, "a")
        out.write(f"--- start {self.starts + 1}\n")
        out.flush()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "doodlebox.cli", "log", "--port", self.port, "--db", str(self.db)],
            stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT, env=env)
        out.close()
        self.starts += 1
        return self

    def wait_connected(self, timeout: float = 30.0) -> None:
        """Until this start's host has shaken hands with the console (its log says so)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            text = self.log.read_text() if self.log.exists() else ""
            if text.count("connected: console") >= self.starts:
                return
            if self.proc is not None and self.proc.poll() is not None:
                raise RuntimeError(f"doodlebox log exited with {self.proc.returncode}:\n{text}")
            time.sleep(0.05)
        raise TimeoutError(f"doodlebox log did not connect within {timeout:g} s:\n{text}")

    def kill(self) -> None:
        """SIGKILL: no cleanup, no goodbye; whatever was committed is all that is left."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)

    def stop(self) -> int:
        """Ctrl-C, as a person would end it; returns the exit code."""
        if self.proc is None or self.proc.poll() is not None:
            return self.proc.returncode if self.proc else 0
        self.proc.send_signal(signal.SIGINT)
        try:
            return self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return self.proc.wait()


class StoreFeed:
    """Puts every event the host commits into `events`, in sequence order, once each."""

    def __init__(self, db: Path, interval: float = 0.03):
        self.db, self.interval = db, interval
        self.events: queue.Queue = queue.Queue()
        self.delivered: list[tuple[str, int, int]] = []
        self._next: dict[tuple[str, int], int] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="store-feed", daemon=True)

    def start(self) -> StoreFeed:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)

    def _run(self) -> None:
        import json

        while not self._stop.is_set():
            time.sleep(self.interval)
            if not self.db.exists():
                continue
            try:
                db = sqlite3.connect(f"file:{self.db}?mode=ro", uri=True, timeout=1.0)
                try:
                    rows = db.execute("SELECT uid, boot, seq, body FROM events ORDER BY uid, boot, seq").fetchall()
                finally:
                    db.close()
            except sqlite3.OperationalError:
                continue  # the schema is not there yet
            for uid, boot, seq, body in rows:
                want = self._next.get((uid, boot), 1)
                if seq == want:
                    self._next[(uid, boot)] = seq + 1
                    self.delivered.append((uid, boot, seq))
                    self.events.put(json.loads(body))
