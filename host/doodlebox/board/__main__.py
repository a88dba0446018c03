"""`python -m doodlebox.board bom|power|wiring|wokwi|check` (the same as `doodlebox hardware ...`)."""
import sys

from doodlebox.board.cli import main

sys.exit(main())
