"""The sheet editor on the page (`/sheets`; docs/web.md, "The sheet editor", and docs/sheets.md,
"The editor on the page"): a person transcribes a printed sheet or map side by clicking, starting
from a sheet of the library (sheets/library.py); the page's script (static/sheets.js) holds the
sheet being edited and sends it here to be checked as `doodlebox layout check` checks it
(rules/datafiles.py), drawn as `doodlebox sheets print` draws it (the renderers' blank_canvas) and
saved into the library (library.add_data). Above the editor, "Played at this table": the sheet each
game is played on at this table (library.choices()), and a control that chooses another
(library.use, as `doodlebox sheets use NAME` does).

A sheet checked without problems is kept here by its hash (the last KEPT of them, its picture
once drawn) so that the page's <img> can load its picture with a GET: the page's
Content-Security-Policy lets an image come from the page's own paths only."""
from __future__ import annotations

import json
import threading
import time
from collections import OrderedDict
from typing import Any

from doodlebox.errors import InputError
from doodlebox.rules import datafiles
from doodlebox.rules.deadly import maps
from doodlebox.rules.deadly import render as deadly_render
from doodlebox.rules.dice import layout
from doodlebox.rules.dice import render as dice_render
from doodlebox.rules.specs import EDITIONS
from doodlebox.sheets import library
from doodlebox.web import pages
from doodlebox.web.views import NotFound

KEPT = 32          # sheets checked without problems, kept for their pictures
DECK = "doodlebox-deadly-deck/1"

_lock = threading.Lock()          # the sheets kept
_saving = threading.Lock()        # one save or choice at a time: each writes a file of the library's own
_kept: OrderedDict[str, tuple[Any, bytes | None]] = OrderedDict()   # hash -> (sheet, its picture once drawn)


class Taken(InputError):
    """A save under the name of a sheet in the library, without `replace` (the page answers 409 and
    asks before replacing it)."""


def _edition_kinds() -> dict[str, list[str]]:
    """Each dice edition's square kinds, as its default sheet has them (plain first)."""
    out: dict[str, list[str]] = {}
    for edition in layout.DEFAULT_FILES:
        kinds = {s.kind for s in layout.load(edition).squares}
        out[edition] = [k for k in layout.KINDS if k in kinds or k == "plain"]
    return out


def listing() -> dict:
    """The library as the editor lists it (each sheet's name, what it is, edition, title, hash,
    whether it is a default, where it came from, why it cannot be used) and what the editor offers:
    the square kinds (each edition's, from its default), the road pieces, the tracks, the pairs of
    a map side and the names a sheet may have."""
    held = library.sheets()
    rows = [{"name": s.name, "what": s.what if not s.problem else "?", "kind": s.kind, "edition": s.edition,
             "title": s.title, "hash": s.hash, "default": s.default, "source": s.source, "problem": s.problem,
             "readable": s.data is not None} for s in held]
    return {"sheets": rows, "table": table(held),
            "editor": {"kinds": list(layout.KINDS), "edition_kinds": _edition_kinds(), "pieces": list(layout.PIECES),
                       "tracks": list(layout.TRACK_NAMES), "pairs": maps.PAIRS, "defaults": list(library.DEFAULTS),
                       "name": library.NAME.pattern}}


def games() -> list[tuple[str, str, list[str]]]:
    """(game, its name, its defaults' names) of each game played on a sheet of the library, in the
    console lobby's order: the five dice editions (one default each) and Deadly Doodles (its two
    printed map sides, deadly-a and deadly-b: either name chooses the default again)."""
    defaults: dict[str, list[str]] = {}
    for name in library.DEFAULTS:
        defaults.setdefault("deadly" if name not in layout.DEFAULT_FILES else name, []).append(name)
    return [(e.edition, e.name, defaults[e.edition]) for e in EDITIONS if e.edition in defaults]


def table(held: list[library.Sheet] | None = None) -> dict:
    """What the table plays (library.choices(), as `doodlebox log` sends it to a console): {"games":
    [{game, title, name, default, at, chosen, plays, problem, defaults, sheets}], "problem"}. For each
    game: `name` the sheet the table chose (null: none chosen), `default` whether the default is
    played, `at` when it was chosen (seconds; null) and `chosen` that time as text, `plays` what is
    played in words, `problem` a choice that is not what it was (the sheet of that name replaced by
    another game's), `defaults` the default's names (the first chooses the default again), `sheets`
    the library's other sheets of that game that can be used ({name, title, hash}). `problem`: the
    table's file that cannot be read (every game then plays its default)."""
    held = library.sheets() if held is None else held
    problem = ""
    try:
        chosen = library.choices()
    except library.SheetError as exc:
        chosen, problem = {}, str(exc)
    by_name = {s.name: s for s in held if not s.problem}
    out = []
    for game, title, defaults in games():
        name, at = chosen.get(game, (None, None))
        sheet = by_name.get(name) if name is not None else None
        default = sheet is None or sheet.default
        if default:
            plays = ("the default (the printed map sides, A or B, chosen in the console's lobby)" if game == "deadly"
                     else "the default (doodlebox's reconstruction)")
        else:
            assert sheet is not None
            plays = f"{sheet.name} ({sheet.title}, hash {sheet.hash})"
        wrong = "" if sheet is None or library.game_of(sheet) == game else (
            f"{sheet.name} is now a {sheet.what} (replaced since it was chosen): choose again")
        out.append({"game": game, "title": title, "name": name, "default": default, "at": at,
                    "chosen": time.strftime("%Y-%m-%d %H:%M", time.localtime(at)) if at is not None else "",
                    "plays": plays, "problem": wrong, "defaults": defaults,
                    "sheets": [{"name": s.name, "title": s.title, "hash": s.hash} for s in held
                               if not s.default and not s.problem and library.game_of(s) == game]})
    return {"games": out, "problem": problem}


def use(body: dict) -> dict:
    """POST /api/sheets/use {"name": NAME}: the table plays that sheet in its game from now on
    (library.use; a default's name: that game's default again). Refused (InputError: nothing
    changed) for a name that is not one, no sheet of that name in the library, a sheet that cannot
    be used. Answers {game, name, default, plays, table} (`table` as the listing has it)."""
    name = body.get("name")
    if not isinstance(name, str):
        raise InputError('give the sheet as {"name": "our-town"} (a default\'s name: that game\'s default again)')
    if not library.NAME.fullmatch(name):
        raise InputError(f"{name[:40]!r} is not a sheet's name: 1 to 16 of a-z, 0-9, - and _")
    with _saving:
        if not any(s.name == name for s in library.sheets()):
            raise InputError(f"no sheet {name!r} in the library: choose one of the sheets listed (doodlebox sheets)")
        sheet = library.use(name)
        now = table()
    game = library.game_of(sheet)
    row = next(g for g in now["games"] if g["game"] == game)
    return {"game": game, "name": name, "default": sheet.default, "plays": row["plays"], "table": now}


def data_of(name: str) -> Any:
    """The sheet `name`'s data, as its file holds it (one that layout check refuses too: the editor
    can mend it); NotFound when the library has no such sheet, InputError when its file no longer
    reads."""
    for s in library.sheets():
        if s.name == name:
            if s.data is None:
                raise InputError(f"sheet {name!r} cannot be read: {s.problem}")
            return s.data
    raise NotFound(f"no sheet {name!r} in the library")


def problems(data: Any) -> tuple[str, list[tuple[str, str]]]:
    """(what the sheet is, [(place, problem), ...]) as `doodlebox layout check` finds them; a deck
    is no sheet (as the library says)."""
    if isinstance(data, dict) and data.get("format") == DECK:
        return datafiles.KINDS[DECK], [("format", "a Deadly Doodles deck, not a sheet or a map side")]
    return datafiles.check(data)


def check(body: dict) -> dict:
    """POST /api/sheets/check {"data": sheet}: {what, problems: [{place, text}], hash, preview}:
    `preview` the path of its picture, null while it has problems."""
    if "data" not in body:
        raise InputError('give the sheet as {"data": {...}}')
    data = body["data"]
    what, found = problems(data)
    digest = library.sheet_hash(data)
    out = {"what": what, "problems": [{"place": p, "text": t} for p, t in found], "hash": digest, "preview": None}
    if not found:
        with _lock:
            if digest in _kept:
                _kept.move_to_end(digest)
            else:
                _kept[digest] = (json.loads(json.dumps(data)), None)
                while len(_kept) > KEPT:
                    _kept.popitem(last=False)
        out["preview"] = f"/api/sheets/preview/{digest}.png"
    return out


def preview(digest: str) -> bytes:
    """The picture of the sheet checked without problems whose hash is `digest`, drawn as `doodlebox
    sheets print` draws it (at the sheet pictures' size); NotFound when no such sheet was checked
    lately."""
    with _lock:
        found = _kept.get(digest)
    if found is None:
        raise NotFound(f"no sheet with hash {digest} was checked lately without problems: check it again")
    data, png = found
    if png is None:
        if data.get("format") == library.MAP_FORMAT:
            side = maps.parse(data, "the map side")
            head_line, title = f"{side.name} - hash {digest}", side.name
            canvas = deadly_render.blank_canvas(side, head_line, _made(data, title))
        else:
            lay = layout.parse(data, "the sheet")
            canvas = dice_render.blank_canvas(lay, f"{lay.name} - hash {digest}", _made(data, lay.name))
        png = canvas.png()
        with _lock:
            if digest in _kept:
                _kept[digest] = (data, png)
    return png


def _made(data: dict, title: str) -> str:
    made = ("a reconstruction by doodlebox: the rulebooks print no sheet" if data.get("reconstructed")
            else "a sheet of the table's own")
    return f"{title}, {made}; as the editor has it, not saved yet."


def save(body: dict) -> dict:
    """POST /api/sheets/save {"name", "data", "replace", "start"}: the sheet added to the library
    under `name` (library.add_data), from "the page's editor (from START)". Refused (InputError:
    nothing stored) for a name that is not one or is a default's, for a sheet with problems; Taken
    for a name in the library already unless `replace`."""
    name, data, replace, start = body.get("name"), body.get("data"), body.get("replace", False), body.get("start")
    if not isinstance(name, str) or not isinstance(replace, bool) or "data" not in body:
        raise InputError('give the sheet as {"name": "our-town", "data": {...}, "replace": false, "start": "city"}')
    if not isinstance(start, str) or not library.NAME.fullmatch(start):
        raise InputError(f"start: {str(start)[:40]!r} is not the name of the sheet the editor started from")
    if not library.NAME.fullmatch(name):
        raise InputError(f"{name[:40]!r} is not a sheet's name: 1 to 16 of a-z, 0-9, - and _")
    if name in library.DEFAULTS:
        raise InputError(f"{name!r} is a default's name: give the sheet another")
    _, found = problems(data)
    if found:
        raise InputError(f"the sheet has {len(found)} problem(s): not saved ({found[0][0]}: {found[0][1]})")
    with _saving:
        if not replace and any(s.name == name and not s.default for s in library.sheets()):
            raise Taken(f"a sheet {name!r} is in the library already: replace it?")
        sheet = library.add_data(data, name, f"the page's editor (from {start})", replace=True)
    return {"saved": sheet.name, "what": sheet.what, "title": sheet.title, "hash": sheet.hash, "source": sheet.source}


def page(db: str, writes: str, max_body: int) -> str:
    """The editor's page (templates/sheets.html): "Played at this table" (a row for each game, what
    it plays filled in by the script from /api/sheets, with, unless the page is read-only, a choice
    of the library's sheets of that game and its button), the choice of the sheet to start from,
    the problems, the editor (built by static/sheets.js), the picture and (unless the page is
    read-only) the form that saves it."""
    return pages.page("sheets.html", "doodlebox: sheets", db, writes, script="/static/sheets.js",
                      games=[(game, title) for game, title, _ in games()], max_body=int(max_body))
