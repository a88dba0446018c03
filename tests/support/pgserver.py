"""A throwaway PostgreSQL server for the tests: Debian's binaries (/usr/lib/postgresql/*/bin,
`make postgres` installs them), a cluster made by initdb in a temporary folder, started on a free
port of 127.0.0.1 (its unix socket in that folder), as the `postgres` user when the tests run as
root (initdb refuses root), stopped and removed at the end. Nothing is mocked.

The cluster has two roles: `postgres` (the superuser, for the tests' own work: databases made,
connections ended) and `doodle` (what doodlebox connects as), both with a password over TCP.

    with PgServer() as server:
        url = server.database()      # postgresql://doodle:...@127.0.0.1:PORT/test_1, a new one
"""
from __future__ import annotations

import glob
import os
import shlex
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

SUPER_PASSWORD = "super-secret"
USER, PASSWORD = "doodle", "table-secret"


def binaries() -> Path | None:
    """The newest /usr/lib/postgresql/N/bin with initdb and pg_ctl, if any."""
    found = [Path(p).parent for p in glob.glob("/usr/lib/postgresql/*/bin/initdb")
             if Path(p).with_name("pg_ctl").exists()]
    return max(found, key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0) if found else None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PgServer:
    """One cluster: start() (initdb and pg_ctl start), database() per test, stop() (and removed)."""

    def __init__(self) -> None:
        bin_dir = binaries()
        if bin_dir is None:
            raise RuntimeError("no PostgreSQL server binaries in /usr/lib/postgresql/*/bin (`make postgres` "
                               "installs Debian's postgresql)")
        self.bin = bin_dir
        self.root = Path(tempfile.mkdtemp(prefix="doodlebox-pg-"))
        self.data = self.root / "data"
        self.log = self.root / "server.log"
        self.port = free_port()
        self.host = "127.0.0.1"
        self._as_postgres = os.geteuid() == 0
        self._made = 0

    # -- the cluster --------------------------------------------------------------------------
    def _run(self, *argv: str, timeout: float = 120) -> subprocess.CompletedProcess:
        cmd = [str(a) for a in argv]
        if self._as_postgres:
            cmd = (["runuser", "-u", "postgres", "--", *cmd] if shutil.which("runuser")
                   else ["su", "postgres", "-s", "/bin/sh", "-c", shlex.join(cmd)])
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=self.root)
        if r.returncode != 0:
            raise RuntimeError(f"{' '.join(cmd)}: exit {r.returncode}: {r.stderr.strip() or r.stdout.strip()}"
                               + self._log_tail())
        return r

    def _log_tail(self) -> str:
        try:
            return "\n" + "\n".join(self.log.read_text().splitlines()[-10:])
        except OSError:
            return ""

    def start(self) -> PgServer:
        pwfile = self.root / "pw"
        pwfile.write_text(SUPER_PASSWORD + "\n")
        if self._as_postgres:
            shutil.chown(self.root, "postgres", "postgres")
            shutil.chown(pwfile, "postgres", "postgres")
        self._run(self.bin / "initdb", "-D", self.data, "-U", "postgres", "--pwfile", pwfile, "-E", "UTF8",
                  "--locale", "C", "--auth-local", "trust", "--auth-host", "scram-sha-256", "--no-sync")
        pwfile.unlink()
        self.launch()
        with self.admin() as db:
            db.execute(f"CREATE ROLE {USER} LOGIN PASSWORD '{PASSWORD}'")
        return self

    def launch(self) -> None:
        """pg_ctl start (waits until it takes connections); again after halt()."""
        # fsync off: a throwaway cluster (commits are still commits; the tests kill connections, not the OS)
        opts = (f"-p {self.port} -k {self.root} -c listen_addresses={self.host} -c fsync=off "
                "-c full_page_writes=off -c max_connections=60")
        self._run(self.bin / "pg_ctl", "-D", self.data, "-l", self.log, "-o", opts, "-w", "-t", "60", "start")

    def halt(self) -> None:
        """pg_ctl stop, at once (a server that goes down); launch() starts it again."""
        self._run(self.bin / "pg_ctl", "-D", self.data, "-m", "immediate", "-w", "stop")

    def stop(self) -> None:
        try:
            if (self.data / "postmaster.pid").exists():
                self.halt()
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

    def __enter__(self) -> PgServer:
        try:
            return self.start()
        except BaseException:
            self.stop()
            raise

    def __exit__(self, *exc) -> None:
        self.stop()

    # -- what the tests use --------------------------------------------------------------------
    def url(self, dbname: str = "postgres", user: str = USER, password: str = PASSWORD) -> str:
        return f"postgresql://{user}:{password}@{self.host}:{self.port}/{dbname}"

    def admin(self, dbname: str = "postgres"):
        """A superuser connection (autocommit), for the tests' own work."""
        import psycopg

        return psycopg.connect(self.url(dbname, "postgres", SUPER_PASSWORD), autocommit=True, connect_timeout=10)

    def database(self) -> str:
        """A new empty database owned by `doodle`; its URL."""
        self._made += 1
        name = f"test_{os.getpid()}_{self._made}"
        with self.admin() as db:
            db.execute(f"CREATE DATABASE {name} OWNER {USER}")
        return self.url(name)

    def end_connections(self, dbname: str, user: str = USER) -> int:
        """pg_terminate_backend() every connection of `user` to `dbname` (a lost connection); how many."""
        with self.admin() as db:
            rows = db.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s "
                              "AND usename = %s AND pid <> pg_backend_pid()", (dbname, user)).fetchall()
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:     # gone from pg_stat_activity: the backend has ended
            with self.admin() as db:
                left = db.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = %s AND usename = %s",
                                  (dbname, user)).fetchone()[0]
            if not left:
                break
            time.sleep(0.02)
        return len(rows)
