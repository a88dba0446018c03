# doodlebox's core: no hardware here (docs/architecture.md). A module of the core is loaded by
# its name and let go again when RAM must not hold it: load() and drop(), the one way for all.
import sys


def load(name):
    """doodle.<name>, loaded now if it is not."""
    return __import__("doodle." + name, None, None, ("x",))


def drop(name, pkg="doodle"):
    """Let <pkg>.<name> go: once nothing else holds it, the next collection frees it."""
    sys.modules.pop(pkg + "." + name, None)
    m = sys.modules.get(pkg)
    if m is not None and hasattr(m, name):
        delattr(m, name)
