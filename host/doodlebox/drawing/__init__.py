"""drawing/: how is a picture drawn? The project's pictures, drawn with Pillow: a greyscale canvas with Pillow's own
font, PNG files, diagrams written as SVG or PNG, and helpers for the statistics' charts. Nothing here knows a game:
it imports nothing of the package but itself (never rules/: tests/house/test_architecture.py); the rules' sheet
pictures, the wiring diagram, the virtual console's panel and the statistics draw with it.

    canvas.py   `Canvas` on a Pillow image (rectangles, polygons, strokes, rings, text), `text_width`, `wrap`, the greys
    png.py      PNG files through Pillow: a picture or rows of grey written, `png_pixels` read back, `alike` compared
    diagram.py  `Drawing`: primitives written as SVG text or drawn on a Canvas as PNG (the wiring diagram)
    charts.py   helpers for history/stats.py's matplotlib charts: whole-number axes, p-value bars visible however small
"""
