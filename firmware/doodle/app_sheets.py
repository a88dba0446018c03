# doodlebox own sheets on the link (docs/protocol.md, "The table's sheets"): the PC's `sheet` chunks
# written to a file of their own and, once whole, checked (CRC, content, the game it is of) and
# renamed into place (doodle/ownsheet.py): the sheets held before stay as they were until then;
# its `use` and `drop` (got); the console's `sheets` (hello). Loaded for a frame and let go at once
# (doodle/app.py); the lobby's MENU+PASS (step).
# owner App (doodle/app.py) as app: _tx, edition, own, store
import json
from binascii import a2b_base64, crc32

from micropython import const

from doodle import drop, link, load

_CHUNK = const(240)   # bytes a chunk of 320 base64 characters carries (the last may carry fewer)
_MOST = const(6)      # sheets a console holds
_NAME = const("abcdefghijklmnopqrstuvwxyz0123456789-_")


def got(app, msg):
    """A `sheet`, `use` or `drop` from the PC; a frame that does not fit is answered with `err`."""
    own = load("ownsheet")
    try:
        t = msg["t"]
        if t == "sheet":
            _chunk(app, own, msg)
        elif t == "use":
            _use(app, own, msg)
        else:
            _drop(app, own, msg["x"])
    except (KeyError, TypeError, ValueError, IndexError) as e:
        _err(app, "bad %s: %s" % (msg.get("t"), e))
    drop("ownsheet")


def hello(app, own=None):
    """The console's `sheets` (after its hello, and after each change): what it holds, what each
    game plays, the PC's newest `use` taken."""
    mine = own is None
    if mine:
        own = load("ownsheet")
    _tidy(app, own)
    h = own.held(app.store)
    c = own.choices(app.store)
    xs = [x for _, _, x, _ in h]
    use = []
    for ed in c:
        if ed != "at" and c[ed] in xs:
            use.append([ed, xs.index(c[ed])])
    held = []
    for e, n, x, _ in h[:_MOST]:
        held.append([e, n, x])
    app._tx.append(link.encode({"t": "sheets", "held": held, "use": use, "at": c.get("at", 0)}))
    if mine:
        drop("ownsheet")


def step(app):
    """The lobby's MENU+PASS: the lobby's game plays the next sheet of it the console holds, then
    its default again."""
    own = load("ownsheet")
    ed = app.edition
    xs = [""]
    for e, _, x, _ in own.held(app.store):
        if e == ed:
            xs.append(x)
    now = own.choices(app.store).get(ed, "")
    own.choose(app.store, ed, xs[(xs.index(now) + 1) % len(xs)] if now in xs else "")
    hello(app, own)
    drop("ownsheet")


def _load(store, f):
    """The text of file f, or None when it is not there or the flash spoilt it (no UTF-8): then
    it goes (a part of a sheet begins again)."""
    try:
        return store.load(f)
    except ValueError:
        store.remove(f)
        return None


def _tidy(app, own):
    """A sheet left beside the one that replaced it (a power cut before it went): it goes now,
    unless a game is played on it. The one a game plays is the newer: the choices follow a sheet
    before it is put in place."""
    c = own.choices(app.store)
    h = own.held(app.store)
    for e, n, x, f in h:
        if c.get(e) == x:
            for e2, n2, x2, f2 in h:
                if e2 == e and n2 == n and x2 != x and x2 != app.own:
                    app.store.remove(f2)


def _err(app, why):
    app._tx.append(link.encode({"t": "err", "why": why[:120]}))


def _chunk(app, own, msg):
    store = app.store
    x, n, ed, i, of = msg["x"], msg["n"], msg["ed"], msg["i"], msg["of"]
    if len(x) != 12 or not n or len(n) > 16 or any([ch not in _NAME for ch in n]) or not 0 <= i < of <= 9:
        raise ValueError("sheet " + str(x)[:12])
    part = "sh/." + x
    have = 0
    if i == 0:                      # a sheet begun (again): what any other left half-written goes
        for f in store.files("sh/"):
            if f.startswith("sh/.") or f.endswith(".tmp"):
                store.remove(f)
    else:
        text = _load(store, part)
        if text is not None:
            have = len(text) // _CHUNK
            if len(text) % _CHUNK:  # a chunk cut short (the power): only the whole ones kept
                store.save(part, text[:have * _CHUNK])
    if i != have:
        app._tx.append(link.encode({"t": "got", "x": x, "i": have}))
        return
    store.append(part, a2b_base64(msg["d"]))
    if i + 1 < of:
        app._tx.append(link.encode({"t": "got", "x": x, "i": i + 1}))
        return
    text = _load(store, part) or ""
    store.remove(part)
    crc = "%08x" % crc32(text.encode())
    why = ""
    if crc != msg["crc"]:
        why = "checksum mismatch"
    else:
        try:
            d = json.loads(text)
            game = d.get("EDITION") or ("deadly" if "SIDE" in d else "")
            if d.get("SX") != x or d.get("SH") != n or game != ed:
                why = "not the sheet named"
        except ValueError:
            why = "not JSON"
    others = 0                      # the sheets it leaves held (the one a game is played on, too)
    same = []                       # the ones it replaces: of its game and name
    for e, m, h, f in own.held(store):
        if e == ed and m == n and h != x:
            same.append(f)
            if h == app.own:
                others += 1
        elif h != x:
            others += 1
    if not why and others >= _MOST:
        why = "the console holds %d sheets" % _MOST
    # the choices follow it first, then it is put in place, then the ones it replaces go (the one
    # a game is played on once it is over: app_game's close): a power cut after the first step
    # leaves a choice of a sheet not held (the default played until the PC sends it again at the
    # next hello), after the second both held (the older goes at the next hello: tidy)
    for f in same if not why else ():
        own.moved(store, f[-21:-9], x)
    name = "sh/%s.%s.%s.%s" % (ed, n, x, crc)
    if not why and not store.save(name, text):
        why = "the flash refused it (full?)"
        for f in same:
            own.moved(store, x, f[-21:-9])
    if why:
        _err(app, "sheet %s (%s): %s: not kept" % (x, n, why))
        return
    for f in same:
        if f[-21:-9] != app.own:
            store.remove(f)
    app._tx.append(link.encode({"t": "got", "x": x, "i": of}))
    hello(app, own)


def _use(app, own, msg):
    ed, x, at = msg["ed"], msg["x"], msg["at"]
    # the newest choice it has not taken (an equal `at`: another game's choice in the same batch)
    if at >= own.choices(app.store).get("at", 0) and (not x or own.name_of(app.store, x)):
        own.choose(app.store, ed, x, at)
    hello(app, own)


def _drop(app, own, x):
    if x == app.own:
        _err(app, "sheet %s: a game is being played on it: kept" % x)
        return
    for _, _, h, f in own.held(app.store):
        if h == x:
            app.store.remove(f)
    c = own.choices(app.store)
    for ed in c:
        if c[ed] == x:
            own.choose(app.store, ed, "")
    hello(app, own)
