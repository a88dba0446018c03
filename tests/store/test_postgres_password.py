"""Issue 32: a PostgreSQL URL's password is never shown. The URL is read by doodlebox
(store/postgres.py, parse()), not by libpq, whose complaints repeated the password
(`invalid percent-encoded token: "50%off"`, `failed to resolve host 'pass@127.0.0.1'`, Python's
`... value as 'pa'`). A password with `%`, `@`, `:`, `?`, `#`, spaces or any character but `/` is
taken as it is written; a `/` is refused in one line that names no part of it.

The sweep runs every command that takes `--db` or `--to` (and $DOODLEBOX_DB) with passwords that
have those characters, written as they are and percent-encoded, against a real server (tests/
pgserver.py): the right password, a wrong one, no server. No 3-character part of a password, as
written or percent-encoded, may be on stdout or stderr. A part counts only when the same command
run with a plain password does not print it too (the word "password" has "pas" and "ass" in it).
The short commands run in this process (main(), stdout and stderr captured at their file
descriptors); log, web and demo, which run on, as processes of their own."""
from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import tempfile
import traceback
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import quote

import cli_run
import pytest
from pgserver import free_port

from doodlebox.store.postgres import BadUrl, parse, shown

ROOT = Path(__file__).resolve().parents[2]
RECORD = str(ROOT / "tests" / "golden" / "suzhou-bonuses.json")
PASSWORDS = ["50%off", "my@pass", "pa/ss", "a:b", "wh?at", "pa#ss", "sp ace", "Zoë€", "Mi/x@%z: ?#é"]
PLAIN = "PlainWord7"          # what the commands print with a password that has nothing odd in it
OTHER = "other-Secret9"       # the role's password when the URL's is the wrong one
_ESCAPE = re.compile(r"%[0-9A-F]{2}")


def parts(password: str) -> set[str]:
    """Every 3-character part of the password, as written and percent-encoded (an escape
    alone, "%2F", is one character of it, and the lines that say "write it as %2F" have it)."""
    out = set()
    for form in (password, quote(password, safe="")):
        out |= {form[i:i + 3] for i in range(len(form) - 2)}
    return {p for p in out if not _ESCAPE.fullmatch(p)}


_RANDOM = re.compile(r"\b[0-9a-f]{16,}\b|" + re.escape(tempfile.gettempdir()) + r"/\S*")


def steady(text: str) -> str:
    """The text without what differs from run to run: ids (a league's, a console's: hex from
    os.urandom) and temporary paths (a pty's folder has random letters): a league id with "b20a"
    in it had "20a" of "sp ace" encoded (sp%20ace), and the plain run's id had not (CI)."""
    return _RANDOM.sub("<random>", text)


def leaked(text: str, password: str, plain: str = "") -> set[str]:
    text, plain = steady(text), steady(plain)
    return {p for p in parts(password) if p in text and p not in plain}


def test_a_random_id_or_temporary_path_is_no_part_of_a_password():
    """The sweep's CI failure: two runs of one command differ by their random ids and paths."""
    said = "is another league's database (league ea05f2d84e7246cfbca244b20a08a22e): /tmp/doodlebox-port-s8acew/x"
    plain = "is another league's database (league ad63c7ec6dce4d3897543b35f181ccdc): /tmp/doodlebox-port-q1w2e3/x"
    assert leaked(said, "sp ace", plain) == set()
    assert leaked(said + " postgresql://u:sp ace@h/x", "sp ace", plain) == {"sp ", "p a", " ac", "ace"}
    assert leaked(said + " (league 0123sp%20ace)", "sp ace", plain) >= {"20a", "0ac"}


def url(user: str, password: str, port: int, db: str, encoded: bool = False) -> str:
    return f"postgresql://{user}:{quote(password, safe='') if encoded else password}@127.0.0.1:{port}/{db}"


# -- the URL as read (no server) ------------------------------------------------------------------
@pytest.mark.parametrize("password", PASSWORDS)
def test_a_password_is_read_as_written_or_refused_without_a_part_of_it(password):
    written = url("doodle", password, 5432, "league")
    if "/" in password:
        with pytest.raises(BadUrl) as err:
            parse(written)
        assert not leaked(str(err.value), password), str(err.value)
        assert ("the password has a '/' (write it as %2F)" in str(err.value)
                or "an '@' after the first '/'" in str(err.value)), str(err.value)
    else:       # the friendly reading: `%` that is no escape, `@`, `:`, `?`, `#`, a space as written
        target = parse(written)
        assert target.params == {"user": "doodle", "password": password, "host": "127.0.0.1", "port": "5432",
                                 "dbname": "league"}
        assert target.shown == "postgresql://doodle@127.0.0.1:5432/league"
    encoded = parse(url("doodle", password, 5432, "league", encoded=True))
    assert encoded.params["password"] == password and encoded.shown == "postgresql://doodle@127.0.0.1:5432/league"
    for u in (written, url("doodle", password, 5432, "league", encoded=True)):
        assert not leaked(shown(u), password), shown(u)


def test_the_url_is_handed_on_as_libpq_takes_it():
    t = parse("postgres://ann@h1:5433,[::1]:5434/lea%67ue?sslmode=require&options=-csearch_path%3Dleague&ssl=true")
    assert t.params == {"user": "ann", "host": "h1,::1", "port": "5433,5434", "dbname": "league",
                        "sslmode": "require", "options": "-csearch_path=league"}
    assert t.shown == "postgres://ann@h1:5433,[::1]:5434/lea%67ue"
    t = parse("postgresql://ann@club.example/league?password=50%off")
    assert t.params["password"] == "50%off" and t.scrub("it was 50%off and 50%25off") == "it was *** and ***"
    assert parse("postgresql:///league?host=/run/postgresql").params == {"dbname": "league",
                                                                         "host": "/run/postgresql"}
    for bad, says in [("postgresql://ann:pw@h:S432/x", "the port 'S432' is not a number"),
                      ("postgresql://ann:secret/league", "the port is not a number"),    # no @HOST: not shown
                      ("postgres://ann@[::1/x", "an IPv6 address without its ']'"),
                      ("postgresql://ann:pw@h/league?sslmode", "a parameter after '?' has no '='"),
                      ("postgresql://ann:p%00w@h/league", "PostgreSQL takes no NUL character"),
                      ("postgresql://ann:secret\udcff@h/league", "a byte in it is not UTF-8")]:   # argv's bytes
        with pytest.raises(BadUrl) as err:
            parse(bad)
        assert says in str(err.value) and "secret" not in str(err.value), str(err.value)


def test_what_libpq_says_is_scrubbed_of_every_form_of_the_password():
    for password in PASSWORDS:
        target = parse(url("doodle", password, 5432, "league", encoded=True))
        said = (f"failed: {password} / {quote(password, safe='')} / {quote(password)} / "
                f"doodle:{quote(password, safe='')} / nothing else")
        assert not leaked(target.scrub(said), password), target.scrub(said)
        assert target.scrub(said).endswith("nothing else")


# -- every command, against a real server ---------------------------------------------------------
def _in_process(argv: list[str], capfd, env: dict[str, str] | None = None) -> tuple[int, str]:
    """`doodlebox ARGV` by main() in this process: its exit code and all it printed (a traceback
    too, as Python would print it)."""
    from doodlebox.cli import main

    before = dict(os.environ)
    os.environ.update(env or {})
    try:
        code = main(argv)
    except SystemExit as exc:         # argparse
        code = exc.code if isinstance(exc.code, int) else 2
    except BaseException:
        print(traceback.format_exc(), file=sys.stderr)
        code = -1
    finally:
        os.environ.clear()
        os.environ.update(before)
    out, err = capfd.readouterr()
    return code, out + err


def _commands(u: str, tmp: Path, port: str, state: str, venue: Path) -> list[tuple[str, list[str], dict[str, str]]]:
    """(name, argv, environment) of every command that takes --db or --to, run in this process:
    the ones that end by themselves, and log (its console on `port` never answers: it ends
    after --wait), web and demo where they cannot open the database (they end at once)."""
    league = tmp / "league.sqlite3"
    out = [
        ("games", ["games", "--db", u], {}),
        ("import", ["import", RECORD, "--db", u], {}),
        ("show", ["show", "1", "--db", u], {}),
        ("names", ["names", "1", "Ann", "Ben", "Cy", "--db", u], {}),
        ("export", ["export", "1", "-o", str(tmp / "game.json"), "--db", u], {}),
        ("export --csv", ["export", "all", "--csv", "-o", str(tmp / "games.csv"), "--db", u], {}),
        ("stats", ["stats", "--db", u], {}),
        ("people", ["people", "--db", u], {}),
        ("league", ["league", "--db", u], {}),
        ("analyse", ["analyse", "99", "--db", u], {}),       # no game 99: the search is not what is tested
        ("hint", ["hint", "--budget", "0.01", "--db", u], {}),
        ("sync --db", ["sync", "--db", u, "--to", str(league)], {}),
        ("sync --to", ["sync", "--db", str(venue), "--to", u], {}),
        ("DOODLEBOX_DB", ["games"], {"DOODLEBOX_DB": u}),
        ("log", ["log", "--port", port, "--wait", "0.3", "--db", u], {}),
    ]
    if not state.startswith("right"):
        out += [("web", ["web", "--port", "0", "--db", u], {}),
                ("demo", ["demo", "--cpython", "--players", "1", "--db", u], {})]
    return out


def _running(name: str, u: str, tmp: Path) -> tuple[int, str]:
    """web or demo with the database open, as its own process: what it printed until its first
    line that names the database, then Ctrl-C (they would run on)."""
    env = dict(cli_run.ENV, XDG_DATA_HOME=str(tmp / "data"), PYTHONUNBUFFERED="1")
    argv = {"web": ["web", "--port", "0", "--db", u],
            "demo": ["demo", "--cpython", "--players", "1", "--press-ms", "20", "--gap-ms", "20", "--db", u]}[name]
    until = {"web": "web: http", "demo": "its games go to"}[name]
    proc = subprocess.Popen([sys.executable, "-m", "doodlebox.cli", *argv], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, env=env, stdin=subprocess.DEVNULL)
    lines: list[str] = []
    try:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.append(line)
            if until in line:
                proc.send_signal(signal.SIGINT)
                break
        rest, _ = proc.communicate(timeout=60)
        lines.append(rest or "")
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    return proc.returncode, "".join(lines)


@pytest.mark.slow
def test_no_command_shows_any_part_of_the_password(pg_server, tmp_path, capfd):
    """Issue 32: each password, as written and percent-encoded, through every command that takes
    --db or --to, with the right password, a wrong one and no server."""
    from psycopg import sql

    from doodlebox.store import Store
    from doodlebox.virtual.pty_port import PtyPort

    Store(tmp_path / "venue.sqlite3").close()
    down = free_port()
    users = {pw: f"sweep{k}" for k, pw in enumerate(PASSWORDS)}
    users[PLAIN] = "sweepplain"
    with pg_server.admin() as admin:
        for pw, user in users.items():
            admin.execute(sql.SQL("CREATE ROLE {} LOGIN PASSWORD {}").format(sql.Identifier(user), sql.Literal(pw)))
            admin.execute(sql.SQL("CREATE DATABASE {} OWNER {}").format(sql.Identifier(user), sql.Identifier(user)))
        admin.execute(sql.SQL("CREATE ROLE sweepwrong LOGIN PASSWORD {}").format(sql.Literal(OTHER)))

    def cases(pw: str) -> list[tuple[str, str]]:
        """(state, URL) for one password: the right one (as written, and encoded), a wrong one
        (the user's password is OTHER), no server."""
        user = users[pw]
        return [("right", url(user, pw, pg_server.port, user)),
                ("right, encoded", url(user, pw, pg_server.port, user, encoded=True)),
                ("wrong", url("sweepwrong", pw, pg_server.port, "sweepwrong")),
                ("wrong, encoded", url("sweepwrong", pw, pg_server.port, "sweepwrong", encoded=True)),
                ("no server", url(users[pw], pw, down, users[pw]))]

    said: dict[tuple[str, str, str], tuple[int, str]] = {}      # (password, state, command) -> (code, text)
    pty = PtyPort()          # log's console, which never answers
    try:
        for pw in [PLAIN, *PASSWORDS]:
            folder = tmp_path / users[pw]
            folder.mkdir()
            for state, u in cases(pw):
                for name, argv, env in _commands(u, folder, pty.path, state, tmp_path / "venue.sqlite3"):
                    said[(pw, state, name)] = _in_process(argv, capfd, dict(env, XDG_DATA_HOME=str(folder)))
                    pty.read(1 << 16)
    finally:
        pty.close()
    # the right password, as written (and encoded, where as written it cannot connect: a `/`)
    running = [(pw, state, name, u) for pw in [PLAIN, *PASSWORDS] for state, u in cases(pw)
               if state == "right" or (state == "right, encoded" and "/" in pw) for name in ("web", "demo")]
    with ThreadPoolExecutor(max_workers=3) as pool:
        done = pool.map(lambda run: _running(run[2], run[3], tmp_path / users[run[0]]), running)
        for (pw, state, name, _), result in zip(running, done):
            said[(pw, state, name)] = result

    found = []
    for (pw, state, name), (code, text) in said.items():
        if pw == PLAIN:
            continue
        plain = said.get((PLAIN, state, name), said[(PLAIN, "right", name)])[1]
        parts_shown = leaked(text, pw, plain)
        if parts_shown or "Traceback" in text:
            found.append(f"{name} ({state}) with {pw!r}: exit {code}, {sorted(parts_shown)}:\n{text[-1500:]}")
    assert not found, "\n\n".join(found)

    # the commands did their work with the plain password; the friendly reading connects: every
    # password but one with a `/` as written
    assert all(said[(PLAIN, "right", name)][0] == 0 for name in ("games", "import", "show", "names", "stats")), said
    for pw in PASSWORDS:
        code, text = said[(pw, "right", "games")]
        if "/" in pw:
            assert code == 2 and len(text.strip().splitlines()) == 1, text
        else:
            assert code == 0, text
        assert said[(pw, "right, encoded", "games")][0] == 0, said[(pw, "right, encoded", "games")]
        assert said[(pw, "right", "web")][1].count("web: http") == ("/" not in pw), said[(pw, "right", "web")]
        code, text = said[(pw, "wrong", "games")]
        assert code == 2 and ("refuses the user or the password" in text or "/" in pw), text
        assert "cannot reach the PostgreSQL server" in said[(pw, "no server", "games")][1] or "/" in pw
