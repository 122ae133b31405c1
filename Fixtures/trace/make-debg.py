"""Builds NotoSans-Debg.ttf: the Latin fixture font (../fonts/NotoSans-Latin.ttf) with its layout
replaced by a few named lookups, compiled by fontTools' feaLib with FONTTOOLS_LOOKUP_DEBUGGING set,
so that it has a `Debg` table naming each lookup (for the trace page's lookup names). Run with
fontTools:

    python3 make-debg.py      # writes NotoSans-Debg.ttf beside this script

The font keeps Noto Sans' license (../fonts/LICENSE-Noto.txt, OFL 1.1). It lives apart from
../fonts so that the fixture fonts' fontconfig never finds a second Noto Sans.
"""

import os

os.environ["FONTTOOLS_LOOKUP_DEBUGGING"] = "1"

from fontTools.feaLib.builder import addOpenTypeFeaturesFromString  # noqa: E402
from fontTools.ttLib import TTFont  # noqa: E402

FEATURES = """
languagesystem DFLT dflt;
languagesystem latn dflt;

lookup FFI_LIGATURE {
  sub f f i by f_f_i;
  sub f i by fi;
} FFI_LIGATURE;

lookup KERN_T_A {
  pos T a -80;
  pos T o -80;
} KERN_T_A;

feature liga { lookup FFI_LIGATURE; } liga;
feature kern { lookup KERN_T_A; } kern;
"""

here = os.path.dirname(os.path.abspath(__file__))
font = TTFont(os.path.join(here, "..", "fonts", "NotoSans-Latin.ttf"))
for tag in ("GSUB", "GPOS", "GDEF", "Debg"):
    if tag in font:
        del font[tag]
addOpenTypeFeaturesFromString(font, FEATURES, filename="debg.fea")
target = os.path.join(here, "NotoSans-Debg.ttf")
font.save(target + ".tmp")
os.replace(target + ".tmp", target)
