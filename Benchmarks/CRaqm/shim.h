// libraqm (bidi with FriBiDi, script itemization, HarfBuzz shaping), the peer the paragraph
// benchmark and comparison measure against.
#ifndef SWIFTSHAPE_CRAQM_SHIM_H
#define SWIFTSHAPE_CRAQM_SHIM_H

#include <raqm.h>

#endif
