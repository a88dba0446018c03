# doodlebox boot counter: boot.txt on flash, the boot's number written and read back before the
# boot uses it (docs/journal.md, "The boot number"), and the console's id (id.txt). Loaded at
# power-up, and while the boot's number is retried.
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


def console_id(flash, chip, first_boot, random):
    """The console's id on the link: the chip's unique id (hex), then 8 random hex digits made
    at its first boot (a new or wiped console, or one whose boot counter was lost with nothing
    on flash to count on from) and kept in id.txt. Boots counted from 1 again come with an id of
    their own, so none of their events is taken for one the PC already holds (docs/protocol.md).
    A console that counted boots before id.txt existed keeps the chip's id alone. `random` is
    the board's hardware-seeded generator (its getrandbits and seed)."""
    text = flash.load("id.txt")
    if first_boot or text is None:
        text = ""
        if first_boot:
            text = "%04x%04x" % (random.getrandbits(16), random.getrandbits(16))
            try:
                random.seed()  # the dice go on from a hardware seed, not from what made the id
            except ValueError:  # a port with no hardware seed: they go on from the same generator
                pass
        flash.save("id.txt", text)
    text = text.strip()
    if len(text) == 8 and not text.strip("0123456789abcdef"):
        return chip + text
    return chip
