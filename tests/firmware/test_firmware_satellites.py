"""The firmware's satellites (docs/architecture.md, "The firmware's satellites"): a module of the core
loaded by its owner for a step and let go after it (RAM) is named after its owner (`app_*.py` the
App's, `journal_*.py` the Journal's, `rounds_*.py`, `deadly_*.py` and `puzzle_*.py` their game's),
declares in its header the owner's attributes it uses (`# owner App (doodle/app.py) as app: ...`: a
comment, no RAM), uses exactly those, and each of them is one the owner has. Modules come and go
through doodle.load() and doodle.drop() alone."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOODLE = ROOT / "firmware" / "doodle"
OWNERS = ("app", "journal", "rounds", "deadly", "puzzle")
DECLARED = re.compile(r"^# owner (\w+) \((doodle/\w+\.py)\) as (\w+): (.*)$")


def satellites() -> list[Path]:
    """Every module named after an owner, but the generated data (a map side, an edition)."""
    return sorted(p for p in DOODLE.glob("*.py") if p.stem.split("_")[0] in OWNERS and "_" in p.stem
                  and not p.read_text().startswith("# Generated from"))


def declarations(path: Path) -> list[tuple[str, str, str, set[str]]]:
    """(owner, its file, the name it goes by, the attributes declared) of each `# owner` line of
    the module's header, a line's list going on on the comment lines that begin "#   "."""
    out: list[tuple[str, str, str, set[str]]] = []
    header = []
    for line in path.read_text().splitlines():
        if not line.startswith("#"):
            break
        header.append(line)
    for k, line in enumerate(header):
        m = DECLARED.match(line)
        if not m:
            continue
        text = m.group(4)
        for more in header[k + 1:]:
            if not more.startswith("#   "):
                break
            text += " " + more[4:]
        out.append((m.group(1), m.group(2), m.group(3), {a.strip() for a in text.split(",") if a.strip()}))
    return out


def used(tree: ast.Module, name: str) -> set[str]:
    return {n.attr for n in ast.walk(tree)
            if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == name}


def has(owner_file: Path, owner: str) -> set[str]:
    """What an object of class `owner` in `owner_file` has: its methods and class attributes, and
    every attribute its methods assign to `self`."""
    tree = ast.parse(owner_file.read_text())
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == owner)
    out = set()
    for node in cls.body:
        if isinstance(node, ast.FunctionDef):
            out.add(node.name)
        elif isinstance(node, ast.Assign):
            out |= {t.id for t in node.targets if isinstance(t, ast.Name)}
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            out.add(node.target.id)
    for node in ast.walk(cls):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(
            node, (ast.AugAssign, ast.AnnAssign)) else []
        for t in targets:
            for e in (t.elts if isinstance(t, ast.Tuple) else [t]):
                if isinstance(e, ast.Attribute) and isinstance(e.value, ast.Name) and e.value.id == "self":
                    out.add(e.attr)
    return out


def test_there_are_satellites_and_the_finder_finds_the_known_ones():
    names = {p.stem for p in satellites()}
    assert {"app_game", "app_powerup", "app_hint", "app_seats", "journal_load", "journal_more", "rounds_view",
            "rounds_final", "rounds_replay", "deadly_view", "deadly_replay", "puzzle_view", "puzzle_replay"} <= names
    assert "deadly_a" not in names and "ed_city" not in names


@pytest.mark.parametrize("path", satellites(), ids=lambda p: p.name)
def test_a_satellite_uses_exactly_the_owner_attributes_it_declares(path):
    declared = declarations(path)
    assert declared, f"{path.name}: no '# owner ...' line in its header"
    assert any(path.stem.startswith(Path(f).stem + "_") or path.stem.split("_")[0] == Path(f).stem
               for _, f, _, _ in declared), f"{path.name} is not named after its owner"
    tree = ast.parse(path.read_text())
    for owner, where, name, attrs in declared:
        assert used(tree, name) == attrs, (
            f"{path.name}: uses {sorted(used(tree, name))} of {owner} ({name}), declares {sorted(attrs)}")
        missing = attrs - has(ROOT / "firmware" / where, owner)
        assert not missing, f"{path.name} declares attributes {owner} does not have: {sorted(missing)}"


def test_modules_come_and_go_through_one_load_and_one_drop():
    """doodle/__init__.py's load() and drop(): no module of the firmware imports by a string or
    pops sys.modules itself (four hand-made copies of drop() were one)."""
    for p in sorted((ROOT / "firmware").rglob("*.py")):
        if p == DOODLE / "__init__.py":
            continue
        text = p.read_text()
        assert "__import__(" not in text, f"{p.relative_to(ROOT)} imports by a string: use doodle.load()"
        assert "sys.modules.pop" not in text, f"{p.relative_to(ROOT)} lets a module go itself: use doodle.drop()"
