"""The one base of every error doodlebox reports to a person: one line, and the exit code the
command line returns for it (docs/architecture.md, Errors)."""
from __future__ import annotations


class DoodleboxError(Exception):
    """Something doodlebox cannot do, said in one line a person can act on.

    `exit_code`: 1 when the thing asked for failed (a console that does not answer, a game
    with violations), 2 when the input itself is unusable (a file, an argument, a frame)."""

    exit_code = 1


class InputError(DoodleboxError):
    """Input that cannot be used as what it should be: "where: what is wrong"."""

    exit_code = 2
