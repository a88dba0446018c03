# doodlebox journal at power-up: its state made and what the flash holds read back (docs/journal.md,
# power-up), for doodle/journal.py, which loads this module while it reads the flash and lets it
# go after.
# owner Journal (doodle/journal.py) as j: _acked, _acked_at, _acked_dirty, _boot_at, _cur, _ended,
#   _game, _kb, _ks, _mem, _named, _now, _page, _prune, _rec, _segs, _send, _sent_at, _todo, _top,
#   _urgent, _wait, _wat, _wbuf, _wdone, _wfirst, _wlen, _wn, boot, boot_saved, damaged, flash,
#   hello_due, keep_from, listed, loading, next, no_room, odd, open_game, resends, write_errors
import json

from micropython import const

from doodle import flashlog
from doodle.journal import RESEND_MS, _rare

_WBUF = const(1024)     # the RAM buffer records are made in (grown only while they cannot be written)


def begin(j, boot, boot_saved):
    """Journal(boot, flash, boot_saved): its state at power-up (without a flash, RAM's:
    flashlog.RamFlash), journal/acked read (the highest s the PC acknowledged, per boot) and the
    segments listed (j._todo: read by step)."""
    j.boot = boot
    if j.flash is None:
        j.flash = flashlog.RamFlash()
    flash = j.flash
    j.boot_saved = boot_saved
    j._boot_at = 0
    j.damaged = j.odd = j.listed = j.hello_due = 0
    j.next = 1
    j.resends = 0
    j._ended = False
    j.write_errors = 0
    j.no_room = False
    j._segs = []
    j._acked = {}
    j._acked_dirty = j._prune = False
    j._acked_at = 0
    j._wbuf = bytearray(_WBUF)
    j._wlen = j._wdone = 0
    j._mem = []
    j._wfirst = j._wn = j._wat = 0
    j._urgent = False
    j._cur = -1
    j._kb = []
    j._ks = []
    j._sent_at = 0
    j._wait = RESEND_MS
    j._send = None
    j._now = 0
    j.keep_from = j.open_game = j._game = None
    j._named = [0, ""]
    j._rec = None
    j._page = bytearray(flashlog.PAGE)
    j._todo = flashlog.segments(flash)
    j._top = j._todo[-1] if j._todo else 0
    j.loading = True
    text = flash.load("journal/acked")
    if text:
        for line in text.split("\n"):
            words = line.split()
            if len(words) == 2 and words[0].isdigit() and words[1].isdigit():
                j._acked[int(words[0])] = int(words[1])


def step(j):
    """Journal.load_step: one more segment read (True while more are to be read)."""
    todo = j._todo
    if todo:
        num = todo.pop(0)
        name = flashlog.seg_name(num)
        seg = [num, 0, 0, 0, 0]
        box = [j._game, seg]
        end, skipped = flashlog.scan(j.flash, name, j._page, _record(box))
        j._game = box[0]
        j.damaged += skipped
        if seg[2] == 0:
            j.flash.remove(name)      # nothing whole in it
        else:
            seg[4] = end
            j._segs.append(seg)
    if todo:
        return True
    if j.loading:
        j.loading = False
        j._page = None
        if j._game is not None:
            j.open_game = j._game
            j.keep_from = (j._game[0][0], j._game[0][1])
        j._game = None
        j._send = _rare("locate_oldest", j)
        for name in j.flash.files(flashlog.DIR):
            if name != "journal/acked" and flashlog.seg_number(name) < 0 and not name.endswith(".tmp"):
                j.odd += 1
    return False


def _record(box):
    """What step does with each whole record: box = [the open game's parts, the segment's
    entry [number, boot, first s, last s, bytes]]."""
    def fn(page, boot, s, a, e, at):
        seg = box[1]
        if seg[2] == 0:
            seg[1], seg[2] = boot, s
        seg[3] = s
        game = box[0]
        if page.find(b'"k":"game"', a, e) >= 0:
            box[0] = [[boot, s, s]]
        elif game is None:
            pass
        elif page.find(b'"k":"end"', a, e) >= 0:
            box[0] = None
        elif page.find(b'"k":"resume"', a, e) >= 0:
            game.append([boot, s, s])
        elif game[-1][0] == boot:
            game[-1][2] = s
        return False
    return fn


def replay(j, parts, apply):
    """Journal.replay: apply(event) for each event of a game's parts, in order."""
    page = bytearray(flashlog.PAGE)
    for boot, first, last in parts:
        for num, b, f, top, size in j._segs:
            if b != boot or top < first or f > last:
                continue

            def fn(p, rb, s, a, e, at, first=first, last=last):
                if first <= s <= last:
                    apply(json.loads(bytes(memoryview(p)[a:e])))
                return False

            flashlog.scan(j.flash, flashlog.seg_name(num), page, fn)
