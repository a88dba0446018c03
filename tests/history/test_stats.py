"""doodlebox stats (host/doodlebox/history/stats.py): the chi-square p-value against published table
values, each die's counts from the console's events, a loaded die found, score history, win
rates, solo ranks and achievements, Behave verdicts, and the charts as real PNGs."""
from __future__ import annotations

import io
import itertools
import json
import math
import random
from pathlib import Path

import pytest
from cli_run import doodlebox
from console_events import console_events
from PIL import Image
from randomplay import random_game

from doodlebox.history import stats
from doodlebox.history.stats import chi2_sf
from doodlebox.rules.games import find_game, replay_file
from doodlebox.store import Store

GOLDEN = Path(__file__).resolve().parents[1] / "golden"

# upper-tail critical values of the chi-square distribution (NIST/SEMATECH e-Handbook of
# Statistical Methods, table 1.3.6.7.4), to the table's 3 decimals: (df, P(X >= x), x)
TABLE = [
    (1, 0.10, 2.706), (1, 0.05, 3.841), (1, 0.01, 6.635), (1, 0.001, 10.828),
    (2, 0.10, 4.605), (2, 0.05, 5.991), (2, 0.01, 9.210), (2, 0.001, 13.816),
    (3, 0.05, 7.815), (3, 0.01, 11.345), (4, 0.05, 9.488), (4, 0.01, 13.277),
    (5, 0.90, 1.610), (5, 0.75, 2.675), (5, 0.50, 4.351), (5, 0.10, 9.236), (5, 0.05, 11.070),
    (5, 0.025, 12.833), (5, 0.01, 15.086), (5, 0.001, 20.515),
    (6, 0.05, 12.592), (7, 0.01, 18.475), (9, 0.05, 16.919), (10, 0.05, 18.307), (10, 0.001, 29.588),
    (15, 0.01, 30.578), (30, 0.05, 43.773),
]


@pytest.mark.parametrize("df,p,x", TABLE)
def test_the_p_value_is_the_tables(df, p, x):
    # the table rounds x to 3 decimals: the p-value at x is p within what that rounding moves it
    slope = abs(chi2_sf(x + 0.0005, df) - chi2_sf(x - 0.0005, df))
    assert abs(chi2_sf(x, df) - p) <= slope + 1e-9, (df, p, x, chi2_sf(x, df))


def test_the_p_value_in_closed_forms_and_at_its_ends():
    for x in (0.1, 1.0, 3.3, 10.0, 50.0):
        assert chi2_sf(x, 2) == pytest.approx(math.exp(-x / 2), rel=1e-12)
        assert chi2_sf(x, 1) == pytest.approx(math.erfc(math.sqrt(x / 2)), rel=1e-12)
        assert chi2_sf(x, 4) == pytest.approx(math.exp(-x / 2) * (1 + x / 2), rel=1e-12)
    assert chi2_sf(0, 5) == chi2_sf(-1, 5) == 1.0
    assert chi2_sf(400, 5) < 1e-80
    xs = [k / 4 for k in range(200)]
    assert all(chi2_sf(a, 5) >= chi2_sf(b, 5) for a, b in itertools.pairwise(xs))    # a tail: never grows
    with pytest.raises(ValueError):
        chi2_sf(3.0, 0)


def _store_dice(store: Store, uid: str, rolls: list[tuple[int, list[int]]], boot: int = 1) -> None:
    """A game's `start` roads and rolls as a console of `uid` sends them."""
    events = [{"k": "game", "g": 1, "ed": "city", "n": 2, "var": ""}]
    events += [{"k": "start", "g": 1, "col": c, "d": d} for c, d in enumerate((1, 2, 3, 4, 5), start=1)]
    events += [{"k": "roll", "g": 1, "r": r, "sp": 0, "c": c, "w": w} for r, (c, w) in enumerate(rolls, start=1)]
    for seq, e in enumerate(events, start=1):
        assert store.append(uid, boot, seq, e).status == "stored"


def test_each_die_of_each_console_is_counted_and_tested(tmp_path):
    store = Store(tmp_path / "g.sqlite3")
    _store_dice(store, "a1", [(6, [1, 2, 3]), (6, [1, 5, 3]), (2, [6, 6, 6])])
    _store_dice(store, "b2", [(3, [4, 4, 4])])
    tests = {(t.console, t.die): t for t in stats.dice_tests(store)}
    assert list(tests) == [("a1", "column"), ("a1", "white 1"), ("a1", "white 2"), ("a1", "white 3"),
                           ("b2", "column"), ("b2", "white 1"), ("b2", "white 2"), ("b2", "white 3")]
    assert tests[("a1", "column")].counts == [1, 2, 1, 1, 1, 2]       # the start roads 1..5, then 6, 6, 2
    assert tests[("a1", "white 2")].counts == [0, 1, 0, 0, 1, 1]
    assert tests[("b2", "white 3")].counts == [0, 0, 0, 1, 0, 0]
    t = tests[("a1", "column")]
    e = 8 / 6
    assert t.rolls == 8 and t.chi2 == pytest.approx(sum((c - e) ** 2 / e for c in t.counts))
    assert t.p == pytest.approx(chi2_sf(t.chi2, 5)) and not t.enough


def test_a_console_whose_flash_was_wiped_rolls_the_same_dice(tmp_path):
    """docs/protocol.md: a wiped flash adds 8 hex digits of its own to the board's id; the dice
    are the board's, counted together (docs/stored-games.md)."""
    store = Store(tmp_path / "g.sqlite3")
    board = "d00d1eb000000001"
    _store_dice(store, board, [(6, [1, 2, 3])])
    _store_dice(store, board + "0badf00d", [(6, [1, 2, 3])])
    _store_dice(store, "d00d1eb000000002" + "0badf00d", [(1, [1, 1, 1])])
    tests = {(t.console, t.die): t for t in stats.dice_tests(store)}
    assert sorted({c for c, _ in tests}) == [board, "d00d1eb000000002"]
    assert tests[(board, "column")].counts == [2, 2, 2, 2, 2, 2] and tests[(board, "white 3")].rolls == 2


def test_a_loaded_die_is_found_and_fair_ones_are_not(tmp_path):
    rng = random.Random(12)
    store = Store(tmp_path / "g.sqlite3")
    # the column die fair, white 1 loaded towards 6 (half its rolls), white 2 fair
    rolls = [(rng.randint(1, 6), [6 if rng.random() < 0.5 else rng.randint(1, 6), rng.randint(1, 6)])
             for _ in range(600)]
    _store_dice(store, "c0ffee", rolls)
    tests = {t.die: t for t in stats.dice_tests(store)}
    assert tests["white 1"].p < 1e-6 and tests["white 1"].enough
    assert tests["column"].p > 0.01 and tests["white 2"].p > 0.01
    text = stats.text(stats.collect(store))
    line = next(line for line in text.splitlines() if line.strip().startswith("white 1"))
    assert line.endswith("unlikely to be fair")
    assert "unlikely" not in next(line for line in text.splitlines() if line.strip().startswith("white 2"))


def _import(store: Store, name: str, names: list[str] | None = None, when: float = 0.0) -> int:
    data = json.loads((GOLDEN / name).read_text())
    if names:
        data["players"] = names
    return store.add_imported([(data, 0, name, when)])[0]


def test_history_win_rates_solo_ranks_and_behave(tmp_path):
    store = Store(tmp_path / "g.sqlite3")
    _import(store, "suzhou-bonuses.json", when=1.0)                              # Li 46, Mei 32, Tao 26
    _import(store, "suzhou-bonuses.json", ["Tao", "Li", "Mei"], when=2.0)        # Tao wins this one
    _import(store, "treasures-shared.json", when=3.0)
    _import(store, "city-solo.json", when=4.0)
    _import(store, "puzzle-behave.json", when=5.0)
    _import(store, "deadly-solo.json", when=6.0)
    state = random_game(find_game("city"), 2, 2)                                # a console game, named
    for seq, e in enumerate(console_events(state), start=1):
        store.append("c0ffee", 1, seq, e)
    store.set_names(store.find("last"), ["Li", "Zoe"])
    st = stats.collect(store)
    assert (st.games, st.counted, st.left_out) == (7, 7, [])
    hist = st.history()
    assert [(p.game, p.total) for p in hist["Li"]] == [(1, 46), (2, 32), (7, state.scores()[0])]
    assert [p.total for p in hist["Tao"]] == [26, 46]
    rates = st.win_rates()
    assert rates["suzhou"] == {"Li": (1, 2), "Mei": (0, 2), "Tao": (1, 2)}
    rp, _ = replay_file(GOLDEN / "treasures-shared.json")
    names = rp.record.players
    assert rates["treasures"] == {n: (int(p in rp.state.result().winners), 1) for p, n in enumerate(names)}
    city_won = state.result().winners
    assert rates["city"] == {"Li": (int(0 in city_won), 1), "Zoe": (int(1 in city_won), 1)}
    solo = {s.edition: s for s in st.solo}
    assert (solo["city"].name, solo["city"].total, solo["city"].rank, solo["city"].achievements) == \
        ("Sol", 67, "Landlord", ["Environmentalist"])
    deadly, _ = replay_file(GOLDEN / "deadly-solo.json")
    assert (solo["deadly"].rank, solo["deadly"].total) == ("", deadly.state.scores()[0])
    ((gid, _, points, verdict),) = st.behave
    rp, _ = replay_file(GOLDEN / "puzzle-behave.json")
    assert (gid, points, verdict) == (5, rp.state.result().shared.total, rp.state.result().verdict)
    text = stats.text(st)
    assert "suzhou: Li 1/2 (50%), Tao 1/2 (50%), Mei 0/2 (0%)" in text
    assert "city: Sol 67, rank Landlord; achievements: Environmentalist" in text
    assert "achievements reached: Environmentalist" in text and verdict in text


def _png_ok(data: bytes, width: int) -> None:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    with Image.open(io.BytesIO(data)) as im:
        im.load()
        assert im.format == "PNG" and im.width >= width
        colours = im.convert("RGB").getcolors(maxcolors=1 << 20)
    assert colours is not None and len(colours) > 20


@pytest.mark.slow
def test_every_plot_is_a_png_with_content_and_the_figure_holds_them(tmp_path):
    store = Store(tmp_path / "g.sqlite3")
    _store_dice(store, "c0ffee", [(random.Random(k).randint(1, 6), [1 + k % 6, 2, 3]) for k in range(40)])
    _import(store, "suzhou-bonuses.json")
    _import(store, "city-solo.json")
    st = stats.collect(store)
    for which in stats.PLOTS:
        _png_ok(stats.plot_png(st, which), 600)
    whole = stats.figure_png(st)
    _png_ok(whole, 1200)
    with pytest.raises(ValueError):
        stats.plot_png(st, "pie")
    # with nothing stored, each chart says so, and is still a picture
    empty = stats.collect(Store(tmp_path / "empty.sqlite3"))
    assert "no dice rolled on a console yet" in stats.text(empty)
    for which in stats.PLOTS:
        assert stats.plot_png(empty, which)[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.slow
def test_stats_plot_from_the_command_line(tmp_path):
    db = tmp_path / "g.sqlite3"
    store = Store(db)
    _import(store, "suzhou-bonuses.json")
    store.close()
    out = tmp_path / "s.png"
    r = doodlebox("stats", "--db", str(db), "--plot", str(out))
    assert r.returncode == 0 and r.stderr == "", r.stderr
    assert f"{out}: the charts" in r.stdout and "suzhou: Li 1/1 (100%)" in r.stdout
    _png_ok(out.read_bytes(), 1200)
    r = doodlebox("stats", "--db", str(db), "--plot", str(tmp_path / "no" / "s.png"))
    assert r.returncode == 2 and len(r.stderr.splitlines()) == 1 and "there is no folder" in r.stderr


def test_two_consoles_of_one_board_are_told_apart_by_their_uids(tmp_path):
    """Issue 20: two virtual consoles (one board id, each flash its own 8 digits) printed alike as
    "console d00d1eb000000001": the board's dice are counted together, and each uid is named with
    its games."""
    store = Store(tmp_path / "g.sqlite3")
    board = "d00d1eb000000001"
    _store_dice(store, board + "001c1c09", [(6, [1, 2, 3])])
    _store_dice(store, board + "0badf00d", [(6, [1, 2, 3])])
    text = stats.text(stats.collect(store))
    assert f"  console {board}: uids {board}001c1c09 (1 game), {board}0badf00d (1 game)" in text.splitlines()
    assert sum(line.startswith("  console ") for line in text.splitlines()) == 1
