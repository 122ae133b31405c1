"""Builds SpaceJoints-Test.ttf: a small font whose layout reaches across spaces in each way the
shaping cache must see (Sources/SwiftShape/Cache/SpaceJoints.swift). Run with fontTools:

    python3 make-space-joints.py      # writes SpaceJoints-Test.ttf beside this script

Glyphs are boxes of different widths; the features are
- kern: the space kerns with T (pair positioning, the space first), and k with the space (the
  space second);
- liga: x space y is one ligature (a ligature across a space);
- calt: o before a space and z becomes o.alt (a context across a space); the space before b
  becomes space.alt (the font substitutes its space glyph); y after a space becomes y.alt;
- mark: the combining acute attaches to the letters;
- ccmp: d is deleted (a multiple substitution to nothing, which HarfBuzz allows): its cluster goes
  to the glyph before it, or, first in the text, to the glyph after.
"""

import os

from fontTools.feaLib.builder import addOpenTypeFeaturesFromString
from fontTools.fontBuilder import FontBuilder
from fontTools.pens.ttGlyphPen import TTGlyphPen

LETTERS = {"T": 0x54, "k": 0x6B, "o": 0x6F, "x": 0x78, "y": 0x79, "z": 0x7A, "q": 0x71, "f": 0x66, "i": 0x69,
           "a": 0x61, "b": 0x62}
GLYPHS = [".notdef", "space"] + list(LETTERS) + ["acutecomb", "uni200D", "uni200C", "x_space_y", "o.alt",
                                                 "space.alt", "y.alt", "d"]
WIDTHS = {".notdef": 500, "space": 250, "acutecomb": 0, "uni200D": 0, "uni200C": 0, "x_space_y": 1300,
          "space.alt": 400}

FEATURES = """
languagesystem DFLT dflt;
languagesystem latn dflt;
markClass acutecomb <anchor 0 700> @TOP;
feature ccmp { sub d by NULL; } ccmp;
feature kern { pos space T -120; pos k space -80; } kern;
feature liga { sub x space y by x_space_y; } liga;
feature calt {
  sub o' space z by o.alt;
  sub space' b by space.alt;
  sub space y' by y.alt;
} calt;
feature mark { pos base [T k o x y z q f i a b o.alt y.alt] <anchor 250 700> mark @TOP; } mark;
table GDEF {
  GlyphClassDef [T k o x y z q f i a b o.alt y.alt space space.alt], [x_space_y], [acutecomb], ;
} GDEF;
"""


def box(width):
    pen = TTGlyphPen(None)
    if width > 0:
        pen.moveTo((50, 0))
        pen.lineTo((50, 700))
        pen.lineTo((width - 50, 700))
        pen.lineTo((width - 50, 0))
        pen.closePath()
    return pen.glyph()


def main():
    builder = FontBuilder(1000, isTTF=True)
    builder.setupGlyphOrder(GLYPHS)
    cmap = dict((code, name) for name, code in LETTERS.items())
    cmap.update({0x20: "space", 0x301: "acutecomb", 0x200D: "uni200D", 0x200C: "uni200C", 0x64: "d"})
    builder.setupCharacterMap(cmap)
    widths = {name: WIDTHS.get(name, 500 + 40 * index) for index, name in enumerate(GLYPHS)}
    builder.setupGlyf({name: box(0 if name in ("space", "space.alt") else widths[name]) for name in GLYPHS})
    builder.setupHorizontalMetrics({name: (widths[name], 50) for name in GLYPHS})
    builder.setupHorizontalHeader(ascent=800, descent=-200)
    builder.setupNameTable({"familyName": "SpaceJoints Test", "styleName": "Regular"})
    builder.setupOS2(sTypoAscender=800, sTypoDescender=-200, usWinAscent=800, usWinDescent=200)
    builder.setupPost()
    addOpenTypeFeaturesFromString(builder.font, FEATURES)
    builder.save(os.path.join(os.path.dirname(os.path.abspath(__file__)), "SpaceJoints-Test.ttf"))


if __name__ == "__main__":
    main()
