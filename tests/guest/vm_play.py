# The stand-ins tests/tools/vm_faults.py puts into the console in the 192K MicroPython VM, before its
# boot program imports main.py, which then runs as on the Pico (board/pico.py's Board: the flash
# folder is the VM's root, the boot counter, the console's id, the USB, the e-paper, the LEDs
# and the buzzer through the virtual console's hardware models; board/loop.py's Loop; main.py's
# collections). Two parts are stood in for:
# - the loop's clock (loop.time): simulated ms, each of the loop's sleeps STEP_MS of the
#   console's time (the Pico's loop sleeps 2 ms; 10 ms here, as in tests/tools/power_cuts.py), and
#   each one a host call, `vm_step(now, heap free, heap free after the collection
#   before the step or -1)`, where the host serves the PC's side of the USB and may
#   cut the power (it then stops the VM inside that call: nothing after it runs);
# - the buttons (board/pico_build.py's Buttons): a scripted table (Table.poll), a press every
#   PRESS_MS of the console's time, chosen from the console's own state by tests/guest/table_script.py (the
#   dice editions), tests/guest/puzzle_script.py (Doodle Puzzle) or tests/guest/deadly_script.py
#   (Deadly Doodles, in tallies). Between games it asks the
#   host which game is next (`vm_game`: [edition, players], or None: stop); a game resumed at
#   power-up is played on to its end.
# When a game is begun (in the lobby) and at the end, the heap is printed as the loop's run() is
# entered again, right after main.py's collection: "HEAP <games over> <mem_alloc> <mem_free>"
# and micropython.mem_info() ("max free sz", in blocks). At the end the program exits
# (SystemExit: the VM ends with its output).
import gc
import sys

import micropython
import table_script
from hwlink import call

from board import loop, pico_build

STEP_MS = 10
PRESS_MS = 150


class Clock:
    """board/loop.py's `time`: simulated ms; sleep_ms is one step (and the host's turn)."""

    def __init__(self):
        self.t = 0
        self.stride = STEP_MS     # a longer step while nothing is pressed (Doodle Puzzle's minute)
        self.base = -1            # the heap free after main.py's collection, before this step (-1: none)

    def ticks_ms(self):
        return self.t

    def ticks_diff(self, a, b):
        return a - b

    def sleep_ms(self, ms):
        self.t += self.stride
        self.stride = STEP_MS
        call("vm_step", self.t, gc.mem_free(), self.base)   # the heap a step allocated: the host counts
        self.base = -1


class Table:
    """The board's buttons: poll(now) gives the table's next press when one is due."""

    def __init__(self, clock):
        self.clock = clock
        self.app = None
        self.due = 0
        self.script = None        # the game's presses (a generator), while one is played
        self.lobby = None         # the presses that choose and begin the next game
        self.begun = False        # ROLL was pressed to begin a game: did it?
        self.report = False       # a heap report is owed after the next collection
        self.done = False
        self.over = 0             # games played to their end in this power-up
        self.one = [""]           # the press given (one list, kept)
        self.none = []

    def poll(self, now):
        app = self.app
        if now < self.due or app is None or app.journal.loading or app.collect_wanted:
            return self.none
        self.due = now + PRESS_MS
        if self.begun:
            self.begun = False
            if app.game is None:                 # refused: the journal is full (or another reason)
                call("vm_refused", app.notice)
                self.lobby = None
                self.due = now + 1000
                return self.none
        g = app.game
        if self.script is None and g is not None and not g.over():
            self.script = self._script(app)      # a game begun, or resumed at power-up
        if self.script is not None:
            name = next(self.script, None)
            if name is not None:
                if not name:                     # nothing to press now: time passes
                    self.due = now
                    return self.none
                return self._press(name)
            self.script = None
            self.over += 1
            call("vm_over", g.number if g is not None else 0)
        if g is not None:
            return self._press("ROLL")           # the final table, then the lobby
        if self.lobby is None:
            nxt = call("vm_game")
            if nxt is None:
                self.done = True
                self.report = True
                app.collect_wanted = True         # board/loop.py's run() returns: the end
                return self.none
            self.lobby = self._choose(app, nxt[0], nxt[1])
        name = next(self.lobby, None)
        if name is None:
            self.lobby = None
            return self.none
        if name == "ROLL":
            self.begun = True
            self.report = True
        return self._press(name)

    def _press(self, name):
        self.one[0] = name
        return self.one

    def _choose(self, app, edition, players):
        while app.edition != edition:
            yield "D0"
        if edition == "puzzle" and players > 6:
            yield "D6"
            while app.players != players:
                yield "D6"
        else:
            yield "D%d" % players
        if edition == "deadly" and app.opts["rec"] != "tally":
            yield "MENU"                      # the paper keeps the path: tallies (deadly_script)
        yield "ROLL"

    def _script(self, app):
        if app.edition == "puzzle":
            import puzzle_script

            return puzzle_script.turns(app, self.clock)
        if app.edition == "deadly":
            import deadly_script

            return deadly_script.turns(app)
        return table_script.turns(app, [0], False)


if not hasattr(pico_build, "Buttons") or not hasattr(loop, "App") or not hasattr(loop, "time"):
    raise RuntimeError("vm_play: board/pico_build.py or board/loop.py changed: no place for the stand-ins")
clock = Clock()
table = Table(clock)
loop.time = clock                         # the loop's clock (no other firmware module reads one)


def buttons(pins):
    return table


pico_build.Buttons = buttons              # the Board's buttons: the table (it builds the Board
del pico_build                            # once, and lets itself go after)
_App = loop.App


def app(*args):
    a = _App(*args)
    table.app = a
    return a


loop.App = app                            # the Loop's App, made as it makes it, known to the table
_run = loop.Loop.run


def run(self, steps=-1):
    """The Loop's run(), entered right after main.py's collection: the heap said if owed."""
    clock.base = gc.mem_free()
    if table.report:
        table.report = False
        print("HEAP", table.over, gc.mem_alloc(), gc.mem_free())
        micropython.mem_info()
        if table.done:
            sys.exit(0)
    return _run(self, steps)


loop.Loop.run = run
