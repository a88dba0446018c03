# doodlebox journal: every event written to flash before it is sent, kept until the PC has
# stored it, sent again after a pulled cable, a killed logger or a power cut (docs/journal.md).
# Over the link it is go-back-N (docs/protocol.md): at most WINDOW frames in flight, all of
# them again after a timeout. `flash` is the board's files (board/flash.py); without one the
# records live in RAM (flashlog.RamFlash). A record's bytes are doodle/flashrec.py; what is done
# rarely is in doodle/journal_load.py (power-up) and doodle/journal_more.py, loaded for it (RAM).

from micropython import const

from doodle import drop, flashrec, link, load

# (the names with a leading _ are const(): mpy-cross puts their values where they are used, so
# they cost no global and no interned name; the others are read by other modules and tests)
WINDOW = const(8)
RESEND_MS = const(1000)
_RESEND_MAX_MS = const(30000)  # back off while no host answers
_BLOCK = const(512)     # records are written to flash this many bytes at a time ...
FLUSH_MS = const(200)   # ... or when the oldest has waited this long
SEGMENT = const(8192)   # a segment file is closed before it passes this size
BUDGET = const(32)      # segments on flash at most (256 KB)
_RAM_MAX = const(4096)  # records waiting in RAM for room on flash: more, and the journal is full
_ACKED = const("journal/acked")
ACKED_EVERY_MS = const(10000)  # journal/acked is written at most this often while acknowledgements come in ...
_ACKED_MIN_MS = const(1000)    # ... and this often once the PC has every event held (a short boot keeps its acks)
HELD_MAX = const(8)     # boots named in the hello (the oldest, and this one): a frame of 512 bytes holds them
_BOOT_RETRY_MS = const(1000)   # an unsaved boot number is written again this often (nothing is sent until it is)
_LOST = const(b'{"k":"lost"}')  # sent for an event whose record the flash lost (docs/protocol.md, "lost")


class Journal:
    """Events numbered per boot (s from 1), on flash, until acknowledged.

    At power-up it reads what the flash holds: the events the PC has not acknowledged (of any
    boot) are sent first, and `open_game` is the last game if it has no end (the parts of the
    log it spans: [[boot, first s, last s], ...], so the app can resume it)."""

    # its state, set at power-up by doodle/journal_load.py (begin), which reads the flash
    boot: int
    boot_saved: bool          # boot.txt holds this boot's number: until then nothing is written or sent
    _boot_at: int             # when the boot's number was last written again (save_boot)
    damaged: int              # bytes of the journal found damaged at power-up and skipped
    odd: int                  # files in journal/ that are not the journal's (left alone)
    listed: int               # the newest older boot the last hello named
    hello_due: int            # a boot the hello did not name is next to send: a hello from it first
    next: int                 # the number the next event of this boot gets
    resends: int
    _ended: bool
    write_errors: int         # writes the flash refused (the records wait in RAM)
    no_room: bool             # the budget is full of what the PC has not stored: records wait in RAM
    _segs: list[list[int]]    # [number, boot, first s, last s, bytes] per segment, oldest first
    _acked: dict[int, int]    # boot -> the highest s the PC acknowledged
    _acked_dirty: bool
    _prune: bool              # journal/acked names a boot with no segment left: written again soon
    _acked_at: int
    _wbuf: bytearray          # records made here, in place: [0, _wdone) written this pump,
    _wlen: int                # [_wdone, _wlen) waiting to be written
    _wdone: int
    _mem: list[list[int]]     # [segment, offset there, offset in _wbuf, bytes] written this pump
    _wfirst: int              # the s of the first of them
    _wn: int                  # how many
    _wat: int                 # when the oldest was made
    _urgent: bool             # write them at the next pump (a game ended)
    _cur: int                 # this boot's segment being filled (its index), -1: none yet
    _kb: list[int]            # the boot ... (of each frame sent, not acknowledged, oldest first:
    _ks: list[int]            # ... and s     a resend reads them again, no frame is kept)
    _sent_at: int
    _wait: int
    _send: list[int] | None   # [boot, s, segment number, offset] of the next to send
    _now: int
    keep_from: tuple[int, int] | None  # (boot, s): the game being played begins here: its segments stay
    open_game: list[list[int]] | None  # the last game on flash if it has no end
    _game: list[list[int]] | None      # ... while the segments are read
    _named: list              # _name's: the last segment number and its name
    _rec: bytearray | None    # one record read back from flash: made while older records are
    # sent, let go once the sending has caught up (RAM)
    _page: bytearray | None   # segments read through it while loading
    _top: int                 # the highest segment number (new ones are numbered after it)
    _todo: list[int]          # segments still to be read (load_step)
    loading: bool             # the segments are read by load_step, one per collection

    def __init__(self, boot, flash=None, boot_saved=True):
        self.flash = flash        # board/flash.py's Flash (without one: flashlog.RamFlash, begin's)
        load("journal_load").begin(self, boot, boot_saved)   # its state, the segments listed
        if not self._todo:
            self.load_step()      # nothing to read: loaded at once

    # -- what is held ----------------------------------------------------------------------
    def held(self):
        """Events the PC has not acknowledged (on flash and waiting in RAM)."""
        n = self._wn
        for num, boot, first, last, size in self._segs:
            n += max(0, last - max(first - 1, self._acked.get(boot, 0)))
        return n

    def first(self):
        """The oldest event of this boot still held (next when none is)."""
        return max(self._acked.get(self.boot, 0) + 1, 1) if self.next > 1 else self.next

    def held_boots(self, since=0):
        """[[boot, first, next]] for the oldest boots from `since` with events held (HELD_MAX - 1
        of them at most: they are sent first; the next hello names the next ones), then this
        boot (hello.held, docs/protocol.md)."""
        return _rare("held_boots", self, since)

    def last_sent(self):
        """[boot, s] of the newest event sent and not acknowledged, or None."""
        return [self._kb[-1], self._ks[-1]] if self._ks else None

    def full(self):
        """No room for another game: the flash is at its budget with nothing reclaimable, or
        too much waits in RAM. (A game already begun goes on while RAM allows.)"""
        if self._wlen >= _RAM_MAX:
            return True
        return len(self._segs) >= BUDGET and not self._reclaimable()

    def blocked(self):
        """Nothing more can be kept: the journal refuses presses (the PC must come)."""
        return self._wlen >= _RAM_MAX

    # -- adding ----------------------------------------------------------------------------
    def add(self, event):
        """Keep an event: written to flash soon (pump), sent once written. Returns its s."""
        s = self.next
        self.next += 1
        if not self._wn:
            self._wfirst = s
            self._wat = self._now
        at = self._wlen
        if at + flashrec.RECORD_MAX > len(self._wbuf):
            _rare("grow", self, flashrec.RECORD_MAX)
        n = link.put_event(event, self._wbuf, at + flashrec.HEAD) - at - flashrec.HEAD   # the payload, in place
        self._wlen = flashrec.seal(self._wbuf, at, self.boot, s, n)
        self._wn += 1
        return s

    def game_began(self, s):
        """The game whose first event is s: its records stay on flash until it ends."""
        self.keep_from = (self.boot, s)

    def game_ended(self):
        self.keep_from = None
        self._urgent = True      # written at once
        self._ended = True       # and the acknowledgements kept once the PC has it all

    # -- the link --------------------------------------------------------------------------
    def ack(self, boot, s):
        """The PC has stored every event of `boot` up to s."""
        self._wait = RESEND_MS
        if s <= self._acked.get(boot, 0):
            return
        self._acked[boot] = s
        self._acked_dirty = True
        if self._ended and not self._wn and self.held() == 0:
            self._ended = False      # the PC has every event of a game that ended: kept at once
            self._urgent = True
        kb, ks = self._kb, self._ks
        n = 0
        while n < len(ks) and (kb[n] < boot or (kb[n] == boot and ks[n] <= s)):
            n += 1
        if n:
            del kb[:n]
            del ks[:n]
        snd = self._send
        if snd is not None and not ks and (snd[0] < boot or (snd[0] == boot and snd[1] <= s)):
            self._send = _rare("locate_oldest", self)

    def rewind(self, boot=0, s=0):
        """Send again from event s of `boot` (a nak), or from the oldest not acknowledged
        (boot 0: the PC said hi)."""
        self._wait = RESEND_MS
        del self._kb[:]
        del self._ks[:]
        _rare("rewind", self, boot, s)

    def pump(self, now, out):
        """Write what waits (in blocks), then append to `out` the frames to send now: new ones
        up to the window, all in flight again after a timeout (read again from flash: RAM).
        Returns how many."""
        self._now = now
        if self.loading or not self.boot_saved:
            return 0
        if self._wn and (self._urgent or self._wlen >= _BLOCK or now - self._wat >= FLUSH_MS):
            while self._wn and self._write_some():   # until all are written, or some must wait
                pass
        if self._acked_dirty or self._prune:
            since = now - self._acked_at
            if (self._urgent or since >= ACKED_EVERY_MS
                    or (since >= _ACKED_MIN_MS and not self._wn and self.held() == 0)):
                self._save_acked(now)
        if not self._acked_dirty and len(self._segs) > 1 and self._cur != 0 and self._reclaimable():
            self._reclaim()          # acknowledged, and the acknowledgement on flash: let it go
        self._urgent = False
        n = 0
        if self._ks and now - self._sent_at >= self._wait:   # no ack in time: all of them again
            wait = self._wait
            self.rewind(self._kb[0], self._ks[0])
            self._wait = min(wait * 2, _RESEND_MAX_MS)
            self.resends += 1
        while len(self._ks) < WINDOW and self._send is not None:
            if not self._ks:
                self._sent_at = now
            frame = self._read_next()
            if frame is None:
                break
            out.append(frame)
            n += 1
        if self._wdone:                      # what was written is read from flash from now on
            left = self._wlen - self._wdone
            if left:
                self._wbuf[:left] = bytes(memoryview(self._wbuf)[self._wdone:self._wlen])
            self._wlen = left
            self._wdone = 0
            del self._mem[:]
        return n

    # -- flash ---------------------------------------------------------------------------------
    def save_boot(self, now):
        """This boot's number, refused by the flash at power-up, written again (at most every
        _BOOT_RETRY_MS); until it is on flash nothing is written or sent (docs/journal.md)."""
        if not self.boot_saved and (now - self._boot_at >= _BOOT_RETRY_MS or not self._boot_at):
            self._boot_at = now or 1
            from doodle import bootnum
            self.boot_saved = bootnum.save(self.flash, self.boot)
            _unload("bootnum")

    def _write_some(self):
        """Write as many of the waiting records as fit in this boot's segment being filled, or
        in a new one when it is full (a segment never passes SEGMENT bytes). False when they
        must wait: no room (the budget is full of events the PC has not stored), or the flash
        refused the write (write_errors; tried again at the next pump)."""
        segs = self._segs
        cur = segs[self._cur] if self._cur >= 0 else None
        take, k = self._fit(SEGMENT - cur[4] if cur is not None else 0)
        if cur is None or not k:             # a new segment
            if len(segs) >= BUDGET:
                if not self._reclaimable():
                    self.no_room = True      # they wait in RAM until the PC takes some
                    return False
                self._reclaim()
            num = self._top + 1
            cur = [num, self.boot, self._wfirst, self._wfirst - 1, 0]
            take, k = self._fit(SEGMENT)
            if self._acked:
                self._acked_dirty = True     # a segment closed: the acknowledgements kept too
        done = self._wdone
        try:
            self.flash.append(self._name(cur[0]), memoryview(self._wbuf)[done:done + take])
        except OSError:
            # a write that failed may have left part of a record: the next goes to a new
            # segment, and a reader stops at the part (docs/journal.md, Records)
            self.write_errors += 1
            self._cur = -1
            self._wat = self._now
            if cur[4] == 0:
                self.flash.remove(flashrec.seg_name(cur[0]))
            return False
        self.no_room = False
        if cur[4] == 0:
            segs.append(cur)
            self._cur = len(segs) - 1
            self._top = cur[0]
        at = cur[4]
        cur[3] = self._wfirst + k - 1
        cur[4] += take
        if self._send is None:
            self._send = [self.boot, self._wfirst, cur[0], at]
        self._mem.append([cur[0], at, done, take])   # sent from RAM while this pump lasts
        self._wdone = done + take
        self._wfirst += k
        self._wn -= k
        return True

    def _fit(self, room):
        """(bytes, records) of the waiting records, from the first, that fit in `room`."""
        buf = self._wbuf
        start = at = self._wdone
        k = 0
        while k < self._wn:
            end = at + flashrec.HEAD + (buf[at + 1] | buf[at + 2] << 8) + flashrec.TAIL
            if end - start > room:
                break
            at = end
            k += 1
        return at - start, k

    def _reclaimable(self):
        """The oldest segment: every record acknowledged, and not the game being played's."""
        num, boot, first, last, size = self._segs[0]
        if last > self._acked.get(boot, 0):
            return False
        keep = self.keep_from
        return keep is None or boot < keep[0] or (boot == keep[0] and last < keep[1])

    def _reclaim(self):
        """The oldest segment deleted (every record acknowledged, the acknowledgement on flash)."""
        num, boot = self._segs[0][0], self._segs[0][1]
        self.flash.remove(flashrec.seg_name(num))
        del self._segs[0]
        if boot in self._acked and (not self._segs or self._segs[0][1] != boot):
            self._prune = True       # its boot's last segment: journal/acked names it no more
        if self._cur > 0:
            self._cur -= 1
        snd = self._send
        if snd is not None and snd[2] == num:   # it pointed past the end of what was let go
            nxt = self._segs[0] if self._segs else None
            self._send = None if nxt is None else [nxt[1], nxt[2], nxt[0], 0]

    def _save_acked(self, now):
        """journal/acked: the acknowledgement of each boot that still has a segment, this boot's
        and the highest boot's (the boot counter's second source: doodle/bootnum.py)."""
        acked = self._acked
        top = max(acked)
        for boot in [b for b in acked if b != top and b != self.boot]:
            for seg in self._segs:
                if seg[1] == boot:
                    break
            else:
                del acked[boot]
        if self.flash.save(_ACKED, "".join("%d %d\n" % (b, s) for b, s in acked.items())) is not False:
            self._acked_dirty = self._prune = False
        self._acked_at = now

    def _read_next(self):
        """The frame of the record at the send cursor (and the cursor moves on), or None."""
        snd = self._send
        if snd is None:
            return None
        boot, s, num, at = snd
        seg = nxt = None
        for sg in self._segs:                # the cursor's segment, and the one after it
            if sg[0] == num:
                seg = sg
            elif sg[0] > num:
                nxt = sg
                break
        if seg is None or at >= seg[4]:
            if nxt is None:
                self._rec = None             # caught up: what comes next is sent from RAM
                return None
            if nxt[1] != boot:               # another boot: its first whole record is next
                if nxt[1] != self.boot and nxt[1] > self.listed:
                    self.hello_due = nxt[1]  # one the hello did not name: a hello first
                    self.listed = nxt[1]
                    return None
                snd[1] = nxt[2]
            snd[0], snd[2], snd[3] = nxt[1], nxt[0], 0
            return self._read_next()
        for mnum, mat, bat, size in self._mem:        # just written: still in RAM
            if mnum == num and mat <= at < mat + size:
                data = memoryview(self._wbuf)[bat + at - mat:bat + size]
                break
        else:
            rec = self._rec
            if rec is None:
                rec = self._rec = bytearray(flashrec.RECORD_MAX)
            data = memoryview(rec)[:self.flash.readinto(self._name(num), rec, at)]
        r = flashrec.read_at(data, 0)
        if r is None:                        # damaged bytes: on to the next whole record
            found = _rare("find", self, num, lambda *_: True, at + 1)   # (any whole record)
            snd[3] = seg[4] if found is None else found[1]
            return self._read_next()
        b, s, a, e, nx = r
        if b == boot and s > snd[1]:         # records of this boot lost to damage: a stand-in each
            s = snd[1]
            snd[1] = s + 1
            self._kb.append(b)
            self._ks.append(s)
            return link.event_frame(b, s, _LOST)
        snd[0], snd[1], snd[3] = b, s + 1, at + nx
        self._kb.append(b)
        self._ks.append(s)
        return link.event_frame(b, s, data[a:e])

    def _name(self, num):
        """A segment's file name (the last one asked for is kept: no string made per write)."""
        if num != self._named[0]:
            self._named[0], self._named[1] = num, flashrec.seg_name(num)
        return self._named[1]

    # -- power-up: doodle/journal_load.py, loaded while the flash is read (RAM) ---------------------
    def load_step(self):
        """Read one more segment of what the flash holds (one at a time, a collection between
        them). Returns True while more are to be read; once all are, `open_game` is known, the
        damage found is in `damaged` and the events held are sent at the next `hi`."""
        more = load("journal_load").step(self)
        if not more:
            _unload()
        return more

    def replay(self, parts, apply):
        """Call apply(event) for each event of a game's parts ([[boot, first, last], ...]), in
        order, read back from flash (docs/journal.md, power-up)."""
        load("journal_load").replay(self, parts, apply)
        _unload()


def _rare(name, *args):
    """doodle/journal_more.py's `name`(*args): the module loaded for it and let go after (RAM)."""
    r = getattr(load("journal_more"), name)(*args)
    _unload("journal_more")
    return r


def _unload(name="journal_load"):
    """Let doodle/<name>.py go, and doodle/flashlog.py, which it loads (the next collection frees
    them)."""
    drop(name)
    drop("flashlog")
