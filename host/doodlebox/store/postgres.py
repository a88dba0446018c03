"""The store on a PostgreSQL server (psycopg 3): the URL told from a file and read (parse()), the
connection opened, checked and upgraded (the same schema versions as the SQLite file:
store/schema.py), the SQL the Store writes for SQLite run on the server, and the server's faults
told apart.

The URL is read here, not by libpq: libpq and Python read a password with an `@`, a `/` or a `%`
in it differently, and libpq's complaint about a URL repeats the password. parse() takes
postgresql://USER:PASSWORD@HOST:PORT/DB?PARAM=VALUE as a person means it (the userinfo ends at the
last `@` before the first `/`; a `%` not followed by two hex digits is a `%`; spaces and any
character but `/` may stand in the password as they are), refuses in one line a URL that can be
read two ways (a `/` in the password), and libpq is handed the parts as keywords, never the URL.
What is shown of the URL (shown()) has no password and no query; what the server or libpq says
is scrubbed of every form of the password before it is repeated (Target.scrub).

What differs from the SQLite file (docs/stored-games.md, "Two backends"):
- the schema version is the one row of a `schema_version` table (SQLite: PRAGMA user_version);
- the tables' types: `BIGINT` for `INTEGER`, `DOUBLE PRECISION` for `REAL`, an identity column
  for SQLite's `INTEGER PRIMARY KEY` (ddl());
- a write transaction is BEGIN and a transaction-level advisory lock (WRITERS) that every
  doodlebox writing into the database takes: one writer at a time, as SQLite's BEGIN IMMEDIATE;
  its wait is limited by `lock_timeout` (the Store's timeout), then "locked", as on SQLite;
- every session commits synchronously (`synchronous_commit=on`, whatever the server's default):
  COMMIT returns once the server has the transaction on its disk;
- a connection lost (the server restarted, the connection ended, the network down) is the
  StoreError cause "lost", transient: the transaction it was in is not committed (or, when the
  COMMIT itself got no answer, may be: the next append finds its events there and calls them
  duplicates), and the next use connects again. A read with no transaction open connects again
  and reads once more at once;
- a statement the server has not finished within STATEMENT_TIMEOUT_S (`statement_timeout`, set
  for each session) is the cause "slow", transient too; a server that does not answer at all (its
  process stopped, its machine hung: no timeout of its own comes back) is watched from here: a
  statement, COMMIT included, waiting STALL_S for its answer is said once to `on_note`, and its
  answer when it comes (PgConnection.on_note; `doodlebox log` prints them);
- the database dropped, or its tables dropped, under a doodlebox using it is the cause "gone"
  (as a deleted SQLite file): nothing more is acknowledged.

psycopg is imported when a URL is opened, not before: a family's SQLite never loads it."""
from __future__ import annotations

import re
import threading
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from doodlebox.store.errors import StoreError
from doodlebox.store.schema import OURS, SCHEMA_VERSION, check, steps

if TYPE_CHECKING:
    import psycopg

SCHEMES = ("postgresql", "postgres")
VERSION_TABLE = "schema_version"     # its one row: the schema version (SQLite: PRAGMA user_version)
WRITERS = 0x646F6F646C65             # the advisory lock every writer takes ("doodle")
# a dead server or network found within about a minute, not the operating system's two hours
_DEFAULTS = {"keepalives": "1", "keepalives_idle": "20", "keepalives_interval": "5", "keepalives_count": "4",
             "application_name": "doodlebox"}
STATEMENT_TIMEOUT_S = 30.0   # the server cancels a statement it has not finished by then: "slow", transient
STALL_S = 5.0                # a statement with no answer from the server for this long is said (on_note)
GIVE = "give postgresql://USER:PASSWORD@HOST:PORT/DB"


def is_url(where: object) -> bool:
    """`where` names a PostgreSQL database (postgresql://... or postgres://...), not a file."""
    return isinstance(where, str) and where.split("://", 1)[0].lower() in SCHEMES and "://" in where


# -- the URL -------------------------------------------------------------------------------------
class BadUrl(ValueError):
    """A URL that cannot be read, or can be read two ways: `shown` names it without any part of
    the password, `why` says what is wrong (nor has it any part of the password)."""
    def __init__(self, shown: str, why: str):
        super().__init__(f"{shown}: {why}")
        self.shown, self.why = shown, why


@dataclass(frozen=True)
class Target:
    """A URL as read: `shown` (no password, no query), `params` (libpq's keywords: host, port,
    user, password, dbname and the query's parameters) and `secrets` (every form the password
    takes in the URL: as written, decoded, percent-encoded; and the userinfo as written)."""
    shown: str
    params: dict[str, str]
    secrets: tuple[str, ...] = ()

    def scrub(self, text: str) -> str:
        """`text` with every form of the password (3 characters or more) and the userinfo cut
        out: the last line of defence before anything the server or libpq said is shown."""
        for secret in self.secrets:
            text = text.replace(secret, "***")
        return text


def _decoded(text: str) -> str:
    """%XX decoded (UTF-8), as libpq does; a `%` not followed by two hex digits stays a `%`
    (libpq refuses it: "50%off" is taken as written), and so does text whose decoded bytes are
    not UTF-8."""
    if "%" not in text:
        return text
    out = bytearray()
    i = 0
    while i < len(text):
        pair = text[i + 1:i + 3]
        if text[i] == "%" and len(pair) == 2 and all(c in "0123456789abcdefABCDEF" for c in pair):
            out.append(int(pair, 16))
            i += 3
        else:
            out += text[i].encode("utf-8", "surrogatepass")
            i += 1
    try:
        return out.decode("utf-8")
    except UnicodeDecodeError:
        return text


def _forms(written: str, value: str) -> list[str]:
    """The forms a password may be shown in: as written, decoded, percent-encoded."""
    return [written, value, quote(value, safe=""), quote(value)]


def parse(url: str) -> Target:
    """The URL as libpq's keywords (Target); BadUrl when it cannot be read one way only. A
    database named nowhere is open_server()'s to refuse."""
    scheme, sep, rest = url.partition("://")
    if not sep or scheme.lower() not in SCHEMES:
        raise BadUrl(f"{scheme}://...", f"not a PostgreSQL URL; {GIVE}")
    try:
        url.encode("utf-8")
    except UnicodeEncodeError:       # a byte of the command line that is not UTF-8
        raise BadUrl(f"{scheme}://...", "not a PostgreSQL URL (a byte in it is not UTF-8: write it as %XX)") from None
    authority, slash, tail = rest.partition("/")
    if "@" in tail:
        # the userinfo ends at the first `/` for libpq and Python alike: a `/` in the password
        # (or the user's name) leaves its end, and the `@`, after it. Refused: read either way,
        # the host libpq would look for is part of the password.
        user, colon, after = authority.partition(":")
        if colon and "@" not in authority and not after.isdigit():
            raise BadUrl(f"{scheme}://{user}@...", "the password has a '/' (write it as %2F)")
        raise BadUrl(f"{scheme}://...", "an '@' after the first '/' (write a '/' in the user's name or the "
                                        "password as %2F, an '@' in the database's name or a parameter as %40)")
    userinfo, at, hostspec = authority.rpartition("@")      # a host has no `@`: the last one ends the userinfo
    user_written, colon, password_written = userinfo.partition(":")
    query = ""
    if "?" in hostspec:      # postgresql://HOST?PARAM=...: no path
        hostspec, _, query = hostspec.partition("?")
        if slash:
            query, tail = query + slash + tail, ""
            slash = ""
    path, _, path_query = tail.partition("?")
    query = query or path_query
    shown = f"{scheme}://{user_written + '@' if at and user_written else ''}{hostspec}" + (f"/{path}" if path else "")
    secrets: list[str] = [userinfo] if colon else []
    params: dict[str, str] = {}
    if user_written:
        params["user"] = _decoded(user_written)
    if password_written:
        params["password"] = _decoded(password_written)
        secrets += _forms(password_written, params["password"])
    hosts, ports = _hosts(hostspec, f"{scheme}://{user_written}@..." if at and user_written else f"{scheme}://...",
                          port_shown=bool(at))
    if any(hosts):
        params["host"] = ",".join(hosts)
    if any(ports):
        params["port"] = ",".join(ports)
    if path:
        params["dbname"] = _decoded(path)
    for pair in query.split("&") if query else ():
        if not pair:
            continue
        key, eq, value = pair.partition("=")
        if not eq:
            raise BadUrl(shown, f"not a PostgreSQL URL (a parameter after '?' has no '='); {GIVE}")
        key, value_written = _decoded(key), value
        value = _decoded(value)
        if key == "ssl" and value == "true":     # libpq's JDBC spelling
            key, value = "sslmode", "require"
        if key == "password":
            secrets += _forms(value_written, value)
        params[key] = value
    if any("\x00" in v for v in params.values()):
        raise BadUrl(f"{scheme}://...", "not a PostgreSQL URL (a %00 in it: PostgreSQL takes no NUL character)")
    return Target(shown, params, tuple(sorted({s for s in secrets if len(s) >= 3}, key=len, reverse=True)))


def _hosts(hostspec: str, where: str, port_shown: bool) -> tuple[list[str], list[str]]:
    """HOST:PORT,HOST:PORT,... (an IPv6 address in brackets) as libpq's lists of hosts and ports.
    A port is shown in the complaint only when it came after an `@` (else it may be a password
    whose `@HOST` is missing)."""
    hosts, ports = [], []
    for item in hostspec.split(",") if hostspec else ():
        if item.startswith("["):
            host, close, after = item[1:].partition("]")
            if not close:
                raise BadUrl(where, f"not a PostgreSQL URL (an IPv6 address without its ']'); {GIVE}")
            if after and not after.startswith(":"):
                raise BadUrl(where, f"not a PostgreSQL URL (something between the ']' and the port); {GIVE}")
            port = after[1:]
        else:
            host, _, port = item.partition(":")
        if port and not port.isdigit():
            said = f"the port {port!r}" if port_shown else "the port"
            raise BadUrl(where, f"not a PostgreSQL URL ({said} is not a number); {GIVE}")
        hosts.append(_decoded(host))
        ports.append(port)
    return hosts, ports


def shown(url: str) -> str:
    """The URL as error lines and notes name it: no password, no query (it may hold one)."""
    try:
        return parse(url).shown
    except BadUrl as exc:
        return exc.shown


def ddl(sql: str) -> str:
    """A statement of store/schema.py as PostgreSQL takes it (the same tables, columns and
    constraints; PostgreSQL's types for SQLite's)."""
    sql = sql.replace("id INTEGER PRIMARY KEY", "id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY")
    sql = re.sub(r"\bINTEGER\b", "BIGINT", sql)
    return re.sub(r"\bREAL\b", "DOUBLE PRECISION", sql)


def _marks(sql: str, args: Any) -> str:
    """SQLite's marks as psycopg's: `?` as `%s`, `:name` (with a dict) as `%(name)s`; a `%` of
    the SQL itself doubled. SQL with no arguments is sent as it is."""
    if not args:
        return sql
    sql = sql.replace("%", "%%")
    return re.sub(r":(\w+)\b", r"%(\1)s", sql) if isinstance(args, dict) else sql.replace("?", "%s")


class _Stalls:
    """One thread for every PgConnection that has an `on_note`: every EVERY s it looks at
    how long each one's statement has waited for the server (PgConnection._look)."""
    EVERY = 0.1

    def __init__(self) -> None:
        self._conns: weakref.WeakSet[PgConnection] = weakref.WeakSet()
        self._guard = threading.Lock()
        self._thread: threading.Thread | None = None

    def add(self, db: PgConnection) -> None:
        with self._guard:
            self._conns.add(db)
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="postgresql-stalls", daemon=True)
                self._thread.start()

    def discard(self, db: PgConnection) -> None:
        with self._guard:
            self._conns.discard(db)

    def _run(self) -> None:
        while True:
            time.sleep(self.EVERY)
            with self._guard:
                conns = list(self._conns)
            now = time.monotonic()
            for db in conns:
                db._look(now)


_STALLS = _Stalls()


class PgConnection:
    """One connection to the server as the Store uses it: execute() and executemany() take the
    Store's SQL with `?` marks; begin(), commit(), rollback() a write transaction; a connection
    lost is made again on the next use (module docstring). `on_note` (None: nothing said): a
    statement the server has not answered for STALL_S, and its answer when it comes; the link's
    store has one (link_thread.LinkThread), so the note speaks of the console's events."""
    errors: tuple[type[BaseException], ...] = ()

    def __init__(self, url: str, timeout: float, readonly: bool, target: Target | None = None):
        import psycopg  # deferred: PostgreSQL's library, only for a postgresql:// database

        PgConnection.errors = (psycopg.Error,)
        self.url = url
        self.target = target if target is not None else parse(url)
        self.where = self.target.shown
        self.timeout = timeout
        self.readonly = readonly
        self._tx = False
        self._on_note: Callable[[str], None] | None = None
        self._watch = threading.Lock()        # _since and _stalled, between the statement and _Stalls
        self._since: float | None = None      # when the statement waiting for the server was sent
        self._stalled = False                 # ... and said as not answered
        self.conn: psycopg.Connection = self._connect()

    @property
    def on_note(self) -> Callable[[str], None] | None:
        return self._on_note

    @on_note.setter
    def on_note(self, note: Callable[[str], None] | None) -> None:
        self._on_note = note
        if note is not None:
            _STALLS.add(self)
        else:
            _STALLS.discard(self)

    def _connect(self) -> psycopg.Connection:
        import psycopg  # deferred: PostgreSQL's library, only for a postgresql:// database
        from psycopg.conninfo import make_conninfo  # deferred: PostgreSQL's library, only for a postgresql:// database

        given = self.target.params
        params: dict[str, Any] = {k: v for k, v in _DEFAULTS.items() if k not in given}
        if "connect_timeout" not in given:
            params["connect_timeout"] = str(max(2, round(self.timeout)))
        # the parts as keywords (quoted by make_conninfo), never the URL: libpq reads nothing twice
        conn = psycopg.connect(make_conninfo("", **params, **given), autocommit=True)
        try:
            conn.execute(f"SET lock_timeout = {max(1, round(self.timeout * 1000))}")
            conn.execute(f"SET statement_timeout = {round(STATEMENT_TIMEOUT_S * 1000)}")
            conn.execute("SET synchronous_commit = on")
            if self.readonly:
                conn.execute("SET default_transaction_read_only = on")
        except BaseException:
            conn.close()
            raise
        return conn

    def _live(self, writing: bool = False) -> psycopg.Connection:
        """The connection, made again when it was lost (outside a transaction only)."""
        if not self.conn.closed and not self.conn.broken:
            return self.conn
        if self._tx:
            raise StoreError(f"{self.where}: the connection to the server was lost in a transaction", "lost")
        self.conn.close()
        try:
            self.conn = self._connect()
        except self.errors as exc:
            if _no_database(exc):
                raise StoreError(f"{self.where}: the database is gone (it was dropped while doodlebox was "
                                 + ("storing into it): " + ACKS_END if writing else "reading it)"), "gone") from None
            raise StoreError(f"{self.where}: the connection to the server was lost and cannot be made again "
                             f"({self._said(exc)})", "lost") from None
        return self.conn

    def lost(self, exc: BaseException) -> bool:
        """The error is (or left) a connection lost, not an error of the statement."""
        state = getattr(exc, "sqlstate", None) or ""
        return (state.startswith("08") or state in ("57P01", "57P02", "57P03")
                or self.conn.closed or self.conn.broken)

    # -- a server that does not answer ---------------------------------------------------------
    def _waited(self, work: Callable[..., Any], *args: Any) -> Any:
        """work(*args), a statement sent to the server, watched (_Stalls) while it waits for the
        answer: the answer after a stall said (STALL_S) is said too."""
        self._since = time.monotonic()
        answered = False
        try:
            out = work(*args)
            answered = True
            return out
        finally:
            with self._watch:
                began, self._since = self._since, None
                if self._stalled:
                    self._stalled = False
                    waited = time.monotonic() - (began or 0.0)
                    self._say(f"{self.where}: the server answered again after {waited:.1f} s" if answered else
                              f"{self.where}: the statement waited {waited:.1f} s for the server and failed")

    def _look(self, now: float) -> None:
        """(_Stalls' thread) A statement waiting STALL_S for the server is said, once."""
        with self._watch:
            since = self._since
            if since is None or self._stalled or now - since < STALL_S or self._on_note is None:
                return
            self._stalled = True
            self._say(f"{self.where}: the server has not answered for {STALL_S:.0f} s; holding the console's "
                      "events (nothing is acknowledged until it answers)")

    def _say(self, text: str) -> None:
        note = self._on_note
        if note is None:
            return
        try:
            note(text)
        except Exception:       # a note that cannot be said never stops the statement or the watch
            pass

    # -- what the Store uses -------------------------------------------------------------------
    @property
    def in_transaction(self) -> bool:
        from psycopg.pq import TransactionStatus  # deferred: PostgreSQL's library, only for a postgresql:// database

        return (not self.conn.closed and not self.conn.broken
                and self.conn.info.transaction_status in (TransactionStatus.INTRANS, TransactionStatus.INERROR))

    def execute(self, sql: str, args: Any = ()) -> Any:
        query = _marks(sql, args)
        if self._tx:
            return self._waited(self._live().execute, query, args or None)
        try:
            return self._waited(self._live().execute, query, args or None)
        except self.errors as exc:     # a read: the connection made again and read once more
            if not self.lost(exc):
                raise
            return self._waited(self._live().execute, query, args or None)

    def executemany(self, sql: str, rows: list) -> None:
        if rows:
            self._waited(self._live().cursor().executemany, _marks(sql, rows[0]), rows)

    def begin(self, lock: bool = True) -> None:
        """BEGIN, and the writers' lock (WRITERS), waited for up to the timeout. A connection
        found lost at BEGIN (ended while idle) is made again and BEGIN said once more."""
        try:
            self._waited(self._live(writing=True).execute, "BEGIN")
        except self.errors as exc:
            if not self.lost(exc):
                raise
            self._waited(self._live(writing=True).execute, "BEGIN")
        self._tx = True
        if lock:
            self._waited(self.conn.execute, "SELECT pg_advisory_xact_lock(%s)", (WRITERS,))

    def commit(self) -> None:
        try:
            self._waited(self.conn.execute, "COMMIT")
        finally:
            self._tx = False

    def rollback(self) -> None:
        self._tx = False
        if self.in_transaction:
            self._waited(self.conn.execute, "ROLLBACK")

    def close(self) -> None:
        _STALLS.discard(self)
        self.conn.close()

    def _said(self, exc: BaseException) -> str:
        """The first line of what psycopg says, without any form of the password."""
        return self.target.scrub(_first_line(exc))

    def problem(self, exc: BaseException, doing: str = "") -> StoreError:
        """The StoreError for a psycopg error: lost, locked, full, readonly, slow, gone or other."""
        if isinstance(exc, StoreError):
            return exc
        what = f" while {doing}" if doing else ""
        state = getattr(exc, "sqlstate", None) or ""
        text = self._said(exc)
        if self.lost(exc):
            return StoreError(f"{self.where}: the connection to the server was lost{what} ({text})", "lost")
        if state in ("55P03", "40001", "40P01"):      # lock_timeout, serialization failure, deadlock
            return StoreError(f"{self.where}: the database is locked by another program{what} ({text})", "locked")
        if state.startswith("53"):                      # disk full, out of memory, too many connections
            return StoreError(f"{self.where}: full: the server has no room{what} ({text})", "full")
        if state in ("42501", "25006"):                 # no privilege, a read-only transaction
            return StoreError(f"{self.where}: read-only: the server lets this user only read{what} ({text})",
                              "readonly")
        if state == "57014":                            # statement_timeout (or a statement cancelled)
            return StoreError(f"{self.where}: the server did not finish a statement within "
                              f"{STATEMENT_TIMEOUT_S:.0f} s{what} ({text})", "slow")
        if state == "42P01":                            # undefined_table: dropped, or a new empty database
            writing = bool(doing) and not doing.startswith("reading")
            return StoreError(f"{self.where}: the database's tables are gone (the database was dropped or emptied "
                              f"while doodlebox was " + (f"storing into it): {ACKS_END}" if writing else
                                                          "reading it)"), "gone")
        return StoreError(f"{self.where}: {text}{what}", "other")


ACKS_END = "nothing more is acknowledged (the console keeps its events for the next doodlebox log)"


def _first_line(exc: BaseException) -> str:
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    return lines[0] if lines else type(exc).__name__


def _no_database(exc: BaseException) -> bool:
    """psycopg's error says the database is not there (3D000, invalid_catalog_name)."""
    low = str(exc).lower()
    return getattr(exc, "sqlstate", None) == "3D000" or ("database" in low and "does not exist" in low)


def open_server(url: str, timeout: float, readonly: bool) -> PgConnection:
    """The database at `url`, connected, checked (a newer schema, another program's tables) and,
    unless `readonly`, created or upgraded to SCHEMA_VERSION in one transaction. StoreError
    (one line; exit 2 for a URL, a password, a database or a server that is not there, and a
    newer schema) otherwise, the database as it was. Nothing said has any part of the password."""
    try:
        target = parse(url)
    except BadUrl as exc:
        raise StoreError(str(exc), "url") from None
    where = target.shown
    if not target.params.get("dbname"):
        raise StoreError(f"{where}: the URL names no database; {GIVE}", "url")
    try:
        import psycopg  # deferred: PostgreSQL's library, only for a postgresql:// database
    except ImportError:
        raise StoreError(f"{where}: a PostgreSQL database needs doodlebox's club extra (psycopg 3), which is not "
                         "installed: pip install 'doodlebox[club]' (with pipx: pipx inject doodlebox "
                         "'psycopg[binary]')", "url") from None
    try:
        db = PgConnection(url, timeout, readonly, target)
    except psycopg.Error as exc:
        raise connect_problem(where, exc, target) from None
    try:
        db.begin(lock=not readonly)
        tables = {r[0] for r in db.execute("SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")}
        version = 0
        if VERSION_TABLE in tables:
            version = db.execute(f"SELECT COALESCE(MAX(version), 0) FROM {VERSION_TABLE}").fetchone()[0]
        check(where, version, tables - {VERSION_TABLE})
        if version < SCHEMA_VERSION:
            if readonly:
                raise StoreError(f"{where}: schema version {version}: `doodlebox log` upgrades it to "
                                 f"{SCHEMA_VERSION} (it needs to write the database)", "old")
            _upgrade(db, version, tables)
        db.commit()
    except BaseException as exc:
        try:
            db.rollback()
        except db.errors:
            pass
        db.close()
        if isinstance(exc, db.errors):
            raise db.problem(exc, "opening it") from None
        raise
    return db


def _upgrade(db: PgConnection, version: int, tables: set[str]) -> None:
    """schema.steps() as PostgreSQL takes them, and the version, in the transaction begun (with
    no statement_timeout: an upgrade of a big database takes what it takes)."""
    db.execute("SET LOCAL statement_timeout = 0")
    for sql, args in steps(version, tables & OURS):
        if callable(sql):
            sql(db)
        else:
            db.execute(ddl(sql), args or None)
    db.execute(f"CREATE TABLE IF NOT EXISTS {VERSION_TABLE} (version INTEGER NOT NULL)")
    db.execute(f"DELETE FROM {VERSION_TABLE}")
    db.execute(f"INSERT INTO {VERSION_TABLE} (version) VALUES ({SCHEMA_VERSION})")


def connect_problem(where: str, exc: BaseException, target: Target | None = None) -> StoreError:
    """Why the server could not be connected to, in one line (exit 2): the URL, the password,
    the database or the server itself. What libpq said is repeated without the password."""
    if isinstance(exc, StoreError):
        return exc
    text = target.scrub(_first_line(exc)) if target is not None else _first_line(exc)
    low = str(exc).lower()
    detail = text.rsplit("failed: ", 1)[-1].replace("FATAL:", "").strip()
    if "password" in low or "authentication" in low or ("role" in low and "does not exist" in low):
        return StoreError(f"{where}: the server refuses the user or the password ({detail})", "auth")
    if "database" in low and "does not exist" in low:
        return StoreError(f"{where}: the server has no such database ({detail})", "nodb")
    if any(words in low for words in _UNREACHABLE):
        return StoreError(f"{where}: cannot reach the PostgreSQL server ({detail})", "down")
    if type(exc).__name__ == "ProgrammingError" or "invalid" in low or "missing" in low:
        return StoreError(f"{where}: not a PostgreSQL URL ({detail}); {GIVE}", "url")
    return StoreError(f"{where}: cannot reach the PostgreSQL server ({detail})", "down")


_UNREACHABLE = ("resolve host", "translate host", "refused", "timeout", "timed out", "unreachable", "no route",
                "could not connect", "no such file or directory", "starting up", "shutting down", "too many")
