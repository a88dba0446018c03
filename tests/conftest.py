import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
for p in (ROOT / "host", ROOT / "firmware"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

# the firmware's `from micropython import const` under CPython (built in on the Pico and in the VM)
from doodlebox.virtual import cpython_micropython  # noqa: E402

cpython_micropython.install()


# ---- the quick tier ---------------------------------------------------------------------------
# `make quick` runs `pytest -m "not slow"`: the fast unit tests of every area (rules, records,
# store, link frames, the firmware's modules under CPython). These are the slow ones, marked
# here rather than in each file: the firmware in the MicroPython VM, pseudo-terminals and the
# link, the browser, `doodlebox` as its own process, the demos and real-time waits. `make test`
# runs everything. A module named here is slow whole; a "module::test" only that test.
SLOW = {
    # the firmware in the VM, a pty, the link, the bot: whole modules
    "test_demo", "test_e2e", "test_faults", "test_firmware_update", "test_firmware_vm", "test_flash",
    "test_heap", "test_log_faults", "test_panel_scores", "test_ports", "test_power_cut", "test_power_cuts",
    "test_power_up_vm", "test_press_timing", "test_puzzle_minute", "test_repl", "test_replug_vm",
    "test_signals", "test_vm_faults", "test_wav", "test_web", "test_web_limits", "test_web_coach",
    # the type checkers and linters over the tree (make check), mpy-cross
    "test_checks", "test_firmware_types", "test_firmware_build",
    # `doodlebox` as its own process, the page's server, the panel's driver in the VM
    "test_cli", "test_cli_input", "test_games_cli", "test_ssd1680", "test_web_server", "test_web_league",
    # the coach's searches over whole games (playouts)
    "test_analyse",
    # the store on a real PostgreSQL server (tests/pgserver.py): a cluster started, connections killed
    "test_store_postgres",
    # issue 32: `doodlebox log` as its own process under a server stopped and a database dropped;
    # every command that takes --db or --to, with odd passwords, against a server
    "test_postgres_faults", "test_postgres_password::test_no_command_shows_any_part_of_the_password",
    # `make bench`'s club harness: fake consoles on ptys, `doodlebox log` as its own process, a PostgreSQL server
    "test_bench_club",
    # single tests: the VM, a pty, a process of its own, whole random games and playouts
    "test_selftest::test_self_test_on_the_virtual_console",
    "test_selftest::test_doodlebox_log_connects_during_the_self_test_and_shows_it",
    "test_console_puzzle::test_the_same_game_in_the_vm",
    "test_console_puzzle::test_random_games_agree_with_the_engine",
    "test_console_deadly::test_a_whole_game_in_the_vm_sends_the_same_events",
    "test_console_hint::test_the_chord_in_a_city_game_on_the_virtual_console_shows_the_pcs_hint",
    "test_console_bots::test_the_pcs_seats_play_a_city_game_on_the_virtual_console",
    "test_console_bots::test_the_pc_plays_whole_games_of_every_dice_edition_and_the_record_is_valid",
    "test_console_record::test_random_games_round_trip_through_the_console_log",
    "test_console_record::test_export_writes_a_record_that_validate_score_and_render_read",
    "test_console_record::test_export_of_a_broken_game_an_unknown_one_or_an_empty_database_is_one_line_and_exit_2",
    "test_console_record_v4::test_export_then_validate_score_and_render_for_both_games",
    "test_console_record_v4::test_puzzle_games_round_trip_through_the_console_log",
    "test_console_record_v4::test_deadly_games_round_trip_through_the_console_log",
    "test_game_api::test_a_refused_action_changes_nothing_and_says_why",
    "test_game_api::test_random_playouts_keep_the_invariants_after_every_action",
    "test_rules::test_check_refuses_exactly_what_legal_actions_leaves_out",
    "test_golden_violations::test_an_unreadable_record_is_one_line_with_the_file_and_the_place",
    "test_golden_deadly::test_golden_games_through_the_command_line",
    "test_golden_6x6::test_cli_validate_agrees",
    "test_damage::test_a_bit_flipped_in_an_event_through_the_real_command",
    "test_damage::test_a_full_stdout_is_one_line",
    "test_damage::test_bits_flipped_anywhere_never_make_a_traceback",
    "test_stats::test_every_plot_is_a_png_with_content_and_the_figure_holds_them",
    "test_stats::test_stats_plot_from_the_command_line",
    "test_livegame::test_the_link_thread_sends_the_pcs_scores_after_each_turn_of_the_current_boot",
    "test_timer_tones",
    "test_virtual_console_speed::test_the_cpython_console_runs_ahead_while_idle_and_gives_the_clock_back",
    "test_virtual_console_speed::test_the_console_lays_out_what_compile_tree_makes",
    "test_virtual_console_speed::test_the_vm_is_compiled_once_per_engine",
    "test_many_consoles::test_a_pico_plugged_in_while_logging_is_followed_and_one_replugged_goes_on",
    "test_many_consoles::test_three_consoles_logged_at_once_by_the_command_each_game_under_its_uid_nothing_lost",
    "test_many_consoles::test_three_virtual_consoles_logged_at_once_one_replugged_mid_game",
    "test_many_consoles::test_demo_games_from_three_consoles_at_once_land_in_one_database",
    # people, the league and sync on a real PostgreSQL server, or a sync killed as its own process
    "test_people::test_a_version_3_database_on_postgresql_is_upgraded_as_the_file_is",
    "test_sync::test_a_venue_synced_twice_into_postgresql_is_the_same_games",
    "test_sync::test_a_sync_killed_mid_way_and_started_again_loses_nothing_and_doubles_nothing",
}


# ---- a real PostgreSQL server (tests/pgserver.py) ------------------------------------------------
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


def _slow(nodeid: str) -> bool:
    path, _, rest = nodeid.partition("::")
    module = Path(path).stem
    name = rest.split("[")[0]
    return module in SLOW or f"{module}::{name}" in SLOW


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
    import pytest

    for item in items:
        if _slow(item.nodeid):
            item.add_marker(pytest.mark.slow)
    rank = {name: k for k, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(Path(item.nodeid.partition("::")[0]).stem, len(rank)))   # (stable)
