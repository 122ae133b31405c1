// The font SwiftShape shapes with when it is given none: a subset of DejaVu Sans (Latin, Greek,
// Cyrillic, Hebrew, Arabic, punctuation; every layout feature kept), embedded in the binary at build
// time so that it needs no file at run time and gives the same bytes on every machine.
// License: LICENSE-DejaVu.txt beside the font.
#ifndef SWIFTSHAPE_DEFAULT_FONT_H
#define SWIFTSHAPE_DEFAULT_FONT_H

#include <stddef.h>

// The font file's bytes; static data that lives as long as the process.
const unsigned char *swiftshape_default_font_data(void);

// The number of bytes `swiftshape_default_font_data` points to.
size_t swiftshape_default_font_size(void);

#endif
