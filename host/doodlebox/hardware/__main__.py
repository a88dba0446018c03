"""`python -m doodlebox.hardware bom|power|wiring|wokwi|check` (the same as `doodlebox hardware ...`)."""
import sys

from doodlebox.hardware.cli import main

sys.exit(main())
