"""The coach's numbers add up (issue 36; docs/coach.md, "The analysis"): one measure per table,
named in its header (the expected final points solo, the expected final margin over the best
other player with others: what the search decides by), and on every row of every game of
tests/golden/ the loss is the best's value minus the played move's as printed, never negative,
and the best never below the played move. The page's JSON (web/coach.analysis) and its chart
carry the table's numbers.

The tables are made with a tiny time budget (the invariants hold whatever the search's noise),
or with one playout a plan and a fixed seed where two analyses must give the same numbers."""
from __future__ import annotations

import json
import re
from html import escape
from pathlib import Path

import pytest

from doodlebox.cli import main
from doodlebox.cli.analyse import text
from doodlebox.coach import analysis
from doodlebox.rules.games import replay_file
from doodlebox.web import coach

pytestmark = pytest.mark.slow      # (tests/conftest.py: the quick tier)

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
ANALYSED = sorted(p.name for p in GOLDEN.glob("*.json") if not p.name.startswith("puzzle"))
DICE = [n for n in ANALYSED if not n.startswith("deadly")]
BUDGET = 0.01            # s a decision: at least one playout a plan is always made
HEADER = {"points": "measure: points, the expected final points, ",
          "margin": "measure: margin, the expected final margin over the best other player "}


def tables(out: str) -> tuple[str, dict[int, list[dict]]]:
    """`doodlebox analyse`'s text: (the measure its header names, each player's rows as
    {played, played_value, best, best_value, lost, mark} with the numbers as printed)."""
    lines = out.splitlines()
    named = [m for m, head in HEADER.items() if lines[1].startswith(head)]
    assert len(named) == 1, lines[1]
    m = named[0]
    assert "lost = best - played on it" in lines[1], lines[1]
    rows: dict[int, list[dict]] = {}
    player = -1
    for line in lines[2:]:
        if re.match(r"P\d+\b.*: final ", line):
            player = int(line[1:].split()[0].rstrip(":")) - 1
            rows[player] = []
            continue
        cells = re.split(r"\s{2,}", line.strip())
        if cells[0] == "turn":
            assert cells == ["turn", "round", "roll", "played", m, "best", m, "lost", "mark"], line
            continue
        if player < 0 or not cells[0].isdigit():
            continue
        assert len(cells) in (8, 9), line
        played, best = cells[3], (cells[3] if cells[5] == "=" else cells[5])
        rows[player].append({"round": int(cells[1]), "played": played, "played_value": cells[4], "best": best,
                             "best_value": cells[6], "lost": cells[7], "mark": cells[8] if len(cells) == 9 else ""})
    return m, rows


def check_row(row: dict, measure: str) -> None:
    """lost = best - played as printed, >= 0; best >= played; a margin signed, points not; the mark
    by the loss shown."""
    played, best, lost = float(row["played_value"]), float(row["best_value"]), float(row["lost"])
    assert lost == round(best - played, 1) >= 0, row
    assert best >= played, row
    for cell in (row["played_value"], row["best_value"]):
        assert re.fullmatch(r"[+-]\d+\.\d" if measure == "margin" else r"-?\d+\.\d", cell), row
    assert row["mark"] in ("forced", analysis.mark(lost)), row


def check_turn(t: dict) -> None:
    """A JSON turn: the same arithmetic."""
    assert t["lost"] == round(t["best_value"] - t["played_value"], 1) >= 0, t
    assert t["best_value"] >= t["played_value"], t
    assert t["mark"] == analysis.mark(t["lost"]), t
    if t["lost"] == 0:
        assert t["best"] == t["played"], t     # a played move valued as high as the best is the best


def check_agree(rows: dict[int, list[dict]], turns: list[dict], m: str) -> None:
    """A table's rows and the JSON's turns: the same moves and numbers, row by row."""
    for p, mine in rows.items():
        theirs = [t for t in turns if t["player"] == p]
        assert len(theirs) == len(mine)
        for t, row in zip(theirs, mine):
            assert (t["round"], t["played"], t["best"]) == (row["round"], row["played"], row["best"])
            assert analysis.value_text(t["played_value"], m) == row["played_value"], (t, row)
            assert analysis.value_text(t["best_value"], m) == row["best_value"], (t, row)
            assert f"{t['lost']:.1f}" == row["lost"], (t, row)
    assert sum(len(r) for r in rows.values()) == len(turns)


def check_page(data: dict, m: str) -> None:
    """The page's JSON and chart: the measure named, the losses listed and the chart's dots say
    the table's numbers."""
    assert data["analysed"] and data["measure"] == m and data["measure_text"] == analysis.MEASURES[m]
    svg = coach.chart_svg(data)
    assert f"<title>{escape(analysis.MEASURES[m])}, after each turn</title>" in svg
    assert data["losses"] == [dict(t, name=data["players"][t["player"]]) for t in data["turns"]
                              if t["mark"] in coach.BIG]
    for t in data["losses"]:
        said = (f"{m} {analysis.value_text(t['played_value'], m)}, best {analysis.value_text(t['best_value'], m)}, "
                f"lost {t['lost']:.1f}")
        assert said in svg, (said, t)


@pytest.mark.parametrize("name", ANALYSED)
def test_every_row_loses_the_best_minus_the_played_on_the_measure_named(name):
    """Each golden record (the dice editions and Deadly Doodles; Doodle Puzzle has no moves)
    analysed once with a tiny budget: `doodlebox analyse`'s table (cli.analyse.text), its --json
    (as_json) and, for a dice game, the page's JSON (web/coach.page) and chart."""
    rp, game = replay_file(GOLDEN / name)
    a = analysis.analyse(rp, game.name, budget_s=BUDGET, hindsight_s=0)
    m, rows = tables(text(a, name))
    assert m == ("points" if len(rp.record.players) == 1 else "margin")
    assert sum(len(r) for r in rows.values()) > 0
    for r in rows.values():
        for row in r:
            check_row(row, m)
    data = a.as_json()
    assert data["measure"] == m and data["measure_text"] == analysis.MEASURES[m]
    for t in data["turns"]:
        check_turn(t)
    check_agree(rows, data["turns"], m)
    if not name.startswith("deadly"):        # the page's coach: the dice editions
        check_page(coach.page(a), m)


@pytest.mark.parametrize("name", ["city-solo.json", "shanghai-ring.json"])
def test_the_command_prints_the_measure_and_its_numbers(name, capsys):
    """`doodlebox analyse` itself, text and --json (solo: points; 2 players: the margin)."""
    path = str(GOLDEN / name)
    assert main(["analyse", path, "--budget", str(BUDGET), "--hindsight", "0"]) == 0
    m, rows = tables(capsys.readouterr().out)
    assert m == ("points" if name == "city-solo.json" else "margin")
    for r in rows.values():
        for row in r:
            check_row(row, m)
    assert main(["analyse", path, "--budget", str(BUDGET), "--hindsight", "0", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["measure"] == m and data["turns"]
    for t in data["turns"]:
        check_turn(t)


def test_the_page_reads_the_analysis_the_table_is_made_of():
    """The page's analysis of a record (web/coach.analysis: a fixed number of playouts and seed)
    is the table's of the same analysis, number for number."""
    name = "monsters-kraken.json"
    record = json.loads((GOLDEN / name).read_text())
    data = coach.analysis(record, playouts=1)
    rp, game = replay_file(GOLDEN / name)
    a = analysis.analyse(rp, game.name, playouts=1, hindsight_s=0)
    assert {**data, "seconds": 0} == {**coach.page(a), "seconds": 0}
    m, rows = tables(text(a, name))
    check_agree(rows, data["turns"], m)
    check_page(data, m)


def test_a_played_move_valued_as_high_as_the_best_is_the_best():
    """On the search's own evaluation of the same playouts: the best is never below the played
    move, and a played move that loses nothing is named the best (city-hotel15, every turn of
    its first rounds; 3 players: the margin)."""
    rp, _ = replay_file(GOLDEN / "city-hotel15.json")
    for k, (before, who, played, circled) in enumerate(analysis.turns_of(rp.state)[:12]):
        d = analysis.decide(before, who, played, circled, seed=k, playouts=2)
        assert d.played is not None
        assert d.lost == pytest.approx(d.best.value - d.played.value) and d.lost >= 0
        if d.lost == 0:
            assert d.best is d.played, (k, d.best.text, d.played.text)
