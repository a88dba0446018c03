# doodlebox front door. `make run` and `make test` set themselves up on a fresh machine.
PYTHON ?= python3
WEB    ?= 8765
SUDO    = $(if $(filter 0,$(shell id -u)),,sudo)
VENV   ?= .venv
JOBS   ?= 2
PY      = $(VENV)/bin/python
READY   = $(VENV)/.ready
STUBS   = .stubs/.ready
# MicroPython's API for the firmware's type check, in a folder of its own (not the venv)
STUB_PKG = micropython-rp2-rpi-pico-stubs==1.29.0.post1

.PHONY: run demo test quick browser postgres bench faults flash dist typecheck check firmware-data clean

$(READY): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[test,club]'
	touch $(READY)

$(STUBS): $(READY) Makefile
	rm -rf .stubs
	$(PY) -m pip install -q --target .stubs '$(STUB_PKG)'
	touch $(STUBS)

run: $(READY)                ## log games; with no board attached, the virtual console and its panel (WAV=timer.wav: its buzzer to a file); the page on http://127.0.0.1:$(WEB)/ (WEB=: none)
	$(VENV)/bin/doodlebox log$(if $(WAV), --wav "$(WAV)")$(if $(WEB), --web $(WEB))

demo: $(READY)               ## a 3-player Doodle City game played by the bot through the whole stack, then the PC's table
	$(VENV)/bin/doodlebox demo

test: $(READY) $(STUBS) browser postgres   ## every test, two at a time (pytest-xdist, a test file per worker: JOBS=1 one at a time)
	$(PY) -m pytest $(if $(filter-out 1,$(JOBS)),-n $(JOBS) --dist loadfile --no-loadscope-reorder,-p no:xdist)

quick: $(READY)              ## the fast unit tests of every area, for the edit loop (~30 s): no VM, pty, browser, demo or process of its own (every test not marked slow)
	$(PY) -m pytest -m "not slow" -q -n 2

browser:                     ## Debian's chromium and chromedriver for tests/web/test_web.py, installed if missing (part of make test)
	@if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then \
	  echo "installing Debian's chromium and chromium-driver (as root, else with sudo) for tests/web/test_web.py"; \
	  log=$$(mktemp); \
	  { $(SUDO) apt-get update -q && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
	    --no-install-recommends chromium chromium-driver; } >"$$log" 2>&1 \
	  || { tail -n 5 "$$log"; echo "could not install chromium: every other test runs; tests/web/test_web.py will fail"; }; \
	  rm -f "$$log"; \
	fi

postgres:                    ## Debian's postgresql (initdb, pg_ctl) for tests/store/test_store_postgres.py, installed if missing (part of make test)
	@if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then \
	  echo "installing Debian's postgresql (as root, else with sudo) for tests/store/test_store_postgres.py"; \
	  log=$$(mktemp); \
	  { $(SUDO) apt-get update -q && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
	    --no-install-recommends postgresql; } >"$$log" 2>&1 \
	  || { tail -n 5 "$$log"; echo "could not install postgresql: every other test runs; tests/store/test_store_postgres.py will fail"; }; \
	  rm -f "$$log"; \
	fi

bench: $(READY)              ## figures: firmware heap in the 192K VM, cost per button event, host events/s
	$(PY) tests/tools/bench.py

faults: $(READY) postgres    ## fault injection: logger killed, cable pulled or noisy, late attach, fuzzed frames, database locked/full/read-only, power cut, sync into a league (SQLite, PostgreSQL)
	$(PY) tests/tools/faults.py

flash: $(READY)              ## the firmware onto the Pico (doodlebox flash: the one attached, or PORT=/dev/ttyACM0): its events stored first, then its self-test
	$(VENV)/bin/doodlebox flash $(if $(PORT),--port "$(PORT)")

dist: $(READY)               ## the sdist and the wheel into dist/ (python -m build): the wheel carries the firmware and the board's data (docs/install.md)
	$(PY) -m build --no-isolation --outdir dist .

typecheck: $(STUBS)          ## the firmware against MicroPython's Pico API (also part of make test)
	cd firmware && MYPYPATH=../.stubs ../$(PY) -m mypy --config-file ../tests/mypy-firmware.ini main.py board doodle

check: $(STUBS)              ## ruff and mypy over the host package, the firmware's type check (all part of make test)
	$(VENV)/bin/ruff check host tests firmware
	$(PY) -m mypy
	$(MAKE) --no-print-directory typecheck

firmware-data: $(READY)      ## regenerate firmware/board/pins.py, firmware/doodle/ed_<edition>.py and deadly_<side>.py (from host/doodlebox/layouts/) and the lobby's games.py (from rules/*/spec.py)
	$(PY) -m doodlebox.deploy.firmware_data

clean:
	rm -rf $(VENV) .stubs build dist *.egg-info host/*.egg-info
