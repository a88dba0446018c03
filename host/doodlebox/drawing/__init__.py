"""The project's pictures, drawn with Pillow: a greyscale canvas with Pillow's own font, PNG
files, and diagrams written as SVG or PNG. Nothing here knows a game.

- ``canvas``   Canvas (rectangles, frames, polygons, strokes, rings, text) on a Pillow image,
  the font at a scale, text_width and wrap measuring real text, and the shared grey levels;
- ``png``      PNG files through Pillow: a picture or rows of grey written (optional scale),
  png_pixels to read any PNG back as grey pixels;
- ``diagram``  Drawing: primitives written as SVG text or drawn on a Canvas as PNG;
- ``charts``   helpers for the statistics' matplotlib charts (stats.py): whole-number axes,
  p-value bars visible however small (hatched, their true p written above them).
"""
