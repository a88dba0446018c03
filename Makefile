# doodlebox front door. `make run` and `make test` set themselves up on a fresh machine.
PYTHON ?= python3
VENV   ?= .venv
PY      = $(VENV)/bin/python
READY   = $(VENV)/.ready
STUBS   = .stubs/.ready
PORT   ?=

.PHONY: run demo test bench flash firmware-data typecheck clean

$(READY): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[test]'
	touch $(READY)

# MicroPython stubs go in a folder of their own: installed into the venv they shadow CPython's.
$(STUBS): $(READY)
	$(PY) -m pip install -q --target .stubs 'micropython-rp2-rpi-pico-stubs>=1.24'
	touch $(STUBS)

run: $(READY)                ## log games; with no board attached, the virtual console and its panel
	$(VENV)/bin/doodlebox log

demo: $(READY)               ## a 3-player Doodle City game through the whole stack, then what was stored
	$(VENV)/bin/doodlebox demo

test: $(READY) $(STUBS)      ## every test
	$(PY) -m pytest

bench: $(READY)              ## figures: firmware heap and cost per event in the VM, host events per second
	$(PY) -m doodlebox.bench

flash: $(READY)              ## compile the firmware with mpy-cross and copy it to a Pico: make flash PORT=/dev/ttyACM0
	@test -n "$(PORT)" || { echo "make flash: give the port, e.g. make flash PORT=/dev/ttyACM0"; exit 2; }
	$(PY) -m doodlebox.flash $(PORT)

firmware-data: $(READY)      ## regenerate firmware/board/pins.py and firmware/doodle/layouts.py
	$(PY) -m doodlebox.firmware_data

typecheck: $(READY) $(STUBS)
	$(PY) -m pytest tests/test_firmware_static.py

clean:
	rm -rf $(VENV) .stubs build *.egg-info host/*.egg-info
