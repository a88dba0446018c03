"""Generate the firmware's data modules from the project's data files.

`firmware/board/pins.py` comes from `hardware/pins.json` (its LED cap from the power budget in
`hardware/parts.json`, see `doodlebox.hardware.power`), `firmware/doodle/ed_<edition>.py`
from `host/doodlebox/layouts/*.json`, `firmware/doodle/deadly_a.py` and `deadly_b.py` (a
Deadly Doodles map side and the default deck) from `deadly-map-*.json` and `deadly-deck.json`,
and `firmware/doodle/games.py` (the lobby's games, players, options and limits) from the games'
specs (`host/doodlebox/rules/*/spec.py`), so the pins, the sheets, the maps, the deck and the
games have one source of truth.
Run `python -m doodlebox.deploy.firmware_data` (or `make firmware-data`); `--check` exits 1 when a
generated file is out of date.
"""
from __future__ import annotations

import sys
from pathlib import Path

from doodlebox import paths
from doodlebox.hardware import power
from doodlebox.hardware.check import Problem
from doodlebox.hardware.data import load_parts, load_pins
from doodlebox.rules.deadly import deck as decks
from doodlebox.rules.deadly import events as deadly_events
from doodlebox.rules.deadly import maps
from doodlebox.rules.deadly.tallies import DRAGON_TIMES, POINTS
from doodlebox.rules.dice import events as dice_events
from doodlebox.rules.dice import layout
from doodlebox.rules.puzzle import events as puzzle_events
from doodlebox.rules.specs import BY_EDITION, EDITIONS

HEADER = "# Generated from {src} by `make firmware-data`; do not edit.\n"


def pins_module(pins: dict, parts: dict | None = None) -> str:
    """pins.py from the pin data; LED_MAX_LEVEL is the power budget's cap (doodlebox.hardware.power),
    computed from hardware/parts.json and the firmware's own LED renderer, never typed."""
    buttons = [(k, v) for k, v in pins["buttons"].items() if not k.startswith("_")]
    leds, epd, buz = pins["leds"], pins["epaper"], pins["buzzer"]
    parts = load_parts() if parts is None else parts
    lines = [HEADER.format(src="hardware/pins.json and hardware/parts.json")]
    lines.append("BUTTONS = (%s)\n" % "".join("(%r, %d), " % b for b in buttons))
    for key in ("pin", "dice", "pips_per_die"):
        lines.append("LED_%s = %d\n" % (key.upper(), leds[key]))
    lines.append("# the power budget's cap (`doodlebox hardware power`): the brightest frame stays inside USB power\n")
    lines.append("LED_MAX_LEVEL = %d\n" % power.led_cap(pins, parts))
    lines.append("# chain order of the LEDs inside each die (FACES in board/leds.py: bit 6 is the first)\n")
    lines.append("LED_PIP_ORDER = (%s)\n" % "".join("%r, " % p for p in leds["pip_order"]))
    lines.append("BUZZER_PIN = %d\n" % buz["pin"])
    for key in ("spi", "sck", "mosi", "cs", "dc", "rst", "busy", "width", "height"):
        lines.append("EPD_%s = %d\n" % (key.upper(), epd[key]))
    return "".join(lines)


# the console's kind codes (firmware/doodle/sheet.py): the layouts' kinds in this order
KIND_CODES = ("plain", "house", "hotel", "shop", "taxi", "bus", "skyscraper", "park")
WORDS = ("road", "hotel", "shop", "skyscraper", "floor", "park", "tree", "trees", "barrel")


def _short(edition: str) -> str:
    """The head of an edition's game screen: its spec's short name (a layout of the player's own:
    its edition's first 10 letters)."""
    e = BY_EDITION.get(edition)
    return e.short if e is not None else edition[:10]


def edition_module(path: Path, lay: layout.Layout | None = None) -> str:
    """firmware/doodle/ed_<edition>.py: what the console needs of one edition's sheet, from the
    same layout file as the PC's engine (docs/layouts.md), in compact form (`lay`: that layout
    already read; a table's own sheet, sent to the console as its constants: sheets/console.py)."""
    lay = lay or layout.load(path)
    n = lay.size
    code = {k: i for i, k in enumerate(KIND_CODES)}
    sq = lay.squares

    def b(values) -> str:
        return repr(bytes(values))

    tracks = tuple((t, code[t], bytes(tr.values), tr.shared) for t, tr in lay.tracks.items())  # values < 256
    groups = tuple((tuple(code[k] for k in g.kinds), tuple(g.points[k] for k in g.kinds)) for g in lay.groups)
    floor = lay.names.get("floors", "floors")
    words = {w: lay.word(w) for w in WORDS}
    words["floor"] = floor[:-1] if floor.endswith("s") else floor
    names = tuple("square" if k == "plain" else lay.word(k) for k in KIND_CODES)
    # the map's letter of each kind: the layout's check (rules/dice/layout.py) keeps the kinds on a
    # sheet apart by it, and every word printable on the panel
    marks = bytes(ord(" ") if k in ("plain", "house") else ord(w[0].upper()) for k, w in zip(KIND_CODES, names))
    column_die = lay.word("column_die").split()[0].capitalize()
    lines = [HEADER.format(src=f"host/doodlebox/layouts/{path.name}"),
             f"# {lay.name}: the sheet as the console needs it (docs/console.md). Squares row-major.\n",
             f"EDITION = {lay.edition!r}\n",
             f"SHORT = {_short(lay.edition)!r}\n",
             f"SIZE = {n}\n",
             f"JOKERS = {lay.jokers}  # 5x5 rules: a 6 frees the row or column; else 6x6: a free pass\n",
             f"LEGEND = {tuple(lay.legend[f] for f in range(1, 7))!r}  # the piece of each die face\n",
             f"TREES = {lay.trees}\n",
             f"TREE_POINTS = {lay.tree_points}\n",
             f"BARRELS = {lay.barrels}\n",
             f"PARK = {({None: 0, 'row': 1, 'any': 2})[lay.park]}"
             "  # a die on a park: 0 nothing, 1 its row (a tree), 2 any square (a barrel)\n",
             f"EXTRA_FLOORS = {lay.extra_floors}\n",
             f"KINDS = {b(code[s.kind] for s in sq)}  # {', '.join(f'{i} {k}' for i, k in enumerate(KIND_CODES))}\n",
             f"HOUSES = {b(s.houses for s in sq)}\n",
             f"CROSSED = {b(s.precrossed for s in sq)}\n",
             f"FLOORS = {b(s.floors for s in sq)}\n",
             f"START = {b(s.row for s in lay.starts())}  # the start square's row in each column\n",
             f"TRACKS = {tracks!r}  # (name, kind, values, shared)\n",
             f"BONUSES = {tuple(lay.bonuses)!r}\n",
             f"GROUPS = {groups!r}  # (kinds, points of each)\n",
             f"END = {tuple((code[k], v) for k, v in lay.end.items())!r}  # (kind, value): circling it ends the game\n",
             f"RANKS = {tuple(tuple(r) for r in lay.solo.ranks) if lay.solo else ()!r}\n",
             f"WORDS = {words!r}\n",
             f"NAMES = {names!r}  # the sheet's word for each kind of square\n",
             f"MARKS = {marks!r}  # each kind's letter on the panel's map (a house square: its houses left)\n",
             f"COLUMN_DIE = {column_die!r}\n"]
    return "".join(lines)


def edition_files(layout_dir: Path | None = None) -> dict[str, Path]:
    """edition -> its default layout file, for the dice editions the console plays."""
    base = layout_dir or paths.layouts()
    return {ed: base / name for ed, name in layout.DEFAULT_FILES.items()}


# Deadly Doodles: a room's contents as the console codes them (firmware/doodle/deadly.py)
DEADLY_CONTENTS = ("", "loot", "dragon", "weapon", "monster")
DEADLY_TRAP, DEADLY_DRAW2 = 16, 32     # a card that is not a path segment


def deadly_module(side: str, m: maps.DungeonMap | None = None) -> str:
    """firmware/doodle/deadly_<side>.py: one map side of Deadly Doodles and the default deck, as
    the console needs them (docs/console-deadly-puzzle.md), from the files the PC's engine reads
    (`m`: a map side of the table's own instead, sent to the console: sheets/console.py). Only the
    side being played is loaded (RAM)."""
    m = m or maps.load(side)
    d = decks.load()
    if (m.columns, m.rows) != (6, 6):
        raise ValueError(f"map side {side}: the console's buttons name 6 columns and 6 rows")
    pairs = "ABCDEF"
    cards = [0] + [d.shapes[k] if k in d.shapes else DEADLY_TRAP if k == decks.TRAP else DEADLY_DRAW2
                   for k in d.kind_of[1:]]

    def rows(name: str, values, comment: str, width: int = 6) -> str:
        """NAME = (b'..' one row of the map a line, in parentheses): short lines, read as the map."""
        data = bytes(values)
        parts = ["b'" + "".join("\\x%02x" % v for v in data[k:k + width]) + "'" for k in range(0, len(data), width)]
        pad = " " * (len(name) + 4)
        return f"# {comment}\n{name} = (" + ("\n" + pad).join(parts) + ")\n"

    src = f"host/doodlebox/layouts/{maps.DEFAULT_FILES.get(side, m.name)} and {decks.DEFAULT_FILE}"
    lines = [HEADER.format(src=src),
             f"# {m.name}, and the default deck ({len(cards) - 1} cards), as the console needs them\n",
             "# (docs/console-deadly-puzzle.md). Rooms row-major, a row of the map a line (A1 B1 .. F1, A2 ..);\n",
             "# sides N 1, E 2, S 4, W 8.\n",
             f"SIDE = {side!r}\n",
             f"NAME = {m.name!r}\n",
             rows("PASSAGES", m.passages, "the sides with a passageway (to a room, or an entryway)"),
             rows("ENTRIES", m.entries, "the sides with an entryway arrow"),
             rows("CONTENTS", (DEADLY_CONTENTS.index(k) for k in m.contents),
                  "0 empty, 1 Loot, 2 the Dragon, 3 a Weapon, 4 a Monster"),
             rows("PAIRS", (pairs.index(x) if x else 0 for x in m.letters),
                  "a Weapon's or Monster's letter, 0 A .. 5 F"),
             f"LOOT = {len(m.loot)}\n",
             f"DRAGON = {m.dragon}\n",
             rows("CARDS", cards, f"card id (0 is none) -> a path segment's sides as printed, {DEADLY_TRAP} a Trap, "
                  f"{DEADLY_DRAW2} a Draw 2", width=10)]
    return "".join(lines)


# the lobby's kinds of game (firmware/doodle/lobby.py)
KIND_CONTROL, KIND_DICE, KIND_CARDS = 0, 1, 2
LOBBY_BUTTONS = ("PASS", "MENU")     # the buttons that step a card game's first and second option
NO_OPTION = 255


SEPARATORS = "|/,"                   # the lobby's packed texts: options apart, their parts, their values


def _packed(texts, sep: str, what: str) -> str:
    """`texts` joined by `sep` (the lobby splits them again, for the moment it needs them: RAM);
    ValueError for a text that holds a separator of its level or of one above."""
    bad = SEPARATORS[:SEPARATORS.index(sep) + 1]
    for t in texts:
        if any(c in t for c in bad):
            raise ValueError(f"{what} {t!r}: the console's lobby table cannot hold any of {bad!r} in it")
    return sep.join(texts)


def lobby_module() -> str:
    """firmware/doodle/games.py: the console lobby's games (doodle/lobby.py), in the order D0
    steps through them, with their players, options and limits, from the games' specs
    (doodlebox.rules.specs). Texts are packed into one str each and split by the lobby when it
    needs them, numbers are bytes (RAM: every str of a tuple would be an object of its own). A
    dice edition's one option is More control (the App's `control`); a card game's options are
    stepped by PASS and MENU and kept in the App's `opts` by their keys."""
    game: list[int] = []
    table: list[str] = []
    keys: list[str] = []
    limits = []
    control = ""
    for e in EDITIONS:
        if e.dice:
            if [o.key for o in e.options] not in ([], ["control"]):
                raise ValueError(f"{e.edition}: the console's lobby offers a dice edition More control only")
            if e.options:
                o = e.options[0]
                control = _packed((o.label, o.choices[0].label, o.choices[1].label), "/", "More control")
            game += [e.players[0], e.players[1], KIND_CONTROL if e.options else KIND_DICE, NO_OPTION, NO_OPTION]
            continue
        if len(e.options) > len(LOBBY_BUTTONS):
            raise ValueError(f"{e.edition}: the lobby steps {len(LOBBY_BUTTONS)} options, not {len(e.options)}")
        mine = []
        for o in e.options:
            row = "/".join((o.key, o.label, _packed(o.values, ",", o.name),
                            _packed([c.label for c in o.choices], ",", o.name), o.default))
            if row not in table:
                if o.key in keys:
                    raise ValueError(f"{e.edition}: option key {o.key!r} means another option in another game")
                table.append(row)
                keys.append(o.key)
            mine.append(table.index(row))
        game += [e.players[0], e.players[1], KIND_CARDS] + (mine + [NO_OPTION, NO_OPTION])[:2]
        for lim in e.limits:
            if lim.players is None:
                continue          # a pair of choices: the lobby takes one choice of an option at a time
            o = e.option(lim.option)
            if lim.choice == o.default:
                raise ValueError(f"{e.edition}: limit {lim.rule} limits the default, which the lobby falls back on")
            limits.append((mine[e.options.index(o)], o.values.index(lim.choice), lim.players[0], lim.players[1],
                           lim.rule))
    for e in EDITIONS:
        if e.edition.split() != [e.edition]:
            raise ValueError(f"{e.edition!r}: the lobby splits the editions' ids at spaces")
    lines = [HEADER.format(src="host/doodlebox/rules/*/spec.py"),
             "# The lobby's games, in the order D0 steps through them (doodle/lobby.py; docs/adding-a-game.md).\n",
             "# Texts are packed (split when needed: RAM).\n",
             f"ED = {' '.join(e.edition for e in EDITIONS)!r}\n",
             f"NAME = {_packed([e.lobby for e in EDITIONS], '/', 'lobby name')!r}\n",
             f"# per game: fewest, most players, kind ({KIND_CONTROL} dice, More control offered; {KIND_DICE} dice, "
             f"6x6:\n# passing always; {KIND_CARDS} cards), its options in OPT stepped by PASS and MENU "
             f"({NO_OPTION}: none)\n",
             "GAME = (" + "\n        ".join(
                 f"{bytes(game[5 * i:5 * i + 5])!r}{')' if i == len(EDITIONS) - 1 else ''}  # {e.edition}"
                 for i, e in enumerate(EDITIONS)) + "\n",
             f"CONTROL = {control!r}  # More control's line: its label/off/on\n",
             "# key/label/values/their labels/the default, options apart by '|', values by ','\n",
             "OPT = (" + "\n       ".join(repr(row + ("|" if k < len(table) - 1 else ""))
                                         for k, row in enumerate(table)) + ")\n",
             f"LIMIT = {tuple(limits)!r}  # (option in OPT, its value's index, fewest, most players, the refusal)\n"]
    return "".join(lines)


# Rule constants the firmware's code uses by name, written into a block of the file that uses
# them (no module more on the Pico: RAM), between these lines; tests/deploy/test_firmware_build.py
# fails when a block is not what the PC's rules make it.
BLOCK_BEGIN = "# -- generated by `make firmware-data` (host/doodlebox/deploy/firmware_data.py): do not edit --\n"
BLOCK_END = "# -- end of the generated block --\n"
SHEET_KINDS = ("house", "hotel", "shop", "skyscraper", "park")   # the kinds doodle/sheet.py and rounds.py test


def sheet_block() -> str:
    """firmware/doodle/sheet.py's kind codes (ed_<edition>.KINDS holds them: KIND_CODES)."""
    return "".join(f"{k.upper()} = {KIND_CODES.index(k)}\n" for k in SHEET_KINDS)


def refusal_names(ids) -> str:
    """A game's refusal ids (rules/<game>/events.py REFUSALS: the engine's rule ids the console
    sends in `refuse` events) as the names its firmware module uses them by: "taken" is
    `_WHY_TAKEN` (a const: no name kept in RAM)."""
    return "".join(f'_WHY_{i.upper()} = const("{i}")\n' for i in ids)


def rounds_block() -> str:
    """firmware/doodle/rounds.py's refusal ids (rules/dice/events.py)."""
    return refusal_names(dice_events.REFUSALS)


def puzzle_block() -> str:
    """firmware/doodle/puzzle.py's refusal ids (rules/puzzle/events.py)."""
    return refusal_names(puzzle_events.REFUSALS)


def deadly_block() -> str:
    """firmware/doodle/deadly.py's card and room codes, the scoring section's weights
    (rules/deadly/tallies.py POINTS: the console scores a map as the PC's engine does) and its
    refusal ids (rules/deadly/events.py)."""
    lines = [f"TRAP = const({DEADLY_TRAP})      # CARDS[c] of a Trap (a path segment's is its sides, 1..15)\n",
             f"DRAW2 = const({DEADLY_DRAW2})     # ... of a Draw 2\n"]
    lines += [f"_{k.upper()} = const({DEADLY_CONTENTS.index(k)})   # a room's CONTENTS (deadly_<side>.py)\n"
              for k in ("loot", "weapon", "monster")]
    lines += [f"_P_{k.upper()} = const({v})   # points of one in the scoring section\n" for k, v in POINTS.items()]
    lines.append(f"_DRAGON_TIMES = const({DRAGON_TIMES})   # Loot's points once the Dragon's room is entered\n")
    return "".join(lines) + refusal_names(deadly_events.REFUSALS)


def with_block(path: Path, block: str) -> str:
    """The text of firmware file `path` with its generated block made `block`."""
    text = path.read_text()
    if BLOCK_BEGIN not in text or BLOCK_END not in text:
        raise SystemExit(f"{path}: no generated block (the lines {BLOCK_BEGIN.strip()!r} ... {BLOCK_END.strip()!r})")
    head, rest = text.split(BLOCK_BEGIN, 1)
    return head + BLOCK_BEGIN + block + BLOCK_END + rest.split(BLOCK_END, 1)[1]


def targets() -> dict[Path, str]:
    fw = paths.firmware()
    out = {fw / "board" / "pins.py": pins_module(load_pins())}
    for ed, path in edition_files().items():
        out[fw / "doodle" / f"ed_{ed}.py"] = edition_module(path)
    for side in maps.DEFAULT_FILES:
        out[fw / "doodle" / f"deadly_{side}.py"] = deadly_module(side)
    out[fw / "doodle" / "games.py"] = lobby_module()
    out[fw / "doodle" / "sheet.py"] = with_block(fw / "doodle" / "sheet.py", sheet_block())
    out[fw / "doodle" / "deadly.py"] = with_block(fw / "doodle" / "deadly.py", deadly_block())
    out[fw / "doodle" / "rounds.py"] = with_block(fw / "doodle" / "rounds.py", rounds_block())
    out[fw / "doodle" / "puzzle.py"] = with_block(fw / "doodle" / "puzzle.py", puzzle_block())
    return out


def stale_pins() -> list[Problem]:
    """firmware/board/pins.py, when it is not what hardware/pins.json and parts.json make now."""
    path = paths.firmware() / "board" / "pins.py"
    if path.exists() and path.read_text() == pins_module(load_pins()):
        return []
    return [Problem("error", "stale", f"{path} is out of date: run `make firmware-data`")]


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    stale = []
    for path, text in targets().items():
        if path.exists() and path.read_text() == text:
            continue
        if "--check" in argv:
            stale.append(path)
        else:
            path.write_text(text)
            print("wrote", path)
    for path in stale:
        print(f"{path} is out of date: run `make firmware-data`", file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
