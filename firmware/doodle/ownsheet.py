# doodlebox own sheets: the table's sheets the PC sent (docs/protocol.md, "The table's sheets"),
# held on flash as sh/<ed>.<name>.<hash>.<crc>, each the constants of a generated edition module
# (doodle/ed_<edition>.py) or map side (doodle/deadly_<side>.py) as JSON; the sheet each game plays
# (sh/use); a game's own sheet read into an object with those constants as attributes. Loaded for
# the moment and let go (RAM): the lobby's screen and ROLL, a game's start, the PC's frames.
import json
from binascii import crc32, unhexlify

from micropython import const

_USE = const("sh/use")


def held(store):
    """The sheets held, [(ed, name, hash, file)], by their files' names (a partial one, or one
    being written, is not held)."""
    out = []
    for f in sorted(store.files("sh/")) if store is not None else ():
        p = f[3:].split(".")
        if len(p) == 4 and len(p[2]) == 12 and len(p[3]) == 8:
            out.append((p[0], p[1], p[2], f))
    return out


def choices(store):
    """{ed: hash} of the games that play a sheet of the table's own, and "at": the newest `use` of
    the PC's taken (0: none); {} when there is none or it does not read."""
    text = store.load(_USE) if store is not None else None
    try:
        d = json.loads(text) if text else {}
        return d if isinstance(d, dict) else {}
    except ValueError:
        return {}


def choose(store, ed, x, at=0):
    """Game `ed` plays the sheet of hash x from now on ("": its default); `at`: the PC's `use`."""
    d = choices(store)
    if x:
        d[ed] = x
    else:
        d.pop(ed, None)
    if at:
        d["at"] = at
    store.save(_USE, json.dumps(d))


def name_of(store, x):
    """The name of the held sheet of hash x ("" when none is held)."""
    for ed, name, h, f in held(store):
        if h == x:
            return name
    return ""


def shown(store, ed):
    """The name of the sheet game `ed` plays, as the lobby shows it ("": its default)."""
    return name_of(store, choices(store).get(ed, ""))


def moved(store, x, new):
    """The games that played sheet x play `new` from now on (a sheet of the same name replaced it)."""
    d = choices(store)
    for ed in d:
        if d[ed] == x:
            d[ed] = new
            store.save(_USE, json.dumps(d))


def superseded(store, x):
    """Sheet x, its game over: if a sheet of its game and name came while it was played (and could
    not replace it then), x goes now and the choices follow the new one."""
    h = held(store)
    for e, n, hx, f in h:
        if hx == x:
            for e2, n2, hx2, f2 in h:
                if e2 == e and n2 == n and hx2 != x:
                    moved(store, x, hx2)     # (the choices first, as app_sheets does)
                    store.remove(f)
                    return


class Own:
    """A sheet of the table's own: the generated module's constants, as attributes."""


def _value(v):
    if isinstance(v, dict):
        if len(v) == 1 and "x" in v:      # bytes, as hex
            return unhexlify(v["x"])
        for k in v:
            v[k] = _value(v[k])
        return v
    if isinstance(v, list):
        out = []
        for x in v:
            out.append(_value(x))
        return tuple(out)
    return v


def read(store, x, ed=None):
    """The held sheet of hash x (of game `ed`, if given) as an Own, or None when none reads and
    checks: gone, or damaged (its CRC, its JSON, its hash)."""
    for e, name, h, f in held(store):
        if h != x or (ed is not None and e != ed):
            continue
        try:                        # (bytes the flash spoilt into no UTF-8: a ValueError too)
            text = store.load(f)
            if text is None or "%08x" % crc32(text.encode()) != f[-8:]:
                return None
            d = json.loads(text)
        except ValueError:
            return None
        if not isinstance(d, dict) or d.get("SX") != x or d.get("SH") != name:
            return None
        o = Own()
        for k in d:
            setattr(o, k, _value(d[k]))
        return o
    return None
