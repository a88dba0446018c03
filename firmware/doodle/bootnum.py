# doodlebox boot counter: boot.txt on flash, the boot's number written and read back before the
# boot uses it (docs/journal.md, "The boot number"). Loaded at power-up, and while it is retried.
from doodle import flashlog

FILE = "boot.txt"
TOP = 2147483647          # the link's largest boot (docs/protocol.md): the counter stops there


def number(text):
    """The counter in boot.txt's text, or -1 when it is missing or not a number."""
    if text is None:
        return -1
    text = text.strip()
    if not text or len(text) > 10 or not text.isdigit():
        return -1
    return min(int(text), TOP)


def on_flash(flash):
    """The highest boot the journal names: its segments' first records and journal/acked."""
    top = 0
    head = bytearray(flashlog.HEAD)
    for num in flashlog.segments(flash):
        if flash.readinto(flashlog.seg_name(num), head) == flashlog.HEAD and head[0] == flashlog.MARK:
            top = max(top, flashlog._u32(head, 3))
    text = flash.load("journal/acked")
    for line in (text or "").split("\n"):
        word = line.split(" ")[0]
        if word.isdigit() and len(word) <= 10:
            top = max(top, int(word))
    return min(top, TOP)


def save(flash, boot):
    """Write the counter and read it back: True once the flash holds it."""
    text = str(boot)
    return flash.save(FILE, text) is not False and flash.load(FILE) == text


def next_boot(flash):
    """This boot's number, one more than both boot.txt and the journal say (a damaged counter is
    counted on from the journal), and whether it is saved: (boot, saved, was_damaged)."""
    text = flash.load(FILE)
    count = number(text)
    boot = min(max(count, on_flash(flash)) + 1, TOP)
    return boot, save(flash, boot), text is not None and count < 0
