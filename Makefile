# doodlebox front door. `make run` and `make test` set themselves up on a fresh machine.
PYTHON ?= python3
VENV   ?= .venv
PY      = $(VENV)/bin/python
READY   = $(VENV)/.ready

.PHONY: run demo test firmware-data clean

$(READY): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[test]'
	touch $(READY)

run: $(READY)                ## log games; with no board attached, the virtual console and its panel
	$(VENV)/bin/doodlebox log

demo: $(READY)               ## a 3-player Doodle City game through the whole stack, then what was stored
	$(VENV)/bin/doodlebox demo

test: $(READY)               ## every test
	$(PY) -m pytest

firmware-data: $(READY)      ## regenerate firmware/board/pins.py and firmware/doodle/layouts.py
	$(PY) -m doodlebox.firmware_data

clean:
	rm -rf $(VENV) .stubs build *.egg-info host/*.egg-info
