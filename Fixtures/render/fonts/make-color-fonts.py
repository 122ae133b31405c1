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
def build(glyphs, cmap, family):
    """A font of `glyphs` (left side bearings from their outlines, as FreeType expects)."""
    builder = FontBuilder(1000, isTTF=True)
    builder.setupGlyphOrder(list(glyphs))
    builder.setupCharacterMap(cmap)
    builder.setupGlyf(glyphs)
    metrics = {}
    for name, glyph in glyphs.items():
        glyph.recalcBounds(builder.font["glyf"])
        metrics[name] = (900 if name != "space" else 300, getattr(glyph, "xMin", 0))
    builder.setupHorizontalMetrics(metrics)
    builder.setupHorizontalHeader(ascent=900, descent=-200)
    builder.setupNameTable({"familyName": family, "styleName": "Regular"})
    builder.setupOS2(sTypoAscender=900, sTypoDescender=-200, usWinAscent=900, usWinDescent=200)
    builder.setupPost()
    return builder


builder = build(glyphs, {0x20: "space", 0x41: "A", 0x42: "B", 0x63: "c"}, "Color Layers Test")
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


# ColorPaints-Test.ttf (COLR version 1): one glyph for each kind of paint, each a square (or two
# squares) filled so that the kind shows. a: solid; b: linear gradient, padded; c: linear, repeated;
# d: radial, reflected; e: sweep; f: an affine transform; g: translate; h: scale about a center;
# i: rotate about a center; j: skew about a center; k: a composite (source in); l: a composite
# (multiply); m: layers; n: another COLR glyph (a); o: the foreground color at half alpha.
from fontTools.ttLib.tables.otTables import CompositeMode, ExtendMode, PaintFormat  # noqa: E402


def line(extend, *stops):
    return {
        "Extend": extend,
        "ColorStop": [{"StopOffset": offset, "PaletteIndex": index, "Alpha": 1.0} for offset, index in stops],
    }


def fill(paint, glyph="square"):
    return {"Format": PaintFormat.PaintGlyph, "Glyph": glyph, "Paint": paint}


def solid(index, alpha=1.0):
    return {"Format": PaintFormat.PaintSolid, "PaletteIndex": index, "Alpha": alpha}


linear = {
    "Format": PaintFormat.PaintLinearGradient, "ColorLine": line(ExtendMode.PAD, (0, 0), (0.5, 1), (1, 2)),
    "x0": 200, "y0": 0, "x1": 700, "y1": 0, "x2": 200, "y2": 700,
}
paints = {
    "a": fill(solid(0)),
    "b": fill(linear),
    "c": fill({**linear, "ColorLine": line(ExtendMode.REPEAT, (0, 0), (1, 2)), "x1": 350}),
    "d": fill({
        "Format": PaintFormat.PaintRadialGradient, "ColorLine": line(ExtendMode.REFLECT, (0, 1), (1, 3)),
        "x0": 450, "y0": 350, "r0": 0, "x1": 450, "y1": 350, "r1": 150,
    }),
    "e": fill({
        "Format": PaintFormat.PaintSweepGradient, "ColorLine": line(ExtendMode.PAD, (0, 0), (0.5, 2), (1, 1)),
        "centerX": 450, "centerY": 350, "startAngle": 0, "endAngle": 360,
    }),
    "f": {"Format": PaintFormat.PaintTransform, "Paint": fill(linear),
          "Transform": {"xx": 0.8, "yx": 0.2, "xy": -0.2, "yy": 0.8, "dx": 100, "dy": 50}},
    "g": {"Format": PaintFormat.PaintTranslate, "Paint": fill(solid(1), "small"), "dx": 300, "dy": 250},
    "h": {"Format": PaintFormat.PaintScaleAroundCenter, "Paint": fill(linear), "scaleX": 0.5, "scaleY": 0.8,
          "centerX": 450, "centerY": 350},
    "i": {"Format": PaintFormat.PaintRotateAroundCenter, "Paint": fill(linear), "angle": 30,
          "centerX": 450, "centerY": 350},
    "j": {"Format": PaintFormat.PaintSkewAroundCenter, "Paint": fill(solid(3), "small"), "xSkewAngle": 20,
          "ySkewAngle": 10, "centerX": 200, "centerY": 200},
    "k": {"Format": PaintFormat.PaintComposite, "CompositeMode": CompositeMode.SRC_IN,
          "SourcePaint": fill(solid(2), "small"), "BackdropPaint": fill(solid(0))},
    "l": {"Format": PaintFormat.PaintComposite, "CompositeMode": CompositeMode.MULTIPLY,
          "SourcePaint": fill(linear, "small"), "BackdropPaint": fill(solid(3))},
    "m": {"Format": PaintFormat.PaintColrLayers, "Layers": [fill(solid(1)), fill(solid(2), "small")]},
    "n": {"Format": PaintFormat.PaintColrGlyph, "Glyph": "a"},
    "o": fill(solid(0xFFFF, 0.5)),
}
v1_glyphs = {".notdef": polygon([(50, 0), (50, 700), (450, 700), (450, 0)]), "space": polygon(),
             "square": polygon([(100, 0), (100, 700), (800, 700), (800, 0)]),
             "small": polygon([(0, 0), (0, 200), (300, 200), (300, 0)])}
for name in paints:
    v1_glyphs[name] = polygon([(100, 0), (100, 700), (800, 700), (800, 0)])
builder = build(v1_glyphs, {0x20: "space", **{ord(name): name for name in paints}}, "Color Paints Test")
builder.font["COLR"] = buildCOLR(paints, version=1)
builder.font["CPAL"] = buildCPAL(
    [[(0.9, 0.1, 0.1, 1.0), (0.1, 0.3, 0.9, 1.0), (1.0, 0.85, 0.0, 1.0), (0.1, 0.7, 0.3, 1.0)]]
)
builder.save("ColorPaints-Test.ttf")
