"""The wheel carries what the package runs outside a checkout (docs/install.md): the firmware files
(firmware/) as doodlebox/firmware/ and the board's data (hardware/) as doodlebox/hardware/board/;
doodlebox/paths.py finds them there, and in a checkout finds firmware/ and hardware/ themselves.
Everything else is pyproject.toml's."""
import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
CARRIED = {"firmware": "doodlebox/firmware", "hardware": "doodlebox/hardware/board"}


class BuildPy(build_py):
    """setuptools' build_py, then the carried folders copied into the build (not for an editable
    install: it reads the checkout's own)."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        for src, dest in CARRIED.items():
            target = Path(self.build_lib) / dest
            shutil.rmtree(target, ignore_errors=True)
            shutil.copytree(HERE / src, target, ignore=shutil.ignore_patterns("__pycache__", "*.pyc", ".*"))


setup(cmdclass={"build_py": BuildPy})
