"""A command of the doodlebox CLI as data (mpremote's command table): its name, its help, the
arguments it takes and the function that runs it, or the subcommands it groups."""
from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass, field

Run = Callable[[argparse.Namespace], int]


def _no_arguments(parser: argparse.ArgumentParser) -> None:
    pass


@dataclass(frozen=True)
class Command:
    name: str
    help: str
    run: Run | None = None                          # None for a group that needs a subcommand
    arguments: Callable[[argparse.ArgumentParser], None] = _no_arguments
    subcommands: tuple[Command, ...] = field(default=())

    def add_to(self, sub: argparse._SubParsersAction, depth: int = 0) -> None:
        """Add this command (and its subcommands) to an argparse subparsers object."""
        p = sub.add_parser(self.name, help=self.help, description=self.help)
        self.arguments(p)
        if self.subcommands:   # a group with its own run runs it when no subcommand is named
            inner = p.add_subparsers(dest=f"command{depth + 1}", required=self.run is None, metavar="COMMAND")
            for c in self.subcommands:
                c.add_to(inner, depth + 1)
        if self.run is not None:
            p.set_defaults(run=self.run)
