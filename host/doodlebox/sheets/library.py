"""The library of the table's sheets (docs/sheets.md): the defaults (host/doodlebox/layouts/,
reconstructions) and every sheet added, kept in the user's data folder, `sheets/`: each sheet's
file as given, `NAME.json`, and `library.json` naming them (what each is, where it came from,
when it was added). A sheet is a dice edition's layout (docs/layouts.md) or a Deadly Doodles map
side (docs/deadly-doodles.md); a file is checked as `doodlebox layout check` checks it before it
is added, and refused with every problem and its place."""
from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from doodlebox import paths
from doodlebox.errors import InputError
from doodlebox.rules import datafiles
from doodlebox.rules.common import RecordError, load_json
from doodlebox.rules.deadly import maps
from doodlebox.rules.dice import layout

NAME = re.compile(r"[a-z0-9_-]{1,16}")
INDEX = "library.json"
MAP_FORMAT = "doodlebox-deadly-map/1"
# the defaults by name: a dice edition's sheet by its edition, a map side as deadly-<side>
DEFAULTS: dict[str, Path] = {**{ed: paths.layouts() / f for ed, f in layout.DEFAULT_FILES.items()},
                             **{f"deadly-{side}": paths.layouts() / f for side, f in maps.DEFAULT_FILES.items()}}


class SheetError(InputError):
    """A sheet that cannot be added, found or written: one line (and, for a file with problems,
    every problem with its place), exit 2."""

    def __init__(self, text: str, problems: list[str] | None = None):
        super().__init__(text)
        self.problems = problems or []


@dataclass(frozen=True)
class Sheet:
    """One sheet of the library: `name`, `kind` ("sheet" or "map"), `edition` (the dice edition, or
    "deadly"), `title` (as printed), `hash`, `source` (where it came from), `default`, `path`,
    `data` (the parsed JSON), `problem` (why it cannot be used now; "" when it can)."""

    name: str
    kind: str
    edition: str
    title: str
    hash: str
    source: str
    default: bool
    path: Path
    data: Any
    problem: str = ""

    @property
    def what(self) -> str:
        return "Deadly Doodles map side" if self.kind == "map" else f"{self.edition} sheet"


def sheet_hash(data: Any) -> str:
    """The first 12 hex digits of SHA-256 over the sheet's JSON, keys sorted: the same sheet, the
    same hash, wherever it is."""
    return hashlib.sha256(json.dumps(data, sort_keys=True, separators=(",", ":")).encode()).hexdigest()[:12]


def folder() -> Path:
    return paths.data_dir() / "sheets"


def problems_of(data: Any) -> list[str]:
    """Every problem of a sheet or map side, "place: problem"; [] when it can be used. A deck or
    anything else is no sheet."""
    if isinstance(data, dict) and data.get("format") == "doodlebox-deadly-deck/1":
        return ["format: a Deadly Doodles deck, not a sheet or a map side"]
    _, found = datafiles.check(data)
    return [f"{where}: {text}" for where, text in found]


def _describe(data: dict) -> tuple[str, str, str]:
    """(kind, edition, title) of a sheet that can be used."""
    if data.get("format") == MAP_FORMAT:
        return "map", "deadly", maps.parse(data, "map").name
    lay = layout.parse(data, "layout")
    return "sheet", lay.edition, lay.name


def _index() -> dict[str, dict]:
    path = folder() / INDEX
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError) as exc:
        raise SheetError(f"{path}: cannot be read ({exc}): mend or remove it") from None
    return data if isinstance(data, dict) else {}


def _write_index(index: dict[str, dict]) -> None:
    _atomic(folder() / INDEX, json.dumps(index, indent=1, sort_keys=True) + "\n")


def _atomic(path: Path, text: str) -> None:
    """The file written whole or not at all (a temporary file renamed)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".", suffix=".tmp")
    try:
        with os.fdopen(fd, "w") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _entry(name: str, path: Path, source: str, default: bool) -> Sheet:
    try:
        data = load_json(path)
    except RecordError as exc:
        return Sheet(name, "?", "?", "", "", source, default, path, None, str(exc))
    found = problems_of(data)
    if found:
        return Sheet(name, "?", "?", "", sheet_hash(data), source, default, path, data, found[0])
    kind, edition, title = _describe(data)
    return Sheet(name, kind, edition, title, sheet_hash(data), source, default, path, data)


def sheets() -> list[Sheet]:
    """Every sheet: the defaults, then the ones added by name; a file of the folder that the index
    does not name, or one that no longer reads, is listed with its problem."""
    out = [_entry(name, path, "reconstruction (doodlebox's default)", True) for name, path in DEFAULTS.items()]
    index = _index()
    for name in sorted(index):
        info = index[name]
        out.append(_entry(name, folder() / f"{name}.json",
                          f"{info.get('source', '?')}, added {info.get('added', '?')}", False))
    if folder().is_dir():
        for stray in sorted(folder().glob("*.json")):
            if stray.name not in (INDEX, CHOICES) and stray.stem not in index:
                out.append(Sheet(stray.stem, "?", "?", "", "", "", False, stray, None,
                                 f"not in {INDEX}: add it with `doodlebox sheets add`"))
    return out


def find(name: str) -> Sheet:
    """The sheet named `name`; SheetError when there is none, or it cannot be used."""
    for s in sheets():
        if s.name == name:
            if s.problem:
                raise SheetError(f"sheet {name!r} cannot be used: {s.problem}")
            return s
    raise SheetError(f"no sheet {name!r} (see `doodlebox sheets`)")


def name_for(text: str) -> str:
    """A name a sheet can have, made of `text` (a file's name): lower case, other characters as
    '-', at most 16."""
    made = re.sub(r"[^a-z0-9_-]+", "-", text.lower()).strip("-")[:16].strip("-")
    return made or "sheet"


def add(file: Path, name: str | None = None, replace: bool = False) -> Sheet:
    """The file, checked, added to the library under `name` (default: made from the file's name).
    SheetError with every problem when it cannot be used; for a name taken (unless `replace`, and
    never a default's) or one that is not a name."""
    try:
        data = load_json(file)
    except RecordError as exc:
        raise SheetError(str(exc)) from None
    try:
        return add_data(data, name if name is not None else name_for(file.stem), str(file.resolve()), replace)
    except SheetError as exc:
        if exc.problems:        # each problem said with the file it is in
            raise SheetError(f"{file}: {exc}", [f"{file}: {p}" for p in exc.problems]) from None
        raise


def add_data(data: Any, name: str, source: str, replace: bool = False) -> Sheet:
    """The parsed sheet `data`, checked, added to the library under `name`, from `source` (where it
    came from: a file's path, the page's editor). SheetError with every problem when it cannot be
    used; for a name taken (unless `replace`, and never a default's) or one that is not a name."""
    found = problems_of(data)
    if found:
        raise SheetError(f"{len(found)} problem(s): not added", found)
    if not NAME.fullmatch(name):
        raise SheetError(f"{name!r} is not a sheet's name: 1 to 16 of a-z, 0-9, - and _")
    if name in DEFAULTS:
        raise SheetError(f"{name!r} is a default's name: give the sheet another (--name)")
    if f"{name}.json" in (INDEX, CHOICES):       # the library's own files, beside the sheets'
        raise SheetError(f"{name!r} is the name of the library's own file {name}.json: give the sheet another")
    index = _index()
    if name in index and not replace:
        raise SheetError(f"a sheet {name!r} is in the library already (--replace to replace it)")
    _atomic(folder() / f"{name}.json", json.dumps(data, indent=1) + "\n")
    index[name] = {"source": source, "added": time.strftime("%Y-%m-%d %H:%M")}
    _write_index(index)
    return find(name)


def remove(name: str) -> None:
    if name in DEFAULTS:
        raise SheetError(f"{name!r} is a default: it cannot be removed")
    index = _index()
    if name not in index:
        raise SheetError(f"no sheet {name!r} was added (see `doodlebox sheets`)")
    del index[name]
    _write_index(index)
    (folder() / f"{name}.json").unlink(missing_ok=True)


def export(name: str, out: Path) -> Sheet:
    sheet = find(name)
    if not out.parent.is_dir():
        raise SheetError(f"{out}: cannot be written: there is no folder {out.parent}")
    try:
        out.write_text(json.dumps(sheet.data, indent=1) + "\n")
    except OSError as exc:
        raise SheetError(f"{out}: cannot be written ({exc.strerror or exc})") from None
    return sheet


# -- the table's choices (doodlebox sheets use) ----------------------------------------------------
CHOICES = "table.json"      # {"use": {game: {"name": NAME, "at": seconds}}}: a game absent plays its default


def game_of(sheet: Sheet) -> str:
    """The game a sheet is played in, as the console names it: the dice edition, or "deadly"."""
    return "deadly" if sheet.kind == "map" else sheet.edition


def choices() -> dict[str, tuple[str, int]]:
    """{game: (the sheet's name, when it was chosen)} for each game the table chose a sheet for (a
    default's name: that game's default again); a choice whose sheet is no longer in the library
    is left out (the default is played)."""
    path = folder() / CHOICES
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text())
        use = data["use"]
        names = {s.name for s in sheets() if not s.problem}
        return {game: (c["name"], int(c["at"])) for game, c in use.items() if c["name"] in names}
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise SheetError(f"{path}: cannot be read ({exc}): mend or remove it") from None


def use(name: str, at: int | None = None) -> Sheet:
    """The table plays this sheet in its game from now on (a default's name: that game's default
    again; in Deadly Doodles either default side: the printed sides, chosen in the console's lobby)."""
    sheet = find(name)
    game = game_of(sheet)
    chosen = choices()
    current = {g: {"name": n, "at": t} for g, (n, t) in chosen.items()}
    # each choice later than the ones before (the console takes the newest it has not taken: two
    # made in one second must not look like one)
    latest = max((t for _, t in chosen.values()), default=0)
    current[game] = {"name": name, "at": at or max(int(time.time()), latest + 1)}
    _atomic(folder() / CHOICES, json.dumps({"use": current}, indent=1, sort_keys=True) + "\n")
    return sheet
