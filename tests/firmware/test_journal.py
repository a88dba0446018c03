"""The console's journal on flash (docs/journal.md) under CPython: records and torn writes,
write before send, acknowledgements that survive a reboot, the budget and its reclaiming, the
game left unfinished at a power cut, go-back-N over the link. The flash is flashlog.RamFlash
(its `cut` tears a write at any byte) or board/flash.py on a real folder."""
import json
import sys
from pathlib import Path

import fw_events
import pytest

from board.flash import Flash
from doodle import flashlog, journal, link
from doodle.app import App
from doodle.flashlog import RamFlash
from doodle.journal import Journal

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "guest"))
import table_script  # tests/guest: a scripted game for the firmware core


def claim(n):
    """An event the size of a real claim (~100 bytes)."""
    return {"k": "claim", "g": 1, "r": n // 4 + 1, "p": n % 3, "i": 2, "d": 4, "row": 2, "col": 3,
            "v": n % 7, "pc": "NS"}


def frames(out):
    """The events in frames sent: [(boot, s, event)]."""
    got = []
    for f in out:
        msg, why = link.decode(f)
        assert why is None, why
        got.append((msg["boot"], msg["s"], msg["e"]))
    return got


def boot(flash, number):
    """A journal as the console makes it at power-up: every segment read, a step at a time."""
    j = Journal(number, flash)
    while j.load_step():
        pass
    return j


def drain(j, now, ack=True):
    """Pump until nothing more is sent; acknowledge what comes (as a stored PC would)."""
    got = []
    for _ in range(1000):
        out: list = []
        now += journal.FLUSH_MS
        j.pump(now, out)
        if not out:
            return got, now
        got += frames(out)
        if ack:
            for b, s, _ in frames(out):       # per boot: up to the last of each
                j.ack(b, s)
    raise AssertionError("the journal never stopped sending")


# -- records --------------------------------------------------------------------------------------
def test_a_record_is_read_back_and_a_changed_byte_costs_only_its_own_record():
    data = flashlog.record(7, 42, b'{"k":"x"}') + flashlog.record(7, 43, b'{"k":"y"}')
    assert flashlog.read_at(data, 0)[:2] == (7, 42)

    def whole(b):
        flash = RamFlash()
        flash.data["journal/00000001.seg"] = bytearray(b)
        got = []
        _end, skipped = flashlog.scan(flash, "journal/00000001.seg", bytearray(flashlog.PAGE),
                                     lambda p, boot, s, a, e, at: got.append((boot, s, bytes(p[a:e]))) and False)
        return got, skipped

    assert whole(data)[0] == [(7, 42, b'{"k":"x"}'), (7, 43, b'{"k":"y"}')]
    for at in range(len(data)):
        bad = bytearray(data)
        bad[at] ^= 0x10
        got, skipped = whole(bad)
        # a spoiled first record: the second is still read (it was lost before issue 17)
        assert [s for _, s, _ in got] == ([43] if at < len(data) // 2 else [42])
        # damage before a whole record is counted (said at power-up); a spoiled last record is
        # what a torn write leaves, not counted
        assert skipped == (len(data) // 2 if at < len(data) // 2 else 0)
    with pytest.raises(ValueError):
        flashlog.record(1, 1, b"x" * (flashlog.MAX_PAYLOAD + 1))


def test_segment_names_sort_in_order_and_other_files_are_not_segments():
    assert flashlog.seg_name(42) == "journal/00000042.seg"
    assert flashlog.seg_number("journal/00000042.seg") == 42
    assert flashlog.seg_number("journal/acked") == -1 and flashlog.seg_number("journal/0000004x.seg") == -1


# -- write before send --------------------------------------------------------------------------
def test_nothing_is_sent_before_it_is_on_flash():
    flash = RamFlash()
    j = boot(flash, 1)
    j.add(claim(1))
    out: list = []
    assert j.pump(10, out) == 0 and not flashlog.segments(flash)      # waiting in RAM: not sent
    assert j.pump(10 + journal.FLUSH_MS, out) == 1                     # 200 ms: written, then sent
    assert flashlog.segments(flash) == [1] and frames(out) == [(1, 1, claim(1))]
    for n in range(2, 9):                                              # a block of 512 bytes: at once
        j.add(claim(n))
    assert j.pump(11 + journal.FLUSH_MS, out) == 7
    j.add({"k": "end", "g": 1, "r": 9, "why": "menu", "p": [1, 2, 3]})
    j.game_ended()                                                     # a game's end: at once
    assert j.pump(12 + journal.FLUSH_MS, out) == 0                     # the window of eight is full
    j.ack(1, 8)
    assert j.pump(13 + journal.FLUSH_MS, out) == 1 and frames(out)[-1][2]["k"] == "end"


def test_acks_naks_resends_and_the_back_off():
    j = boot(RamFlash(), 3)
    for n in range(12):
        assert j.add(claim(n)) == n + 1
    out: list = []
    assert j.pump(journal.FLUSH_MS, out) == journal.WINDOW              # go-back-N: eight in flight
    assert j.pump(journal.FLUSH_MS + 10, out) == 0
    t = journal.FLUSH_MS + journal.RESEND_MS
    assert j.pump(t, out) == journal.WINDOW and j.resends == 1          # no ack: all of them again
    assert out[:8] == out[8:16]
    assert j.pump(t + journal.RESEND_MS, out) == 0                      # the wait doubles ...
    assert j.pump(t + 2 * journal.RESEND_MS, out) == journal.WINDOW     # ... while no PC answers
    j.ack(3, 2)
    assert j.first() == 3 and j.held() == 10 and j.last_sent() == [3, 8]
    assert j.pump(t + 2 * journal.RESEND_MS + 1, out) == 2              # the window moved on by two
    del out[:]
    j.rewind(3, 5)                                                      # a nak: from 5 again
    j.pump(t + 3 * journal.RESEND_MS, out)
    assert [s for _, s, _ in frames(out)] == [5, 6, 7, 8, 9, 10, 11, 12]
    j.ack(3, 12)
    assert j.held() == 0 and j.first() == 13 and j.held_boots() == [[3, 13, 13]]


def test_a_frame_read_back_from_flash_is_the_frame_the_console_encodes():
    j = boot(RamFlash(), 5)
    ev = {"k": "roll", "g": 2, "r": 1, "sp": 0, "c": 6, "w": [1, 2, 3, 4]}
    j.add(dict(ev))
    out: list = []
    j.pump(journal.FLUSH_MS, out)
    assert out == [fw_events.frame(5, 1, ev)]


# -- power cuts ---------------------------------------------------------------------------------
def test_a_write_torn_at_every_byte_keeps_every_whole_record_and_loses_no_later_one():
    first = [claim(n) for n in range(5)]
    second = [claim(n) for n in range(5, 9)]
    block = b"".join(flashlog.record(1, 6 + i, fw_events.payload(e)) for i, e in enumerate(second))
    bounds = [len(b"".join(flashlog.record(1, 6 + i, fw_events.payload(e)) for i, e in enumerate(second[:k])))
              for k in range(len(second) + 1)]
    for cut in range(len(block)):
        flash = RamFlash()
        j = boot(flash, 1)
        for e in first:
            j.add(e)
        j.pump(journal.FLUSH_MS, [])
        for e in second:
            j.add(e)
        flash.cut = cut                          # the power goes in the middle of this write
        j.pump(2 * journal.FLUSH_MS, [])
        whole = max(k for k in range(len(second) + 1) if bounds[k] <= cut)
        j2 = boot(flash, 2)                      # power-up: what the flash holds
        assert j2.held_boots() == [[1, 1, 6 + whole], [2, 1, 1]], cut
        j2.add({"k": "x", "n": 1})               # this boot's events go to a new segment
        j2.rewind()
        got, now = drain(j2, 0)
        assert got == ([(1, s + 1, e) for s, e in enumerate(first + second[:whole])]
                       + [(2, 1, {"k": "x", "n": 1})]), cut
        j2.pump(now + journal.ACKED_EVERY_MS, [])   # the acknowledgements written
        j3 = boot(flash, 3)                      # and the next power-up still reads them all
        assert j3.held() == 0 and j3.held_boots() == [[3, 1, 1]]


def test_a_segment_with_nothing_whole_is_removed_at_power_up():
    flash = RamFlash()
    flash.append(flashlog.seg_name(1), b"\xa5\x05")
    assert boot(flash, 2).held() == 0 and flashlog.segments(flash) == []


def test_acknowledgements_survive_a_reboot():
    flash = RamFlash()
    j = boot(flash, 1)
    for n in range(6):
        j.add(claim(n))
    j.game_ended()
    drain(j, 0)
    assert j.held() == 0
    assert boot(flash, 2).held() == 0          # written once the PC had everything: none sent again
    j = boot(flash, 2)
    j.add(claim(1))
    j.add(claim(2))
    j.pump(journal.FLUSH_MS, [])
    j.ack(2, 1)                               # one of two: not yet written to journal/acked ...
    j.pump(journal.FLUSH_MS + 1, [])
    assert boot(flash, 3).held_boots() == [[2, 1, 3], [3, 1, 1]]   # ... so the PC gets it again
    j.pump(journal.FLUSH_MS + journal.ACKED_EVERY_MS, [])           # (at most 10 s later it is)
    assert boot(flash, 3).held_boots() == [[2, 2, 3], [3, 1, 1]]


def test_the_unfinished_game_is_found_across_boots():
    flash = RamFlash()
    j = boot(flash, 1)
    j.add({"k": "game", "g": 1, "ed": "city", "n": 2, "var": ""})
    j.add(claim(1))
    j.add({"k": "end", "g": 1, "r": 1, "why": "menu", "p": [0, 0]})
    j.game_ended()
    j.pump(0, [])
    assert boot(flash, 2).open_game is None            # every game ended
    j = boot(flash, 2)
    s = j.add({"k": "game", "g": 1, "ed": "city", "n": 2, "var": ""})
    j.game_began(s)
    j.add(claim(2))
    j.add(claim(3))
    j.pump(journal.FLUSH_MS, [])
    j.add(claim(4))                                    # in RAM at the power cut: lost
    j = boot(flash, 3)
    assert j.open_game == [[2, 1, 3]] and j.keep_from == (2, 1)
    seen: list = []
    j.replay(j.open_game, seen.append)
    assert [e["k"] for e in seen] == ["game", "claim", "claim"]
    j.add({"k": "resume", "g": 1, "of": [2, 1], "at": 3, "r": 1})
    j.add(claim(5))
    j.pump(journal.FLUSH_MS, [])
    j = boot(flash, 4)
    assert j.open_game == [[2, 1, 3], [3, 1, 2]]
    seen = []
    j.replay(j.open_game, seen.append)
    assert [e["k"] for e in seen] == ["game", "claim", "claim", "resume", "claim"]


# -- the budget -----------------------------------------------------------------------------------
def play(app, clock, edition="city", players=3, ack=True):
    """A whole scripted game on the App (tests/guest/table_script.py), presses 150 ms apart."""
    for name in table_script.steps(app, clock, edition, players, ack=ack):
        clock[0] += 150
        app.button(name, clock[0])
        if app.collect_wanted:
            app.collected()
        app.tick(clock[0])
        app.serial_out()
    for _ in range(4):                         # the final table, then back to the lobby
        clock[0] += 300
        if app.game is None:
            break
        app.button("ROLL", clock[0])
        if app.collect_wanted:
            app.collected()
        app.tick(clock[0])
    assert app.game is None


def test_more_than_twenty_three_player_games_fit_with_no_pc():
    flash = RamFlash()
    app = App(table_script.rand, 1, "c0ffee", flash)
    clock = [0]
    games = 0
    while not app.journal.full():
        play(app, clock, ack=False)
        games += 1
        assert games < 60
    assert games >= 20, games
    assert len(flashlog.segments(flash)) <= journal.BUDGET
    assert app.button("ROLL", clock[0] + 1) == "full"          # a new game: refused, nothing lost
    assert app.notice == "journal full: connect the PC"
    held = app.journal.held()
    assert held == app.journal.next - 1                       # every event of every game kept
    app.serial_in(link.encode({"t": "hi", "v": link.VERSION}), clock[0] + 2)
    app.tick(clock[0] + 2)
    assert app.collect_wanted and app.journal.held() == held   # the hello waits for a collection
    app.collected()                                            # (board/loop.py, main.py)
    got, _ = drain(app.journal, clock[0] + 2)                  # the PC comes: everything, once, in order
    assert [s for _, s, _ in got] == list(range(1, held + 1))
    assert app.journal.held() == 0 and not app.journal.full()


def test_with_a_pc_the_journal_stays_within_its_budget():
    flash = RamFlash()
    app = App(table_script.rand, 1, "c0ffee", flash)
    clock = [0]
    most = 0
    for _ in range(30):
        play(app, clock)
        drain(app.journal, clock[0])
        most = max(most, len(flashlog.segments(flash)))
    # what the PC has is let go once its acknowledgement is on flash: the journal never fills
    # (it filled all 32 segments before it was reclaimed, issue 17)
    assert most <= 2 and app.journal.held() == 0


def test_the_journal_works_on_a_real_folder(tmp_path):
    flash = Flash(str(tmp_path) + "/")
    j = boot(flash, 1)
    for n in range(100):
        j.add(claim(n))
    j.game_ended()
    got, _ = drain(j, 0)
    assert [s for _, s, _ in got] == list(range(1, 101))
    names = sorted(p.name for p in (tmp_path / "journal").iterdir())
    # (the segments the PC acknowledged are let go, down to the newest: issue 17)
    assert names[-1] == "acked" and all(n.endswith(".seg") for n in names[:-1]) and len(names) == 2
    assert (tmp_path / "journal" / "acked").read_text() == "1 100\n"
    assert boot(flash, 2).held() == 0
    assert all(f.stat().st_size <= journal.SEGMENT for f in (tmp_path / "journal").glob("*.seg"))
    assert json.loads(flash.load("journal/acked").split()[1]) == 100


class Refusing(RamFlash):
    """A flash that refuses writes while `refuse` is set (full, or worn out): the write raises
    OSError after `part` bytes of it went down (0: none), as a littlefs write can fail midway."""

    def __init__(self):
        super().__init__()
        self.refuse = False
        self.part = 0

    def append(self, name, data):
        if self.refuse:
            if self.part:
                super().append(name, bytes(data[:self.part]))
            raise OSError(28, "No space left on device")
        super().append(name, data)


@pytest.mark.parametrize("part", [0, 37])
def test_a_flash_that_refuses_writes_keeps_every_record_in_ram_and_writes_them_when_it_can(part):
    """docs/journal.md: a write the flash refuses is counted (write_errors) and tried again;
    the records wait in RAM, nothing is sent that is not on flash, and once the flash takes
    writes again every record is written and sent, in order, none twice. A write that failed
    midway left part of a record: the next goes to a new segment and a power-up drops the part."""
    flash = Refusing()
    j = boot(flash, 1)
    j.add(claim(1))
    got, now = drain(j, 0)
    assert [s for _, s, _ in got] == [1]
    flash.refuse, flash.part = True, part
    for n in range(2, 30):
        j.add(claim(n))
    sent, now = drain(j, now)
    assert sent == [] and j.write_errors >= 1 and j.held() == 28
    errors = j.write_errors
    sent, now = drain(j, now)                     # tried again, and refused again
    assert sent == [] and j.write_errors > errors
    flash.refuse = False
    j.game_ended()
    sent, now = drain(j, now)
    assert [s for _, s, _ in sent] == list(range(2, 30)) and [e for _, _, e in sent] == [claim(n) for n in range(2, 30)]
    assert j.held() == 0
    again = boot(flash, 2)                        # at power-up: every whole record, no part of one
    assert again.held() == 0 and again.write_errors == 0


def test_the_panel_says_when_the_flash_refuses_a_write_and_stops_saying_it_after():
    """The App shows "flash write failed: not saved" while the flash refuses writes (a player
    must know the game is not being kept), and lets it go NOTICE_MS after the last refusal."""
    from doodle import app as app_module
    from doodle import reasons

    flash = Refusing()
    a = App(lambda n: 0, 1, "c0ffee", flash)
    now = 0

    def step():                                   # board/loop.py's step, and main.py's collection
        if a.collect_wanted:
            a.collected()
        a.tick(now)

    for _ in range(20):                           # the journal read at power-up
        now += 50
        step()
    flash.refuse = True
    a.journal.add(claim(1))
    for _ in range(10):
        now += 50
        step()
    assert a.journal.write_errors >= 1 and a.notice == reasons.TEXT["flash"]
    flash.refuse = False
    for _ in range(10):
        now += 50
        a.tick(now)
    assert a.journal.held() == 1 and a.notice == reasons.TEXT["flash"]   # (said for a while yet)
    now += app_module.NOTICE_MS
    a.tick(now)
    assert a.notice == ""
