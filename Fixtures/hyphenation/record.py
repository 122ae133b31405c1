#!/usr/bin/env python3
"""Records where pyphen hyphenates each word of words-LANG.txt with Debian's dictionary for LANG,
into pyphen-LANG.txt (word, a tab, the word with its hyphens), the expectations the hyphenation
tests compare libhyphen's points with.

    pip install pyphen
    apt-get install hyphen-en-us hyphen-de hyphen-fr
    python3 Fixtures/hyphenation/record.py

pyphen reads the same dictionary file (not its own copy) with the same minimum fragment lengths
(the dictionary's LEFTHYPHENMIN and RIGHTHYPHENMIN, 2 where it sets none), so a difference is
one of the two readings of the patterns.
"""
import os
import pyphen

here = os.path.dirname(os.path.abspath(__file__))
dictionaries = {
    "en": "/usr/share/hyphen/hyph_en_US.dic",
    "de": "/usr/share/hyphen/hyph_de_DE.dic",
    "fr": "/usr/share/hyphen/hyph_fr.dic",
}


def minima(path):
    left, right = 2, 2
    with open(path, "rb") as f:
        for raw in f.read().split(b"\n")[:12]:
            line = raw.decode("latin-1").strip()
            if line.startswith("LEFTHYPHENMIN"):
                left = int(line.split()[1])
            if line.startswith("RIGHTHYPHENMIN"):
                right = int(line.split()[1])
    return left, right


for language, path in dictionaries.items():
    left, right = minima(path)
    hyphenator = pyphen.Pyphen(filename=path, left=left, right=right)
    with open(os.path.join(here, f"words-{language}.txt"), encoding="utf-8") as f:
        words = [line.strip() for line in f if line.strip()]
    lines = [f"{word}\t{hyphenator.inserted(word, hyphen='-')}\n" for word in words]
    target = os.path.join(here, f"pyphen-{language}.txt")
    with open(target + ".tmp", "w", encoding="utf-8") as f:
        f.write(f"# pyphen {pyphen.__version__ if hasattr(pyphen, '__version__') else ''} with {path} (left {left}, right {right})\n")
        f.writelines(lines)
    os.replace(target + ".tmp", target)
