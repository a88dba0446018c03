"""deploy/: how does the firmware get onto a Pico? It is compiled, its data modules are generated from the host's
data, and it is copied to the board. It imports the hardware data (pins, power budget), the rules' specs, events and
data files, the link's frames (the self-test's) and ports (the Pico found by its USB id), paths and errors; never the
store, the logger, the page or the command line.

    firmware_build.py  compiles the firmware to `.mpy` with mpy-cross, for `make flash` and the virtual console
    firmware_data.py   generates the firmware's data modules and blocks from hardware/, the layouts and the specs
    flash.py           `doodlebox flash`: the Pico found, what it runs asked, what changed copied with mpremote, its
                       self-test's automatic steps run, reset
"""
