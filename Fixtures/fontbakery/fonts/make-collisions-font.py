"""Builds Collisions-Test.ttf, a font whose glyphs collide on purpose, for the collision tests.

Every glyph is one or two rectangles (font units, 1000 per em). The bases: `a` (x 100-500,
y 0-700, advance 600); `w`, whose ink overhangs its advance into the next glyph; `i`, with a dot
as a second contour. The marks (GDEF class 3, no advance, drawn to the left of the pen so that
they sit over the base before them): U+0301 and U+0300 overlap each other; U+0309 overlaps the
base's top by half its own area; U+030A by 2.5 % of its own area; U+0307 lies
wholly inside the base; U+0323 touches nothing. `k` and `m` are bars joined by cursive
attachment: `k`'s exit anchor meets `m`'s entry, so `km` overlaps by 100 units. The font has a GPOS table, so HarfBuzz does not move
the marks itself.

Run it with fontTools (`pip install fonttools`) from this folder.
"""
from fontTools.fontBuilder import FontBuilder
from fontTools.feaLib.builder import addOpenTypeFeaturesFromString
from fontTools.pens.ttGlyphPen import TTGlyphPen


def rectangles(*boxes):
    pen = TTGlyphPen(None)
    for x0, y0, x1, y1 in boxes:
        # Clockwise, as TrueType outlines run.
        pen.moveTo((x0, y0))
        pen.lineTo((x0, y1))
        pen.lineTo((x1, y1))
        pen.lineTo((x1, y0))
        pen.closePath()
    return pen.glyph()


glyphs = {
    ".notdef": (rectangles((50, 0, 450, 700), (100, 50, 400, 650)), 500),
    "space": (rectangles(), 300),
    "a": (rectangles((100, 0, 500, 700)), 600),
    "w": (rectangles((0, 0, 700, 500)), 500),
    "i": (rectangles((100, 0, 250, 500), (100, 600, 250, 750)), 350),
    "acutecomb": (rectangles((-400, 750, -200, 900)), 0),
    "gravecomb": (rectangles((-350, 800, -150, 950)), 0),
    "hookcomb": (rectangles((-400, 600, -200, 800)), 0),
    "ringcomb": (rectangles((-400, 695, -200, 895)), 0),
    "dotaccentcomb": (rectangles((-350, 300, -250, 400)), 0),
    "dotbelowcomb": (rectangles((-350, -200, -250, -100)), 0),
    "k": (rectangles((0, 200, 600, 400)), 600),
    "m": (rectangles((0, 200, 600, 400)), 600),
}
cmap = {
    0x20: "space", 0x61: "a", 0x77: "w", 0x69: "i",
    0x301: "acutecomb", 0x300: "gravecomb", 0x309: "hookcomb", 0x30A: "ringcomb",
    0x307: "dotaccentcomb", 0x323: "dotbelowcomb", 0x6B: "k", 0x6D: "m",
}

builder = FontBuilder(1000, isTTF=True)
builder.setupGlyphOrder(list(glyphs))
builder.setupCharacterMap(cmap)
builder.setupGlyf({name: glyph for name, (glyph, _) in glyphs.items()})
metrics = {}
for name, (glyph, advance) in glyphs.items():
    glyph.recalcBounds(builder.font["glyf"])
    metrics[name] = (advance, getattr(glyph, "xMin", 0))
builder.setupHorizontalMetrics(metrics)
builder.setupHorizontalHeader(ascent=900, descent=-250)
builder.setupNameTable({"familyName": "Collisions Test", "styleName": "Regular"})
builder.setupOS2(sTypoAscender=900, sTypoDescender=-250, usWinAscent=950, usWinDescent=250)
builder.setupPost()
addOpenTypeFeaturesFromString(
    builder.font,
    """
    table GDEF {
      GlyphClassDef [a w i k m], , [acutecomb gravecomb hookcomb ringcomb dotaccentcomb dotbelowcomb], ;
    } GDEF;
    feature kern { pos a w 0; } kern;
    feature curs {
      pos cursive k <anchor NULL> <anchor 550 300>;
      pos cursive m <anchor 50 300> <anchor NULL>;
    } curs;
    """,
)
builder.save("Collisions-Test.ttf")
