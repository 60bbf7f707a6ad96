"""Draws the app's icons (the web app manifest's): a die's five face in the brand's colours.

    .venv/bin/python docs/make_icons.py

Writes icon-192.png and icon-512.png (the die fills the square, rounded corners on the cream
page colour) and maskable-512.png (full bleed, the die inside the central 80 % circle a phone's
mask keeps). The PNGs are committed; run this again only to change the drawing.
"""

from pathlib import Path

from PIL import Image, ImageDraw

# The icons go where the app serves them from (a script kept out of static/, so that
# collectstatic does not publish it).
HERE = Path(__file__).resolve().parent.parent / "static" / "icons"
ACCENT = (138, 44, 20)  # --accent in static/css/companion.css
PAPER = (251, 248, 242)  # --paper
PIPS = [(0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)]


def die(size, *, inset, background):
    """A square icon of `size` px: the die's face spans the square less `inset` on each side."""
    scale = 4  # drawn large and shrunk: smooth edges without anti-aliasing support
    big = size * scale
    image = Image.new("RGBA", (big, big), background)
    draw = ImageDraw.Draw(image)
    left = round(big * inset)
    face = big - 2 * left
    draw.rounded_rectangle((left, left, left + face, left + face), radius=face // 5, fill=ACCENT)
    pip = face * 0.09
    for x, y in PIPS:
        cx, cy = left + face * x, left + face * y
        draw.ellipse((cx - pip, cy - pip, cx + pip, cy + pip), fill=PAPER)
    return image.resize((size, size), Image.Resampling.LANCZOS)


def main():
    transparent = (0, 0, 0, 0)
    die(192, inset=0.04, background=transparent).save(HERE / "icon-192.png", optimize=True)
    die(512, inset=0.04, background=transparent).save(HERE / "icon-512.png", optimize=True)
    # Maskable: the safe zone is a circle of 80 % of the width; the die's corners stay inside it.
    die(512, inset=0.22, background=PAPER + (255,)).save(HERE / "maskable-512.png", optimize=True)


if __name__ == "__main__":
    main()
