"""deploy/: how does the firmware get onto a Pico? It is compiled, its data modules are generated from the host's
data, and it is copied to the board. It imports the hardware data (pins, power budget), the rules' specs, events and
data files, paths and errors; never the store, the link, the logger, the page or the command line.

    firmware_build.py  compiles the firmware to `.mpy` with mpy-cross, for `make flash` and the virtual console
    firmware_data.py   generates the firmware's data modules and blocks from hardware/, the layouts and the specs
    flash.py           `make flash`: asks the board what it runs, copies what changed with mpremote, resets
"""
