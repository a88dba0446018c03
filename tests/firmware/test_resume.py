"""A game resumed after a power cut (docs/journal.md, At power-up), the firmware core under
CPython: the console is cut off at a turn of a scripted game, powered up again on the same
flash, and must be where it was (every sheet, the round, whose turn, the dice) and go on
exactly as the game that was never cut off."""
import sys
from pathlib import Path

import pytest
from journal_bytes import records as _records

from doodle import flashlog, journal, link, rounds
from doodle.app import FW_VERSION, App
from doodle.flashlog import RamFlash

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "guest"))
import table_script  # tests/guest: a scripted game for the firmware core

EDITIONS = [("city", 3), ("suzhou", 1), ("treasures", 4), ("shanghai", 2), ("monsters", 5)]
BETWEEN_TURNS = (rounds.SETUP, rounds.READY, rounds.CLAIM)


def state(app):
    """Everything the rules see of the game being played, and the dice."""
    g = app.game
    sheets = [(bytes(sh.pieces), bytes(sh.crossed), bytes(sh.floors), sh.trees, sh.barrels,
               [list(c) for c in sh.circled], list(sh.bonuses)) for sh in g.sheets]
    dice = [(app.dice_.values[i], app.dice_.states[i] == 3) for i in range(g.whites + 1)] \
        if g.phase >= rounds.CLAIM else None
    return dict(ed=g.ed.EDITION, players=g.players, control=g.control, phase=g.phase, setup=g.setup_col,
                round=g.round, start=g.start_player, turn=g.turn, column=g.column, white=bytes(g.white),
                taken=list(g.taken), endings=list(g.endings), bonus=dict(g.bonus_owner), sheets=sheets,
                shared=[None if t is None else dict(t) for t in g.shared], points=list(g.points()), dice=dice)


class Table:
    """A console on `flash` and a PC that acknowledges every frame (boot by boot)."""

    def __init__(self, flash, boot):
        self.app = App(table_script.rand, boot, "c0ffee", flash)
        self.now = 0
        self.events: list = []        # (boot, s, event) the PC got, once each
        self.pc = True                # a PC on the link (False: what the console sends is lost)
        self.settle()

    def settle(self):
        """Collections until the app has nothing waiting for one (the journal read, a resume)."""
        for _ in range(100):
            if not self.app.collect_wanted:
                return
            self.app.collected()
        raise AssertionError("the app keeps asking for collections")

    def step(self, name=None):
        self.now += 150
        if name is not None:
            self.app.button(name, self.now)
        self.settle()
        self.app.tick(self.now)
        self.link()

    def link(self):
        data = self.app.serial_out()
        if not self.pc:
            return
        for line in data.split(b"\n")[:-1]:
            msg, why = link.decode(line)
            assert why is None, why
            if msg["t"] == "ev":
                key = (msg["boot"], msg["s"], msg["e"])
                if key not in self.events:
                    self.events.append(key)
                self.app.serial_in(link.encode({"t": "ack", "boot": msg["boot"], "s": msg["s"]}), self.now)

    def flush(self):
        for _ in range(10):
            self.now += journal.FLUSH_MS
            self.settle()                 # as board/loop.py: a step that wants a collection gets it
            self.app.tick(self.now)
            self.link()


def play(edition, players, seed, cut_at=None):
    """The scripted game, cut off after `cut_at` presses (at a turn). Returns the Table, the
    state at the cut and how many presses were made."""
    table_script._state[0] = seed
    t = Table(RamFlash(), 1)
    presses = 0
    script = table_script.steps(t.app, [0], edition, players, ack=False)
    for name in script:
        t.step(name)
        presses += 1
        if cut_at is not None and presses >= cut_at and t.app.game is not None and \
                t.app.game.phase in BETWEEN_TURNS and t.app.game.round >= 1:
            t.flush()
            return t, state(t.app), presses
    t.flush()
    return t, None, presses


def game_events(events, boot):
    return [e for b, s, e in events if b == boot]


@pytest.mark.parametrize("edition,players", EDITIONS)
@pytest.mark.parametrize("where", [0.1, 0.5, 0.9])
def test_a_game_cut_off_goes_on_as_if_it_never_was(edition, players, where):
    whole, _, n = play(edition, players, seed=7)                  # the game never cut off
    reference = game_events(whole.events, 1)
    cut, at_cut, _ = play(edition, players, seed=7, cut_at=int(n * where))
    flash = cut.app.journal.flash
    before = game_events(cut.events, 1)
    assert before == reference[:len(before)]

    again = Table(flash, 2)                                        # power-up, same flash
    again.events = list(cut.events)
    assert state(again.app) == at_cut
    assert again.app.notice == "game resumed after power-off"
    again.flush()
    resume = [e for b, s, e in again.events if b == 2]
    assert resume == [{"k": "resume", "g": 1, "of": [1, 1], "at": len(before), "r": at_cut["round"]}]
    for name in table_script.turns(again.app, [again.now], ack=False):
        again.step(name)
    again.flush()
    after = game_events(again.events, 2)[1:]
    assert before + after == reference                            # the same game, every event once
    assert after[-1]["k"] == "end"


def test_presses_not_yet_on_flash_are_lost_and_the_game_resumes_before_them():
    cut, at_cut, _ = play("city", 3, seed=3, cut_at=30)
    written = cut.app.journal.next - 1
    assert cut.app.game.phase == rounds.CLAIM
    script = table_script.turns(cut.app, [cut.now], ack=False)
    while cut.app.game.turn == at_cut["turn"]:                    # a turn made, never written
        cut.now += 20
        cut.app.button(next(script), cut.now)
    assert cut.app.journal.next - 1 > written
    again = Table(cut.app.journal.flash, 2)
    assert state(again.app) == at_cut
    assert again.app.journal.held_boots()[-1][0] == 2


def test_a_game_that_cannot_be_played_again_is_left_and_the_lobby_shown():
    cut, _, _ = play("city", 3, seed=5, cut_at=20)
    flash = cut.app.journal.flash
    name = flashlog.seg_name(flashlog.segments(flash)[-1])
    data = flash.data[name]
    recs = _records(data)
    b, s = recs[-1][:2]
    forged = flashlog.record(b, s, b'{"g":1,"k":"claim","p":9}')   # whole, but not a move of this game
    flash.data[name] = data[:recs[-1][2] - flashlog.HEAD] + forged
    again = Table(flash, 2)
    assert again.app.game is None and again.app.notice == "the last game could not be resumed"
    assert again.app.journal.keep_from is None                     # its records go once the PC has them
    again.step("ROLL")                                             # a new game begins
    assert again.app.game is not None and again.app.game.number == 1


def test_the_hello_after_a_power_cut_names_every_boot_held():
    cut, _, _ = play("treasures", 2, seed=9, cut_at=25)
    cut.pc = False
    for _ in range(3):                                             # the PC went away: nothing acked
        cut.app.journal.add({"k": "refuse", "g": 1, "r": 1, "p": 0, "i": 0, "why": "taken"})
    cut.flush()
    again = App(table_script.rand, 2, "c0ffee", cut.app.journal.flash)
    for _ in range(100):                      # the loop's steps; the hello comes after a collection
        if again.collect_wanted:
            again.collected()
            continue
        again.tick(0)
        if not again.collect_wanted:
            break
    hello = [link.decode(f)[0] for f in again.serial_out().split(b"\n")[:-1]]
    hello = next(m for m in hello if m["t"] == "hello")
    boot1 = hello["held"][0]
    assert boot1[0] == 1 and boot1[2] == cut.app.journal.next and hello["held"][-1][0] == 2
    assert hello["fw"] == FW_VERSION and hello["boot"] == 2
