# doodlebox firmware entry point on the Pico: build the board, run the console loop, or the
# self-test when MENU is held at power-on (board/selftest.py).
import gc

from board import loop, pico

hw = pico.Board()
gc.collect()  # what building the board left (at the top level: docs/virtual-console.md)
console = None  # type: object
if hw.held("MENU"):
    from board import selftest  # loaded only then (RAM)

    console = selftest.SelfTest(hw)
else:
    console = loop.Loop(hw)
gc.collect()
while True:
    console.run()
    gc.collect()
