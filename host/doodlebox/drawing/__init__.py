"""The project's pictures, drawn with the standard library only: a greyscale canvas with a
bitmap font, PNG files, and diagrams written as SVG or PNG. Nothing here knows a game.

- ``canvas``   Canvas (rectangles, frames, convex polygons, strokes, rings, text), the 5x7 font,
  text_width, wrap and the shared grey levels;
- ``png``      png_bytes and write_png (8-bit greyscale, optional scale), png_pixels to read back;
- ``diagram``  Drawing: primitives written as SVG text or drawn on a Canvas as PNG.
"""
