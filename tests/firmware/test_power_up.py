"""Power-up with any journal the journal's rules allow (issue 17), the firmware's core under
CPython: the boot number on flash before the boot uses it (doodle/bootnum.py), a hello that
fits its frame for any boot number, acknowledgements kept by short boots and what they
acknowledge let go, and a damaged flash that still powers up, keeps every whole record and
says what it skipped (docs/journal.md)."""
import sys
from pathlib import Path

import pytest

from board.flash import Flash
from doodle import bootnum, flashlog, journal, link
from doodle.app import App
from doodle.flashlog import RamFlash

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "guest"))
import table_script  # tests/guest: a scripted game for the firmware core

TOP = bootnum.TOP


@pytest.fixture(autouse=True)
def same_table():
    """The scripted table's choices from the same seed in every test, whatever ran before."""
    table_script._state[0] = 12345


def power_up(flash, now=0):
    """The console's power-up on `flash`: the boot number (bootnum), the App, the journal read a
    segment a collection; returns (app, frames sent: [decoded messages])."""
    boot, saved, damaged = bootnum.next_boot(flash)
    app = App(table_script.rand, boot, "c0ffee", flash, saved, damaged)
    for _ in range(200):             # board/loop.py's steps, each collect_wanted a collection (main.py)
        if app.collect_wanted:
            app.collected()
            continue
        app.tick(now)
        if not app.collect_wanted:
            break
    return app, decode(app.serial_out())


def decode(data):
    out = []
    for line in data.split(b"\n")[:-1]:
        msg, why = link.decode(line + b"\n")
        assert why is None, (why, line)
        out.append(msg)
    return out


def run(app, start, ms, ack=True):
    """The loop for `ms` of the console's time, 20 ms a step; a PC that stores and acknowledges
    everything (with ack): the frames sent."""
    got = []
    now = start
    while now < start + ms:
        now += 20
        if app.collect_wanted:          # the loop returns, main.py collects, the app goes on
            app.collected()
        app.tick(now)
        for m in decode(app.serial_out()):
            got.append(m)
            if ack and m["t"] == "ev":
                app.serial_in(link.encode({"t": "ack", "boot": m["boot"], "s": m["s"]}), now)
    return got, now


def play_some(app, clock, presses, ack=True):
    """`presses` presses of a scripted City game (begun if none is)."""
    script = table_script.steps(app, clock, "city", 2, ack=False) if app.game is None else \
        table_script.turns(app, clock, ack=False)
    sent = []
    for _ in range(presses):
        name = next(script, None)
        if name is None:
            break
        clock[0] += 150
        app.button(name, clock[0])
        if app.collect_wanted:
            app.collected()
        got, clock[0] = run(app, clock[0], 40, ack)
        sent += got
    return sent


class Refusing(RamFlash):
    """A flash that refuses to save the files named in `refuse` (full: the write raises, and
    board/flash.py's save says False)."""

    def __init__(self):
        super().__init__()
        self.refuse = set()

    def save(self, name, text):
        if name in self.refuse:
            return False
        return super().save(name, text)


# -- the boot number ---------------------------------------------------------------------------
def test_the_boot_number_is_one_more_than_the_counter_and_the_journal():
    flash = RamFlash()
    assert bootnum.next_boot(flash) == (1, True, False)
    assert bootnum.next_boot(flash) == (2, True, False)
    assert flash.load("boot.txt") == "2"
    flash.data["journal/00000007.seg"] = bytearray(flashlog.record(41, 1, b'{"k":"x"}'))
    assert bootnum.next_boot(flash)[0] == 42            # the journal holds boot 41: never reused


@pytest.mark.parametrize("text", ["x", "", "12a", "99999999999", "-3", "3.0"])
def test_a_boot_counter_that_is_not_a_number_is_counted_on_from_the_journal(text):
    flash = RamFlash()
    flash.data["journal/00000003.seg"] = bytearray(flashlog.record(7, 1, b'{"k":"x"}'))
    flash.save("journal/acked", "9 4\n")
    flash.save("boot.txt", text)
    assert bootnum.next_boot(flash) == (10, True, True)


def test_a_counter_at_the_links_largest_boot_stays_there():
    flash = RamFlash()
    flash.save("boot.txt", str(TOP))
    assert bootnum.next_boot(flash)[0] == TOP


def test_a_boot_whose_number_the_flash_refused_sends_nothing_until_it_is_saved():
    flash = Refusing()
    flash.save("boot.txt", "4")
    flash.refuse.add("boot.txt")                       # full at power-up
    app, sent = power_up(flash)
    assert app.journal.boot == 5 and not app.journal.boot_saved
    assert sent == []                                  # no hello: boot 5 could be used again
    clock = [0]
    sent = play_some(app, clock, 30)
    assert sent == [] and app.journal.next > 10         # the game is played, nothing sent or written
    assert app.notice == "flash refused the boot number: nothing saved or sent"
    assert flashlog.segments(flash) == []
    flash.refuse.clear()                               # room again: saved, then the hello and the events
    got, clock[0] = run(app, clock[0], 3000)
    assert flash.load("boot.txt") == "5"
    assert got[0]["t"] == "hello" and got[0]["boot"] == 5
    assert [m["s"] for m in got if m["t"] == "ev"] == list(range(1, app.journal.next))


def test_a_power_cut_before_the_boot_number_was_saved_reuses_it_with_nothing_sent_under_it():
    flash = Refusing()
    flash.save("boot.txt", "4")
    flash.refuse.add("boot.txt")
    app, sent = power_up(flash)
    sent += play_some(app, [0], 20)
    assert [m for m in sent if m["t"] in ("hello", "ev")] == []     # the power goes now
    flash.refuse.clear()
    again, sent = power_up(flash)
    assert again.journal.boot == 5 and again.journal.boot_saved     # 5 again: it never sent a thing
    assert sent[0]["t"] == "hello" and sent[0]["boot"] == 5


# -- the hello ---------------------------------------------------------------------------------------
def test_the_hello_fits_its_frame_for_any_boot_number_and_any_number_of_boots_held():
    flash = RamFlash()
    first = TOP - 60
    for k in range(40):                                # 40 boots with events held, 10-digit numbers
        flash.data[flashlog.seg_name(k + 1)] = bytearray(
            flashlog.record(first + k, TOP - 5, b'{"k":"x"}') + flashlog.record(first + k, TOP - 4, b'{"k":"y"}'))
    flash.save("boot.txt", str(TOP - 2))
    app, sent = power_up(flash)
    hello = sent[0]
    assert hello["t"] == "hello" and hello["boot"] == TOP - 1
    assert len(hello["held"]) == journal.HELD_MAX
    assert hello["held"][0][0] == first and hello["held"][-1] == [TOP - 1, 1, 1]
    app.uid = "f" * 32                                 # the longest id the link allows
    assert len(app._hello()) <= link.MAX_FRAME
    got, _ = run(app, 0, 20000)                        # every held event of every boot, oldest first
    evs = [(m["boot"], m["s"]) for m in got if m["t"] == "ev"]
    assert evs == [(first + k, TOP - 5 + i) for k in range(40) for i in range(2)]


# -- short boots ----------------------------------------------------------------------------------
def test_short_boots_keep_their_acknowledgements_and_let_go_of_what_the_pc_has():
    flash = RamFlash()
    clock = [0]
    for n in range(12):                                # 12 power-ups of under 3 s each, the PC attached
        app, sent = power_up(flash, clock[0])
        held_at_power_up = [h for h in sent[0]["held"] if h[1] < h[2]]
        assert held_at_power_up == [] or held_at_power_up[-1][0] == app.journal.boot, (n, sent[0])
        play_some(app, clock, 12)
        _, clock[0] = run(app, clock[0], 1500)
        assert app.journal.held() == 0
        assert flash.load("journal/acked")             # what the PC acknowledged is on flash
    while app.game is not None and not app.game.over():
        play_some(app, clock, 50)                      # the game resumed at every power-up ends
    _, clock[0] = run(app, clock[0], 3000)
    # the game's segments were kept while it was open (to resume it); once it ended and the PC
    # has it, they are let go, and journal/acked names only boots that still have a segment
    assert app.journal.held() == 0 and len(flashlog.segments(flash)) <= 2, flash.data.keys()
    boots = [line.split()[0] for line in flash.load("journal/acked").split("\n") if line]
    assert len(boots) <= 3


def test_many_short_boots_with_no_pc_are_all_sent_once_when_it_comes():
    flash = RamFlash()
    clock = [0]
    made = 0
    for _ in range(14):
        app, _ = power_up(flash, clock[0])
        play_some(app, clock, 6, ack=False)
        run(app, clock[0], 400, ack=False)             # written (200 ms), then the power goes
        made += app.journal.next - 1
    app, sent = power_up(flash, clock[0])
    assert len(app._hello()) <= link.MAX_FRAME
    got, _ = run(app, clock[0], 60000)
    stored = {(m["boot"], m["s"]) for m in sent + got if m["t"] == "ev"}   # a PC stores each once
    assert len(stored) >= made                         # every one (and this boot's resume)
    for b in range(1, 15):
        mine = sorted(s for bb, s in stored if bb == b)
        assert mine == list(range(1, len(mine) + 1)) and mine, (b, mine)


# -- a damaged flash ------------------------------------------------------------------------------------
def journal_of_two_games(flash):
    """A finished 2-player City game and part of another, acknowledged by no PC."""
    app, _ = power_up(flash)
    clock = [0]
    while True:
        play_some(app, clock, 50, ack=False)
        if app.game is None or app.game.over():
            break
    _, clock[0] = run(app, clock[0], 400, ack=False)
    return app.journal.next - 1


def test_bytes_flipped_inside_a_segment_cost_only_their_records_and_are_said():
    flash = RamFlash()
    made = journal_of_two_games(flash)
    name = flashlog.seg_name(flashlog.segments(flash)[0])
    data = flash.data[name]
    data[200] ^= 0xFF                                  # a record in the middle of the segment
    app, sent = power_up(flash)
    assert app.notice.startswith("flash damaged, skipped: ") and "bytes of journal" in app.notice
    got, _ = run(app, 0, 30000)
    evs = {m["s"]: m["e"] for m in sent + got if m["t"] == "ev" and m["boot"] == 1}
    # every number is sent (a PC waits for each in turn): the damaged record's as a stand-in
    assert sorted(evs) == list(range(1, made + 1))
    lost = [s for s, e in evs.items() if e == {"k": "lost"}]
    assert len(lost) in (1, 2) and lost[0] > 1         # the damaged record(s), not the first


def test_a_segment_cut_short_an_odd_file_and_a_bad_counter_still_power_up():
    flash = RamFlash()
    journal_of_two_games(flash)
    name = flashlog.seg_name(flashlog.segments(flash)[-1])
    flash.data[name] = flash.data[name][:len(flash.data[name]) // 2]
    flash.data["journal/notes.txt"] = bytearray(b"hello")
    flash.save("boot.txt", "one")
    app, sent = power_up(flash)
    assert app.journal.boot == 2                       # counted on from the journal
    assert "boot counter" in app.notice and "1 odd files" in app.notice
    assert sent[0]["t"] == "hello"
    assert "journal/notes.txt" in flash.data            # not ours: left alone


def test_the_journal_on_a_real_folder_with_a_stray_temp_file_powers_up(tmp_path):
    flash = Flash(str(tmp_path) + "/")
    journal_of_two_games(flash)
    (tmp_path / "journal" / "acked.tmp").write_text("garbage")
    (tmp_path / "boot.txt.tmp").mkdir()                # a write that cannot be made: save() says so
    assert flash.save("boot.txt", "9") is False
    app, sent = power_up(flash)
    assert not app.journal.boot_saved and sent == []
    (tmp_path / "boot.txt.tmp").rmdir()
    got, _ = run(app, 0, 2000)
    assert got[0]["t"] == "hello" and (tmp_path / "boot.txt").read_text() == "2"


def test_a_journal_filled_by_short_boots_says_so_and_the_pc_gets_everything_written():
    # each boot writes segments of its own: 32 power-ups with no PC fill the budget's 32
    # segments; from then on the events wait in RAM, and the panel says so while they do
    # (a power cut then loses them: they were never written, never sent)
    flash = RamFlash()
    clock = [0]
    for n in range(journal.BUDGET + 1):
        app, _ = power_up(flash, clock[0])
        play_some(app, clock, 3, ack=False)
        run(app, clock[0], 400, ack=False)
        assert app.journal.no_room == (n == journal.BUDGET), n
    assert app.notice == "journal full: connect the PC"
    written = app.journal.held() - app.journal._wn
    got, clock[0] = run(app, clock[0], 60000)          # the PC comes: everything written
    stored = {(m["boot"], m["s"]) for m in got if m["t"] == "ev"}
    assert len(stored) >= written
    # every segment is the game's, resumed at each power-up: kept (to resume it) until it
    # ends; the table can end it (MENU, then ROLL), and then there is room again
    assert app.journal.no_room and app.game is not None
    for name in ("MENU", "ROLL"):
        clock[0] += 150
        app.button(name, clock[0])
        if app.collect_wanted:
            app.collected()
    assert app.game.over()
    got, clock[0] = run(app, clock[0], 5000)
    assert not app.journal.no_room and app.journal.held() == 0
    assert [m["e"]["k"] for m in got if m["t"] == "ev"][-1] == "end"
