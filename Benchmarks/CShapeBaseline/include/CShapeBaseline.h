// The C limit the benchmarks measure SwiftShape against: HarfBuzz called from plain C, with nothing
// around it that it does not need.
#ifndef SWIFTSHAPE_BASELINE_H
#define SWIFTSHAPE_BASELINE_H

#include <stddef.h>

typedef struct swiftshape_baseline swiftshape_baseline;

// Opens a font (face 0) at its default scale (units per em); NULL when the file cannot be read.
swiftshape_baseline *swiftshape_baseline_open(const char *font_path);

// Shapes each line on its own, `rounds` times over, with one buffer reused throughout: a plain C
// loop around hb_shape. Returns the number of glyphs shaped (so that nothing is optimized away).
long long swiftshape_baseline_shape(swiftshape_baseline *baseline, const char *const *lines, const int *lengths,
                                    int count, int rounds);

// Shapes the lines `rounds` times over on `threads` threads (the calling one included) sharing the
// font, each with a buffer of its own and taking every `threads`-th line. Returns the wall time in
// seconds: how far HarfBuzz itself scales with threads on this machine.
double swiftshape_baseline_shape_threads(swiftshape_baseline *baseline, const char *const *lines, const int *lengths,
                                         int count, int rounds, int threads);

void swiftshape_baseline_close(swiftshape_baseline *baseline);

#endif
