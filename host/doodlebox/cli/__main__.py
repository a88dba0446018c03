"""`python -m doodlebox.cli ...`: the same as `doodlebox ...`."""
import sys

from doodlebox.cli import main

sys.exit(main())
