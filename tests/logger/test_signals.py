"""SIGTERM, SIGHUP and SIGQUIT end `doodlebox log` as Ctrl-C does (issue 18): it stops reading,
commits and acknowledges what it read, prints its summary line and exits with 128 + the
signal's number; nothing the console saw acknowledged is missing from the database."""
from __future__ import annotations

import random
import re
import signal

import pytest
from faults import Logger, Stream, console_for

pytestmark = pytest.mark.slow      # (tests/conftest.py: the quick tier)


@pytest.mark.parametrize("signame", ["SIGTERM", "SIGHUP", "SIGQUIT", "SIGINT"])
def test_a_signal_ends_the_logger_with_its_summary(tmp_path, signame):
    signum = getattr(signal, signame)
    console = console_for(tmp_path)
    db = tmp_path / "games.sqlite3"
    logger = Logger(console.path, db, tmp_path / "log.txt").start()
    try:
        logger.wait_connected(console)
        stream = Stream(console, random.Random(signum))
        stream.run(0.4)                                    # mid-stream: events in flight
        assert logger.proc is not None
        logger.proc.send_signal(signum)
        assert console.run_until(lambda: not logger.running(), 20)
        code = logger.proc.wait()
    finally:
        logger.stop()
        console.pull()
    text = logger.text()
    assert code == 128 + signum, text
    assert "Traceback" not in text
    (summary,) = re.findall(r"^stored (\d+) event\(s\); 0 duplicate\(s\) ignored; 0 bad frame\(s\)$", text, re.M)
    got = console.check(db)
    assert int(summary) == got["stored"] > 0                  # what it says it stored is in the file
    assert console.acked_not_stored(db) == 0
    assert ("stopped\n" if signame == "SIGINT" else f"stopped by {signame}\n") in text
