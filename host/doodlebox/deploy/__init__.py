"""The firmware put on a Pico: compiled with mpy-cross (deploy/firmware_build.py), its data generated from the
host's layouts, specs and pins (firmware_data.py, `make firmware-data`), copied with mpremote (flash.py)."""
