"""Records what stringbrewer (fontbakery's pattern expansion) makes of each recipe in
recipes.json, into expected.json: the strings in order, or the error. Run it from this folder
after `pip install stringbrewer`; the tests compare SwiftShape's expansion with the file."""
import json

from stringbrewer import StringBrewer

with open("recipes.json", encoding="utf-8") as file:
    source = json.load(file)

results = []
for recipe in source["recipes"]:
    try:
        brewer = StringBrewer(recipe=recipe, ingredients=source["ingredients"])
        results.append({"recipe": recipe, "strings": brewer.generate_all()})
    except Exception as error:  # the error's kind is what is compared
        results.append({"recipe": recipe, "error": type(error).__name__ + ": " + str(error)})

with open("expected.json", "w", encoding="utf-8") as file:
    json.dump(results, file, ensure_ascii=False, indent=0)
    file.write("\n")
