# doodlebox firmware entry point on the Pico: build the board, run the console loop, or the
# self-test when MENU is held at power-on (board/selftest.py).
import gc

from board import loop, pico, selftest

hw = pico.Board()
console = selftest.SelfTest(hw) if selftest.held_at_boot() else loop.Loop(hw)
while True:
    console.run()
    gc.collect()
