// The module is its header's inline function (include/swiftshape_prefetch.h); a C target needs a
// source file of its own.
#include "swiftshape_prefetch.h"
