"""Sheet layouts: load, check (every problem with its place) and the Layout the engine uses.
The format is docs/layouts.md."""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from doodlebox import paths
from doodlebox.rules.common import ProblemsError

FORMAT = "doodlebox-layout/2"
PIECES = ("NS", "EW", "NE", "ES", "SW", "NW")
KINDS = ("plain", "house", "hotel", "shop", "taxi", "bus", "skyscraper", "park")
TRACK_NAMES = ("hotel", "shop", "skyscraper")
DEFAULT_FILES = {"city": "doodle-city.json", "suzhou": "doodle-china-suzhou.json",
                 "treasures": "doodle-islands-treasures.json", "shanghai": "doodle-china-shanghai.json",
                 "monsters": "doodle-islands-monsters.json"}
WORD_MAX = 16          # characters of a printed word ("treasure island" is 15): a panel line holds 37
# a letter first (the map marks a square by it), then printable ASCII but '"' and '\\': the panel's
# font (framebuf) and the console's lines (link.put_ascii) have no others
PRINTED_WORD = re.compile(r"[A-Za-z][ !#-\[\]-~]{0,%d}" % (WORD_MAX - 1))
NAME_KEYS = ("road", "house", "houses", "hotel", "shop", "taxi", "bus", "skyscraper", "floors", "park",
             "tree", "trees", "barrel", "column_die")


class LayoutError(ProblemsError):
    """A layout that cannot be used; `problems` lists every (place, what) found."""


@dataclass(frozen=True)
class Square:
    row: int
    col: int
    kind: str = "plain"
    houses: int = 0      # printed houses (house squares)
    precrossed: int = 0  # houses crossed out in print
    floors: int = 0      # printed floors (sky scrapers)
    start: bool = False


@dataclass(frozen=True)
class Track:
    name: str
    values: tuple[int, ...]
    shared: bool


@dataclass(frozen=True)
class Group:
    kinds: tuple[str, ...]
    points: dict[str, int]


@dataclass(frozen=True)
class Achievement:
    id: str
    name: str
    needs: str


@dataclass(frozen=True)
class Solo:
    ranks: tuple[tuple[int, str], ...]
    achievements: tuple[Achievement, ...]


@dataclass(frozen=True)
class Layout:
    edition: str
    name: str
    ruleset: str
    size: int
    squares: tuple[Square, ...]          # every square, row-major: squares[(r-1)*size + c-1]
    legend: dict[int, str]
    trees: int
    tree_points: int
    barrels: int
    tracks: dict[str, Track]
    bonuses: tuple[int, ...]
    groups: tuple[Group, ...]
    end: dict[str, int]
    park: str | None
    extra_floors: int
    solo: Solo | None
    names: dict[str, str] = field(default_factory=dict)
    reconstructed: str = ""

    @property
    def jokers(self) -> bool:
        """The 5x5 rules: a 6 frees the row or the column."""
        return self.ruleset == "5x5"

    @property
    def free_pass(self) -> bool:
        """The 6x6 rules: a player may always pass and cross a tree."""
        return self.ruleset == "6x6"

    def square(self, row: int, col: int) -> Square:
        return self.squares[(row - 1) * self.size + col - 1]

    def starts(self) -> list[Square]:
        return sorted((s for s in self.squares if s.start), key=lambda s: s.col)

    def word(self, key: str) -> str:
        return self.names.get(key, key)


def default_path(edition: str) -> Path:
    return paths.layouts() / DEFAULT_FILES[edition]


def load(spec: str | Path | dict, source: str | None = None) -> Layout:
    """A layout from an edition name, a file, or a parsed object; LayoutError if unusable."""
    if isinstance(spec, dict):
        return parse(spec, source or "layout")
    text_spec = str(spec)
    if text_spec in DEFAULT_FILES:
        if text_spec not in _DEFAULTS:  # read once: a Layout is immutable
            _DEFAULTS[text_spec] = _load_file(default_path(text_spec), source)
        return _DEFAULTS[text_spec]
    return _load_file(Path(text_spec), source)


_DEFAULTS: dict[str, Layout] = {}


def _load_file(path: Path, source: str | None) -> Layout:
    try:
        data = json.loads(path.read_text())
    except OSError as exc:
        raise LayoutError(str(path), [("file", exc.strerror or str(exc))]) from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise LayoutError(str(path), [("file", f"not JSON ({exc})")]) from None
    return parse(data, source or str(path))


def check(data: Any) -> list[tuple[str, str]]:
    """Every problem in a parsed layout, as (place, what); [] when it is usable."""
    try:
        parse(data, "layout")
    except LayoutError as exc:
        return exc.problems
    return []


def parse(data: Any, source: str) -> Layout:
    p = _Parser(data)
    layout = p.layout()
    if p.problems:
        raise LayoutError(source, p.problems)
    assert layout is not None
    return layout


class _Parser:
    def __init__(self, data: Any):
        self.data = data
        self.problems: list[tuple[str, str]] = []

    def bad(self, where: str, what: str) -> None:
        self.problems.append((where, what))

    def get(self, obj: dict, key: str, kind: type | tuple, where: str, default: Any = ..., what: str = "") -> Any:
        if key not in obj:
            if default is ...:
                self.bad(where + key, "missing")
            return None if default is ... else default
        v = obj[key]
        if kind is int and (isinstance(v, bool) or not isinstance(v, int)):
            self.bad(where + key, f"{v!r} is not a whole number")
            return None
        if not isinstance(v, kind):
            self.bad(where + key, f"{v!r} is not {what or _kind_name(kind)}")
            return None
        return v

    def layout(self) -> Layout | None:
        d = self.data
        if not isinstance(d, dict):
            self.bad("layout", "is not a JSON object")
            return None
        fmt = d.get("format")
        if fmt != FORMAT:
            self.bad("format", f"{fmt!r} is not {FORMAT!r}")
        edition = self.get(d, "edition", str, "")
        name = self.get(d, "name", str, "", default=edition or "")
        ruleset = self.get(d, "ruleset", str, "")
        if ruleset is not None and ruleset not in ("5x5", "6x6"):
            self.bad("ruleset", f"{ruleset!r} is not '5x5' or '6x6'")
            ruleset = None
        size = self.get(d, "size", int, "")
        if size is not None and ruleset and size != int(ruleset[0]):
            self.bad("size", f"{size} does not fit the {ruleset} rules")
        if size is None or not 3 <= size <= 9:
            if size is not None:
                self.bad("size", f"{size} is not a grid size we can play")
            size = int(ruleset[0]) if ruleset else 5
        names = self.get(d, "names", dict, "", default={}) or {}
        for k, v in names.items():
            if k not in NAME_KEYS:
                self.bad(f"names.{k}", f"unknown name (known: {', '.join(NAME_KEYS)})")
            elif not isinstance(v, str):
                self.bad(f"names.{k}", f"{v!r} is not text")
            elif not PRINTED_WORD.fullmatch(v):
                self.bad(f"names.{k}", f"{v!r} is not a printed word the panel can show: 1 to {WORD_MAX} characters, "
                                       "a letter first, then letters, digits, spaces or punctuation but '\"' and '\\', "
                                       "without accents (its font has no others)")
        legend = self._legend(d.get("legend"))
        squares = self._squares(d.get("squares"), size)
        trees = self._count(d, "trees", 1)
        tree_points = self._count(d, "tree_points", 0)
        barrels = self._count(d, "barrels", 0, default=0)
        tracks = self._tracks(d.get("tracks"))
        bonuses = self._ints(d.get("bonuses", []), "bonuses")
        if bonuses and "shop" not in tracks:
            self.bad("bonuses", "first-player bonuses need a 'shop' track")
        groups = self._groups(d.get("groups", []))
        end = self._end(d.get("end", {}), tracks)
        park = d.get("park")
        if park not in (None, "row", "any"):
            self.bad("park", f"{park!r} is not null, 'row' or 'any'")
            park = None
        extra = self._count(d, "extra_floors", 0, default=0)
        solo = self._solo(d.get("solo"), tracks)
        kinds = {s.kind for s in squares}
        self._letters(d.get("squares"), kinds, names)
        if park == "any" and barrels == 0 and "park" in kinds:
            self.bad("barrels", "breakers need barrels (park: 'any')")
        if "park" in kinds and park is None:
            self.bad("park", "the sheet has parks but no park rule ('row' or 'any')")
        if "skyscraper" in kinds and "skyscraper" not in tracks:
            self.bad("tracks", "the sheet has sky scrapers but no 'skyscraper' track")
        for kind in ("hotel", "shop"):
            if kind in kinds and kind not in tracks:
                self.bad("tracks", f"the sheet has {kind} squares but no '{kind}' track")
        if self.problems:
            return None
        return Layout(edition=edition, name=name, ruleset=ruleset, size=size, squares=tuple(squares),
                      legend=legend, trees=trees, tree_points=tree_points, barrels=barrels, tracks=tracks,
                      bonuses=tuple(bonuses), groups=tuple(groups), end=end, park=park, extra_floors=extra,
                      solo=solo, names={k: v for k, v in names.items() if isinstance(v, str)},
                      reconstructed=d.get("reconstructed", "") if isinstance(d.get("reconstructed", ""), str) else "")

    def _letters(self, raw: Any, kinds: set[str], names: dict) -> None:
        """The map marks a square of each kind but plain and house by its word's first letter: two
        kinds on the sheet whose words begin with one letter could not be told apart there. Said at
        the first square of the kind there are fewest of (the one just added, in the editor)."""
        def word(kind: str) -> str:
            return names.get(kind, kind)

        by_letter: dict[str, list[str]] = {}
        for kind in sorted(kinds - {"plain", "house"}):
            if isinstance(word(kind), str) and PRINTED_WORD.fullmatch(word(kind)):
                by_letter.setdefault(word(kind)[0].upper(), []).append(kind)
        listed = [(i, sq.get("kind")) for i, sq in enumerate(raw if isinstance(raw, list) else [])
                  if isinstance(sq, dict)]
        for letter, same in by_letter.items():
            if len(same) < 2:
                continue
            odd = min(same, key=lambda k: sum(1 for _, listed_kind in listed if listed_kind == k))
            at = next((f"squares[{i}].kind" for i, k in listed if k == odd), f"names.{odd}")
            others = " and ".join(f"{word(k)!r} ({k})" for k in same if k != odd)
            self.bad(at, f"{word(odd)!r} ({odd}) and {others} begin with one letter, {letter}, by which the "
                         f"console's map marks a square: keep one of these kinds on the sheet, or give one of "
                         f"them another word ({', '.join(f'names.{k}' for k in same)})")

    def _count(self, d, key, low, default=...):
        v = self.get(d, key, int, "", default=default)
        if v is None:
            return 0
        if v < low:
            self.bad(key, f"{v} is below {low}")
        return v

    def _ints(self, v, where) -> list[int]:
        if not isinstance(v, list):
            self.bad(where, f"{v!r} is not a list of whole numbers")
            return []
        out = []
        for i, x in enumerate(v):
            if isinstance(x, bool) or not isinstance(x, int) or x < 0:
                self.bad(f"{where}[{i}]", f"{x!r} is not a whole number of points")
            else:
                out.append(x)
        if out != sorted(set(out)):
            self.bad(where, "values must be different and ascending")
        return out

    def _legend(self, v) -> dict[int, str]:
        out: dict[int, str] = {}
        if not isinstance(v, dict):
            self.bad("legend", "missing, or not an object from die faces '1'..'6' to pieces")
            return out
        for face in range(1, 7):
            piece = v.get(str(face))
            if piece not in PIECES:
                self.bad(f"legend.{face}", f"{piece!r} is not a piece ({', '.join(PIECES)})")
            else:
                out[face] = piece
        for k in v:
            if k not in {str(f) for f in range(1, 7)}:
                self.bad(f"legend.{k}", "is not a die face (1-6)")
        return out

    def _squares(self, v, size) -> list[Square]:
        grid: list[Square | None] = [None] * (size * size)
        if not isinstance(v, list):
            self.bad("squares", "missing, or not a list")
            v = []
        for i, sq in enumerate(v):
            w = f"squares[{i}]"
            if not isinstance(sq, dict):
                self.bad(w, "is not an object")
                continue
            at = sq.get("at")
            if (not isinstance(at, list) or len(at) != 2
                    or not all(isinstance(x, int) and not isinstance(x, bool) for x in at)):
                self.bad(w + ".at", f"{at!r} is not [row, column]")
                continue
            r, c = at
            if not (1 <= r <= size and 1 <= c <= size):
                self.bad(w + ".at", f"[{r}, {c}] is off the {size}x{size} grid")
                continue
            kind = sq.get("kind", "plain")
            if kind not in KINDS:
                self.bad(w + ".kind", f"{kind!r} is not a square kind ({', '.join(KINDS)})")
                continue
            if grid[(r - 1) * size + c - 1] is not None:
                self.bad(w + ".at", f"[{r}, {c}] is described twice")
                continue
            houses = precrossed = floors = 0
            if kind == "house":
                houses = self.get(sq, "houses", int, w + ".") or 0
                precrossed = self.get(sq, "precrossed", int, w + ".") or 0
                if houses and not 0 <= precrossed < houses:
                    self.bad(w + ".precrossed", f"{precrossed} of {houses} houses cannot be pre-crossed")
            if kind == "skyscraper":
                floors = self.get(sq, "floors", int, w + ".") or 0
                if floors < 1:
                    self.bad(w + ".floors", f"{floors}: a sky scraper has at least one printed floor")
            for k in sq:
                if k not in ("at", "kind", "houses", "precrossed", "floors", "start"):
                    self.bad(f"{w}.{k}", "unknown field")
            start = sq.get("start", False)
            if not isinstance(start, bool):
                self.bad(w + ".start", f"{start!r} is not true or false")
                start = False
            grid[(r - 1) * size + c - 1] = Square(r, c, kind, houses, precrossed, floors, start)
        out = [grid[i] or Square(i // size + 1, i % size + 1) for i in range(size * size)]
        starts = [s for s in out if s.start]
        cols = sorted(s.col for s in starts)
        if cols != list(range(1, size + 1)):
            missing = sorted(set(range(1, size + 1)) - set(cols))
            twice = sorted({c for c in cols if cols.count(c) > 1})
            what = []
            if missing:
                what.append("no start square in column " + ", ".join(map(str, missing)))
            if twice:
                what.append("several start squares in column " + ", ".join(map(str, twice)))
            self.bad("squares", "; ".join(what) + " (one start square per column)")
        return out

    def _tracks(self, v) -> dict[str, Track]:
        out: dict[str, Track] = {}
        if not isinstance(v, dict):
            self.bad("tracks", "missing, or not an object")
            return out
        for name, t in v.items():
            w = f"tracks.{name}"
            if name not in TRACK_NAMES:
                self.bad(w, f"unknown track (known: {', '.join(TRACK_NAMES)})")
                continue
            if not isinstance(t, dict):
                self.bad(w, "is not an object")
                continue
            values = self._ints(t.get("values"), w + ".values")
            if not values:
                self.bad(w + ".values", "a track needs values")
            shared = t.get("shared", False)
            if not isinstance(shared, bool):
                self.bad(w + ".shared", f"{shared!r} is not true or false")
                shared = False
            out[name] = Track(name, tuple(values), shared)
        return out

    def _groups(self, v) -> list[Group]:
        out: list[Group] = []
        if not isinstance(v, list):
            self.bad("groups", "is not a list")
            return out
        for i, g in enumerate(v):
            w = f"groups[{i}]"
            if not isinstance(g, dict) or not isinstance(g.get("kinds"), list) or not isinstance(g.get("points"), dict):
                self.bad(w, "is not {\"kinds\": [...], \"points\": {...}}")
                continue
            kinds = tuple(k for k in g["kinds"] if isinstance(k, str))
            for k in g["kinds"]:
                if not isinstance(k, str) or k not in ("taxi", "bus"):
                    self.bad(w + ".kinds", f"{k!r}: only taxi and bus squares score for being connected")
            pts = {}
            for k in kinds:
                p = g["points"].get(k)
                if isinstance(p, bool) or not isinstance(p, int) or p < 0:
                    self.bad(f"{w}.points.{k}", f"{p!r} is not a whole number of points")
                else:
                    pts[k] = p
            out.append(Group(kinds, pts))
        return out

    def _end(self, v, tracks) -> dict[str, int]:
        out: dict[str, int] = {}
        if not isinstance(v, dict):
            self.bad("end", "is not an object")
            return out
        for name, value in v.items():
            if name not in tracks:
                self.bad(f"end.{name}", "no such track")
            elif value not in tracks[name].values:
                self.bad(f"end.{name}", f"{value!r} is not a value of the {name} track")
            else:
                out[name] = value
        return out

    def _solo(self, v, tracks) -> Solo | None:
        if v is None:
            return None
        if not isinstance(v, dict):
            self.bad("solo", "is not an object or null")
            return None
        for key in ("ranks", "achievements"):
            if not isinstance(v.get(key, []), list):
                self.bad(f"solo.{key}", "is not a list")
        ranks = []
        for i, r in enumerate(v.get("ranks", []) if isinstance(v.get("ranks", []), list) else []):
            if (not isinstance(r, list) or len(r) != 2 or isinstance(r[0], bool) or not isinstance(r[0], int)
                    or not isinstance(r[1], str)):
                self.bad(f"solo.ranks[{i}]", f"{r!r} is not [lowest score, title]")
            else:
                ranks.append((r[0], r[1]))
        if [r[0] for r in ranks] != sorted(r[0] for r in ranks):
            self.bad("solo.ranks", "must go from the lowest score up")
        achievements = []
        for i, a in enumerate(v.get("achievements", []) if isinstance(v.get("achievements", []), list) else []):
            w = f"solo.achievements[{i}]"
            if not isinstance(a, dict) or not all(isinstance(a.get(k), str) for k in ("id", "name", "needs")):
                self.bad(w, "is not {\"id\", \"name\", \"needs\"}")
                continue
            needs = a["needs"]
            ok = needs in ("no_trees", "one_road")
            if needs.startswith("track:") and ">=" in needs:
                name, _, n = needs[6:].partition(">=")
                ok = name in tracks and n.isdigit()
            if needs.startswith("houses>=") and needs[8:].isdigit():
                ok = True
            if not ok:
                self.bad(w + ".needs", f"{needs!r} is not a condition we know (docs/layouts.md)")
                continue
            achievements.append(Achievement(a["id"], a["name"], needs))
        return Solo(tuple(ranks), tuple(achievements))


def _kind_name(kind) -> str:
    return {str: "text", dict: "an object", list: "a list", bool: "true or false"}.get(kind, str(kind))
