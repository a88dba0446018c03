"""`python -m doodlebox.hardware bom|power|wiring|wokwi|check` (the same as `doodlebox hardware ...`)."""
import sys

from doodlebox.cli import main

sys.exit(main(["hardware", *sys.argv[1:]]))
