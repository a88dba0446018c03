# doodlebox journal's rare steps (doodle/journal.py): the send cursor moved (a hi, a nak, an ack
# past it, a damaged record), the boots the hello names, the RAM buffer grown. Loaded for each
# of them and let go after (RAM: the journal does not hold their bytecode while a game is
# played). What runs every few seconds with a PC (journal/acked written, a segment let go) stays
# in the journal: a module loaded then cost ~4.5 KB of garbage and ~8 ms in the VM each time.
# owner Journal (doodle/journal.py) as j: _acked, _page, _segs, _send, _wbuf, _wlen, boot, first,
#   flash, listed, next
from doodle import flashrec
from doodle.journal import HELD_MAX


def held_boots(j, since):
    """Journal.held_boots."""
    out = []  # type: list[list[int]]
    for num, boot, first, last, size in j._segs:
        if boot == j.boot:
            break
        if boot < since:
            continue
        acked = j._acked.get(boot, 0)
        if last > acked:
            if out and out[-1][0] == boot:
                out[-1][2] = last + 1
            elif len(out) < HELD_MAX - 1:
                out.append([boot, max(first, acked + 1), last + 1])
            else:
                break
    j.listed = out[-1][0] if out else since
    out.append([j.boot, j.first(), j.next])
    return out


def rewind(j, boot, s):
    """Journal.rewind: the cursor at event s of `boot`, or at the oldest not acknowledged."""
    j._send = locate_oldest(j) if not boot else locate(j, boot, max(s, j._acked.get(boot, 0) + 1))


def locate_oldest(j):
    """The cursor of the oldest event not acknowledged (after the last one if there is none)."""
    for num, boot, first, last, size in j._segs:
        if last > j._acked.get(boot, 0):
            return locate(j, boot, j._acked.get(boot, 0) + 1)
    if j._segs:
        seg = j._segs[-1]
        return [seg[1], seg[3] + 1, seg[0], seg[4]]
    return None


def locate(j, boot, s):
    """The cursor of record s of `boot` (the first one after it if it is gone)."""
    for num, b, first, last, size in j._segs:
        if b > boot or (b == boot and last >= s):
            if b != boot or s <= first:
                return [b, first, num, 0]
            found = find(j, num, lambda p, rb, rs, a, e, at: rs >= s)
            if found is not None:
                return [b, s, num, found[1]]      # s itself, or a stand-in for it if it was lost
            return [b, last + 1, num, size]
    return locate_oldest(j)


def find(j, num, want, start=0):
    """(s, offset) of the first whole record of segment `num` from byte `start` that
    want(page, boot, s, a, e, at) accepts, or None."""
    box = [None]  # type: list

    def fn(p, b, s, a, e, at):
        if want(p, b, s, a, e, at):
            box[0] = (s, at)
            return True
        return False

    from doodle import flashlog  # (let go with this module)

    flashlog.scan(j.flash, flashrec.seg_name(num), j._page or bytearray(flashrec.PAGE), fn, start)
    return box[0]


def grow(j, need):
    """A bigger RAM buffer (records that cannot be written yet; the app refuses presses once
    4 KB wait)."""
    old = j._wbuf
    j._wbuf = bytearray(max(2 * len(old), j._wlen + need))
    j._wbuf[:j._wlen] = memoryview(old)[:j._wlen]
