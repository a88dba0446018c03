# doodlebox journal: numbers events, holds them until the host acknowledges (docs/protocol.md).
from doodle import link

CAPACITY = 64
WINDOW = 8
RESEND_MS = 1000
RESEND_MAX_MS = 30000  # back off while no host answers
_NOTHING = []  # type: list[bytes]  # pump()'s answer when there is nothing to send; callers only read it


class Journal:
    """Outgoing events of one boot, kept until acked; go-back-N resend."""

    def __init__(self, boot, capacity=CAPACITY):
        self.boot = boot
        self.capacity = capacity
        self.next = 1          # number the next event gets
        self._held = []        # [(s, frame bytes)], oldest first
        self._sent = 0         # how many of _held are in flight
        self._sent_at = 0      # when the oldest in-flight frame was (re)sent
        self.resends = 0
        self._wait = RESEND_MS

    def full(self):
        return len(self._held) >= self.capacity

    def held(self):
        return len(self._held)

    def first(self):
        return self._held[0][0] if self._held else self.next

    def add(self, event):
        s = self.next
        self.next += 1
        self._held.append((s, link.encode({"t": "ev", "boot": self.boot, "s": s, "e": event})))
        return s

    def ack(self, s):
        n = 0
        while n < len(self._held) and self._held[n][0] <= s:
            n += 1
        self._wait = RESEND_MS
        if n:
            del self._held[:n]
            self._sent = max(0, self._sent - n)

    def rewind(self, s=0):
        """Send again from event s (from the oldest held when s is 0 or older)."""
        self._wait = RESEND_MS
        i = 0
        while i < len(self._held) and self._held[i][0] < s:
            i += 1
        self._sent = min(self._sent, i)

    def pump(self, now):
        """Frames to write now: new ones up to the window, all again after a timeout."""
        if self._sent and now - self._sent_at >= self._wait:
            self._sent = 0
            self.resends += 1
            self._wait = min(self._wait * 2, RESEND_MAX_MS)
        limit = min(WINDOW, len(self._held))
        if self._sent >= limit:
            return _NOTHING  # the common case, every tick: no garbage
        out = []
        if self._sent == 0:
            self._sent_at = now
        while self._sent < limit:
            out.append(self._held[self._sent][1])
            self._sent += 1
        return out
