"""doodlebox: the host tool, rules engine and virtual console for the doodlebox console."""

__version__ = "0.1.0"
