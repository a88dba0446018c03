"""docs/architecture.md and the house agree (issue 33): each host folder imports only the folders
its row of the table lets it (those below it), no module imports back up or in a circle, at most
six modules stand loose at the top, each host folder's __init__.py names every module in it,
docs/firmware.md names every firmware module, and no name the docs give is of a module that is
not there."""
import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "architecture.md").read_text()
PACKAGE = ROOT / "host" / "doodlebox"
SKIP = {"__init__.py", "__main__.py"}
LOOSE_MAX = 6


def folders_table() -> list[tuple[str, str]]:
    """(folder, what it imports) of each row of architecture.md's table of the host's folders, top first."""
    return re.findall(r"^\| `(\w+)/` \| [^|]+ \| ([^|]+) \|$", DOC, re.M)


def test_the_table_names_every_folder_and_lets_each_import_only_below():
    rows = folders_table()
    names = [f for f, _ in rows]
    assert sorted(names) == sorted(p.name for p in PACKAGE.iterdir() if (p / "__init__.py").exists())
    for k, (folder, imports) in enumerate(rows):
        allowed = _allowed(imports, names[k + 1:])
        assert set(allowed) <= set(names[k + 1:]), f"{folder}/ may import {allowed}: not all below it"


def _allowed(imports: str, below: list[str]) -> list[str]:
    text = imports.strip()
    if text == "anything below":
        return below
    if text == "nothing of the package":
        return []
    return [w.strip() for w in text.split(",")]


def test_every_import_of_a_folder_is_one_its_row_lets_it_make():
    rows = folders_table()
    names = [f for f, _ in rows]
    allowed = {f: set(_allowed(i, names[k + 1:])) for k, (f, i) in enumerate(rows)}
    edges, typing_only = import_graph()
    wrong = []
    for a, targets in edges.items():
        fa = _folder(a)
        for b in targets:
            fb = _folder(b)
            if fa and fb and fa != fb and (a, b) not in typing_only and fb not in allowed[fa]:
                wrong.append(f"{a} imports {b} ({fa}/ may import: {', '.join(sorted(allowed[fa])) or 'nothing'})")
    assert not wrong, "\n".join(wrong)


def _folder(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 2 or (len(parts) == 2 and (PACKAGE / parts[1]).is_dir()) else None


def test_at_most_six_modules_stand_loose_at_the_top_and_the_page_names_them():
    loose = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert len(loose) <= LOOSE_MAX, loose
    for name in loose:
        assert f"`{name}`" in DOC, f"docs/architecture.md does not name {name}"


def test_each_folder_names_every_module_in_it():
    """A room's plaque: the docstring of each host folder's __init__.py names each of its modules."""
    missing = []
    for init in sorted(PACKAGE.rglob("__init__.py")):
        if "__pycache__" in init.parts or "guest" in init.parts or init.parent == PACKAGE:
            continue         # (the loose modules at the top: this page names them)
        doc = ast.get_docstring(ast.parse(init.read_text())) or ""
        for p in sorted(init.parent.glob("*.py")):
            if p.name not in SKIP and not re.search(rf"(?<![\w/]){re.escape(p.name)}\b", doc):
                missing.append(str(p.relative_to(PACKAGE)))
    assert not missing, f"not named by their folder's __init__.py: {', '.join(missing)}"


def test_docs_firmware_names_every_firmware_module():
    doc = (ROOT / "docs" / "firmware.md").read_text()
    named = set(re.findall(r"`([\w/]+\.py)`", doc))
    every = {p.relative_to(ROOT / "firmware").as_posix() for p in (ROOT / "firmware").rglob("*.py")
             if p.name not in SKIP and "__pycache__" not in p.parts}
    assert not every - named, f"docs/firmware.md does not name: {', '.join(sorted(every - named))}"


def test_the_docs_name_no_module_that_does_not_exist():
    """A path of a module in any doc (docs/*.md, README.md) is one that is there."""
    every = {p.relative_to(base).as_posix() for base in (ROOT / "firmware", PACKAGE, ROOT)
             for p in base.rglob("*.py") if "__pycache__" not in p.parts and ".venv" not in p.parts}
    basenames = {m.split("/")[-1] for m in every}
    stale = []
    for doc in sorted((ROOT / "docs").glob("*.md")) + [ROOT / "README.md"]:
        for name in set(re.findall(r"`([\w/]+\.py)`", doc.read_text())):
            if not (name in every or name.removeprefix("host/doodlebox/") in every
                    or ("/" not in name and name in basenames)):
                stale.append(f"{doc.name}: {name}")
    assert not stale, f"docs name modules that are not there: {', '.join(sorted(stale))}"


def imports_of(path: Path) -> set[str]:
    return set(re.findall(r"^\s*(?:from|import) ([\w.]+)", path.read_text(), re.M))


def test_the_core_imports_no_hardware_and_the_maker_side_no_rules():
    for p in (ROOT / "firmware" / "doodle").glob("*.py"):
        bad = {m for m in imports_of(p) if m.split(".")[0] in ("machine", "neopixel", "random", "time")}
        assert not bad, f"{p.name} imports {bad}"
    for folder in ("hardware", "drawing"):
        for p in (ROOT / "host" / "doodlebox" / folder).glob("*.py"):
            assert not any(m.startswith("doodlebox.rules") for m in imports_of(p)), p


# -- no circle in the host package's import graph ------------------------------------------------------------
HOST = ROOT / "host"
# The one import a circle may go through: rules/dice/scoring.py names the engine's State for the
# type checker only, under `if TYPE_CHECKING:` (the engine imports scoring to score): an import
# that never runs. It is exempted only while it stays under that `if`.
TYPE_CHECKING_ONLY = {("doodlebox.rules.dice.scoring", "doodlebox.rules.dice.engine")}


def host_modules() -> dict[str, tuple[Path, bool]]:
    """Every module of host/doodlebox by its dotted name: (its file, whether it is a package)."""
    out = {}
    for p in (HOST / "doodlebox").rglob("*.py"):
        if "__pycache__" in p.parts:
            continue
        parts = list(p.relative_to(HOST).with_suffix("").parts)
        package = parts[-1] == "__init__"
        out[".".join(parts[:-1] if package else parts)] = (p, package)
    return out


def _type_checking_only(tree: ast.Module) -> set[int]:
    """The ids of the import statements under `if TYPE_CHECKING:` (or `typing.TYPE_CHECKING`)."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and ((isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING") or (
                isinstance(node.test, ast.Attribute) and node.test.attr == "TYPE_CHECKING")):
            out |= {id(n) for stmt in node.body for n in ast.walk(stmt) if isinstance(n, (ast.Import, ast.ImportFrom))}
    return out


def import_graph() -> tuple[dict[str, set[str]], set[tuple[str, str]]]:
    """(module -> the modules of the package it imports, anywhere in it: at the top, in a function,
    in a branch), and the edges that are imports under `if TYPE_CHECKING:` only. `from a import b`
    is an edge to the module a.b where there is one, else to a (its __init__); the parents a
    submodule's import runs first are not edges (a package that names its modules is no circle)."""
    mods = host_modules()

    def known(name: str) -> str | None:
        while name and name not in mods:
            name = name.rpartition(".")[0]
        return name or None

    edges: dict[str, set[str]] = {m: set() for m in mods}
    typing_only: dict[tuple[str, str], bool] = {}
    for m, (path, package) in mods.items():
        tree = ast.parse(path.read_text(), str(path))
        hidden = _type_checking_only(tree)
        for node in ast.walk(tree):
            targets: list[str | None] = []
            if isinstance(node, ast.Import):
                targets = [known(a.name) for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = m.split(".")[:len(m.split(".")) + (1 if package else 0) - node.level]
                    source = ".".join(base + ([node.module] if node.module else []))
                else:
                    source = node.module or ""
                targets = [f"{source}.{a.name}" if f"{source}.{a.name}" in mods else known(source) for a in node.names]
            for t in targets:
                if t is None or t == m:
                    continue
                edges[m].add(t)
                typing_only[(m, t)] = typing_only.get((m, t), True) and id(node) in hidden
    return edges, {e for e, only in typing_only.items() if only}


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """One circle through each strongly connected group of modules (Tarjan), each as the modules
    in import order, the first again at the end."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    groups: list[set[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = set()
            while True:
                w = stack.pop()
                on.discard(w)
                group.add(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(group)

    for v in sorted(edges):
        if v not in index:
            visit(v)
    out = []
    for group in groups:
        start = min(group)
        path, seen = [start], {start}
        while True:           # walk inside the group until a module comes back
            nxt = min((w for w in edges[path[-1]] if w in group), key=lambda w: (w in seen and w != start, w))
            if nxt in seen:
                out.append(path[path.index(nxt):] + [nxt])
                break
            path.append(nxt)
            seen.add(nxt)
    return sorted(out)


def test_the_host_package_imports_in_no_circle():
    """Every import of host/doodlebox, at a module's top or inside a function, builds the graph;
    a circle in it fails, named. The store (store/) stores: it imports nothing of the package
    but itself and errors.py; replaying records is history/game_records.py's, above it."""
    edges, typing_only = import_graph()
    exempt = TYPE_CHECKING_ONLY & typing_only
    assert exempt == TYPE_CHECKING_ONLY, \
        f"no longer an import under `if TYPE_CHECKING:` only: {sorted(TYPE_CHECKING_ONLY - typing_only)}"
    for a, b in exempt:
        edges[a].discard(b)
    found = circles(edges)
    assert not found, "import circles in host/doodlebox: " + "; ".join(" -> ".join(c) for c in found)


def test_the_store_imports_nothing_above_it():
    edges, _ = import_graph()
    for m, imported in edges.items():
        if m == "doodlebox.store" or m.startswith("doodlebox.store."):
            above = {t for t in imported if not t.startswith("doodlebox.store") and t != "doodlebox.errors"}
            assert not above, f"{m} imports {sorted(above)}"


def test_the_circle_finder_finds_circles():
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"f"}, "f": {"e"}}
    assert circles(edges) == [["a", "b", "c", "a"], ["e", "f", "e"]]
    edges, _ = import_graph()
    assert "doodlebox.history.game_records" in edges["doodlebox.history.games_view"]   # a top-level import
    assert "matplotlib" not in str(edges["doodlebox.history.stats"])                   # not the package's
    assert "doodlebox.store.postgres" in edges["doodlebox.store.database"]
