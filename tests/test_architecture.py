"""docs/architecture.md names every module of the firmware and of the host package by its path,
and names none that does not exist; the layering it states holds, and the host package's imports
make no circle."""
import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "docs" / "architecture.md").read_text()
SKIP = {"__init__.py", "__main__.py"}


def modules(base: Path) -> set[str]:
    return {p.relative_to(base).as_posix() for p in base.rglob("*.py")
            if p.name not in SKIP and "__pycache__" not in p.parts}


def named() -> set[str]:
    return set(re.findall(r"`([\w/]+\.py)`", DOC))


def test_every_module_is_in_the_architecture():
    missing = sorted((modules(ROOT / "firmware") | modules(ROOT / "host" / "doodlebox")) - named())
    assert not missing, f"docs/architecture.md does not name: {', '.join(missing)}"


def test_the_architecture_names_no_module_that_does_not_exist():
    every = {p.relative_to(base).as_posix() for base in (ROOT / "firmware", ROOT / "host" / "doodlebox")
             for p in base.rglob("*.py") if "__pycache__" not in p.parts}
    basenames = {m.split("/")[-1] for m in every}

    def exists(name: str) -> bool:   # a module's path, a path from the root, or a bare file name
        return name in every or (ROOT / name).exists() or ("/" not in name and name in basenames)

    stale = sorted(n for n in named() if not exists(n))
    assert not stale, f"docs/architecture.md names modules that do not exist: {', '.join(stale)}"


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
    assert "doodlebox.history.game_records" in edges["doodlebox.history.games_view"]              # a top-level import
    assert "doodlebox.virtual.screen" in edges["doodlebox.table.dice"] or "doodlebox.virtual.screen" in edges.get(
        "doodlebox.table.lobby", set())                                              # one in a function
