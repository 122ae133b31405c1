"""Builds the color test fonts, with fontTools (`pip install fonttools`), from this folder.

ColorLayers-Test.ttf (COLR version 0, CPAL with two palettes): `A` is three layers — a square in
palette color 0 (red; green in palette 1), a diamond in color 1 (blue; orange in palette 1), and a
small bar in the foreground color (palette index 0xFFFF). `B` is the square alone in color 1. `c`
has no color layers: an ordinary outline.
"""
from fontTools.colorLib.builder import buildCOLR, buildCPAL
from fontTools.fontBuilder import FontBuilder
from fontTools.pens.ttGlyphPen import TTGlyphPen


def polygon(*points_list):
    pen = TTGlyphPen(None)
    for points in points_list:
        pen.moveTo(points[0])
        for point in points[1:]:
            pen.lineTo(point)
        pen.closePath()
    return pen.glyph()


square = [(100, 0), (100, 700), (800, 700), (800, 0)]
diamond = [(450, 50), (150, 350), (450, 650), (750, 350)]
bar = [(300, 300), (300, 400), (600, 400), (600, 300)]
glyphs = {
    ".notdef": polygon([(50, 0), (50, 700), (450, 700), (450, 0)]),
    "space": polygon(),
    "A": polygon(square),
    "B": polygon(square),
    "c": polygon([(100, 0), (100, 500), (400, 500), (400, 0)]),
    "layer.square": polygon(square),
    "layer.diamond": polygon(diamond),
    "layer.bar": polygon(bar),
}
builder = FontBuilder(1000, isTTF=True)
builder.setupGlyphOrder(list(glyphs))
builder.setupCharacterMap({0x20: "space", 0x41: "A", 0x42: "B", 0x63: "c"})
builder.setupGlyf(glyphs)
metrics = {}
for name, glyph in glyphs.items():
    glyph.recalcBounds(builder.font["glyf"])
    # The left side bearing is the glyph's xMin, as FreeType expects.
    metrics[name] = (900 if name != "space" else 300, getattr(glyph, "xMin", 0))
builder.setupHorizontalMetrics(metrics)
builder.setupHorizontalHeader(ascent=900, descent=-200)
builder.setupNameTable({"familyName": "Color Layers Test", "styleName": "Regular"})
builder.setupOS2(sTypoAscender=900, sTypoDescender=-200, usWinAscent=900, usWinDescent=200)
builder.setupPost()
builder.font["COLR"] = buildCOLR(
    {
        "A": [("layer.square", 0), ("layer.diamond", 1), ("layer.bar", 0xFFFF)],
        "B": [("layer.square", 1)],
    },
    version=0,
)
builder.font["CPAL"] = buildCPAL(
    [
        [(1.0, 0.0, 0.0, 1.0), (0.0, 0.0, 1.0, 1.0)],
        [(0.0, 0.6, 0.0, 1.0), (1.0, 0.5, 0.0, 1.0)],
    ]
)
builder.save("ColorLayers-Test.ttf")
