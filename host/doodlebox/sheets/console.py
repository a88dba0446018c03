"""A sheet as the console holds it (docs/protocol.md, "The table's sheets"): the constants of the
module `make firmware-data` generates for a default (doodle/ed_<edition>.py, doodle/deadly_<side>.py),
made from the table's own sheet or map side by the same generator, as one JSON object (bytes as
{"x": hex}, tuples as lists; `SH` its name and `SX` its hash added): the **content**. Sent in chunks
of base64, each a `sheet` frame; the console writes them to a file of its own and renames it into
place once the whole content checks."""
from __future__ import annotations

import base64
import json
import zlib
from typing import Any

from doodlebox.deploy import firmware_data
from doodlebox.rules.deadly import maps
from doodlebox.rules.dice import layout
from doodlebox.sheets.library import Sheet, SheetError

MAX_CONTENT = 2048      # bytes: what the console takes (its RAM reads it whole, once, at a game's start)
CHUNK = 320             # base64 characters a `sheet` frame carries
MOST_HELD = 6           # sheets a console holds


def _plain(value: Any) -> Any:
    if isinstance(value, bytes):
        return {"x": value.hex()}
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def constants(sheet: Sheet) -> dict[str, Any]:
    """The generated module's constants for this sheet (its upper-case names)."""
    if sheet.kind == "map":
        source = firmware_data.deadly_module("own", maps.parse(sheet.data, sheet.name))
    else:
        source = firmware_data.edition_module(sheet.path, layout.parse(sheet.data, sheet.name))
    names: dict[str, Any] = {}
    exec(compile(source, f"<{sheet.name}>", "exec"), {}, names)   # the generator's own output: constants only
    return {k: v for k, v in names.items() if k.isupper()}


def content(sheet: Sheet) -> bytes:
    """The content the console holds: the constants, `SH` and `SX`, as canonical JSON. SheetError
    when it is more than the console takes."""
    body = {k: _plain(v) for k, v in constants(sheet).items()}
    body.update(SH=sheet.name, SX=sheet.hash)
    raw = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()
    if len(raw) > MAX_CONTENT:
        raise SheetError(f"sheet {sheet.name!r} is {len(raw):,} bytes on the console, more than the "
                         f"{MAX_CONTENT:,} it takes: it cannot be sent")
    return raw


def game_of(sheet: Sheet) -> str:
    """The console's name for the game a sheet is of: the dice edition, or "deadly"."""
    return "deadly" if sheet.kind == "map" else sheet.edition


def frames(sheet: Sheet) -> list[dict]:
    """The `sheet` messages that carry it, chunk 0 first."""
    raw = content(sheet)
    text = base64.b64encode(raw).decode()
    parts = [text[k:k + CHUNK] for k in range(0, len(text), CHUNK)]
    crc = "%08x" % zlib.crc32(raw)
    return [{"t": "sheet", "x": sheet.hash, "n": sheet.name, "ed": game_of(sheet), "i": i, "of": len(parts),
             "crc": crc, "d": part} for i, part in enumerate(parts)]
