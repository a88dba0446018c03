# doodlebox journal: numbers events, holds them until the host acknowledges (docs/protocol.md).
from doodle import link

CAPACITY = 64
WINDOW = 8
RESEND_MS = 1000
RESEND_MAX_MS = 30000  # back off while no host answers


class Journal:
    """Outgoing events of one boot, kept until acked; go-back-N resend."""

    def __init__(self, boot, capacity=CAPACITY):
        self.boot = boot
        self.capacity = capacity
        self.next = 1          # number the next event gets
        self._held = []  # type: list[bytes]  # frames held, oldest first: events first()..next-1
        self._sent = 0         # how many of _held are in flight
        self._sent_at = 0      # when the oldest in-flight frame was (re)sent
        self.resends = 0
        self._wait = RESEND_MS

    def full(self):
        return len(self._held) >= self.capacity

    def held(self):
        return len(self._held)

    def first(self):
        """The number of the oldest event held (next when none is)."""
        return self.next - len(self._held)

    def add(self, event):
        s = self.next
        self.next += 1
        self._held.append(link.encode_event(self.boot, s, event))
        return s

    def ack(self, s):
        n = max(0, min(len(self._held), s - self.first() + 1))
        self._wait = RESEND_MS
        if n:
            del self._held[:n]
            self._sent = max(0, self._sent - n)

    def rewind(self, s=0):
        """Send again from event s (from the oldest held when s is 0 or older)."""
        self._wait = RESEND_MS
        i = max(0, min(len(self._held), s - self.first()))
        self._sent = min(self._sent, i)

    def pump(self, now, out):
        """Append to `out` the frames to write now: new ones up to the window, all again after
        a timeout. Returns how many."""
        if self._sent and now - self._sent_at >= self._wait:
            self._sent = 0
            self.resends += 1
            self._wait = min(self._wait * 2, RESEND_MAX_MS)
        limit = min(WINDOW, len(self._held))
        if self._sent >= limit:
            return 0  # the common case, every tick
        if self._sent == 0:
            self._sent_at = now
        n = limit - self._sent
        while self._sent < limit:
            out.append(self._held[self._sent])
            self._sent += 1
        return n
