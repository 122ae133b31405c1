"""Runs fontbakery's own shaping checks (its collision, forbidden-glyph and regression test
functions, as its shaping profile calls them per test) on each file and font of cases.json, and
records what they found into expected.json: per test, how many strings it stands for and which
failed each check, or the error it raised.

Run it from this folder after `pip install 'fontbakery[shaping]' kurbopy==0.10.40`: fontbakery
1.1.0 with collidoscope 0.6.5, stringbrewer 0.0.1, vharfbuzz 0.3.1 and uharfbuzz 0.57.0 recorded
these. collidoscope's `area` rule calls `BezPath.fromDrawable`, which kurbopy renamed after 0.10.
The tests compare `swiftshape check` with the file.
"""
import json
from pathlib import Path

from fontTools.ttLib import TTFont
from stringbrewer import StringBrewer
from vharfbuzz import Vharfbuzz
from fontbakery.checks.shaping.collides import run_collides_glyph_test, setup_glyph_collides
from fontbakery.checks.shaping.forbidden import run_forbidden_glyph_test
from fontbakery.checks.shaping.regression import run_shaping_regression

records = []
for case in json.loads(Path("cases.json").read_text(encoding="utf-8")):
    document = json.loads(Path(case["file"]).read_text(encoding="utf-8"))
    configuration = document.get("configuration", {})
    font = Path(case["font"])
    vharfbuzz = Vharfbuzz(font)
    collides = None
    setup_error = None
    if "collidoscope" in configuration:
        try:
            collides = setup_glyph_collides(TTFont(font), configuration)
        except Exception as error:  # every test of the file then fails with it
            setup_error = error
    tests = []
    for index, test in enumerate(document["tests"], start=1):
        record = {"index": index}
        try:
            if setup_error:
                raise setup_error
            if test.get("input_type") == "pattern":
                brewer = StringBrewer(recipe=test["input"], ingredients=configuration["ingredients"])
                record["strings"] = len(brewer.generate_all())
            if "forbidden_glyphs" in configuration:
                failed = []
                run_forbidden_glyph_test(font, vharfbuzz, test, configuration, failed, None)
                record["forbidden"] = sorted({text for text, _, _ in failed})
            if collides is not None:
                failed = []
                run_collides_glyph_test(font, vharfbuzz, test, configuration, failed, collides)
                record["collides"] = sorted({text for text, _, _, _ in failed})
            if "expectation" in test:
                failed = []
                run_shaping_regression(font, vharfbuzz, test, configuration, failed, None)
                record["regression"] = "fail" if failed else "pass"
        except Exception as error:
            record = {"index": index, "error": type(error).__name__ + ": " + str(error)}
        tests.append(record)
    records.append({"file": case["file"], "font": case["font"], "tests": tests})

with open("expected.json", "w", encoding="utf-8") as file:
    json.dump(records, file, ensure_ascii=False, indent=1)
    file.write("\n")
