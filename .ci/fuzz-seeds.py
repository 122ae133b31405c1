"""Writes the seed corpus of each fuzz target (.ci/fuzz) into FOLDER/TARGET/, from Fixtures/."""
import os
import struct
import subprocess
import sys
import tempfile

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
fixtures = os.path.join(root, "Fixtures")
out = sys.argv[1]


def write(target, name, data):
    folder = os.path.join(out, target)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), "wb") as seed:
        seed.write(data if isinstance(data, bytes) else data.encode())


# Fonts of a few characters each (a few kilobytes), cut from the fixture subsets with hb-subset.
pairs = [
    ("NotoSans-Latin.ttf", "office AVATAR", False),
    ("NotoSansArabic-Subset.ttf", "بِسْمِ ٱللَّهِ", False),
    ("NotoSansDevanagari-Subset.ttf", "क्षत्रिय", False),
    ("NotoSansThai-Subset.ttf", "ภาษาไทย", False),
    ("NotoSansCJK-Subset.ttc", "日本語、テスト", False),
    ("InterVariable-Subset.ttf", "Wave", False),
    ("NotoSansHebrew-Subset.ttf", "שָׁלוֹם", False),
    ("NotoColorEmoji-Subset.ttf", "😀👍🏽", False),
]
with tempfile.TemporaryDirectory() as scratch:
    for index, (font, text, _) in enumerate(pairs):
        small = os.path.join(scratch, "font-%d" % index)
        subprocess.run(
            ["hb-subset", "--font-file=" + os.path.join(fixtures, "fonts", font), "--text=" + text,
             "--layout-features=*", "--glyph-names", "--notdef-outline", "-o", small],
            check=True)
        data = open(small, "rb").read()
        encoded = text.encode()
        for flags in (0x00, 0x81, 0x42, 0x3D, 0x20):
            seed = bytes([flags]) + struct.pack(">H", len(encoded)) + encoded + data
            write("shaping", "seed-%d-%02x" % (index, flags), seed)
            write("cache", "seed-%d-%02x" % (index, flags), seed)
            write("outlines", "seed-%d-%02x" % (index, flags), seed)

# Collisions: the test font with colliding glyphs, and small cuts of the Latin, Arabic and
# Devanagari fonts, with text that makes marks meet.
collision_pairs = [
    (os.path.join(fixtures, "fontbakery", "fonts", "Collisions-Test.ttf"), "a\u0301\u0300wa km i\u030a"),
    (os.path.join(fixtures, "fontbakery", "fonts", "NotoSans-Marks.ttf"), "e\u0301\u0301 \u1ec7\u0303 fj"),
    (os.path.join(fixtures, "fonts", "NotoSansArabic-Subset.ttf"), "\u0628\u0650\u0651 \u0644\u0627"),
    (os.path.join(fixtures, "fonts", "NotoSansDevanagari-Subset.ttf"), "\u0915\u0941\u0947 \u0930\u094d\u0915"),
]
with tempfile.TemporaryDirectory() as scratch:
    for index, (font, text) in enumerate(collision_pairs):
        small = os.path.join(scratch, "font-%d" % index)
        subprocess.run(
            ["hb-subset", "--font-file=" + font, "--text=" + text, "--layout-features=*", "--glyph-names",
             "--notdef-outline", "-o", small],
            check=True)
        data = open(small, "rb").read()
        encoded = text.encode()
        for flags in (0x0C, 0x35, 0x1E, 0x7F):
            write("collisions", "seed-%d-%02x" % (index, flags), bytes([flags]) + struct.pack(">H", len(encoded)) + encoded + data)

import json  # noqa: E402 (the pattern seeds come from the recipes the tests compare)
recipes = json.load(open(os.path.join(fixtures, "fontbakery", "patterns", "recipes.json"), encoding="utf-8"))
ingredients = "".join("\n%s=%s" % item for item in recipes["ingredients"].items())
for index, recipe in enumerate(recipes["recipes"]):
    write("patterns", "seed-%d" % index, recipe + ingredients)

# Color fonts, whole (a few kilobytes): COLR layers and paint graphs, for the outlines target.
for index, name in enumerate(("ColorLayers-Test.ttf", "ColorPaints-Test.ttf")):
    data = open(os.path.join(fixtures, "render", "fonts", name), "rb").read()
    text = "ABc abcdefghijklmno".encode()
    for flags in (0x00, 0x40):
        write("outlines", "color-%d-%02x" % (index, flags), bytes([flags]) + struct.pack(">H", len(text)) + text + data)

requests = [
    '{"id":1,"font":"fonts/NotoSans-Latin.ttf","text":"office","features":["-liga"]}',
    '{"id":"a","font":{"file":"fonts/NotoSansCJK-Subset.ttc","face_index":1},"text":"日本","direction":"ttb"}',
    '{"id":[3],"font":"fonts/InterVariable-Subset.ttf","variations":["wght=700"],"font_size":"20 10","text":"Wave"}',
    '{"id":4,"unicodes":"U+0628,U+064E","font":"fonts/NotoSansArabic-Subset.ttf","cluster_unit":"utf16","points":12}',
    '{"id":5,"font":"fonts/NotoSans-Latin.ttf","paragraph":true,"fallback_font_files":["fonts/NotoSansHebrew-Subset.ttf"],"text":"ab שלום 12"}',
    '{"id":6,"base_direction":"rtl","text":"abc (def)","glyph_names":false,"extents":true,"cluster_level":1}',
    '{"id":null,"text":"x","language":"tr","script":"Latn","font_funcs":"ft"}',
]
for index, line in enumerate(requests):
    write("requests", "seed-%d" % index, line + "\n")

for name in ("passing.json", "mismatches.json"):
    write("fixtures", name, open(os.path.join(fixtures, "fixtures", name), "rb").read())
write("fontbakery", "fontbakery.json", open(os.path.join(fixtures, "fixtures", "fontbakery.json"), "rb").read())
for name in ("latin-marks.json", "arabic.json", "collisions-font-marks.json"):
    write("fontbakery", name, open(os.path.join(fixtures, "fontbakery", "compare", name), "rb").read())

syntax = [
    "kern,-liga,aalt=2,kern[3:5],+smcp[2:]", "wght=700,wdth=75.5", "U+0041,U+0301,0x62,63",
    "[a=0+500|b=1@10,-20+600|gid3=2]", "12.5", "upem", "2048 1024", "ot,fallback", "\"liga\" on",
    "-0x7fffffff", "1e308", "<0 Latn>[H=0+741]",
]
for index, text in enumerate(syntax):
    write("syntax", "seed-%d" % index, text)

batch = [
    "--font-file=fonts/NotoSans-Latin.ttf;--features=-liga;office",
    "--direction=rtl;--script=Arab;--language=ar;-u;0628,064E",
    "--font-size=upem;--font-ptem=12;--font-funcs=ft;--cluster-level=2;--no-glyph-names;abc",
    "--paragraph;--width=3000;--align=center;--break-anywhere;Hello שלום",
    "--output-format=json;--show-extents;--show-flags;--verify;--trace;x",
    ";;--text=;;",
]
for index, line in enumerate(batch):
    write("batch", "seed-%d" % index, line)

for index, data in enumerate([bytes(range(0, 80)), bytes([0x80 | 0x10] + list(range(0, 76, 3))),
                              bytes([0x33, 6, 40, 14, 41, 42, 20, 21, 22, 40, 28, 29, 40, 34, 35, 36, 37]),
                              bytes([0xE6] + [7, 40, 28, 29, 40, 20, 21, 69, 22, 40, 0, 1, 2] * 6)]):
    write("paragraphs", "seed-%d" % index, data)
