# doodlebox flash files on the Pico's littlefs (the virtual console's: its flash folder): small
# files written whole (a temp file, then a rename), and the journal's segments, appended to.
import os


class Flash:
    """The App's store (doodle/app.py, doodle/journal.py): load/save, files, readinto,
    append, remove. `root` is where the files live ("/" on the Pico)."""

    def __init__(self, root="/"):
        self.root = root
        self._path = ["", ""]   # the last name appended to and its path (no string made per write)

    def load(self, name):
        try:
            with open(self.root + name) as f:
                return f.read()
        except OSError:
            return None

    def save(self, name, text):
        """Write a small file whole (a temp file, then a rename); False when the flash refused
        (full or read-only: the caller decides what that means)."""
        path = self.root + name
        try:
            try:
                f = open(path + ".tmp", "w")
            except OSError:                  # its folder is not there yet (sh/: docs/protocol.md)
                os.mkdir(path[:path.rfind("/")])
                f = open(path + ".tmp", "w")
            with f:
                f.write(text)
            os.rename(path + ".tmp", path)
        except OSError:
            self.remove(name + ".tmp")
            return False
        return True

    def files(self, folder):
        """The files in `folder` ("journal/"), as "journal/name"."""
        try:
            return [folder + n for n in os.listdir(self.root + folder.rstrip("/"))]
        except OSError:
            return []

    def readinto(self, name, buf, at=0):
        """Read the file from byte `at` into buf (as much as fits); how many bytes were read
        (0 for a file that is not there)."""
        try:
            with open(self.root + name, "rb") as f:
                if at:
                    f.seek(at)
                return f.readinto(buf) or 0
        except OSError:
            return 0


    def append(self, name, data):
        """Add data at the end of a file (made if need be, its folder too); closing it commits."""
        p = self._path
        if p[0] is not name:
            p[0], p[1] = name, self.root + name
        path = p[1]
        try:
            f = open(path, "ab")
        except OSError:                      # its folder is not there yet
            os.mkdir(path[:path.rfind("/")])
            f = open(path, "ab")
        with f:
            f.write(data)

    def remove(self, name):
        try:
            os.remove(self.root + name)
        except OSError:
            pass
