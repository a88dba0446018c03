"""docs/architecture.md names every module of the firmware and of the host package by its path,
and names none that does not exist; the layering it states holds."""
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
