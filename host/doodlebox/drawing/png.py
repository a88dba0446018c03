"""8-bit greyscale PNG files, standard library only: the writer (optional integer scale) and a
reader for the unfiltered rows it writes (to compare pictures by their pixels)."""

from __future__ import annotations

import struct
import zlib
from collections.abc import Iterable, Sequence

SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _chunk(kind: bytes, data: bytes) -> bytes:
    crc = zlib.crc32(kind + data) & 0xFFFFFFFF
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)


def png_bytes(width: int, height: int, rows: Iterable[Sequence[int]], scale: int = 1) -> bytes:
    """Encode rows (each `width` grey values 0..255) as an 8-bit greyscale PNG.

    With scale > 1 every pixel becomes a scale x scale block."""
    if width <= 0 or height <= 0 or scale < 1:
        raise ValueError("bad PNG size")
    raw = bytearray()
    n = 0
    for row in rows:
        row = bytes(row)
        if len(row) != width:
            raise ValueError("row %d has %d pixels, expected %d" % (n, len(row), width))
        if scale > 1:
            row = bytes(v for v in row for _ in range(scale))
        line = b"\x00" + row  # filter type 0 (None)
        for _ in range(scale):
            raw += line
        n += 1
    if n != height:
        raise ValueError("got %d rows, expected %d" % (n, height))
    ihdr = struct.pack(">IIBBBBB", width * scale, height * scale, 8, 0, 0, 0, 0)
    return (
        SIGNATURE
        + _chunk(b"IHDR", ihdr)
        + _chunk(b"IDAT", zlib.compress(bytes(raw), 9))
        + _chunk(b"IEND", b"")
    )


def write_png(path, width: int, height: int, rows_of_grey_bytes, scale: int = 1) -> None:
    """Write an 8-bit greyscale PNG. rows_of_grey_bytes: `height` rows of `width` values
    0 (black) .. 255 (white)."""
    data = png_bytes(width, height, rows_of_grey_bytes, scale)
    with open(path, "wb") as f:
        f.write(data)


def png_pixels(data: bytes) -> tuple[int, int, bytes]:
    """(width, height, grey pixels row-major) of an 8-bit greyscale PNG with unfiltered rows, as
    png_bytes writes them: to compare images without depending on zlib's exact output."""
    if data[:8] != SIGNATURE:
        raise ValueError("not a PNG")
    pos, idat, width, height = 8, b"", 0, 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            if (depth, colour) != (8, 0):
                raise ValueError("not 8-bit greyscale")
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride = width + 1
    if any(raw[i] != 0 for i in range(0, len(raw), stride)):
        raise ValueError("filtered rows")
    return width, height, b"".join(raw[i + 1:i + stride] for i in range(0, len(raw), stride))
