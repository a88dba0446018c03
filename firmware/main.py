# doodlebox firmware entry point on the Pico: build the board, run the console loop.
from board import loop, pico

loop.run(pico.Board())
