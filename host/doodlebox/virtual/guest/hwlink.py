# The guest's line to the host's hardware models (host/doodlebox/virtual/hardware.py).
# Runs in the MicroPython VM (through the VM's `host.call`) and under CPython (through the
# function the host puts in `_backend`). Never loaded on a real Pico.
import json
import sys

_host = None
if sys.implementation.name == "micropython":
    try:
        import host as _host
    except ImportError:
        pass

_backend = None  # under CPython: fn(name, *args) -> value answers every call()


def call(name, *args):
    """Call host function `name`; returns its JSON value, RuntimeError if it failed."""
    if _host is not None:
        r = json.loads(_host.call(name, json.dumps({"args": args})))
        if not r.get("ok"):
            raise RuntimeError(r.get("error", "host call failed"))
        return r.get("value")
    if _backend is None:
        raise RuntimeError("hwlink: no host")
    return _backend(name, *args)
