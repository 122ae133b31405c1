#include "SwiftShapeDefaultFont.h"

// C23 `#embed` copies the file's bytes into the array at compile time; the path is relative to this
// file, like a quoted #include. SwiftPM compiles C in an earlier language mode, where clang accepts
// `#embed` as an extension and says so; the warning is silenced for this one line only.
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wc23-extensions"
static const unsigned char font[] = {
#embed "DejaVuSans.ttf"
};
#pragma clang diagnostic pop

const unsigned char *swiftshape_default_font_data(void) { return font; }

size_t swiftshape_default_font_size(void) { return sizeof font; }
