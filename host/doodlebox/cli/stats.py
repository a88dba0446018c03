"""`doodlebox stats`: dice fairness per console, score history per player, win rates per
edition, solo ranks and achievements, over every stored game (host/doodlebox/history/stats.py)."""
from __future__ import annotations

import argparse
from pathlib import Path

from doodlebox.cli.command import Command
from doodlebox.cli.games import db_argument, open_store
from doodlebox.errors import InputError
from doodlebox.history import stats as st


def stats(args: argparse.Namespace) -> int:
    """Exit 0, or 2 when a stored row cannot be read: the statistics of the rest, then one line
    naming the file and each damaged row."""
    out: Path | None = args.plot
    if out is not None and not out.parent.is_dir():
        raise InputError(f"{out}: cannot be written: there is no folder {out.parent}")
    store = open_store(args)
    try:
        found = st.collect(store)
    finally:
        store.close()
    print(st.text(found))
    if out is not None:
        png = st.figure_png(found)
        try:
            out.write_bytes(png)
        except OSError as exc:
            raise InputError(f"{out}: cannot be written ({exc.strerror or exc})") from None
        print(f"\n{out}: the charts ({', '.join(st.TITLES[k].lower() for k in st.PLOTS)}), {len(png)} bytes")
    if found.damaged:
        raise InputError(f"{store.path}: " + "; ".join(found.damaged))
    return 0


def _stats_args(p: argparse.ArgumentParser) -> None:
    db_argument(p)
    p.add_argument("--plot", type=Path, metavar="FILE.png", help="also draw the charts into one PNG")


COMMANDS = (
    Command("stats", "dice fairness per console, scores per player, win rates, solo ranks; --plot draws them",
            stats, _stats_args),
)
