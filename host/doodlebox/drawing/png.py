"""PNG files through Pillow: a greyscale picture written (with an optional whole scale, each
pixel a scale x scale block), rows of grey values written, and any PNG read back as grey pixels
(to compare pictures by what they show, not by their compressed bytes)."""

from __future__ import annotations

import io
from collections.abc import Iterable, Sequence

from PIL import Image, ImageChops


def _scaled(image: Image.Image, scale: int) -> Image.Image:
    if scale < 1:
        raise ValueError("bad PNG scale")
    return image if scale == 1 else image.resize((image.width * scale, image.height * scale), Image.Resampling.NEAREST)


def encode(image: Image.Image, scale: int = 1) -> bytes:
    out = io.BytesIO()
    _scaled(image, scale).save(out, "PNG")
    return out.getvalue()


def save(image: Image.Image, path, scale: int = 1) -> None:
    _scaled(image, scale).save(path, "PNG")


def write_png(path, width: int, height: int, rows: Iterable[Sequence[int]], scale: int = 1) -> None:
    """Write `height` rows of `width` grey values, 0 (black) .. 255 (white), as a PNG."""
    if width <= 0 or height <= 0:
        raise ValueError("bad PNG size")
    data = bytearray()
    n = 0
    for n, row in enumerate(rows, 1):
        if len(row) != width:
            raise ValueError("row %d has %d pixels, expected %d" % (n - 1, len(row), width))
        data += bytes(row)
    if n != height:
        raise ValueError("got %d rows, expected %d" % (n, height))
    save(Image.frombytes("L", (width, height), bytes(data)), path, scale)


def png_pixels(data: bytes) -> tuple[int, int, bytes]:
    """(width, height, grey pixels row-major) of a PNG; ValueError for anything else."""
    try:
        with Image.open(io.BytesIO(data)) as image:
            if image.format != "PNG":
                raise ValueError(f"not a PNG but {image.format}")
            grey = image.convert("L")
    except (OSError, SyntaxError) as exc:  # Pillow's word for bytes it cannot read
        raise ValueError(f"not a PNG: {exc}") from None
    return grey.width, grey.height, grey.tobytes()


def alike(a: bytes, b: bytes, share: float = 0.001) -> bool:
    """Whether two PNGs show the same picture: the same size, and at most `share` of the pixels
    differing by more than a quarter of the grey scale (the edges of letters may, between builds
    of FreeType); False when either is not a PNG."""
    try:
        (wa, ha, pa), (wb, hb, pb) = png_pixels(a), png_pixels(b)
    except ValueError:
        return False
    if (wa, ha) != (wb, hb):
        return False
    diff = ImageChops.difference(Image.frombytes("L", (wa, ha), pa), Image.frombytes("L", (wb, hb), pb))
    return sum(diff.histogram()[65:]) <= share * wa * ha
