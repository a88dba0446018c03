# doodlebox firmware entry point on the Pico: build the board, run the console loop.
import gc

from board import loop, pico

console = loop.Loop(pico.Board())
while True:
    console.run()
    gc.collect()
