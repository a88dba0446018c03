"""The panel's pictures in the docs (docs/img/panel-*.png), drawn by the firmware's own panel code
(firmware/board/panel.py) in the MicroPython VM from the screen a scripted game shows:
`python tests/tools/make_panel_pictures.py` writes them; tests/firmware/test_panel_screens.py checks that each
is what the firmware draws today. Each pixel of the 296x128 panel is SCALE x SCALE in the PNG."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))
import house

house.on_path()
ROOT = house.ROOT
SCALE = 2


def city_piece_screen() -> list[str]:
    """Doodle City, 3 players, round 1: P1 took the white 2 with the blue 4 and is asked which
    piece they drew in row 2, column 4 (a shop)."""
    from test_console_core import Console

    c = Console("city", players=3)
    c.setup(2, 3, 1, 4, 5)
    c.roll(4, 2, 5, 3, 6)
    c.press("D1")
    return list(c.app.screen())


def city_claim_screen() -> list[str]:
    """Doodle City, 3 players, round 2: P2 starts and is to take a die (the blue 6 leaves any
    column)."""
    from test_console_core import Console

    c = Console("city", players=3)
    c.setup(2, 3, 1, 4, 5)
    c.roll(4, 2, 5, 3, 6)
    c.turn("D1", "D2")
    c.turn("D2", "D1")
    c.turn("D3", "D4")
    c.roll(6, 5, 1, 4, 2)
    return list(c.app.screen())


def city_said_screen() -> list[str]:
    """Doodle City, 3 players, round 1: P1 took the white 6 (any row) with the blue 4 and drew a
    shop in row 5, column 4, whose only value, 1, the console circled: the panel says it, and the
    tree the 6 costs, until the next press; P2 is to take a die."""
    from test_console_core import Console

    c = Console("city", players=3)
    c.setup(2, 3, 1, 4, 5)
    c.roll(4, 6, 5, 3, 2)
    c.press("D1", "D5", "D2")
    return list(c.app.screen())


PICTURES = {"panel-city-piece.png": city_piece_screen, "panel-city-claim.png": city_claim_screen,
            "panel-city-said.png": city_said_screen}


def png(image: list[bytearray], path: Path) -> None:
    from PIL import Image

    h, w = len(image), len(image[0])
    img = Image.new("1", (w * SCALE, h * SCALE))
    img.putdata([image[y // SCALE][x // SCALE] for y in range(h * SCALE) for x in range(w * SCALE)])
    img.save(path, optimize=True)


def read_png(path: Path) -> list[bytearray]:
    from PIL import Image

    img = Image.open(path).convert("1")
    w, h = img.size
    px = img.load()
    return [bytearray(1 if px[x * SCALE, y * SCALE] else 0 for x in range(w // SCALE)) for y in range(h // SCALE)]


def main() -> None:
    from test_card_faces import vm_picture

    from doodlebox.virtual import cpython_micropython

    cpython_micropython.install()    # the firmware's `from micropython import const` under CPython

    for name, screen in PICTURES.items():
        path = ROOT / "docs" / "img" / name
        png(vm_picture(screen()), path)
        print(f"wrote {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
