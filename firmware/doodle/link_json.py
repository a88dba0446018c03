# doodlebox link: a string a frame cannot carry as it is (a control character, a quote, a backslash,
# a letter beyond ASCII), as JSON in ASCII. Rare: doodle/link.py loads it for such a string and
# lets it go after (RAM).
import json


def dumps(s):
    """The JSON of str s, each character beyond ASCII as \\uXXXX (MicroPython's json.dumps leaves
    them as they are)."""
    out = []
    for ch in json.dumps(s):
        o = ord(ch)
        if o > 126:
            if o > 0xFFFF:
                o -= 0x10000
                out.append("\\u%04x\\u%04x" % (0xD800 + (o >> 10), 0xDC00 + (o & 0x3FF)))
            else:
                out.append("\\u%04x" % o)
        else:
            out.append(ch)
    return "".join(out)
