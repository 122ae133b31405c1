"""Draws each glyph of ../fonts/ColorPaints-Test.ttf (one COLR version 1 paint kind a letter) with
blackrenderer, fontTools' reference COLRv1 renderer, into LETTER.png at 64 pixels an em: the
pictures the color rendering tests compare `swiftshape render` with. Run it from this folder after
`pip install 'blackrenderer[skia]'` (blackrenderer 0.8.2 with skia-python recorded these).
"""
import subprocess

for letter in "abcdefghijklmno":
    subprocess.run(
        ["blackrenderer", "--font-size", "64", "--backend", "skia", "../fonts/ColorPaints-Test.ttf", letter,
         letter + ".png"],
        check=True)
