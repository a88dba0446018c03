import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "support"))
import house

house.on_path()

# the firmware's `from micropython import const` under CPython (built in on the Pico and in the VM)
from doodlebox.virtual import cpython_micropython  # noqa: E402

cpython_micropython.install()


# ---- the quick tier ---------------------------------------------------------------------------
# `make quick` runs `pytest -m "not slow"`: every test not marked `slow`. A module that is slow
# whole says `pytestmark = pytest.mark.slow`, a slow test `@pytest.mark.slow`: the firmware in the
# MicroPython VM, pseudo-terminals and the link, the browser, `doodlebox` as its own process, a
# PostgreSQL server, the demos, whole random games and playouts, real-time waits.


# ---- a real PostgreSQL server (tests/support/pgserver.py) ------------------------------------------------
# one throwaway cluster per test process (each xdist worker its own), started when a test first
# asks for it and removed at the end; each test gets a new empty database (pg_url)
@pytest.fixture(scope="session")
def pg_server():
    from pgserver import PgServer

    with PgServer() as server:
        yield server


@pytest.fixture
def pg_url(pg_server) -> str:
    """postgresql://doodle:...@127.0.0.1:PORT/test_N: a new empty database, owned by `doodle`."""
    return pg_server.database()


# `make test` runs two test files at a time (pytest-xdist, --dist loadfile --no-loadscope-reorder):
# each worker takes the next file in this order when it is done with one, so the longest go
# first and no long file is left to run alone at the end (seconds on a 2-core machine, roughly)
LONGEST_FIRST = (
    "test_demo",            # 13 games played by the bot, four consoles at a time (~150)
    "test_puzzle_minute",   # the suite's one real minute, and the same minute on the fast clock (~75)
    "test_power_cut", "test_faults", "test_console_record", "test_e2e", "test_flash", "test_web_limits",
    "test_games_cli", "test_power_up_vm", "test_console_puzzle", "test_vm_faults", "test_game_api", "test_web",
    "test_console_record_v4", "test_panel_scores", "test_cli_input", "test_selftest", "test_ports",
    "test_console_bots",    # whole games of every dice edition played by the PC's seats (~70)
)


def pytest_collection_modifyitems(config, items):

    rank = {name: k for k, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(Path(item.nodeid.partition("::")[0]).stem, len(rank)))   # (stable)
